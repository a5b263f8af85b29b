"""Time the puzzle generator (classic unless --rules says otherwise) and compare with the generator's targets.

1. Consecutive puzzles of the default recipe (any tier), one worker process: puzzles a minute,
   acceptance, hard-or-deeper and master a minute, and the depth histogram.
2. The same run with two worker processes: the speedup, and that the output is identical.
3. Each tier asked for on its own (`make --tier T`): puzzles a minute and acceptance.
   For each tier: the chain histogram, the decisions histogram (the forcing player), theme shares,
   motif shares (each puzzle's `motif_of`), the share of tables with a ladder of sets, method
   shares, the share with a live decoy, the share whose hand holds two identical dead decoys, the
   near-duplicate pairs (tables sharing 4+ melds: none are kept, so also how many the run left
   out), the share that meets the floors (a hand of 4+, a maximum of 2+), and the share of puzzles
   the skill-limited player fails, for each skill k from 1 to 5.

   Issue 21's figures too: the median of decisions (it must rise Hard < Expert < Master), the
   share of best plays that break both a set and a run and of tables that are a figure, the share
   holding a joker and of those whose best play moves one, against their targets.

    .venv/bin/python bench/generate.py [--count 1000] [--per-tier 100] [--seed 0] [--tiers T,T] [--quick]
        [--json FILE]

`--count 0` leaves out parts 1 and 2; `--tiers` runs only these tiers in part 3.

The figures are printed, never asserted: the machine may be shared and loaded. Each rate is given
per minute of wall clock and per minute of the workers' CPU time, which is what one core gives when
the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from generator import TIERS, Puzzle, PuzzleId, motif_of, near_duplicate, shared_melds
from generator._grading import LEAST_DECISIONS
from generator._make import DEFAULT_TIME_LIMIT, dead_twins, recipe_for
from generator._runs import Plan, Tally, generate
from generator._shapes import (
    frees_joker,
    holds_joker,
    is_figure,
    mixes,
    moves_joker,
    obvious_laid,
    template_of,
)
from generator._tables import ladder_length
from puzzles import Meld, Position, decisions_of, parse_cards, play_of, skill_limited, table_shape

TARGET_HARD_PER_MINUTE = 60.0
TARGET_MASTER_PER_MINUTE = 10.0
"""Issue 21: Master puzzles a minute per core, each tier asked for on its own."""
MIXED_FLOOR = 0.5
"""Issue 21: at Expert and Master, at least this share of best plays break both a set and a run..."""
FIGURE_CEILING = 1 / 3
"""...and at most this share of tables are a figure (`generator._shapes.is_figure`)."""
JOKER_FLOOR, JOKER_MOVED_FLOOR = 0.8, 0.5
"""Issue 21: under the joker presets, Expert and Master puzzles that hold a joker, and of those the
share whose best play moves one."""
LIVE_FLOOR = {"easy": 0.3, "medium": 0.3, "hard": 0.7, "expert": 0.7, "master": 0.7}
"""Issue 21: the share of each tier's puzzles with a live decoy."""
TARGET_SPEEDUP = 1.8
MOTIF_CEILING = 0.4
TARGET_PER_CPU_MINUTE = {"expert": 30.0, "master": 10.0}
"""Issue 38: puzzles a CPU minute, each tier asked for on its own."""
ALL_DECOYS_CEILING, OBVIOUS_PLACED_FLOOR = 0.5, 0.3
"""Issue 38, at Expert and Master together: at most this share of puzzles whose every obvious card
(a hand card that fits a table meld as it lies) is a decoy, and at least this share of the obvious
cards placed by the best play."""
DISTINCT_FLOOR, NEAR_PAIRS_CEILING, TEMPLATE_CEILING = 0.8, 0.05, 0.2
"""Issue 38, per tier: distinct tables up to relabelling, pairs sharing 4+ melds after the best
relabelling, and the largest share of one template (`generator._shapes.template_of`)."""
HARD_FIGURES_CEILING, HARD_MIXED_FLOOR = 0.5, 0.4
MEDIUM_END_CARD_CEILING, MEDIUM_LIVE_FLOOR = 0.5, 0.4
"""Issue 38: Hard's figures and best plays that break a set and a run; Medium's end cards (the
theme) and live decoys."""


@dataclass(frozen=True, slots=True)
class Run:
    """One generation run and its figures."""

    puzzles: list[Puzzle]
    tally: Tally
    seconds: float
    parent_cpu: float
    """CPU seconds of this process, which only hands out work and keeps the results in order."""
    workers_cpu: float
    """CPU seconds of the worker processes."""

    def per_minute(self, count: int | None = None) -> float:
        return (len(self.puzzles) if count is None else count) / self.seconds * 60

    def per_cpu_minute(self, count: int | None = None) -> float:
        """Puzzles per minute of the workers' CPU time: what one core gives when nothing else runs."""
        return (len(self.puzzles) if count is None else count) / max(self.workers_cpu, 1e-9) * 60

    def rate(self, count: int | None = None) -> str:
        return f"{self.per_minute(count):.0f} a minute ({self.per_cpu_minute(count):.0f} a CPU minute)"

    def longer(self, chain: int) -> int:
        return sum(puzzle.chain >= chain for puzzle in self.puzzles)


def run(rules: str, tier: str | None, count: int, seed: int, workers: int) -> Run:
    plan = Plan(rules, recipe_for(tier, rules), seed, tier, DEFAULT_TIME_LIMIT)
    tally = Tally()
    before = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    puzzles = list(generate(plan, count, workers, lambda: False, set(), tally))
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    parent, children = (
        a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime for a, b in zip(after, before, strict=True)
    )
    return Run(puzzles, tally, seconds, parent, children)


SKILLS = (1, 2, 3, 4, 5)


def describe(tier: str, alone: Run, quick: bool = False) -> dict[str, object]:
    """Print and return one tier's figures; `quick` leaves out the two costly ones (dead twins and
    the skill-limited player's runs)."""
    puzzles = alone.puzzles
    count = max(len(puzzles), 1)

    def share(n: int) -> float:
        return round(n / count, 3)

    chains = Counter(p.chain for p in puzzles)
    # "?" when the forcing player proved no count (its node limit, or jokers)
    decisions = Counter("?" if p.decisions is None else str(p.decisions) for p in puzzles)
    counted = sorted(p.decisions for p in puzzles if p.decisions is not None)
    themes = Counter(theme for p in puzzles for theme in p.themes)
    motifs = Counter(motif_of(p.themes) or "none" for p in puzzles)
    ladders = sum(ladder_length(p.position().table, p.position().rules.top_position) >= 3 for p in puzzles)
    # a method is a letter or a digit and a letter (4a): the ID's own reading
    methods = Counter(PuzzleId.parse(p.id).method for p in puzzles)
    live = sum(p.live_decoys > 0 for p in puzzles)
    twins = [] if quick else [dead_twins(p.position(), p.laid_cards, DEFAULT_TIME_LIMIT) for p in puzzles]
    twinned = sum(bool(found) for found in twins)
    unproven_twins = sum(found is None for found in twins)
    near = sum(near_duplicate(a.table, b.table) for a, b in combinations(puzzles, 2))
    floors = sum(p.hand_size >= 4 and p.max_placed >= 2 for p in puzzles)
    jokers = sum("JK" in p.hand for p in puzzles)
    positions = [p.position() for p in puzzles]
    mixed = sum(mixes(pos, p.solution) for pos, p in zip(positions, puzzles, strict=True))
    figures = sum(is_figure(pos.table, pos.rules.top_position) for pos in positions)
    holding = [pos for pos in positions if holds_joker(pos)]
    moved = sum(
        moves_joker(pos, p.solution) for pos, p in zip(positions, puzzles, strict=True) if holds_joker(pos)
    )
    fails = {
        k: sum(skill_limited(p.position(), k, DEFAULT_TIME_LIMIT).placed < p.max_placed for p in puzzles)
        for k in ([] if quick else SKILLS)
    }
    variety = _variety(puzzles, positions)
    print(
        f"\n  {tier}: {alone.rate()}, acceptance {alone.tally.acceptance:.1%},"
        f" {alone.tally.attempts} attempts, {len(puzzles)} puzzles",
        flush=True,
    )
    print(f"    chain lengths: {dict(sorted(chains.items()))}")
    median = counted[len(counted) // 2] if counted else None
    # issue 38 item 1: a Master's decisions are no fixed quota, a third or more counting more than 3
    beyond = sum(n > LEAST_DECISIONS[tier] for n in counted) if tier in LEAST_DECISIONS else None
    print(
        f"    decisions: {dict(sorted(decisions.items()))}, median {median}"
        + ("" if beyond is None else f", more than {LEAST_DECISIONS[tier]}: {share(beyond):.0%}")
    )
    deep = tier in ("expert", "master")
    print(
        f"    best play breaks a set and a run {share(mixed):.0%}, table is a figure {share(figures):.0%}"
        + (f" (targets: at least {MIXED_FLOOR:.0%}, at most {FIGURE_CEILING:.0%})" if deep else "")
    )
    print(
        f"    holds a joker {share(len(holding)):.0%}, of those the best play moves one"
        f" {moved / max(len(holding), 1):.0%}"
        + (f" (targets under joker presets: {JOKER_FLOOR:.0%}, {JOKER_MOVED_FLOOR:.0%})" if deep else "")
    )
    print(f"    themes: {', '.join(f'{t} {share(n):.0%}' for t, n in themes.most_common())}")
    print(
        f"    motifs (target: none over {MOTIF_CEILING:.0%}): "
        f"{', '.join(f'{m} {share(n):.0%}' for m, n in motifs.most_common())}"
    )
    print(f"    tables with a ladder of sets: {share(ladders):.0%} (target: at most {MOTIF_CEILING:.0%})")
    print(f"    methods: {', '.join(f'{m} {share(n):.0%}' for m, n in methods.most_common())}")
    print(
        f"    live decoy {share(live):.0%} (target {LIVE_FLOOR[tier]:.0%}), floors met {share(floors):.0%},"
        f" joker in hand {share(jokers):.0%}"
    )
    # --quick runs neither the dead twins' checks nor the skill-limited player: say so, not 0%
    twin_figure = "not measured (--quick)" if quick else f"{share(twinned):.0%} ({unproven_twins} unproven)"
    fail_figures = ", ".join(f"k={k} {share(n):.0%}" for k, n in fails.items())
    print(
        f"    two identical dead decoys {twin_figure}; near-duplicate"
        f" pairs {near}, left out by the run {alone.tally.near_duplicates}; left out for a motif over"
        f" its share {alone.tally.motif_refusals}; left out for a figure over their share"
        f" {alone.tally.figure_refusals}; left out for a template over its share"
        f" {alone.tally.template_refusals}; left out for too few decisions for their share"
        f" {alone.tally.decision_refusals}; left out for weak forks {alone.tally.weak_forks}"
    )
    print(f"    the skill-limited player fails: {'not measured (--quick)' if quick else fail_figures}")
    shares = {"mixed_share": share(mixed), "figure_share": share(figures), "live_decoy_share": share(live)}
    _print_variety(tier, alone, {**variety, **shares})
    return {
        **variety,
        "per_minute": round(alone.per_minute(), 1),
        "per_cpu_minute": round(alone.per_cpu_minute(), 1),
        "acceptance": round(alone.tally.acceptance, 4),
        "attempts": alone.tally.attempts,
        "chains": dict(sorted(chains.items())),
        "decisions": dict(sorted(decisions.items())),
        "decisions_median": median,
        "decisions_beyond_least_share": None if beyond is None else share(beyond),
        "mixed_share": share(mixed),
        "figure_share": share(figures),
        "joker_share": share(len(holding)),
        "joker_moved_share": round(moved / max(len(holding), 1), 3),
        "themes": {t: share(n) for t, n in themes.most_common()},
        "motifs": {m: share(n) for m, n in motifs.most_common()},
        "ladder_table_share": share(ladders),
        "methods": {m: share(n) for m, n in methods.most_common()},
        "live_decoy_share": share(live),
        "dead_twins_share": None if quick else share(twinned),
        "near_duplicate_pairs": near,
        "near_duplicates_left_out": alone.tally.near_duplicates,
        "motif_refusals": alone.tally.motif_refusals,
        "figure_refusals": alone.tally.figure_refusals,
        "template_refusals": alone.tally.template_refusals,
        "decision_refusals": alone.tally.decision_refusals,
        "weak_forks_left_out": alone.tally.weak_forks,
        "floors_share": share(floors),
        "joker_in_hand_share": share(jokers),
        "skill_limited_fails": {k: share(n) for k, n in fails.items()},
    }


def _variety(puzzles: Sequence[Puzzle], positions: Sequence[Position]) -> dict[str, object]:
    """Issue 38's figures of one tier's puzzles: forks and declines, obvious cards, tables up to
    relabelling, templates, end cards and jokers freed into the hand."""
    count = max(len(puzzles), 1)
    forks: Counter[str] = Counter()
    declines: Counter[str] = Counter()
    obvious = placed = all_decoys = none_obvious = 0
    for puzzle, position in zip(puzzles, positions, strict=True):
        forcing = decisions_of(position, puzzle.max_placed)
        fork_count = getattr(forcing, "forks", None)
        forks["?" if fork_count is None else str(fork_count)] += 1
        if fork_count is not None and forcing.decisions is not None:
            declines[str(forcing.decisions - fork_count)] += 1
        have, laid = obvious_laid(position, puzzle.laid_cards)
        obvious += have
        placed += laid
        all_decoys += have > 0 and laid == 0
        none_obvious += have == 0
    shapes = {table_shape(position) for position in positions}
    pairs = list(combinations(puzzles, 2))
    in_common = [shared_melds(a.table, b.table, a.rules) for a, b in pairs]
    templates = Counter(
        template_of(position, p.solution) for p, position in zip(puzzles, positions, strict=True)
    )
    end_cards = sum("end-card" in p.themes for p in puzzles)
    freed = sum(
        bool(play_of(pos, [Meld.of(parse_cards(m), pos.rules) for m in p.solution]).freed)
        for p, pos in zip(puzzles, positions, strict=True)
    )
    frees = sum(frees_joker(pos, p.solution) for p, pos in zip(puzzles, positions, strict=True))
    return {
        "frees_joker_share": round(frees / count, 3),
        "forks": dict(sorted(forks.items())),
        "declines": dict(sorted(declines.items())),
        "obvious_cards": obvious,
        "obvious_placed_share": round(placed / max(obvious, 1), 3),
        "all_obvious_decoys_share": round(all_decoys / count, 3),
        "no_obvious_share": round(none_obvious / count, 3),
        "distinct_tables_share": round(len(shapes) / count, 3),
        "relabelled_near_pairs": sum(n >= 4 for n in in_common),
        "relabelled_near_pairs_share": round(sum(n >= 4 for n in in_common) / max(len(pairs), 1), 3),
        "templates": len(templates),
        "top_template_share": round(max(templates.values(), default=0) / count, 3),
        "end_card_share": round(end_cards / count, 3),
        "frees_joker_to_hand_share": round(freed / count, 3),
    }


def _print_variety(tier: str, alone: Run, v: dict[str, object]) -> None:
    target = TARGET_PER_CPU_MINUTE.get(tier)
    if target is not None:
        print(f"    {tier} a CPU minute: {alone.per_cpu_minute():.1f} (target {target:.0f})")
    print(f"    forks: {v['forks']}, declines: {v['declines']}")
    print(
        f"    obvious cards {v['obvious_cards']}, placed by the best play {v['obvious_placed_share']:.0%}"
        f" (target at Expert and Master: {OBVIOUS_PLACED_FLOOR:.0%}); every obvious card a decoy"
        f" {v['all_obvious_decoys_share']:.0%} (at most {ALL_DECOYS_CEILING:.0%}), no obvious card"
        f" {v['no_obvious_share']:.0%}"
    )
    print(
        f"    distinct tables up to relabelling {v['distinct_tables_share']:.0%} (at least"
        f" {DISTINCT_FLOOR:.0%}); pairs sharing 4+ melds relabelled {v['relabelled_near_pairs']}"
        f" ({v['relabelled_near_pairs_share']:.1%}, at most {NEAR_PAIRS_CEILING:.0%}); templates"
        f" {v['templates']}, the largest {v['top_template_share']:.0%} (at most {TEMPLATE_CEILING:.0%})"
    )
    if tier == "hard":
        print(
            f"    figures {v['figure_share']:.0%} (at most {HARD_FIGURES_CEILING:.0%}), a set and a run"
            f" broken {v['mixed_share']:.0%} (at least {HARD_MIXED_FLOOR:.0%})"
        )
    if tier == "medium":
        print(
            f"    end card {v['end_card_share']:.0%} (at most {MEDIUM_END_CARD_CEILING:.0%}), live decoys"
            f" {v['live_decoy_share']:.0%} (at least {MEDIUM_LIVE_FLOOR:.0%})"
        )
    print(
        f"    joker back to hand (the best play frees a table joker with its real card; under"
        f" german-jokers it goes to the hand to be laid again) {v['frees_joker_share']:.0%}, kept in"
        f" the hand at the end {v['frees_joker_to_hand_share']:.0%}"
    )


def cpu(result: Run) -> str:
    return f"(CPU: workers {result.workers_cpu:.1f} s, parent {result.parent_cpu:.1f} s)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=1000, help="consecutive puzzles (default 1000)")
    parser.add_argument("--per-tier", type=int, default=100, help="puzzles per tier (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="classic", help="the preset (default classic)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to this file")
    parser.add_argument(
        "--tiers",
        default=",".join(TIERS),
        help="the tiers to run on their own, comma-separated (default all)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="leave out the dead twins and the skill-limited player's runs (the costly figures)",
    )
    args = parser.parse_args(argv)
    print(f"generator bench, {args.rules}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}", flush=True)
    figures: dict[str, object] = {"rules": args.rules, "load_at_start": os.getloadavg()[0]}

    tiers = [tier for tier in args.tiers.split(",") if tier]
    unknown = [tier for tier in tiers if tier not in TIERS]
    if unknown:
        parser.error(f"unknown tier {unknown[0]!r}; the tiers are {', '.join(TIERS)}")
    if args.count > 0:
        consecutive(args, figures)
    print(f"\neach tier on its own, {args.per_tier} puzzles, one worker process:")
    per_tier: dict[str, object] = {}
    for tier in tiers:
        alone = run(args.rules, tier, args.per_tier, args.seed, workers=1)
        per_tier[tier] = describe(tier, alone, args.quick)
    figures["tiers"] = per_tier
    figures["load_at_end"] = os.getloadavg()[0]
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f} (the machine is shared: figures vary)")
    if args.json:
        with open(args.json, "w") as file:
            json.dump(figures, file, indent=2)
    return 0


def consecutive(args: argparse.Namespace, figures: dict[str, object]) -> None:
    """Consecutive puzzles of the default recipe, with one worker and then two."""
    one = run(args.rules, None, args.count, args.seed, workers=1)
    hard = one.longer(3)
    master = one.longer(6)
    chains = Counter(puzzle.chain for puzzle in one.puzzles)
    print(f"\n{len(one.puzzles)} consecutive puzzles, one worker process: {one.seconds:.1f} s {cpu(one)}")
    print(f"  {one.rate()}, acceptance {one.tally.acceptance:.1%}")
    print(f"  hard or deeper: {one.rate(hard)} (target {TARGET_HARD_PER_MINUTE:.0f} on one core)")
    print(f"  master: {one.rate(master)} (target {TARGET_MASTER_PER_MINUTE:.0f} on one core)")
    print(f"  rejected: {dict(one.tally.outcomes - Counter({'accepted': one.tally.outcomes['accepted']}))}")
    pairs = combinations(one.puzzles, 2)
    near = Counter(a.tier for a, b in pairs if a.tier == b.tier and near_duplicate(a.table, b.table))
    print(f"  near-duplicate pairs of one tier: {dict(near)}, left out: {one.tally.near_duplicates}")
    print("  chain length histogram:")
    for chain in range(1, max(chains, default=0) + 1):
        share = chains[chain] / len(one.puzzles)
        print(f"    {chain:2d} {chains[chain]:5d} {share:6.1%} {'#' * round(share * 100)}")
    figures["consecutive"] = {
        "count": len(one.puzzles),
        "seconds": round(one.seconds, 2),
        "per_minute": round(one.per_minute(), 1),
        "acceptance": round(one.tally.acceptance, 4),
        "hard_or_deeper_per_minute": round(one.per_minute(hard), 1),
        "hard_or_deeper_per_cpu_minute": round(one.per_cpu_minute(hard), 1),
        "master_per_minute": round(one.per_minute(master), 1),
        "master_per_cpu_minute": round(one.per_cpu_minute(master), 1),
        "chains": dict(sorted(chains.items())),
        "rejected": dict(one.tally.outcomes),
        "near_duplicate_pairs": dict(near),
        "near_duplicates_left_out": one.tally.near_duplicates,
    }

    two = run(args.rules, None, args.count, args.seed, workers=2)
    speedup = one.seconds / two.seconds
    same = [p.to_json() for p in two.puzzles] == [p.to_json() for p in one.puzzles]
    # on a loaded machine the wall clock undersells the second process: compare CPU time too
    cpu_ratio = (two.workers_cpu / two.seconds) / (one.workers_cpu / one.seconds)
    print(f"\nthe same {len(two.puzzles)} puzzles with two worker processes: {two.seconds:.1f} s {cpu(two)}")
    print(f"  speedup {speedup:.2f}x (target {TARGET_SPEEDUP}x); identical output: {same}")
    print(f"  the workers got {cpu_ratio:.2f}x the CPU a second that one worker got")
    figures["two_workers"] = {
        "seconds": round(two.seconds, 2),
        "speedup": round(speedup, 2),
        "identical": same,
        "cpu_ratio": round(cpu_ratio, 2),
    }


if __name__ == "__main__":
    sys.exit(main())

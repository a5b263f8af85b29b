"""Why a searching method's attempts fail, and which of its puzzles a run keeps (issue 38).

Runs the attempts of one searching letter (6e, 6m, 4m, ...) in seed order in this process and
prints, per attempt: the base its family drew (the index in the letter's bases), how it ended, where
its search started and stopped (the start's chain length; then the chain length, melds, forks,
decisions, whether the skill-limited player below the goal solves it and whether its obvious cards
are dishonest), its CPU seconds and the tier of its puzzle. Then it keeps the accepted puzzles as a
run does, leaving out each of the goal's tier whose forks are weak (`generator._make.judged`,
`forks_enough`; its judging is counted in the attempt's CPU seconds, as a run's worker counts it) and
each that shares 4+ melds after relabelling with one of its tier kept before
(`generator.near_duplicate`), and names the earlier puzzle (and its base) each dropped one repeats.
The summary gives, per base, the attempts, puzzles and kept puzzles, the puzzles per tier (a
letter that searches with the forks counted before issue 38 may grade a tier below its goal), and
the rate a CPU minute with and without the near-duplicates, in all and of the goal's tier.

    .venv/bin/python bench/searches.py 4m --seed 11 --attempts 60 [--bases SEARCH_EXPERT_BASES]

The figures are printed, never asserted: the machine may be shared and loaded.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import generator._make as make
from generator import Puzzle, near_duplicate
from generator._grading import graded_decisions, graded_forks
from generator._make import DEFAULT_TIME_LIMIT, attempt, attempt_id, forks_enough, judged
from generator._methods import SEARCHES, Method
from generator._search import Found, Style, honest
from generator._themes import motif_of
from puzzles import Analysis

BASES = {
    "6e": "SEARCH_EXPERT_BASES",
    "7e": "SEARCH_EXPERT_BASES",
    "6m": "SEARCH_MASTER_BASES",
    "7m": "SEARCH_MASTER_BASES",
    "6p": "SEARCH_EXPERT_BASES",
    "3e": "EXPERT_TWISTS",
    "5e": "EXPERT_TREES",
    "4m": "SEARCH_EXPERT_BASES",
    "1e": "EXPERT_TWISTS",
    "8e": "EXPERT_TWISTS",
    "9e": "EXPERT_TREES",
    "2e": "EXPERT_LINKS",
}
"""The bases each letter's family draws from, by their name in `generator._methods`."""


@dataclass(frozen=True, slots=True)
class Stop:
    """Where one search stopped."""

    start: int
    chain: int
    melds: int
    forks: int | None
    decisions: int | None
    beaten: bool
    honest: bool

    def __str__(self) -> str:
        counted = "" if self.forks is None else f" forks {self.forks} decisions {self.decisions}"
        flags = (" beaten" if self.beaten else "") + ("" if self.honest else " dishonest")
        return f"start {self.start} chain {self.chain} melds {self.melds}{counted}{flags}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("letter", help="a searching method: " + ", ".join(sorted(SEARCHES)))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--attempts", type=int, default=60)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--bases", help="the name of the letter's bases in generator._methods")
    args = parser.parse_args(argv)
    if args.letter not in SEARCHES:
        parser.error(f"{args.letter!r} is not a searching method; they are {', '.join(sorted(SEARCHES))}")
    import generator._methods as methods

    name = args.bases or BASES.get(args.letter)
    bases: Sequence[str | Method] = getattr(methods, name) if name else ()
    stops: list[Stop] = []
    searched = make.search  # type: ignore[attr-defined]

    def search(
        seed: str,
        start: Analysis,
        goal: str,
        deadline: float,
        style: Style | None = None,
        settled: bool = True,
    ) -> Found | None:
        found = searched(seed, start, goal, deadline, style, settled)
        if found is not None:
            forcing = found.forcing
            stops.append(
                Stop(
                    start.chain.length or 0,
                    found.analysis.chain.length or 0,
                    len(found.analysis.position.table),
                    None if forcing is None else graded_forks(forcing),
                    None if forcing is None else graded_decisions(forcing),
                    found.beaten,
                    honest(found.analysis.position, found.analysis.best.play.laid),
                )
            )
        return found

    make.search = search  # type: ignore[attr-defined]
    per_base: dict[int, Counter[str]] = {}
    kept: list[tuple[Puzzle, int]] = []
    cpu = 0.0
    accepted = 0
    tiers: Counter[str] = Counter()
    for number in range(args.attempts):
        puzzle_id = attempt_id(args.rules, (args.letter,), args.seed, number)
        base = bases.index(random.Random(str(puzzle_id)).choice(bases)) if bases else -1
        stops.clear()
        started = time.process_time()
        result = judged(attempt(puzzle_id, DEFAULT_TIME_LIMIT), SEARCHES[args.letter])
        spent = time.process_time() - started
        cpu += spent
        tally = per_base.setdefault(base, Counter())
        tally["attempts"] += 1
        line = f"{puzzle_id} base {base:2} {spent:5.2f} s {result.outcome}"
        if stops:
            line += f" ({stops[-1]})"
        if result.puzzle is not None:
            accepted += 1
            tally["puzzles"] += 1
            tiers[result.puzzle.tier] += 1
            line += f" {result.puzzle.tier} {motif_of(result.puzzle.themes)}"
            if result.real_forks is not None:
                line += f" real forks {result.real_forks}"
            if not forks_enough(result):
                tally["weak"] += 1
                print(line + " weak forks", flush=True)
                continue
            like = [
                (p, b)
                for p, b in kept
                if p.tier == result.puzzle.tier and near_duplicate(p.table, result.puzzle.table, args.rules)
            ]
            if like:
                line += " near-duplicate of " + ", ".join(f"{p.id} (base {b})" for p, b in like[:3])
            else:
                kept.append((result.puzzle, base))
                tally["kept"] += 1
                line += " kept"
        print(line, flush=True)
    print(f"\n{args.letter}, seed {args.seed}: {args.attempts} attempts in {cpu:.0f} CPU-s")
    for base, tally in sorted(per_base.items()):
        print(
            f"  base {base}: {tally['attempts']} attempts, {tally['puzzles']} puzzles,"
            f" {tally['weak']} weak forks, {tally['kept']} kept"
        )
    minutes = max(cpu, 1e-9) / 60
    # an older letter's search counts forks as before issue 38, and its puzzle may grade lower
    print("  tiers: " + ", ".join(f"{tier} {count}" for tier, count in sorted(tiers.items())))
    print(
        f"  puzzles a CPU minute {accepted / minutes:.1f}, kept (no near-duplicate) {len(kept) / minutes:.1f}"
    )
    goal = SEARCHES[args.letter]
    print(
        f"  {goal}: {tiers[goal] / minutes:.1f} a CPU minute,"
        f" kept {sum(p.tier == goal for p, _ in kept) / minutes:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

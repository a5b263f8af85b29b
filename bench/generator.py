"""Time the puzzle generator, classic preset, and compare with the generator's targets.

1. Consecutive puzzles of the default recipe (any tier), one worker process: puzzles a minute,
   acceptance, hard-or-deeper and master a minute, and the depth histogram.
2. The same run with two worker processes: the speedup, and that the output is identical.
3. Each tier asked for on its own (`make --tier T`): puzzles a minute and acceptance.
4. The human-like solver (local moves only) on the puzzles of step 3: solve rate per tier.

    .venv/bin/python bench/generator.py [--count 1000] [--per-tier 100] [--seed 0] [--json FILE]

The figures are printed, never asserted: the machine may be shared and loaded.
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
from pathlib import Path

# This script is bench/generator.py: keep its folder off the path, or it would shadow the package.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != Path(__file__).resolve().parent]

from generator import TIERS, Puzzle  # noqa: E402
from generator._human import human_solves  # noqa: E402
from generator._make import DEFAULT_TIME_LIMIT, recipe_for  # noqa: E402
from generator._runs import Plan, Tally, generate  # noqa: E402

RULES = "classic"
TARGET_HARD_PER_MINUTE = 60.0
TARGET_MASTER_PER_MINUTE = 10.0
TARGET_SPEEDUP = 1.8


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

    def deeper(self, depth: int) -> int:
        return sum(puzzle.depth >= depth for puzzle in self.puzzles)


def run(tier: str | None, count: int, seed: int, workers: int) -> Run:
    plan = Plan(RULES, recipe_for(tier), seed, tier, DEFAULT_TIME_LIMIT)
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


def cpu(result: Run) -> str:
    return f"(CPU: workers {result.workers_cpu:.1f} s, parent {result.parent_cpu:.1f} s)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=1000, help="consecutive puzzles (default 1000)")
    parser.add_argument("--per-tier", type=int, default=100, help="puzzles per tier (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", metavar="FILE", help="also write the figures to this file")
    args = parser.parse_args(argv)
    print(f"generator bench, {RULES}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}", flush=True)
    figures: dict[str, object] = {"rules": RULES, "load_at_start": os.getloadavg()[0]}

    one = run(None, args.count, args.seed, workers=1)
    hard = one.deeper(3)
    master = one.deeper(6)
    depths = Counter(puzzle.depth for puzzle in one.puzzles)
    print(f"\n{len(one.puzzles)} consecutive puzzles, one worker process: {one.seconds:.1f} s {cpu(one)}")
    print(f"  {one.per_minute():.0f} puzzles a minute, acceptance {one.tally.acceptance:.1%}")
    print(f"  hard or deeper: {one.per_minute(hard):.0f} a minute (target {TARGET_HARD_PER_MINUTE:.0f})")
    print(f"  master: {one.per_minute(master):.0f} a minute (target {TARGET_MASTER_PER_MINUTE:.0f})")
    print(f"  rejected: {dict(one.tally.outcomes - Counter({'accepted': one.tally.outcomes['accepted']}))}")
    print("  depth histogram:")
    for depth in range(1, max(depths) + 1):
        share = depths[depth] / len(one.puzzles)
        print(f"    {depth:2d} {depths[depth]:5d} {share:6.1%} {'#' * round(share * 100)}")
    figures["consecutive"] = {
        "count": len(one.puzzles),
        "seconds": round(one.seconds, 2),
        "per_minute": round(one.per_minute(), 1),
        "acceptance": round(one.tally.acceptance, 4),
        "hard_or_deeper_per_minute": round(one.per_minute(hard), 1),
        "master_per_minute": round(one.per_minute(master), 1),
        "depths": dict(sorted(depths.items())),
        "rejected": dict(one.tally.outcomes),
    }

    two = run(None, args.count, args.seed, workers=2)
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

    print(f"\neach tier on its own, {args.per_tier} puzzles, one worker process:")
    print(f"  {'tier':8s} {'a minute':>9s} {'acceptance':>10s} {'attempts':>8s}  human-like solver")
    per_tier: dict[str, object] = {}
    for tier in TIERS:
        alone = run(tier, args.per_tier, args.seed, workers=1)
        tries = [(human_solves(p.position(), p.max_played), p.max_played) for p in alone.puzzles]
        solved = sum(result.solved for result, _ in tries)
        rate = solved / len(tries) if tries else 0.0
        # partial credit: where it fails, how much of the maximum its best legal table placed
        share = sum(result.placed / most for result, most in tries) / len(tries) if tries else 0.0
        print(
            f"  {tier:8s} {alone.per_minute():9.0f} {alone.tally.acceptance:10.1%} {alone.tally.attempts:8d}"
            f"  solves {solved}/{len(tries)} ({rate:.0%}), places {share:.0%} of the maximum",
            flush=True,
        )
        per_tier[tier] = {
            "per_minute": round(alone.per_minute(), 1),
            "acceptance": round(alone.tally.acceptance, 4),
            "attempts": alone.tally.attempts,
            "human_solve_rate": round(rate, 3),
            "human_share_placed": round(share, 3),
        }
    figures["tiers"] = per_tier
    figures["load_at_end"] = os.getloadavg()[0]
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f} (the machine is shared: figures vary)")
    if args.json:
        with open(args.json, "w") as file:
            json.dump(figures, file, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())

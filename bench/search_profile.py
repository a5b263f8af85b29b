"""Where the attempts of a searching method (6e, 6m, 9m ...) end, and what a run keeps of them.

Runs `--attempts` attempts of one method on one seed, in one process, and prints per outcome how
many ended there. An attempt whose search fell short says why: the chain never reached the goal's,
too few forks or decisions, the skill-limited player below the goal solves it, or the obvious cards
are not honest. Then the raw puzzles and those a run keeps (no near-duplicate of one kept before)
a CPU minute, the near-duplicate pairs among the raw ones, and their forks.

    .venv/bin/python bench/search_profile.py --method 9m --seed 11 --attempts 100

The figures are printed, never asserted: the machine may be shared and loaded.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import generator._make as make
from generator import Puzzle, PuzzleId, near_duplicate
from generator._grading import LEAST_DECISIONS, LEAST_FORKS, LOWEST_CHAIN
from generator._make import SEED_STRIDE, attempt
from generator._methods import SEARCHES
from generator._search import Found, honest, search
from puzzles import Analysis


def _why(found: Found | None, goal: str) -> str:
    """Why a search fell short of its goal."""
    if found is None:
        return "short: unproven"
    if (found.analysis.chain.length or 0) < LOWEST_CHAIN[goal] or found.forcing is None:
        return "short: chain"
    forks = found.forcing.forks or 0
    decisions = found.forcing.decisions or 0
    if forks < LEAST_FORKS[goal]:
        return f"short: {forks} fork(s)"
    if decisions < LEAST_DECISIONS[goal]:
        return f"short: {decisions} decisions, {forks} forks"
    if found.beaten:
        return "short: the player below solves it"
    if not honest(found.analysis.position, found.analysis.best.play.laid):
        return "short: obvious cards not honest"
    return "short: other"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--method", default="9m", help="a searching method (default 9m)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--attempts", type=int, default=100)
    parser.add_argument("--rules", default="classic")
    args = parser.parse_args(argv)
    if args.method not in SEARCHES:
        parser.error(f"{args.method!r} is not a searching method; those are {', '.join(sorted(SEARCHES))}")
    goal = SEARCHES[args.method]
    last: list[Found | None] = []
    searched = search

    def keep(seed: str, start: Analysis, goal: str, deadline: float) -> Found | None:
        found = searched(seed, start, goal, deadline)
        last.append(found)
        return found

    setattr(make, "search", keep)  # noqa: B010  the attempts' own search, its result kept
    outcomes: Counter[str] = Counter()
    raw: list[Puzzle] = []
    kept: list[Puzzle] = []
    started = time.process_time()
    for number in range(args.attempts):
        last.clear()
        result = attempt(PuzzleId(args.rules, args.method, args.seed * SEED_STRIDE + number))
        outcome = result.outcome
        if result.puzzle is not None:
            puzzle = result.puzzle
            raw.append(puzzle)
            if any(near_duplicate(puzzle.table, other.table, puzzle.rules) for other in kept):
                outcome = "accepted, a near-duplicate"
            else:
                kept.append(puzzle)
        elif outcome == "short of its tier":
            outcome = _why(last[0] if last else None, goal)
        outcomes[outcome] += 1
    cpu = max(time.process_time() - started, 1e-9)
    print(
        f"{args.method} ({goal}), {args.rules}, seed {args.seed}: {args.attempts} attempts, {cpu:.0f} CPU s"
    )
    for outcome, count in outcomes.most_common():
        print(f"  {outcome}: {count}")
    pairs = list(combinations(raw, 2))
    near = sum(near_duplicate(a.table, b.table, a.rules) for a, b in pairs)
    print(f"  raw {len(raw)} ({len(raw) / cpu * 60:.1f} a CPU minute),", end=" ")
    print(f"kept {len(kept)} ({len(kept) / cpu * 60:.1f} a CPU minute)")
    print(f"  near-duplicate pairs among the raw: {near} of {len(pairs)}")
    print(f"  forks: {dict(sorted(Counter(p.forks for p in raw).items(), key=str))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

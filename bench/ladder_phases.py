"""Where a searching Master letter's CPU goes, phase by phase (issue 38 item 4).

Runs the attempts of one letter (2m, 1m, 4m, 9m, ...) in seed order in this process and sums the
CPU seconds (`time.process_time`) of each phase of an attempt: the start (the method's table and
its first analysis), the Expert search a ladder starts with, the climb, the trap, the pruning, the
growth, the live decoy and the checks after it; and, inside them, the engine's questions (analyses,
forcing counts, skill-limited runs) with their counts. Then it keeps the accepted Masters as a run
does (leaving out near-duplicates, whose check it times too) and prints the rates a CPU minute.

    .venv/bin/python bench/ladder_phases.py 2m --seed 11 --attempts 120

The figures are printed, never asserted: the machine may be shared and loaded.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import generator._gadgets as gadgets_module
import generator._ladder as ladder_module
import generator._make as make
import generator._search as search_module
from generator import Puzzle, near_duplicate
from generator._make import DEFAULT_TIME_LIMIT, attempt, attempt_id
from generator._methods import SEARCHES
from puzzles import weak_forks

seconds: Counter[str] = Counter()
calls: Counter[str] = Counter()
stack: list[str] = []
ENGINE = ("analyse", "forcing count", "skill-limited")
"""The engine's questions, summed per phase that asks them."""


def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """`function`, its CPU time summed under `name` (phases nest: an inner phase's time is taken
    out of the outer one's, so the phases add up to the attempts' time)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        key = f"{stack[-1]}: {name}" if name in ENGINE and stack else name
        calls[key] += 1
        stack.append(key)
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent = time.process_time() - started
            stack.pop()
            seconds[key] += spent
            if stack:
                seconds[stack[-1]] -= spent

    return wrapper


stopped: Counter[str] = Counter()
bench_seconds = [0.0]
"""The CPU seconds of the bench's own real-fork counts, taken out of the attempts' total."""


def stops(function: Callable[..., Any]) -> Callable[..., Any]:
    """The Expert search, its stop tallied by the start's chain: the chain (4 or more or not), the
    forks the grade counts and the real ones (`puzzles.weak_forks`)."""

    def wrapper(seed: str, start: Any, *args: Any, **kwargs: Any) -> Any:
        found = function(seed, start, *args, **kwargs)
        began = min(start.chain.length or 0, 5)
        if found is None or found.forcing is None:
            stopped[f"start {began} -> chain <4 or unproved"] += 1
            return found
        counted = time.process_time()
        analysis = found.analysis
        chain = analysis.chain.length or 0
        real = weak_forks(
            analysis.position, analysis.best.placed, analysis.best.play.laid, found.forcing
        ).forks_at_least
        spent = time.process_time() - counted
        bench_seconds[0] += spent
        if stack:
            seconds[stack[-1]] -= spent
        reached = "4+" if chain >= 4 else "<4"
        stopped[f"start {began} -> chain {reached} forks {found.forcing.forks} / real {real}"] += 1
        return found

    return wrapper


def patch(module: Any, attribute: str, name: str) -> None:
    if hasattr(module, attribute):
        setattr(module, attribute, timed(name, getattr(module, attribute)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("letter", help="a searching method: " + ", ".join(sorted(SEARCHES)))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--attempts", type=int, default=120)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--verbose", action="store_true", help="a line per attempt")
    parser.add_argument(
        "--real-forks",
        action="store_true",
        help="tally where the Expert searches of a planting letter stop: chain, forks, real forks "
        "(the real-fork count is the bench's own, left out of the totals)",
    )
    args = parser.parse_args(argv)
    if args.letter not in SEARCHES:
        parser.error(f"{args.letter!r} is not a searching method")
    # the engine's questions, where each module calls them
    for module in (make, search_module, ladder_module, gadgets_module):
        patch(module, "analyse", "analyse")
        patch(module, "decisions_of", "forcing count")
        patch(module, "count_decisions", "forcing count")
        patch(module, "skill_limited", "skill-limited")
    patch(ladder_module, "search", "expert search")
    patch(ladder_module, "climb", "climb")
    patch(gadgets_module, "climb", "climb")
    patch(gadgets_module, "plant", "plant")
    if args.real_forks:
        gadgets_module.search = stops(gadgets_module.search)
    patch(gadgets_module, "search", "expert search")
    patch(make, "search", "search")
    patch(make, "_trapped_search", "trap")
    patch(make, "pruned", "pruning")
    patch(make, "grown", "growth")
    patch(make, "_tempted", "live decoy")
    patch(make, "live_decoys", "live decoy")
    patch(make, "_searched", "after the search")
    patch(make, "_grade", "start")
    extra = getattr(ladder_module, "PHASES", {})
    for attribute, name in extra.items():
        patch(ladder_module, attribute, name)
    kept: list[Puzzle] = []
    raw = 0
    total = 0.0
    outcomes: Counter[str] = Counter()
    for number in range(args.attempts):
        puzzle_id = attempt_id(args.rules, (args.letter,), args.seed, number)
        started = time.process_time()
        result = timed("attempt", attempt)(puzzle_id, DEFAULT_TIME_LIMIT)
        total += time.process_time() - started
        outcomes[result.outcome] += 1
        line = f"{puzzle_id} {time.process_time() - started:5.2f} s {result.outcome}"
        if result.puzzle is not None and result.puzzle.tier == SEARCHES[args.letter]:
            raw += 1
            started = time.process_time()
            like = any(near_duplicate(p.table, result.puzzle.table, args.rules) for p in kept)
            seconds["near-duplicates"] += time.process_time() - started
            total += time.process_time() - started
            line += " near-duplicate" if like else " kept"
            if not like:
                kept.append(result.puzzle)
        if args.verbose:
            print(line, flush=True)
    total -= bench_seconds[0]
    minutes = max(total, 1e-9) / 60
    print(f"{args.letter}, seed {args.seed}: {args.attempts} attempts in {total:.1f} CPU-s")
    print("  outcomes: " + ", ".join(f"{k} {v}" for k, v in outcomes.most_common()))
    for name, spent in sorted(seconds.items(), key=lambda item: -item[1]):
        print(f"  {name:20} {spent:7.1f} s {100 * spent / max(total, 1e-9):5.1f}%  calls {calls[name]}")
    print(f"  raw {raw} ({raw / minutes:.2f} a CPU minute), kept {len(kept)} ({len(kept) / minutes:.2f})")
    if args.real_forks:
        print("  Expert searches by start chain -> stop (chain 4+? forks graded / real): count")
        for key, count in sorted(stopped.items()):
            print(f"    {key}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

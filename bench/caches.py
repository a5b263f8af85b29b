"""The engine's caches, each timed warm and cold on the tests' known puzzle: what a request saves.

    .venv/bin/python bench/caches.py [--rounds 20] [--positions 87]

Prints, for the step check's verdict (`puzzles.progress`, every step POST) and the hint ladder's
final table (`puzzles.final_table`, every hint), the milliseconds of one call with the cache warm
and with it cleared before each call: the engine's own share. A cache stays only where it saves 2 ms
or more on a request (issue 22); the figures beside each cache in its module are of the whole
request, from bench/web_caches.py.

Then the solver's own caches of candidates and keepings (`SOLVER_CACHES`), which serve every
analysis rather than one request: the full analysis (`puzzles.analyse`) of bench/corpus.py's classic
and jokers positions, with them as they run and with all of them bypassed (the functions they wrap,
in every engine module that names them), the two alternating per position, CPU time. Each saves
under 2 ms a request (bench/web_caches.py); together they are kept for issue 20's analysis figures:
87 positions, load about 5, 1,251 against 1,322 ms classic and 4,381 against 4,612 ms jokers.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from corpus import corpus

import puzzles
from puzzles import PRESETS, Board, Card, Position, analyse, final_table, maximum, progress
from puzzles._candidates import (
    _keepings_alone,
    _keepings_anywhere,
    _table_keepings,
    allowed_by,
    meld_of,
    pieces,
)
from puzzles._hints import _final_table
from puzzles._progress import _progress

SOLVER_CACHES: tuple[Any, ...] = (
    pieces,
    _keepings_alone,
    _keepings_anywhere,
    meld_of,
    allowed_by,
    _table_keepings,
)

KNOWN = Position.parse("classic | 10H 10D 10S / JH JD JS / QH QD QC / 4C 5C 6C 7C | 9S QD QS 8C KH 2D")
LIMIT = 10.0


def timed(call: Callable[[], object], clear: Callable[[], None] | None, rounds: int) -> float:
    """The median milliseconds of `call`, the cache cleared before each when `clear` is given."""
    call()
    times = []
    for _ in range(rounds):
        if clear is not None:
            clear()
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--positions", type=int, default=87, help="corpus positions a preset")
    arguments = parser.parse_args()
    rounds = arguments.rounds
    best = maximum(KNOWN, time_limit=LIMIT)
    assert best.play is not None
    solution = [list(meld.cards) for meld in best.play.table]
    laid = (Card.parse("QD"),)
    board = Board.start(KNOWN)

    def verdict() -> object:
        return progress(KNOWN, laid, best.placed, LIMIT)

    def planned() -> object:
        return final_table(board, solution, LIMIT)

    for name, call, clear in (
        ("step check's verdict (puzzles.progress)", verdict, _progress.cache_clear),
        ("hint's final table (puzzles.final_table)", planned, _final_table.cache_clear),
    ):
        cold = timed(call, clear, rounds)
        warm = timed(call, None, rounds)
        print(f"{name}: {warm:.3f} ms warm, {cold:.1f} ms cold, {cold - warm:.1f} ms saved")
    for preset in ("classic", "jokers"):
        solver_caches(preset, arguments.positions)


def solver_caches(preset: str, count: int) -> None:
    holders = [
        (module, name, cached)
        for module in list(sys.modules.values())
        if module is not None and module.__name__.startswith(puzzles.__name__)
        for name, value in vars(module).items()
        for cached in SOLVER_CACHES
        if value is cached
    ]
    kept, bypassed = [], []
    for number, sample in enumerate(corpus(PRESETS[preset], count)):
        for on in (True, False) if number % 2 == 0 else (False, True):
            for module, name, cached in holders:
                setattr(module, name, cached if on else cached.__wrapped__)
            started = time.process_time()
            analyse(sample.position, time_limit=LIMIT)
            (kept if on else bypassed).append((time.process_time() - started) * 1000)
    for module, name, cached in holders:
        setattr(module, name, cached)
    print(
        f"solver caches, the full analysis of {count} {preset} positions: {sum(kept):.0f} ms of CPU with"
        f" them, {sum(bypassed):.0f} ms bypassed ({(sum(bypassed) - sum(kept)) / count:.2f} ms a position)"
    )


if __name__ == "__main__":
    main()

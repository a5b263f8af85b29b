"""The engine's caches, each timed warm and cold on the tests' known puzzle: what a request saves.

    .venv/bin/python bench/caches.py [--rounds 20]

Prints, for the step check's verdict (`puzzles.progress`, every step POST) and the hint ladder's
final table (`puzzles.final_table`, every hint), the milliseconds of one call with the cache warm
and with it cleared before each call: the engine's own share. A cache stays only where it saves 2 ms
or more on a request (issue 22); the figures beside each cache in its module are of the whole
request, from bench/web_caches.py.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from puzzles import Board, Card, Position, final_table, maximum, progress
from puzzles._hints import _final_table
from puzzles._progress import _progress

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
    rounds = parser.parse_args().rounds
    best = maximum(KNOWN, time_limit=LIMIT)
    assert best.play is not None
    solution = [list(meld.cards) for meld in best.play.table]
    laid = (Card.parse("QD"),)
    board = Board.start(KNOWN)

    def verdict() -> object:
        return progress(KNOWN, laid, best.value, LIMIT)

    def planned() -> object:
        return final_table(board, solution, LIMIT)

    for name, call, clear in (
        ("step check's verdict (puzzles.progress)", verdict, _progress.cache_clear),
        ("hint's final table (puzzles.final_table)", planned, _final_table.cache_clear),
    ):
        cold = timed(call, clear, rounds)
        warm = timed(call, None, rounds)
        print(f"{name}: {warm:.3f} ms warm, {cold:.1f} ms cold, {cold - warm:.1f} ms saved")


if __name__ == "__main__":
    main()

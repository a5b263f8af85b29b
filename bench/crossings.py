"""How often `puzzles.analyse` goes back and forth between the engine's modules.

    .venv/bin/python bench/crossings.py

Traces the full analysis of a few known positions with `sys.setprofile`. A crossing is a call from
a function of one engine module into a function of another (calls through the standard library,
such as `functools` caches, count from the engine function that made them). Prints, for each
position and in all, the crossings made and the distinct call edges between modules (caller
function, callee function); then the edges between the solver's modules, and how many enter each.
The counts depend on the code only, not on the machine, except where a time limit runs out (these
positions settle in milliseconds).
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType
from typing import Any

from puzzles import Position, analyse

ENGINE = Path(__file__).resolve().parent.parent / "puzzles"
SOLVING = {"_solver", "_phases", "_model", "_candidates"}
"""The modules of a solve: the questions, the model, the candidate melds (the others are value types:
cards, melds, rules, positions)."""

POSITIONS = (
    "classic | AS AH AD / 3S 3D 3C / 4S 4H 4D / 7S 7H 7D / 8S 8H 8D / 9S 9H 9D / 10S 10H 10D / "
    "JS JH JD / QS QH QD / 3S 4S 5S / 3C 4C 5C 6C 7C 8C | 2S 6S 8S 10H KD 4C JC",
    "classic | AS AD AC / 4S 4H 4D / 4S 4H 4C / 8S 8D 8C / QS QD QC / QS QD QC / KS KD KC / "
    "8H 9H 10H JH / 2C 3C 4C | 9S 10S AH 7H 6C 7C 9C",
    "jokers | 6S 6H 6C / 7S 7H 7C / 9S 9H 9C / 10S 10H 10C / KS KH KC / 4S 5S 6S 7S 8S / "
    "4H 5H 6H 7H 8H / JD JK KD AD / 4C 5C 6C 7C / 9C 10C JC | 2S 2S 9D 10D 8C JK",
    "german-jokers | 5S 5H 5C / 6S 6H 6C / 7S 7H 7C / 10S 10H 10C / KH KD KC / JS JK KS / "
    "8D 9D JK JD QD / 10C JC QC | 10S 4H",
    "italian | KH KD KC / QH QD QC / JH JD JC | AC",
)
"""Published puzzles (cl37, c0b3, jkb, ghmh36) and the rules' first worked example."""


def module_of(frame: FrameType) -> str | None:
    """The engine module a frame runs in, or None for code outside the engine."""
    path = Path(frame.f_code.co_filename)
    return path.stem if path.parent == ENGINE else None


def engine_caller(frame: FrameType | None) -> FrameType | None:
    """The nearest frame, from `frame` outwards, that runs engine code, and of a comprehension or
    generator there, the function it runs in."""
    while frame is not None and module_of(frame) is None:
        frame = frame.f_back
    while frame is not None and frame.f_code.co_name.startswith("<") and frame.f_back is not None:
        if module_of(frame.f_back) != module_of(frame):
            break
        frame = frame.f_back
    return frame


class Tracer:
    def __init__(self) -> None:
        self.crossings = 0
        self.solving = 0
        """Crossings between two of the solver's modules."""
        self.edges: set[tuple[str, str]] = set()

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        callee = module_of(frame)
        if callee is None:
            return
        caller_frame = engine_caller(frame.f_back)
        if caller_frame is None:
            return
        caller = module_of(caller_frame)
        assert caller is not None
        if caller != callee:
            self.crossings += 1
            self.solving += caller in SOLVING and callee in SOLVING
            self.edges.add((f"{caller}.{caller_frame.f_code.co_name}", f"{callee}.{frame.f_code.co_name}"))


def trace(position: Position) -> Tracer:
    tracer = Tracer()
    sys.setprofile(tracer)
    try:
        analyse(position)
    finally:
        sys.setprofile(None)
    return tracer


def main() -> None:
    positions = [Position.parse(text) for text in POSITIONS]
    analyse(positions[-1])  # every preset's pieces listed before, as in a running server
    edges: set[tuple[str, str]] = set()
    total = solving_total = 0
    for position in positions:
        tracer = trace(position)
        total += tracer.crossings
        solving_total += tracer.solving
        edges |= tracer.edges
        print(
            f"{position.rules.name:14} crossings {tracer.crossings:6}  between the solver's modules "
            f"{tracer.solving:5}  distinct edges {len(tracer.edges):3}"
        )
    print(f"in all: {total} crossings ({solving_total} between the solver's modules), {len(edges)} edges")
    solving = {(caller, callee) for caller, callee in edges if {module(caller), module(callee)} <= SOLVING}
    print(f"between the solver's modules ({', '.join(sorted(SOLVING))}): {len(solving)} distinct edges")
    for name in sorted(SOLVING):
        print(f"  into {name}: {sum(module(callee) == name for _, callee in solving)}")
    for caller, callee in sorted(solving):
        print(f"    {caller} -> {callee}")


def module(function: str) -> str:
    return function.split(".")[0]


if __name__ == "__main__":
    main()

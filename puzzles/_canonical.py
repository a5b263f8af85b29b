"""A position's canonical form: its melds in the order the solver takes them, so that a cache keyed
on it holds one entry (and costs one solve) for the same table typed in any meld order."""

from __future__ import annotations

from dataclasses import replace

from puzzles._position import Position
from puzzles._solver import Analysis, _canonical, _in_order


def canonical(position: Position) -> tuple[Position, tuple[int, ...]]:
    """The position with its melds in the solver's order (hubs first, then by cards), and where each
    of them is in `position`'s table. Cards are already sorted in a meld and in the hand."""
    return _canonical(position)


def told_for(analysis: Analysis, position: Position, order: tuple[int, ...]) -> Analysis:
    """An analysis of `canonical(position)` told for `position` itself: its meld numbers back in the
    position's order."""
    return replace(_in_order(analysis, order), position=position)

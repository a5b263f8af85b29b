"""Puzzles pinned as compact text, and a generated puzzle shared by the generator tests."""

from __future__ import annotations

import pytest

from generator import Puzzle, puzzle_from_id

PINNED = {
    # a classic master: a ladder of sets from 3 to 10 with J♠ above and 2♦ below, plus K♥ and 6♦
    "cm3": (
        "classic | AS AH AD AC / AS AD AC / 3S 3D 3C / 4S 4D 4C / 5S 5D 5C / 6S 6D 6C / 7S 7D 7C / "
        "8S 8D 8C / 9S 9D 9C / 10S 10D 10C / QS QD QC / KS KD KC / KS KH KC / 2H 3H 4H 5H 6H 7H 8H / "
        "2H 3H 4H 5H 6H | JS KH 2D 6D",
        "JS KH 2D 6D",
        6,
    ),
    # german-jokers with two decoys: only A♠ goes, and three sets must become runs for it
    "gh0": (
        "german-jokers | 2S 2H 2D / 3S 3H 3D / 4S 4H 4D / 6S 6H 6D 6C / 6H 7H 8H 9H / 7D 8D 9D / "
        "6C 7C 8C 9C | AS 2S JC",
        "AS",
        3,
    ),
}
"""Published IDs must keep generating the same puzzle: ID -> (position, played, depth)."""


@pytest.fixture(scope="session")
def master() -> Puzzle:
    return puzzle_from_id("cm3")


@pytest.fixture(scope="session")
def decoyed() -> Puzzle:
    return puzzle_from_id("gh0")

"""Puzzles pinned as compact text, and a generated puzzle shared by the generator tests."""

from __future__ import annotations

import pytest

from generator import Puzzle, puzzle_from_id

PINNED = {
    # a classic master: a ladder of sets from 5 to 10 with 4♠ below and J♠ above, three decoys
    "cm2": (
        "classic | 2S 2H 2C / 3S 3H 3D 3C / 5S 5H 5C / 6S 6H 6C / 7S 7H 7C / 8S 8H 8C / 9S 9H 9C / "
        "10S 10H 10C / AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD / 6D 7D 8D | 4S 9S JS 3H KD KD",
        "4S 9S JS",
        6,
    ),
    # german-jokers with two decoys: only A♠ goes, and three sets must become runs for it
    "gh0": (
        "german-jokers | 2S 2H 2D / 3S 3H 3D / 4S 4H 4D / 6S 6H 6D 6C / 6H 7H 8H 9H / 7D 8D 9D / "
        "6C 7C 8C 9C | AS 2S JC",
        "AS",
        3,
    ),
    # german-jokers with two jokers on the table
    "ghmh36": (
        "german-jokers | 5S 5H 5C / 6S 6H 6C / 7S 7H 7C / 10S 10H 10C / KH KD KC / JS JK KS / "
        "8D 9D JK JD QD / 10C JC QC | 10S 4H",
        "10S 4H",
        3,
    ),
}
"""Published IDs must keep generating the same puzzle: ID -> (position, played, depth)."""


@pytest.fixture(scope="session")
def master() -> Puzzle:
    return puzzle_from_id("cm2")


@pytest.fixture(scope="session")
def decoyed() -> Puzzle:
    return puzzle_from_id("gh0")

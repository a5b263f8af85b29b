"""Puzzles pinned as compact text, and generated puzzles shared by the generator tests."""

from __future__ import annotations

import pytest

from generator import Puzzle, puzzle_from_id

PINNED_POSITIONS = {
    # the first method letters, graded by chain depth when they were published: their IDs keep
    # their positions, though the chain length no longer makes all of them puzzles
    "cm2": (
        "classic | 2S 2H 2C / 3S 3H 3D 3C / 5S 5H 5C / 6S 6H 6C / 7S 7H 7C / 8S 8H 8C / 9S 9H 9C / "
        "10S 10H 10C / AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD / 6D 7D 8D | 4S 9S JS 3H KD KD"
    ),
    "gh0": (
        "german-jokers | 2S 2H 2D / 3S 3H 3D / 4S 4H 4D / 6S 6H 6D 6C / 6H 7H 8H 9H / 7D 8D 9D / "
        "6C 7C 8C 9C | AS 2S JC"
    ),
    "ghmh36": (
        "german-jokers | 5S 5H 5C / 6S 6H 6C / 7S 7H 7C / 10S 10H 10C / KH KD KC / JS JK KS / "
        "8D 9D JK JD QD / 10C JC QC | 10S 4H"
    ),
}
"""Published IDs must keep generating the same position: ID -> position."""

PINNED = {
    # a classic master: six sets from 7 to Q must become runs, with a live decoy (J♣)
    "cl37": (
        "classic | AS AH AD / 3S 3D 3C / 4S 4H 4D / 7S 7H 7D / 8S 8H 8D / 9S 9H 9D / 10S 10H 10D / "
        "JS JH JD / QS QH QD / 3S 4S 5S / 3C 4C 5C 6C 7C 8C | 2S 6S 8S 10H KD 4C JC",
        "2S 6S 8S 10H KD 4C",
        6,
        6,
    ),
}
"""Published puzzles: ID -> (position, played, depth, chain)."""


@pytest.fixture(scope="session")
def master() -> Puzzle:
    return puzzle_from_id("cl37")

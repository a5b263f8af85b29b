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
    # the letters of issue 10's first round (decoys that may be live, jokers in the hand); an attempt
    # ends on its position with any live decoy added (4C below)
    "cd5": (
        "classic | 6S 6H 6D / 7H 7D 7C / 8S 8H 8D / 5H 6H 7H / 8D 9D 10D JD / 2C 3C 4C 5C / 4C 5C 6C 7C | "
        "6S 7S 8H QD KD KD 6C 9C"
    ),
    "iv7": (
        "italian | AS AH AC / AH AD AC / 3S 3H 3D / 3H 3D 3C / 4S 4D 4C / 9S 9D 9C / 10S 10H 10D / "
        "3S 4S 5S 6S 7S 8S / 5S 6S 7S / 4H 5H 6H 7H 8H 9H / 4H 5H 6H 7H / 10H JH QH KH / JH QH KH / "
        "4D 5D 6D 7D / 5D 6D 7D 8D / 8D 9D 10D / QD KD AD / 6C 7C 8C / 10C JC QC / 10C JC QC KC | "
        "2H 2H 9H 4C 5C 7C"
    ),
    "jkb": (
        "jokers | 6S 6H 6C / 7S 7H 7C / 9S 9H 9C / 10S 10H 10C / KS KH KC / 4S 5S 6S 7S 8S / "
        "4H 5H 6H 7H 8H / JD JK KD AD / 4C 5C 6C 7C / 9C 10C JC | 2S 2S 9D 10D 8C JK"
    ),
    "tlf": (
        "three-decks | 2S 2H 2D / 3S 3H 3D / 4S 4H 4D / 5S 5H 5D / 10S 10H 10D 10C / JH JD JC / "
        "QS QH QD QC / KH KD KC | 6S JS KS AD 10D 10D QD 4C"
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
    # rivals (issue 21): a set of four gives 7H to 9H 10H, not 7D to 9D
    "c0a3": (
        "classic | AS AH AD AC / AS AH AD AC / 2S 2H 2D 2C / 8S 8H 8D 8C / QS QH QD QC / QH QD QC | "
        "7H 9H 10H 7D 9D",
        "7H 9H 10H",
        1,
        1,
    ),
    # the eights take 8H from 8H-JH and give 8C to 6C 7C 9C; 9S 10S want 8S, and 7H blocks the run
    "c0b3": (
        "classic | AS AD AC / 4S 4H 4D / 4S 4H 4C / 8S 8D 8C / QS QD QC / QS QD QC / KS KD KC / "
        "8H 9H 10H JH / 2C 3C 4C | 9S 10S AH 7H 6C 7C 9C",
        "AH 6C 7C 9C",
        2,
        2,
    ),
}
"""Published puzzles: ID -> (position, laid, depth, chain)."""


@pytest.fixture(scope="session")
def master() -> Puzzle:
    return puzzle_from_id("cl37")

"""The human-like solver: local moves only."""

from __future__ import annotations

import pytest

from generator import Puzzle
from generator._human import human_solves
from puzzles import Position


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("classic | 3S 4S 5S / 7H 7D 7C | 6S KD", 1),  # extend a run
        ("classic | 3S 4S 5S | 8H 9H 10H JH", 4),  # lay a new meld, then extend it
        ("classic | 3S 4S 5S 6S | 6H 6D", 2),  # free the end of a run of four
        ("classic | 9S 9H 9D 9C | 7C 8C", 2),  # free a card of a set of four
        ("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D", 2),  # free the middle of a run of seven
        ("classic | 3S 4S 5S 6S 7S 8S | 5S", 1),  # cut a run of six: 3-5 and 5-8
    ],
)
def test_local_moves_solve_local_puzzles(text: str, target: int) -> None:
    result = human_solves(Position.parse(text), target)
    assert result.solved and result.placed == target


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("italian | KH KD KC / QH QD QC / JH JD JC | AC", 1),  # three sets must become runs
        ("classic | 10H 10D 10S / JH JD JS / QH QD QC | 9S QD QS", 3),
        ("classic | 3S 4S 5S 6S | 6H 6D 3H 3D", 4),  # only two of the four can go
    ],
)
def test_local_moves_miss_rearrangements(text: str, target: int) -> None:
    result = human_solves(Position.parse(text), target)
    assert not result.solved
    assert result.nodes >= 1


def test_the_solver_keeps_to_its_budget() -> None:
    position = Position.parse("classic | 3S 4S 5S 6S 7S 8S 9S / 5H 5D 5C 5S | 6H 6D 9H 9D 2C 2H")
    assert human_solves(position, 6, budget=10).nodes <= 10


def test_a_master_puzzle_is_beyond_local_moves(master: Puzzle) -> None:
    assert not human_solves(master.position(), master.max_played).solved


@pytest.mark.parametrize(
    ("text", "target", "placed"),
    [
        ("classic | 3S 4S 5S 6S | 6H 6D 3H 3D", 4, 2),  # 6♠ freed for a set of sixes; the threes cannot go
        ("italian | KH KD KC / QH QD QC / JH JD JC | AC", 1, 0),
        ("classic | 3S 4S 5S | 6S 7S 9H", 3, 2),
    ],
)
def test_where_it_fails_it_says_how_far_it_got(text: str, target: int, placed: int) -> None:
    result = human_solves(Position.parse(text), target)
    assert not result.solved and result.placed == placed

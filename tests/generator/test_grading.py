"""The publication predicate and the grade."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator import TIERS, is_publishable, tier_of
from generator._grading import tier_rank
from puzzles import Position, analyse


@pytest.mark.parametrize(
    ("depth", "tier"),
    [(0, None), (-1, None), (1, "easy"), (2, "medium"), (3, "hard"), (4, "expert"), (5, "expert"),
     (6, "master"), (13, "master")],
)  # fmt: skip
def test_tier_of_depth(depth: int, tier: str | None) -> None:
    assert tier_of(depth) == tier


def test_tiers_run_from_easy_to_master() -> None:
    assert TIERS == ("easy", "medium", "hard", "expert", "master")
    assert [tier_rank(tier) for tier in TIERS] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="'legendary'"):
        tier_rank("legendary")


def test_sets_turned_into_runs_are_publishable() -> None:
    analysis = analyse(Position.parse("italian | KH KD KC / QH QD QC / JH JD JC | AC"), time_limit=5)
    assert is_publishable(analysis)
    assert analysis.depth.depth == 3


def test_a_plain_extension_is_not_publishable() -> None:
    analysis = analyse(Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S KD"), time_limit=5)
    assert analysis.best.value == 1 and analysis.uniqueness.unique is True
    assert analysis.depth.depth == 0
    assert not is_publishable(analysis)


def test_two_different_best_plays_are_not_publishable() -> None:
    # free 6♠ for a set of sixes or 3♠ for a set of threes, never both
    analysis = analyse(Position.parse("classic | 3S 4S 5S 6S | 6H 6D 3H 3D"), time_limit=5)
    assert analysis.best.value == 2
    assert analysis.uniqueness.unique is False
    assert not is_publishable(analysis)


def test_nothing_to_play_is_not_publishable() -> None:
    analysis = analyse(Position.parse("classic | KH KD KC / QH QD QC / JH JD JC | AC"), time_limit=5)
    assert analysis.best.value == 0
    assert not is_publishable(analysis)


def test_unproven_answers_are_not_publishable() -> None:
    analysis = analyse(Position.parse("italian | KH KD KC / QH QD QC / JH JD JC | AC"), time_limit=5)
    assert is_publishable(analysis)
    assert not is_publishable(replace(analysis, best=replace(analysis.best, optimal=False)))
    assert not is_publishable(replace(analysis, depth=replace(analysis.depth, optimal=False)))
    assert not is_publishable(replace(analysis, uniqueness=replace(analysis.uniqueness, unique=None)))

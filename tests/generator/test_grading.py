"""The publication predicate and the grade."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator import TIERS, is_publishable, tier_of
from generator._grading import skill_below, tier_rank
from puzzles import Position, analyse, skill_limited


@pytest.mark.parametrize(
    ("chain", "tier"),
    [(0, None), (-1, None), (1, "easy"), (2, "medium"), (3, "hard"), (4, "expert"), (5, "expert"),
     (6, "master"), (13, "master")],
)  # fmt: skip
def test_tier_of_chain_length(chain: int, tier: str | None) -> None:
    assert tier_of(chain) == tier


def test_each_tier_must_defeat_the_player_one_skill_below_it() -> None:
    assert [skill_below(tier) for tier in TIERS] == [None, 1, 2, 3, 5]


def test_tiers_run_from_easy_to_master() -> None:
    assert TIERS == ("easy", "medium", "hard", "expert", "master")
    assert [tier_rank(tier) for tier in TIERS] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="'legendary'"):
        tier_rank("legendary")


LADDER = "italian | KH KD KC / QH QD QC / JH JD JC | AC"


def test_sets_turned_into_runs_need_three_breaks_at_once() -> None:
    position = Position.parse(LADDER)
    analysis = analyse(position, time_limit=5)
    assert (analysis.depth.depth, analysis.chain.length) == (3, 3)
    assert analysis.chain.rearrangements == ((0, 1, 2),)
    assert skill_limited(position, 2, time_limit=5).placed == 0
    assert skill_limited(position, 3, time_limit=5).placed == 1
    # a hard puzzle by its chain, but a hand of one card is below the floors of hard
    assert not is_publishable(analysis, skill_limited(position, 2, time_limit=5))


def test_a_hard_puzzle_must_defeat_the_player_who_breaks_two_melds_at_a_time() -> None:
    position = Position.parse("italian | KH KD KC / QH QD QC / JH JD JC | AC 10D 10C 2S")
    analysis = analyse(position, time_limit=5)
    assert analysis.chain.length == 3 and analysis.best.value == 3
    two = skill_limited(position, 2, time_limit=5)
    assert two.proven and two.placed < 3
    assert is_publishable(analysis, two)
    # the wrong player, or none, proves nothing
    assert not is_publishable(analysis, skill_limited(position, 1, time_limit=5))
    assert not is_publishable(analysis, None)
    assert not is_publishable(analysis, replace(two, proven=False))


def test_a_plain_extension_is_not_publishable() -> None:
    analysis = analyse(Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S KD"), time_limit=5)
    assert analysis.best.value == 1 and analysis.uniqueness.unique is True
    assert analysis.depth.depth == 0
    assert not is_publishable(analysis, None)


def test_two_different_best_plays_are_not_publishable() -> None:
    # free 6♠ for a set of sixes or 3♠ for a set of threes, never both
    analysis = analyse(Position.parse("classic | 3S 4S 5S 6S | 6H 6D 3H 3D"), time_limit=5)
    assert analysis.best.value == 2
    assert analysis.uniqueness.unique is False
    assert not is_publishable(analysis, None)


def test_nothing_to_play_is_not_publishable() -> None:
    analysis = analyse(Position.parse("classic | KH KD KC / QH QD QC / JH JD JC | AC"), time_limit=5)
    assert analysis.best.value == 0
    assert not is_publishable(analysis, None)


def test_unproven_answers_are_not_publishable() -> None:
    analysis = analyse(Position.parse("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D"), time_limit=5)
    assert analysis.chain.length == 1
    assert is_publishable(analysis, None)
    assert not is_publishable(replace(analysis, best=replace(analysis.best, optimal=False)), None)
    assert not is_publishable(replace(analysis, depth=replace(analysis.depth, optimal=False)), None)
    assert not is_publishable(replace(analysis, chain=replace(analysis.chain, optimal=False)), None)
    unknown = replace(analysis.uniqueness, unique=None)
    assert not is_publishable(replace(analysis, uniqueness=unknown), None)

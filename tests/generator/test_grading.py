"""The publication predicate and the grade."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator import TIERS, is_publishable, tier_of
from generator._grading import graded_decisions, graded_forks, graded_tier, skill_below, tier_rank
from puzzles import Position, analyse, forcing_player, skill_limited


@pytest.mark.parametrize(
    ("chain", "tier"),
    [(0, None), (-1, None), (1, "easy"), (2, "medium"), (3, "hard"), (4, "expert"), (5, "expert"),
     (6, "master"), (13, "master")],
)  # fmt: skip
def test_tier_of_chain_length(chain: int, tier: str | None) -> None:
    assert tier_of(chain) == tier


@pytest.mark.parametrize(
    ("chain", "decisions", "tier"),
    [(1, 0, "easy"), (2, 0, "medium"), (3, 0, "hard"), (3, 5, "hard"), (4, 1, "hard"), (4, 2, "expert"),
     (5, 9, "expert"), (6, 0, "hard"), (8, 1, "hard"), (13, 1, "hard"), (6, 2, "expert"), (6, 3, "master"),
     (9, 4, "master"), (0, 5, None), (8, None, "master")],
)  # fmt: skip
def test_a_sweep_of_any_length_is_hard_and_decisions_lift_it(
    chain: int, decisions: int | None, tier: str
) -> None:
    assert tier_of(chain, decisions) == tier


@pytest.mark.parametrize(
    ("chain", "decisions", "forks", "tier"),
    [(4, 2, 0, "hard"), (4, 2, 1, "expert"), (5, 4, 2, "expert"), (6, 3, 0, "hard"), (6, 5, 1, "expert"),
     (6, 2, 2, "expert"), (6, 3, 2, "master"), (9, 7, 2, "master"), (3, 3, 3, "hard"), (2, 0, 0, "medium"),
     (6, 3, None, "master"), (6, None, 0, "master")],
)  # fmt: skip
def test_expert_needs_a_fork_and_master_two(
    chain: int, decisions: int | None, forks: int | None, tier: str
) -> None:
    """Declines alone never lift a deep puzzle: a decline-only Master is Hard. Forks None (a line
    from before forks were counted) leaves the decisions to say; decisions None, the chain length."""
    assert tier_of(chain, decisions, forks) == tier


SWEEP = (
    "classic | 4S 4H 4C / 5S 5H 5D / 6S 6H 6D / 7S 7D 7C / 8S 8D 8C / 9S 9H 9C / 10S 10H 10C / JS JH JD | "
    "4S 10S 5D QD KD AC 2C 3C 9C"
)
TRAP = (
    "classic | 4S 4H 4D / 5S 5H 5D / 6S 6H 6D / 7S 7H 7D / 8S 8H 8D / 10S 10H 10D 10C / KS KD KC / "
    "JS QS KS / 2C 3C 4C 5C 6C / JC QC KC | 9S 10S 3H 10H 6C"
)


@pytest.mark.slow  # two deep tables analysed in full
def test_the_issues_sweep_is_hard_and_so_is_its_trap_without_a_fork() -> None:
    sweep = analyse(Position.parse(SWEEP), time_limit=60)
    forcing = forcing_player(sweep.position, sweep.best.value)
    assert (sweep.chain.length, forcing.decisions) == (8, 1)
    assert tier_of(8, graded_decisions(forcing)) == "hard"
    assert is_publishable(sweep, skill_limited(sweep.position, 2, time_limit=60), forcing)
    trap = analyse(Position.parse(TRAP), time_limit=60)
    forcing = forcing_player(trap.position, trap.best.value)
    assert trap.chain.length == 5 and (forcing.decisions, forcing.forks) == (2, 0)
    assert tier_of(5, graded_decisions(forcing)) == "expert"
    assert graded_tier(5, forcing) == "hard"  # two declines and no fork (issue 38)


def test_a_count_stopped_at_its_limit_grades_by_what_it_proved() -> None:
    forcing = forcing_player(Position.parse(SWEEP), 5, node_limit=1)
    assert not forcing.proven and forcing.decisions is None
    assert graded_decisions(forcing) == forcing.at_least >= 1
    # the forks are not proved either, and the bound is what the decisions proved less the declines
    assert forcing.forks is None and graded_forks(forcing) == forcing.forks_at_least == 1
    jokers = forcing_player(Position.parse("jokers | 5H JK 7H | 3S 4S 6H"), 3)
    assert jokers.proven and graded_decisions(jokers) == jokers.decisions
    assert graded_decisions(None) is None


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

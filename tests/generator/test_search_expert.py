"""Expert's second searching method, 3e: short chains (Hard's twists) searched to Expert, so that
fewer Expert tables are figures and more hold a live decoy (issue 38, issue 21's ceilings)."""

from __future__ import annotations

import random

import pytest

from generator import puzzle_from_id, verify
from generator._make import recipe_for
from generator._methods import EXPERT_TWISTS, METHODS, SEARCHES
from generator._search import TABLE_MELDS, honest
from generator._shapes import is_figure
from puzzles import Rules, skill_limited

EXPERT_FROM_A_TWIST = "c3e6v7yh"
"""The first Expert of `bench/generate.py --tiers expert --seed 11` that 3e made."""


def test_experts_recipe_takes_turns_between_mid_game_tables_and_twists() -> None:
    assert recipe_for("expert") == ("6e", "3e")
    assert SEARCHES["3e"] == "expert"
    # the joker presets keep their recipe: a hand joker fills a chain's gap
    assert "3e" not in recipe_for("expert", "jokers")


def test_a_twist_start_is_never_a_figure() -> None:
    rules = Rules.named("classic")
    starts = 0
    for seed in range(60):
        candidate = METHODS["3e"](rules, random.Random(seed))
        if candidate is None:
            continue
        starts += 1
        assert not is_figure(candidate.position.table, rules.top_position)
    assert starts >= 10


def test_under_joker_rules_3e_is_6e() -> None:
    rules = Rules.named("jokers")
    for seed in range(8):
        assert METHODS["3e"](rules, random.Random(seed)) == METHODS["6e"](rules, random.Random(seed))


def test_every_twist_is_drawn() -> None:
    # one twist drawn often made most near-duplicates: each is one of the family's bases once
    assert len(set(EXPERT_TWISTS)) == len(EXPERT_TWISTS) == 7


@pytest.mark.parametrize("puzzle_id", [EXPERT_FROM_A_TWIST])
def test_an_expert_from_a_twist_forks_tempts_and_is_no_figure(puzzle_id: str) -> None:
    expert = puzzle_from_id(puzzle_id)
    position = expert.position()
    assert expert.tier == "expert"
    assert expert.forks is not None and expert.forks >= 1
    assert expert.live_decoys >= 1
    assert not is_figure(position.table, position.rules.top_position)
    assert len(position.table) <= TABLE_MELDS["expert"][1]
    assert honest(position, expert.laid_cards)
    assert skill_limited(position, 3, 30, goal=expert.max_placed).placed < expert.max_placed
    assert verify(expert) == []
    # the ID replays its search
    assert puzzle_from_id(puzzle_id) == expert

"""The searching methods (6e, 6m): Expert and Master that fork, with honest obvious cards, found by
local search from recipes, figures and mid-game tables (issue 38)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from generator import make_puzzle, near_duplicate, puzzle_from_id, verify
from generator._make import REPLAY_TIME_LIMIT, recipe_for
from generator._methods import METHODS, SEARCHES
from generator._runs import Plan, Tally, generate
from generator._search import CHANGES, honest
from generator._shapes import obvious_laid
from puzzles import Position, Rules, parse_cards, skill_limited


def test_an_obvious_card_of_the_best_play_is_honest_and_a_trap_alone_is_not() -> None:
    # 6♣ fits the sixes as the table lies; 10♠ fits before J♠ Q♠ K♠
    position = Position.parse("classic | 6S 6H 6D / JS QS KS / 2C 3C 4C | 6C 10S 9H")
    assert obvious_laid(position, parse_cards("6C")) == (2, 1)
    assert honest(position, parse_cards("6C"))
    assert not honest(position, parse_cards("9H"))
    # one placed of four obvious cards is fewer than three in ten
    crowded = Position.parse("classic | 6S 6H 6D / JS QS KS / 2C 3C 4C | 6C 10S 5C AC 9H")
    assert obvious_laid(crowded, parse_cards("6C")) == (4, 1)
    assert not honest(crowded, parse_cards("6C"))


@pytest.mark.parametrize("rules", ["classic", "italian", "german-jokers"])
def test_every_change_leaves_a_legal_position(rules: str) -> None:
    changed = 0
    for seed in range(40):
        rng = random.Random(seed)
        candidate = METHODS["6m"](Rules.named(rules), rng)
        if candidate is None:
            continue
        position = candidate.position
        for change in CHANGES:
            try:
                after = change(position, rng)
            except ValueError:
                continue
            if after is not None:
                # the constructor checks the copies of each card and every meld
                assert isinstance(after, Position) and after.rules == position.rules
                assert after != position
                changed += 1
    assert changed > 50


@pytest.mark.slow  # two masters searched from scratch
def test_searched_masters_fork_twice_keep_an_honest_obvious_card_and_differ() -> None:
    masters = [make_puzzle("classic", "master", seed=seed, time_limit=REPLAY_TIME_LIMIT) for seed in (3, 4)]
    for master in masters:
        assert master.id[1:3] in SEARCHES
        assert master.tier == "master"
        assert master.forks is not None and master.forks >= 2
        assert master.decisions is not None and master.decisions >= 3
        position = master.position()
        assert honest(position, master.laid_cards)
        assert skill_limited(position, 5, 30, goal=master.max_placed).placed < master.max_placed
        assert verify(master) == []
        assert puzzle_from_id(master.id) == master


@pytest.mark.slow  # three experts searched from scratch
def test_a_run_of_searched_experts_forks_and_keeps_no_table_relabelled() -> None:
    # two searches from one recipe may keep its skeleton (seeds 3 and 4 of the Master test do): a
    # run leaves out the second, so its puzzles differ up to relabelling
    tally = Tally()
    plan = Plan("classic", recipe_for("expert"), seed=3, tier="expert", time_limit=REPLAY_TIME_LIMIT)
    experts = list(generate(plan, 3, 1, lambda: False, set(), tally))
    assert len(experts) == 3
    for expert in experts:
        assert expert.tier == "expert"
        assert expert.forks is not None and expert.forks >= 1
        assert honest(expert.position(), expert.laid_cards)
    for a, b in combinations(experts, 2):
        assert not near_duplicate(a.table, b.table, "classic")

"""The solver against the brute-force oracle, on random small positions under every preset.

`ORACLE_EXAMPLES=2000 .venv/bin/pytest tests/puzzles/test_oracle.py` searches harder than the
default, which keeps this file well under a minute and a half on a busy two-core machine.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from puzzles import (
    JOKER,
    PRESETS,
    Objective,
    Play,
    Position,
    Rules,
    chain_depth,
    maximum,
    meld_problem,
    play_problems,
    step_check,
    uniqueness,
)
from tests.puzzles import oracle
from tests.puzzles.strategies import laid_cards, positions

TIME_LIMIT = 10.0
"""Far more than a small position needs: every answer below must come back proven."""

EXAMPLES = int(os.environ.get("ORACLE_EXAMPLES", "100"))
each_preset = pytest.mark.parametrize("rules", PRESETS.values(), ids=list(PRESETS))
property_test = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None)


def assert_legal(position: Position, play: Play) -> None:
    """An independent check of a play: every meld valid, final cards = table + placed - freed."""
    assert play_problems(position, [meld.cards for meld in play.table]) == []
    for meld in play.table:
        assert meld_problem(meld.cards, position.rules) is None, meld
    final = Counter(card for meld in play.table for card in meld.cards)
    expected = position.table_counts() + Counter(play.placed)
    expected.subtract(play.freed)
    assert final == +expected
    assert not Counter(play.placed) - position.hand_counts(), "placed a card the hand does not hold"
    assert all(card == JOKER for card in play.freed)
    assert oracle.can_free(position, play.placed, len(play.freed))


def hand_after(position: Position, play: Play) -> oracle.Cards:
    return oracle.cards_of(play.hand_after(position))


def points_placed(position: Position, play: Play) -> int:
    points = position.rules.points
    return sum(points.of(card) for card in play.placed) - sum(points.of(card) for card in play.freed)


def draw_position(data: st.DataObject, rules: Rules) -> Position:
    position = data.draw(positions(rules), label="position")
    note(f"position: {position}")
    return position


@each_preset
@property_test
@given(data=st.data())
def test_maximum_matches_the_oracle(rules: Rules, data: st.DataObject) -> None:
    position = draw_position(data, rules)
    best = maximum(position, time_limit=TIME_LIMIT)
    assert best.optimal
    assert best.value == oracle.best_value(position)
    assert best.play.count == best.value
    assert_legal(position, best.play)
    assert hand_after(position, best.play) in oracle.best_hands(position)


@each_preset
@property_test
@given(data=st.data())
def test_points_maximum_matches_the_oracle(rules: Rules, data: st.DataObject) -> None:
    position = draw_position(data, rules)
    best = maximum(position, Objective.POINTS, time_limit=TIME_LIMIT)
    assert best.optimal
    assert best.value == oracle.best_value(position, "points")
    assert points_placed(position, best.play) == best.value
    assert_legal(position, best.play)
    unique = uniqueness(position, best, time_limit=TIME_LIMIT)
    assert unique.unique is oracle.is_unique(position, "points")


@each_preset
@property_test
@given(data=st.data())
def test_uniqueness_matches_the_oracle(rules: Rules, data: st.DataObject) -> None:
    position = draw_position(data, rules)
    best = maximum(position, time_limit=TIME_LIMIT)
    unique = uniqueness(position, best, time_limit=TIME_LIMIT)
    hands = oracle.best_hands(position)
    assert unique.unique is (len(hands) == 1)
    if unique.unique:
        assert unique.witness is None
        return
    witness = unique.witness
    assert witness is not None
    assert_legal(position, witness)
    assert witness.count == best.value
    assert hand_after(position, witness) in hands
    assert hand_after(position, witness) != hand_after(position, best.play)


@each_preset
@property_test
@given(data=st.data())
def test_chain_depth_matches_the_oracle(rules: Rules, data: st.DataObject) -> None:
    position = draw_position(data, rules)
    best = maximum(position, time_limit=TIME_LIMIT)
    depth = chain_depth(position, best, time_limit=TIME_LIMIT)
    assert depth.optimal
    assert depth.depth == oracle.chain_depth(position)
    assert depth.play is not None
    assert_legal(position, depth.play)
    assert depth.play.count == best.value
    # the melds it does not call broken are all kept, at once, in the play it returns
    assert len(depth.broken) == depth.depth
    kept = [meld.cards for i, meld in enumerate(position.table) if i not in depth.broken]
    assert oracle.kept_melds(kept, [meld.cards for meld in depth.play.table]) == len(kept)


@each_preset
@property_test
@given(data=st.data())
def test_step_check_matches_the_oracle(rules: Rules, data: st.DataObject) -> None:
    position = draw_position(data, rules)
    laid = data.draw(laid_cards(position), label="laid")
    check = step_check(position, laid, time_limit=TIME_LIMIT)
    assert check.proven
    expected = oracle.step_best(position, laid)
    assert check.reachable == expected
    assert check.dead_end is (expected is None)

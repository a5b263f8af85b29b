"""The key ideas' check against the brute force: `reaches_otherwise` finds a play of the maximum
that ends a card otherwise exactly when some arrangement of some maximal play does.

`ORACLE_EXAMPLES=1000 .venv/bin/pytest tests/puzzles/test_key_oracle.py` searches harder.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from puzzles import PRESETS, Card, Meld, MeldKind, Position, Rules
from puzzles._solver import reaches_otherwise
from tests.puzzles import oracle
from tests.puzzles.strategies import blocks, positions

EXAMPLES = int(os.environ.get("ORACLE_EXAMPLES", "60"))
ALL_PRESETS = list(PRESETS.values())
each_preset = pytest.mark.parametrize("rules", ALL_PRESETS, ids=[rules.name for rules in ALL_PRESETS])
property_test = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None)

End = tuple[Card, int, int]
"""A card and how many of its copies a final table holds in sets and in runs."""


def ends_of(position: Position) -> set[End]:
    """Every card's (sets, runs) in every arrangement of every maximal play, by brute force."""
    rules = position.rules
    found: set[End] = set()
    for outcome in oracle.best_outcomes(position):
        for table in oracle.final_tables(outcome.final, rules):
            counts: Counter[tuple[Card, MeldKind]] = Counter()
            for cards in table:
                kind = Meld.of(cards, rules).kind
                counts.update((card, kind) for card in cards)
            for card in set(outcome.final) | set(position.hand):
                found.add((card, counts[card, MeldKind.SET], counts[card, MeldKind.RUN]))
    return found


def check_against_brute_force(position: Position) -> None:
    note(str(position))
    best = oracle.best_value(position)
    ends = ends_of(position)
    for card, sets, runs in sorted(ends, key=lambda end: (end[0].index, end[1], end[2])):
        if card.is_joker:
            continue
        otherwise = any(other == card and (s, r) != (sets, runs) for other, s, r in ends)
        assert reaches_otherwise(position, best, card, sets, runs) is otherwise, (card, sets, runs)


@each_preset
@property_test
@given(data=st.data())
def test_the_check_matches_the_brute_force(rules: Rules, data: st.DataObject) -> None:
    check_against_brute_force(data.draw(positions(rules, max_table_cards=10, max_hand=3), label="position"))


@each_preset
@property_test
@given(data=st.data())
def test_the_check_matches_the_brute_force_on_blocks(rules: Rules, data: st.DataObject) -> None:
    check_against_brute_force(data.draw(blocks(rules), label="position"))

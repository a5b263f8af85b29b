"""Weak forks (`puzzles._weak`) against the brute force of `weak_oracle`, and on the worked examples
of docs/RULES.md and the puzzles of the issue 38 hand audit.

`ORACLE_EXAMPLES=1000 .venv/bin/pytest tests/puzzles/test_weak.py` searches harder.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from puzzles import PRESETS, Card, Position, Rules, decisions_of, maximum, parse_cards
from puzzles._weak import WEAK, one_home_cards, rivals_of, weak_forks
from tests.puzzles import oracle
from tests.puzzles.strategies import blocks, positions
from tests.puzzles.weak_oracle import fewest_real_forks, one_home, weak_cards

EXAMPLES = int(os.environ.get("ORACLE_EXAMPLES", "60"))
MOST = 3
"""Decisions the brute force tries up to."""

ALL_PRESETS = list(PRESETS.values())
each_preset = pytest.mark.parametrize("rules", ALL_PRESETS, ids=[rules.name for rules in ALL_PRESETS])
property_test = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None)

SEVENS = "classic | 7S 7H 7D / 4C 5C 6C 7C | 5S 6S 5H 6H 8H 8C"
SWEEP = (
    "classic | 4S 4H 4C / 5S 5H 5D / 6S 6H 6D / 7S 7D 7C / 8S 8D 8C / 9S 9H 9C / 10S 10H 10C / JS JH JD"
    " | 4S 10S 5D QD KD AC 2C 3C 9C"
)
ACES = (  # i5e1vndi59
    "italian | 2S 2H 2D / 3S 3H 3D / 6S 6H 6C / QS QH QD QC / QH QD QC / 6D 7D 8D 9D 10D JD / 2C 3C 4C 5C"
    " | AS 2S 5S QS AH 5D 7D 7C 7C KC"
)
TWO_OF_SPADES = (  # c9m1vndi4v
    "classic | 4S 4H 4C / 5S 6S 7S / 7S 7D 7C / 9S 10S JS QS / KS KD KC / 7H 8H 9H / 9H 9D 9C / 10H 10D 10C"
    " / JH QH KH / 4D 5D 6D / 5D 6D 7D / 8D 9D 10D / JD QD KD | 2S 3S JH KH 3D 3D 8D 6C 7C 10C KC"
)
CLUBS = "classic | 10S 10H 10D 10C / JS JH JC / 8H 9H 10H | 9S JC QC"
"""J♣ Q♣ take 10♣ from the set of four; nothing else can use a ten."""


def solved(text: str) -> tuple[Position, int, tuple[Card, ...]]:
    position = Position.parse(text)
    best = maximum(position, time_limit=60)
    assert best.proven
    return position, best.placed, best.play.laid


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text.split()))


def test_a_card_whose_rival_takes_the_seven_is_a_real_fork() -> None:
    """5♥ has one home, 5♥ 6♥ 7♥ 8♥; kept back, 5♠ 6♠ take 7♠ instead: they compete for the
    sevens, so 5♥ in a run is a real fork (RULES.md)."""
    position, most, laid = solved(SEVENS)
    assert Card.parse("5H") in one_home_cards(position, most)
    assert rivals_of(position, laid, Card.parse("5H")) == cards("5S 6S")
    found = weak_forks(position, most, laid)
    assert (found.forks, found.weak) == (1, ())
    assert [(str(d), d.kind) for d in found.line] == [("8C kept", "decline"), ("5H in a run", "fork")]


def test_a_card_with_no_rival_is_a_weak_fork() -> None:
    """Q♣ has one home (no other queen), 10♣ J♣ Q♣; kept back, J♣ stays too and nothing else goes
    down: 9♠ could use 10♠ only with J♠, which the jacks cannot give. The forced moves cannot see
    that (9♠ keeps a run), so laying Q♣ is a fork; the solver proves it weak, and the puzzle has no
    real fork."""
    position, most, laid = solved(CLUBS)
    assert Card.parse("QC") in one_home_cards(position, most)
    assert rivals_of(position, laid, Card.parse("QC")) == ()
    forcing = decisions_of(position, most)
    found = weak_forks(position, most, laid, forcing)
    assert (forcing.decisions, forcing.forks) == (1, 1)
    assert found.forks == found.forks_at_least == 0
    assert Card.parse("QC") in found.weak
    assert [d.kind for d in found.line] == [WEAK]


def test_the_sweep_keeps_its_fork() -> None:
    """Q♦ and K♦ have one home, but kept back 9♣ goes down instead; 9♠ is a table card, whose move
    to a run is never weak. The sweep's one fork stands, though A♣ 2♣ 3♣ are weak."""
    position, most, laid = solved(SWEEP)
    found = weak_forks(position, most, laid)
    assert found.forks == 1
    assert set(found.weak) == set(cards("AC 2C 3C"))
    assert dict(found.rivals)[Card.parse("QD")] == cards("9C")


def test_aces_has_a_rival_the_audit_missed() -> None:
    """i5e1vndi59: A♠ has one home, A♠ 2♠ 3♠, and the audit called its fork weak; but kept back,
    A♥ 2♥ 3♥ takes the threes' card instead (with Q♠ and 7♣: three cards), so it is real."""
    position, most, laid = solved(ACES)
    found = weak_forks(position, most, laid)
    assert dict(found.rivals)[Card.parse("AS")] == cards("AH")
    assert found.forks == 1


def test_the_two_of_spades_is_weak_and_the_jack_real() -> None:
    """c9m1vndi4v: 2♠ has one home and no rival (3♠ … 7♠ still go down without it); J♠ leaving its
    run for the jacks is a table card's move, a real fork. One real fork of two."""
    position, most, laid = solved(TWO_OF_SPADES)
    forcing = decisions_of(position, most)
    found = weak_forks(position, most, laid, forcing)
    assert (forcing.forks, found.forks) == (2, 1)
    assert Card.parse("2S") in found.weak
    kinds = {str(d.card): d.kind for d in found.line}
    assert (kinds["2S"], kinds["JS"]) == (WEAK, "fork")


def test_a_solve_stopped_at_its_limit_counts_the_card_weak() -> None:
    """Unproved either way, a card of one home counts as weak: the real forks are a lower bound."""
    position, most, laid = solved(SEVENS)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("puzzles._weak.rivals_of", lambda *args, **kwargs: None)
        found = weak_forks(position, most, laid)
    assert found.forks is None and not found.proven
    assert found.forks_at_least == 0
    assert Card.parse("5H") in found.unproved


def check_against_brute_force(position: Position) -> None:
    note(f"position: {position}")
    if not oracle.is_unique(position):
        return
    most = oracle.best_value(position)
    if most == 0:
        return
    laid = Counter(oracle.best_outcomes(position)[0].laid)
    forcing = decisions_of(position, most)
    if forcing.decisions is None or forcing.decisions > MOST or forcing.forks is None:
        return
    assert set(one_home_cards(position, most)) == one_home(position, most)
    expected = weak_cards(position, most, laid)
    found = weak_forks(position, most, laid.elements(), forcing)
    note(f"{forcing}; weak {found.weak}, brute force {sorted(map(str, expected))}")
    assert found.unproved == ()
    if forcing.forks:
        assert set(found.weak) == expected
        for card, rivals in found.rivals:
            assert rivals and card not in expected
    assert found.forks == fewest_real_forks(position, most, forcing.decisions, expected)


@each_preset
@property_test
@given(data=st.data())
def test_weak_forks_match_the_brute_force_on_blocks(rules: Rules, data: st.DataObject) -> None:
    check_against_brute_force(data.draw(blocks(rules), label="position"))


@each_preset
@property_test
@given(data=st.data())
def test_weak_forks_match_the_brute_force_on_small_tables(rules: Rules, data: st.DataObject) -> None:
    check_against_brute_force(data.draw(positions(rules, max_table_cards=12, max_hand=4), label="position"))

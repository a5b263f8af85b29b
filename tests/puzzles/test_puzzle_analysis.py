"""`analyse(..., puzzle=True)`: the generator's analysis, cut short where a position is no puzzle and
kept for positions asked again. It must agree with the full analysis on everything a puzzle reads."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from puzzles import SUITS, Card, Meld, MeldKind, Position, PositionError, analyse, is_puzzle
from puzzles import _solver as solver
from puzzles._candidates import meld_of
from puzzles._model import LinearExpr, Model, Objective
from puzzles._solver import _near
from tests.puzzles.strategies import positions
from tests.puzzles.test_solver import CHAINED, answers

TIME_LIMIT = 60.0
"""Far more than a small position needs: every answer below must come back proven."""

property_test = settings(max_examples=60, deadline=None, derandomize=True, database=None)


@pytest.fixture(autouse=True)
def no_analyses_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no analysis kept, so that it asks the solver itself."""
    monkeypatch.setattr(solver, "_analyses", OrderedDict())


@property_test
@given(positions(max_table_cards=12, max_hand=4), st.integers(-1, 4))
def test_a_puzzle_analysis_says_what_the_full_one_says(position: Position, least_chain: int) -> None:
    """Where the full analysis proves a puzzle with a chain of `least_chain` or more, the puzzle
    analysis is the same, answer for answer; elsewhere it is cut short or the same, and either way
    no puzzle of that chain. Asked again, the kept answer is the same and a new object."""
    full = analyse(position, time_limit=TIME_LIMIT)
    cut = analyse(position, time_limit=TIME_LIMIT, puzzle=True, least_chain=least_chain)
    assert full.proven and cut.proven
    assert answers(cut)[:2] == answers(full)[:2]  # the maximum and uniqueness are always asked
    wanted = is_puzzle(full) and (full.chain.length or 0) >= least_chain
    if wanted:
        assert not cut.cut_short and answers(cut) == answers(full)
    elif cut.cut_short:
        assert cut.chain.length is None and not is_puzzle(cut)
        if cut.depth.depth is not None:
            # cut at the depth: the full chain length, at most the depth, is short of what was asked
            assert full.depth.depth == cut.depth.depth < least_chain and is_puzzle(full)
        else:
            assert full.uniqueness.unique is False or full.best.placed < 1
    else:
        assert answers(cut) == answers(full)
    again = analyse(position, time_limit=TIME_LIMIT, puzzle=True, least_chain=least_chain)
    assert again is not cut and answers(again) == answers(cut) and again.cut_short == cut.cut_short


def test_a_position_that_is_not_unique_gets_no_depth() -> None:
    """Two best plays that place different cards (the fours or the sevens, each taking an end of
    the run): no puzzle, and the puzzle analysis asks neither the depth nor the chain length."""
    position = Position.parse("classic | 4H 5H 6H 7H | 4C 4D 7C 7D")
    full = analyse(position, time_limit=TIME_LIMIT)
    cut = analyse(position, time_limit=TIME_LIMIT, puzzle=True)
    assert full.uniqueness.unique is False and full.depth.depth is not None
    assert cut.proven and cut.cut_short and cut.depth.depth is None and cut.chain.length is None
    assert not is_puzzle(cut)


def test_a_depth_below_the_chain_asked_for_skips_the_chain_length() -> None:
    """CHAINED has depth 3 and chain 3: asked for a chain of 4, the depth alone says no; asked for
    3, the whole analysis; and a kept cut at 3 does not serve an ask for 3."""
    position = Position.parse(CHAINED + " KH")
    short = analyse(position, time_limit=TIME_LIMIT, puzzle=True, least_chain=4)
    assert short.proven and short.cut_short and short.depth.depth == 3 and short.chain.length is None
    whole = analyse(position, time_limit=TIME_LIMIT, puzzle=True, least_chain=3)
    assert whole.proven and not whole.cut_short and whole.chain.length == 3
    assert answers(whole) == answers(analyse(position, time_limit=TIME_LIMIT))


def test_an_analysis_not_proved_is_never_kept() -> None:
    """A time limit far too short proves nothing: nothing is kept, and the next ask solves anew."""
    position = Position.parse(CHAINED + " KH")
    starved = analyse(position, time_limit=1e-6, puzzle=True)
    if not starved.proven:
        assert not solver._analyses
    proved = analyse(position, time_limit=TIME_LIMIT, puzzle=True)
    assert proved.proven and proved.chain.length == 3


def uncached_order(table: tuple[Meld, ...]) -> tuple[int, ...]:
    """`_canonical`'s order as it was before it was kept: the melds that touch the most others
    (another object, equal or not) first, ties by the cards."""
    touching = [sum(_near(meld, other) for other in table if other is not meld) for meld in table]
    return tuple(sorted(range(len(table)), key=lambda i: (-touching[i], [c.index for c in table[i].cards])))


@property_test
@given(positions(max_table_cards=15, max_hand=2), st.booleans())
def test_the_kept_canonical_order_is_the_order_found_anew(position: Position, twice: bool) -> None:
    """Asked twice, and for a table that holds one meld object twice beside one that holds two
    equal ones, the kept order is the order found anew."""
    table = (*position.table, position.table[0]) if twice else position.table  # one object twice
    equal = tuple(Meld.of(meld.cards, position.rules) for meld in table)  # equal melds, new objects
    try:
        asked = [Position(position.rules, melds, position.hand) for melds in (table, equal)]
    except PositionError:
        assume(False)  # more copies than the decks hold
    for one in asked:
        for _ in range(2):
            ordered, order = solver._canonical(one)
            assert order == uncached_order(one.table)
            assert ordered.table == tuple(one.table[i] for i in order)


def old_require_some_other_end(model: Model, ends: dict[Card, tuple[int, int]]) -> None:
    """`Model.require_some_other_end` as it was before its candidates were read once a model: each
    ask walked every candidate. The constraints must be the same, term for term."""
    rules = model.position.rules
    wanted = {card.index: card for card in ends}
    sums: dict[int, dict[MeldKind, list[LinearExpr]]] = {
        index: {MeldKind.SET: [], MeldKind.RUN: []} for index in wanted
    }
    for var, piece, _ in model.pieces:
        kind: MeldKind | None = None
        for index, copies in piece:
            if index in sums:
                kind = kind or meld_of(piece, rules).kind
                sums[index][kind].append(copies * model.model.get_int_var_from_proto_index(var))
    differs = []
    for index, card in wanted.items():
        most = model.available[index]
        for kind, count in zip((MeldKind.SET, MeldKind.RUN), ends[card], strict=True):
            total = model.new_int(0, most)
            model.add(total == sum(sums[index][kind]))
            flag = model.model.new_bool_var("")
            model.model.add(total != count).only_enforce_if(flag)
            differs.append(flag)
    model.model.add_bool_or(differs)


@property_test
@given(positions(max_table_cards=15, max_hand=4), st.data())
def test_other_ends_are_asked_as_they_were(position: Position, data: st.DataObject) -> None:
    """Asked of copies of one model, for cards drawn at random (some in no candidate at all), the
    constraints are those the old walk over every candidate wrote, in the same order."""
    base = Model(position, Objective.CARDS)
    base.add(base.cards >= 1)
    cards = sorted({*position.hand, *(card for meld in position.table for card in meld.cards)}, key=str)
    for _ in range(3):
        asked = data.draw(st.lists(st.sampled_from([*cards, Card(13, SUITS[0])]), min_size=1, max_size=4))
        ends = {card: (data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))) for card in asked}
        new, old = base.copy(), base.copy()
        new.require_some_other_end(ends)
        old_require_some_other_end(old, ends)
        assert str(new.model.proto) == str(old.model.proto)


def test_a_table_holding_one_meld_object_twice_is_kept_apart_from_two_equal_melds() -> None:
    """Equal positions whose melds share objects otherwise are ordered otherwise, and so solved
    otherwise: the analysis kept for one is not the other's, each is what a fresh analysis says."""
    position = Position.parse("german-jokers | AS AD AC / 2H 3H JK 5H 6H 7H 8H | AH")
    one = position.table[0]
    shared = Position(position.rules, (*position.table, one), position.hand)
    apart = Position(position.rules, (*position.table, Meld.of(one.cards, position.rules)), position.hand)
    assert shared == apart
    # found among Hypothesis's positions: the two answer otherwise
    assert answers(analyse(shared, time_limit=TIME_LIMIT)) != answers(analyse(apart, time_limit=TIME_LIMIT))
    for first, second in ((shared, apart), (apart, shared)):
        solver._analyses.clear()
        analyse(first, time_limit=TIME_LIMIT, puzzle=True)
        kept = analyse(second, time_limit=TIME_LIMIT, puzzle=True)
        assert answers(kept) == answers(analyse(second, time_limit=TIME_LIMIT))

"""The analysis in two phases (what the analyser page shows first, then the chain length) says what
`analyse` says, and the chain phase with no time left gives a bound, never a bare number."""

from __future__ import annotations

from hypothesis import given, settings

from puzzles import Objective, Position, analyse, canonical, settle, told_for, with_chain
from tests.puzzles.strategies import positions
from tests.puzzles.test_order import answer

TIME_LIMIT = 10.0
TWO_CUTS = Position.parse("classic | 3C 4C 5C 6C 7C 8C 9C / 3H 4H 5H 6H 7H 8H 9H | 6S 6S 6D 6D")
"""Two long runs, each cut to free its middle card: depth 2, chain length 1."""


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(positions())
def test_settled_then_given_its_chain_is_the_analysis(position: Position) -> None:
    ordered, order = canonical(position)
    settled = settle(ordered, Objective.CARDS, TIME_LIMIT)
    whole = told_for(with_chain(settled, TIME_LIMIT), position, order)
    alone = analyse(position, Objective.CARDS, 2 * TIME_LIMIT)
    assert whole.proven and alone.proven
    assert answer(whole)[:3] == answer(alone)[:3]
    assert (whole.chain.length, whole.chain.proven) == (alone.chain.length, alone.chain.proven)
    # the settled part told for the position names its melds as the whole analysis does
    told = settled.told(position, order)
    assert told.position == position and told.proven
    assert told.depth.depth == whole.depth.depth
    assert sorted(str(position.table[i]) for i in told.depth.broken) == sorted(
        str(ordered.table[i]) for i in settled.depth.broken
    )
    assert told.shown.placed == whole.best.placed


def test_two_cuts_settle_at_depth_2_and_chain_length_1() -> None:
    settled = settle(TWO_CUTS, Objective.CARDS, TIME_LIMIT)
    assert settled.proven and settled.best.placed == 4 and settled.depth.depth == 2
    assert settled.uniqueness.unique is True and settled.other_play is None
    chain = with_chain(settled, TIME_LIMIT).chain
    assert (chain.length, chain.proven, len(chain.rearrangements)) == (1, True, 2)


def test_no_time_for_the_chain_bounds_it_by_the_depth_unproven() -> None:
    settled = settle(TWO_CUTS, Objective.CARDS, TIME_LIMIT)
    chain = with_chain(settled, 0.0).chain
    assert (chain.length, chain.proven) == (2, False)
    assert chain.rearrangements == (settled.depth.broken,)


def test_no_time_for_the_chain_of_one_break_is_still_exact() -> None:
    one_cut = Position.parse("classic | 3C 4C 5C 6C 7C 8C 9C | 6S 6D")
    settled = settle(one_cut, Objective.CARDS, TIME_LIMIT)
    assert settled.chain_known and not settle(TWO_CUTS, Objective.CARDS, TIME_LIMIT).chain_known
    chain = with_chain(settled, 0.0).chain
    assert (chain.length, chain.proven) == (1, True)

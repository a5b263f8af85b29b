"""The analysis gives the same answer whatever the order of the melds and the spelling of the cards:
the solver sees one canonical position, so even an answer it could not prove does not change."""

from __future__ import annotations

import os

from hypothesis import given, note, settings
from hypothesis import strategies as st

from puzzles import Analysis, Card, Position, analyse
from tests.puzzles.strategies import positions

TIME_LIMIT = 10.0
EXAMPLES = int(os.environ.get("ORDER_EXAMPLES", "200"))


@st.composite
def spelling(draw: st.DrawFn, card: Card) -> str:
    """One of the ways a player may type the card: `10H`, `th`, `10♥`."""
    token = str(card)
    if card.is_joker:
        return draw(st.sampled_from([token, token.lower()]))
    rank, suit = token[:-1], token[-1]
    ranks = [rank, "T"] if rank == "10" else [rank]
    suits = [suit, suit.lower(), card.pretty()[-1]]
    return draw(st.sampled_from(ranks)) + draw(st.sampled_from(suits))


@st.composite
def told_another_way(draw: st.DrawFn, position: Position) -> Position:
    """The same position with its melds and hand in another order and its cards spelt otherwise."""
    melds = draw(st.permutations(position.table))
    hand = draw(st.permutations(position.hand))
    table = " / ".join(" ".join(draw(spelling(card)) for card in meld.cards) for meld in melds)
    text = f"{position.rules.name} | {table} | {' '.join(draw(spelling(card)) for card in hand)}"
    note(f"told as: {text}")
    return Position.parse(text)


def answer(analysis: Analysis) -> tuple[object, ...]:
    """What an analysis says, with melds named by their cards rather than their places."""
    table = analysis.position.table

    def named(melds: tuple[int, ...]) -> list[str]:
        return sorted(str(table[i]) for i in melds)

    return (
        analysis.best.placed,
        analysis.uniqueness.unique,
        analysis.depth.depth,
        named(analysis.depth.broken),
        sorted(named(group) for group in analysis.chain.rearrangements),
        analysis.chain.length,
        analysis.chain.proven,
        sorted(str(meld) for meld in analysis.shown.table),
        analysis.shown.laid,
    )


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_the_answer_does_not_depend_on_order_or_spelling(data: st.DataObject) -> None:
    position = data.draw(positions(max_table_cards=15, max_hand=5), label="position")
    expected = answer(analyse(position, time_limit=TIME_LIMIT))
    for _ in range(3):
        assert answer(analyse(data.draw(told_another_way(position)), time_limit=TIME_LIMIT)) == expected

"""Cards and their notation."""

from __future__ import annotations

import pytest

from puzzles import JOKER, SUITS, Card, CardError, Suit, parse_cards, sorted_cards

EVERY_CARD = [Card.from_index(index) for index in range(53)]


@pytest.mark.parametrize("card", EVERY_CARD, ids=str)
def test_every_card_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card
    assert Card.from_index(card.index) == card
    assert eval(repr(card), {"Card": Card}) == card


def test_indices_cover_the_deck_once() -> None:
    assert sorted(card.index for card in EVERY_CARD) == list(range(53))
    assert EVERY_CARD[-1] == JOKER
    assert len({str(card) for card in EVERY_CARD}) == 53


@pytest.mark.parametrize("card", [c for c in EVERY_CARD if not c.is_joker], ids=str)
def test_pretty_form_reads_back(card: Card) -> None:
    assert Card.parse(card.pretty()) == card


@pytest.mark.parametrize(
    ("token", "text", "pretty"),
    [
        ("10H", "10H", "10♥"),
        ("TH", "10H", "10♥"),
        ("th", "10H", "10♥"),
        ("10h", "10H", "10♥"),
        ("T♥", "10H", "10♥"),
        ("A♠", "AS", "A♠"),
        ("a♠", "AS", "A♠"),
        ("qd", "QD", "Q♦"),
        ("2♣", "2C", "2♣"),
        (" 7s ", "7S", "7♠"),
        ("JK", "JK", "🃏"),
        ("jk", "JK", "🃏"),
        ("3\u2660\ufe0f", "3S", "3♠"),  # 3♠️ from a phone's emoji keyboard
        ("K♡", "KH", "K♥"),
        ("10♢", "10D", "10♦"),
        ("a♧", "AC", "A♣"),
        ("5♤\ufe0e", "5S", "5♠"),
    ],
)
def test_notation(token: str, text: str, pretty: str) -> None:
    card = Card.parse(token)
    assert str(card) == text
    assert card.pretty() == pretty


def test_card_fields() -> None:
    ten = Card.parse("10H")
    assert (ten.rank, ten.suit, ten.is_joker) == (10, Suit.HEARTS, False)
    assert JOKER.is_joker and JOKER.suit is None and JOKER.index == 52
    assert Card.parse("AS").index == 0 and Card.parse("KC").index == 51
    assert [suit.symbol for suit in SUITS] == ["♠", "♥", "♦", "♣"]
    assert [suit.is_red for suit in SUITS] == [False, True, True, False]


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("1X", "'1X' is not a card: unknown suit 'X'"),
        ("1H", "'1H' is not a card: unknown rank '1'"),
        ("11H", "'11H' is not a card: unknown rank '11'"),
        ("ZS", "'ZS' is not a card: unknown rank 'Z'"),
        ("H", "'H' is not a card: missing rank"),
        ("", "'' is not a card: empty token"),
        ("   ", "'' is not a card: empty token"),
        ("5\u200b", "'5\\u200b' is not a card: unknown suit 'U+200B'"),  # an invisible suit is named
    ],
)
def test_bad_tokens_are_named(token: str, message: str) -> None:
    with pytest.raises(CardError) as caught:
        Card.parse(token)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_a_non_string_is_not_a_card() -> None:
    with pytest.raises(CardError, match="is not a card"):
        Card.parse(7)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rank", "suit"), [(0, Suit.SPADES), (14, Suit.HEARTS), (5, None)])
def test_impossible_cards_are_refused(rank: int, suit: Suit | None) -> None:
    with pytest.raises(CardError):
        Card(rank, suit)


def test_parse_cards_reads_lists_and_strings() -> None:
    expected = (Card.parse("3S"), Card.parse("10S"), JOKER)
    assert parse_cards("3S 10S JK") == expected
    assert parse_cards("3S,TS, jk") == expected
    assert parse_cards(["3S", "10♠", "JK"]) == expected
    assert parse_cards("") == ()
    with pytest.raises(CardError, match="'4X' is not a card"):
        parse_cards("3S 4X")


def test_sorted_cards_go_by_suit_then_rank_with_jokers_last() -> None:
    hand = parse_cards("JK KC 2H AS 10H AC 5S")
    assert [str(card) for card in sorted_cards(hand)] == ["AS", "5S", "2H", "10H", "AC", "KC", "JK"]

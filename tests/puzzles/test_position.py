"""Positions: the text and JSON forms, and the positions that cannot occur."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings

from puzzles import JOKER, Card, Meld, Position, PositionError, Rules, parse_cards
from tests.puzzles.strategies import positions

TEXTS = [
    "classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD",
    "italian | KH KD KC / QH QD QC / JH JD JC | AC",
    "jokers | 3S JK 5S / 7H 7D 7C JK | 4S JK",
    "german-jokers | JK QS KS | JS",
    "three-decks | 9D 10D JD / 9D 10D JD / 9D 10D JD | 8D",
    "classic |  | 3S 4S 5S",
]


@pytest.mark.parametrize("text", TEXTS)
def test_text_and_json_round_trip(text: str) -> None:
    position = Position.parse(text)
    assert str(position) == text
    assert Position.parse(str(position)) == position
    assert Position.from_json(position.to_json()) == position


@settings(max_examples=50, deadline=None, derandomize=True, database=None)
@given(positions())
def test_random_positions_round_trip(position: Position) -> None:
    assert Position.parse(str(position)) == position
    assert Position.from_json(position.to_json()) == position


def test_the_parts_of_a_position() -> None:
    position = Position.parse("Classic | 7H 7D 7C / 5S 3S 4S | KD 6S 7S 6S")
    assert position.rules is Rules.named("classic")
    assert position.table == (Meld.parse("7H 7D 7C", position.rules), Meld.parse("3S 4S 5S", position.rules))
    assert position.hand == parse_cards("6S 6S 7S KD")
    assert position.table_counts() == Counter(parse_cards("7H 7D 7C 3S 4S 5S"))
    assert position.hand_counts() == Counter({Card.parse("6S"): 2, Card.parse("7S"): 1, Card.parse("KD"): 1})
    assert position.to_json() == {
        "rules": "classic",
        "table": [["7H", "7D", "7C"], ["3S", "4S", "5S"]],
        "hand": ["6S", "6S", "7S", "KD"],
    }


def test_build_takes_tokens() -> None:
    built = Position.build("jokers", [["3S", "JK", "5S"], "7H 7D 7C"], ["4S", "JK"])
    assert built == Position.parse("jokers | 3S JK 5S / 7H 7D 7C | 4S JK")
    assert built.hand[-1] == JOKER


def test_json_accepts_a_table_string_and_an_id() -> None:
    data = {"id": 12, "table": "3S 4S 5S / 7H 7D 7C", "hand": "6S"}
    assert Position.from_json(data) == Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S")


def test_json_reads_past_a_generator_lines_fields() -> None:
    """A generator line reads as its position."""
    data = {
        "id": "cb2",
        "rules": "italian",
        "table": [["KH", "KD", "KC"], ["QH", "QD", "QC"], ["JH", "JD", "JC"]],
        "hand": ["AC"],
        "solution": [["JH", "QH", "KH"], ["JD", "QD", "KD"], ["JC", "QC", "KC", "AC"]],
        "tier": "hard",
    }
    assert Position.from_json(data) == Position.parse("italian | KH KD KC / QH QD QC / JH JD JC | AC")
    with pytest.raises(PositionError, match="unknown field 'colour'"):
        Position.from_json(data | {"colour": "red"})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "classic | 7H 7D 7C / 7H 8H 9H | 7H",
            "3 copies of 7♥ on the table and in the hand, but the classic rules have 2",
        ),
        (
            "three-decks | 7H 7D 7C / 7H 8H 9H / 7H 7S 7C | 7H",
            "4 copies of 7♥ on the table and in the hand, but the three-decks rules have 3",
        ),
        ("classic | 3S 4S 5S | JK", "1 joker on the table and in the hand, but the classic rules have none"),
        (
            "italian | 3S 4S 5S | JK JK",
            "2 jokers on the table and in the hand, but the italian rules have none",
        ),
        (
            "german-jokers | 3S JK 5S / 7H 7D JK | JK",
            "3 jokers on the table and in the hand, but the german-jokers rules have 2",
        ),
        (
            "jokers | 3S JK 5S / 7H 7D JK | JK JK JK",
            "5 jokers on the table and in the hand, but the jokers rules have 4",
        ),
        ("classic | 3S 4S 5S / 7H 7H 7D | 6S", "table meld 2 (7H 7H 7D): 7♥ twice in a set"),
        ("classic | 3S 5S 6S | 6S", "table meld 1 (3S 5S 6S): gap between 3♠ and 5♠"),
        ("classic | 3S 4S 5S / 9H 9D | 6S", "table meld 2 (9H 9D): only 2 cards"),
        ("classic | 3S JK 5S | 6S", "table meld 1 (3S JK 5S): no jokers in the classic rules"),
        ("jokers | 3S JK JK 6S | 6S", "table meld 1 (3S JK JK 6S): two jokers in one meld"),
        ("classic | 3S 4X 5S | 6S", "table meld 1 (3S 4X 5S): '4X' is not a card: unknown suit 'X'"),
        ("classic | 3S 4S 5S | 6S 1X", "hand: '1X' is not a card: unknown suit 'X'"),
        ("poker | 3S 4S 5S | 6S", "unknown rules 'poker'"),
        ("classic | 3S 4S 5S", "a position reads 'rules | table melds separated by / | hand'"),
    ],
)
def test_impossible_positions_say_why(text: str, message: str) -> None:
    with pytest.raises(PositionError) as caught:
        Position.parse(text)
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([["3S", "4S", "5S"]], "a position must be a JSON object with table and hand"),
        ({"hand": ["6S"], "tier": "easy"}, "table is missing"),
        ({"table": None, "hand": []}, "table must be a list of melds"),
        ({"rules": 2, "table": [], "hand": []}, "rules must be a preset name"),
        ({"table": 5, "hand": []}, "table must be a list of melds"),
        ({"table": []}, "hand is missing"),
        ({"table": [5], "hand": []}, "table meld 1: expected a list of cards"),
        ({"table": [], "hand": 7}, "hand: expected a list of cards"),
        ({"table": [["3S", "4S", 5]], "hand": []}, "table meld 1 (3S 4S 5): 5 is not a card"),
    ],
)
def test_bad_json_says_why(data: Any, message: str) -> None:
    with pytest.raises(PositionError) as caught:
        Position.from_json(data)
    assert str(caught.value).startswith(message)


def test_a_misspelt_field_is_refused_not_read_as_classic() -> None:
    with pytest.raises(PositionError, match="unknown field 'rule'"):
        Position.from_json({"rule": "italian", "table": "10S JS QS", "hand": "KS AS"})

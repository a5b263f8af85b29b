"""Reading a typed position: separators, notations, and every problem at once."""

from __future__ import annotations

from puzzles import JOKER, Objective, Position, parse_cards, read_entry


def test_melds_split_on_slashes_and_new_lines_cards_on_spaces_and_commas() -> None:
    entry = read_entry("italian", "qs, kS,a♠ / 10h ts 10♦\n7C 8C 9C;", "T♣ 2c", "points")
    assert entry.problems == ()
    assert entry.position == Position.parse("italian | QS KS AS / 10H 10S 10D / 7C 8C 9C | 10C 2C")
    assert entry.objective is Objective.POINTS
    assert [meld.number for meld in entry.melds] == [1, 2, 3]


def test_a_valid_meld_is_shown_in_table_order_and_a_bad_one_as_typed() -> None:
    entry = read_entry("jokers", "5H 🃏 3H / 9C 9C 9D", "joker")
    first, second = entry.melds
    assert first.cards == parse_cards("3H JK 5H") and first.problem is None
    assert second.cards == parse_cards("9C 9C 9D") and str(second.problem) == "9♣ twice in a set"
    assert entry.hand == (JOKER,)
    assert entry.position is None


def test_what_was_typed_is_kept_as_it_was() -> None:
    entry = read_entry("classic", "3s 4s 5x", "qq")
    assert (entry.table_text, entry.hand_text) == ("3s 4s 5x", "qq")
    assert [problem.field for problem in entry.problems] == ["table", "hand"]
    assert not entry.blank


def test_nothing_typed_is_blank_and_needs_a_hand() -> None:
    entry = read_entry("classic", "  ", "")
    assert entry.blank
    assert [str(problem.message) for problem in entry.problems] == [
        "the hand is empty: type the cards you held"
    ]
    assert entry.problems_of("table") == []


def test_too_many_jokers_is_a_position_problem() -> None:
    entry = read_entry("german-jokers", "3S JK 5S / 7H 7D JK", "JK")
    assert [str(problem.message) for problem in entry.problems_of("position")] == [
        "3 jokers on the table and in the hand, but the german-jokers rules have 2"
    ]


def test_a_joker_where_the_rules_have_none_is_named_in_the_singular() -> None:
    entry = read_entry("classic", "3S 4S 5S", "JK")
    assert "1 joker on the table and in the hand, but the classic rules have none" in [
        str(problem.message) for problem in entry.problems
    ]


def test_a_semicolon_separates_hand_cards_as_it_does_melds() -> None:
    entry = read_entry("classic", "3S 4S 5S; 7H 7D 7C", "6S; 8S")
    assert entry.problems == () and [str(card) for card in entry.hand] == ["6S", "8S"]


def test_too_many_copies_are_reported_beside_a_bad_meld() -> None:
    entry = read_entry("jokers", "JK JK JK / JK 5S 6S", "JK")
    messages = [str(problem.message) for problem in entry.problems]
    assert any("jokers in one meld" in message for message in messages), messages
    assert "5 jokers on the table and in the hand, but the jokers rules have 4" in messages

"""Plays and the independent check of a final table."""

from __future__ import annotations

from hypothesis import given, settings

from puzzles import (
    JOKER,
    Meld,
    Play,
    Position,
    Problem,
    ProblemCode,
    maximum,
    parse_cards,
    play_of,
    play_problems,
)
from tests.puzzles.strategies import positions


def problems(position: str, *table: str) -> list[str]:
    return [
        str(found) for found in play_problems(Position.parse(position), [parse_cards(meld) for meld in table])
    ]


def test_a_legal_final_table_has_no_problems() -> None:
    assert problems("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD", "3S 4S 5S 6S 7S", "7H 7D 7C") == []
    assert problems("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D", "3C 4C 5C", "7C 8C 9C", "6H 6D 6C") == []
    # placing nothing leaves the table as it was, which is legal (the play then places 0 cards)
    assert problems("classic | 3S 4S 5S | KD", "3S 4S 5S") == []


def test_every_problem_is_named() -> None:
    found = problems("classic | 3S 4S 5S / 7H 7D 7C | 6S", "7H 7H 7D")
    assert found == [
        "meld 1 (7♥ 7♥ 7♦): 7♥ twice in a set",
        "3♠ left the table",
        "4♠ left the table",
        "5♠ left the table",
        "7♣ left the table",
        "7♥ is not in the hand",
    ]


def test_a_card_placed_twice_must_be_in_the_hand_twice() -> None:
    assert problems("classic | 3S 4S 5S | 6S", "3S 4S 5S 6S", "6S 7S 8S") == [
        "6♠ is not in the hand",
        "7♠ is not in the hand",
        "8♠ is not in the hand",
    ]


def test_a_joker_may_not_leave_the_table_under_the_polish_rules() -> None:
    assert problems("jokers | 5H 5D 5S JK | 5C", "5H 5D 5S 5C") == ["1 joker left the table"]


def test_german_jokers_swap_needs_the_exact_card() -> None:
    # the joker written before 4♠ 5♠ is the 3♠: the 3♠ may send it to the hand, the 6♠ may not
    assert problems("german-jokers | JK 4S 5S | 3S", "3S 4S 5S") == []
    assert problems("german-jokers | JK 4S 5S | 6S", "4S 5S 6S") == [
        "a joker went back to the hand without its real card taking its place"
    ]
    # each freed joker needs its own real card
    assert problems("german-jokers | 5H 5D JK / 6H 6D JK | 5S", "5H 5D 5S", "6H 6D 6S") != []
    assert problems("german-jokers | 5H 5D JK / 6H 6D JK | 5S 6C", "5H 5D 5S", "6H 6D 6C") == []


def test_play_counts_and_the_hand_after() -> None:
    position = Position.parse("german-jokers | 5H 5D 5S JK | 5C 8H")
    swap = Play((Meld.parse("5H 5D 5S 5C", position.rules),), parse_cards("5C"), (JOKER,))
    assert swap.placed == 0
    assert swap.hand_after(position) == parse_cards("8H JK")
    nothing = Play(position.table, ())
    assert nothing.placed == 0
    assert nothing.hand_after(position) == position.hand


def melds(position: Position, *table: str) -> list[Meld]:
    return [Meld.parse(meld, position.rules) for meld in table]


def test_play_of_reads_the_cards_laid_off_the_final_table() -> None:
    position = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD")
    play = play_of(position, melds(position, "3S 4S 5S 6S 7S", "7H 7D 7C"))
    assert play.laid == parse_cards("6S 7S") and play.freed == () and play.placed == 2
    assert play.hand_after(position) == parse_cards("KD")
    assert play_of(position, position.table) == Play(position.table, ())


def test_play_of_counts_a_freed_joker_against_the_cards_laid() -> None:
    position = Position.parse("german-jokers | 6H 6S JK | 6D 6C")
    four = play_of(position, melds(position, "6H 6S 6D 6C"))
    assert (four.laid, four.freed, four.placed) == (parse_cards("6D 6C"), (JOKER,), 1)
    # a six laid for the joker, the joker back in the hand: a card was laid, the hand is no smaller
    swap = play_of(position, melds(position, "6H 6S 6D"))
    assert (swap.laid, swap.freed, swap.placed) == (parse_cards("6D"), (JOKER,), 0)
    kept = play_of(position, melds(position, "6H 6S JK 6D"))
    assert (kept.laid, kept.freed, kept.placed) == (parse_cards("6D"), (), 1)


def test_play_of_counts_an_illegal_table_too() -> None:
    position = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S")
    lost = play_of(position, melds(position, "3S 4S 5S 6S"))  # the set left the table
    assert lost.placed == 1 and play_problems(position, [meld.cards for meld in lost.table]) != []


@settings(max_examples=40, deadline=None)
@given(position=positions(max_table_cards=9, max_hand=3))
def test_play_of_agrees_with_the_solver(position: Position) -> None:
    best = maximum(position, time_limit=10.0)
    play = play_of(position, best.play.table)
    assert play.placed == best.play.placed
    assert play.hand_after(position) == best.play.hand_after(position)


def test_problems_are_values_with_a_code_and_the_cards_they_name() -> None:
    position = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 9S")
    found = play_problems(position, [parse_cards("3S 4S 5S 6S 9S"), parse_cards("7H 7D")])
    meld, short, left = found
    assert (short.count, short.inner) == (2, Problem(ProblemCode.TOO_FEW, count=2))
    assert (meld.code, meld.count, meld.cards) == (ProblemCode.MELD, 1, parse_cards("3S 4S 5S 6S 9S"))
    assert meld.inner == Problem(ProblemCode.GAP, parse_cards("6S 9S"))
    assert left == Problem(ProblemCode.LEFT_TABLE, parse_cards("7C"))
    assert str(left) == "7♣ left the table"

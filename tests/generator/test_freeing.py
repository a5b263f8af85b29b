"""The German joker rule asked for (issue 38): a german-jokers Expert whose best play frees a table
joker with its real card from the hand, takes the joker back into the hand and lays it again."""

from __future__ import annotations

import time
from collections import Counter

import pytest

from generator import Puzzle, puzzle_from_id
from generator._freeing import freeing
from generator._shapes import frees_joker
from puzzles import JOKER, Board, Card, Meld, Position, analyse, parse_cards, play_of, play_problems

SEARCHED = (
    "german-jokers | 8S 8C JK / QS QD QC / 3H 4H 5H / 8H 9H 10H / 4D 5D 6D / 8D 9D 10D / 10D JD QD KD"
    " / 2C 3C 4C / 8C 9C 10C / JC QC KC | 2S 3S 6S 10S 6H 6H 2D JD 6C JK"
)
"""What the search of g7e4 found: the best play lays the hand's joker (as 7♥, between 6♥ and 8♥)."""


@pytest.fixture(scope="module")
def expert() -> Puzzle:
    # g7e4 was the first before the Expert search started from small mid-game tables
    return puzzle_from_id("g7e6")


def takes_the_joker_back(position: Position, solution: tuple[tuple[str, ...], ...]) -> bool:
    """Whether the solution is reached as the German rule has it: some hand card takes a table
    joker's place, the joker goes into the hand (a legal table at that point, the joker freed), and
    from there the solution lays the joker again."""
    board = Board.start(position)
    cards = board.cards()
    for number, meld in enumerate(position.table):
        for place, (card_id, card) in enumerate(zip(board.melds[number], meld.cards, strict=True)):
            if not card.is_joker:
                continue
            for real in meld.stand_ins()[sum(c.is_joker for c in meld.cards[:place])]:
                hand_id = next((h for h in board.hand_ids() if cards[h] == real), None)
                if hand_id is None:
                    continue
                swapped = board.move(card_id, "hand").move(hand_id, str(number))
                freed = swapped.play()
                if freed is None or freed.freed != (JOKER,):
                    continue
                if play_problems(position, [meld.cards for meld in freed.table]):
                    continue
                # the table with the joker in the hand, and the hand holding it
                hand = Counter(position.hand) - Counter([real]) + Counter([JOKER])
                after = Position(position.rules, freed.table, tuple(hand.elements()))
                final = [Meld.of(parse_cards(m), position.rules) for m in solution]
                if not play_problems(after, [m.cards for m in final]) and JOKER in play_of(after, final).laid:
                    return True
    return False


def test_a_german_jokers_expert_takes_a_joker_back_into_the_hand(expert: Puzzle) -> None:
    assert (expert.rules, expert.tier) == ("german-jokers", "expert")
    position = expert.position()
    assert frees_joker(position, expert.solution)
    assert takes_the_joker_back(position, expert.solution)
    # the hand holds the joker's card, J♦, and no joker: the best play must free the table's
    assert JOKER not in position.hand and Card.parse("JD") in position.hand


def test_the_check_refuses_a_play_that_leaves_the_jokers_where_they_are() -> None:
    position = Position.parse("german-jokers | 5H JK 7H / 9S 9H 9D | 9C")
    assert not takes_the_joker_back(position, (("5H", "JK", "7H"), ("9S", "9H", "9D", "9C")))
    swapped = Position.parse("german-jokers | 5H JK 7H / 9S 9H 9D | 6H")
    assert takes_the_joker_back(swapped, (("5H", "6H", "7H"), ("9S", "9H", "9D", "JK")))


def test_freeing_changes_the_laid_joker_for_a_table_card_the_best_play_puts_back() -> None:
    searched = analyse(Position.parse(SEARCHED), time_limit=60)
    assert JOKER in searched.best.play.laid
    freed = freeing("g7e4", searched, time.perf_counter() + 120)
    assert freed is not None and freed is not searched
    position = freed.position
    assert JOKER not in position.hand and freed.best.placed == searched.best.placed
    assert freed.uniqueness.unique is True
    assert freed.chain.play is not None
    solution = tuple(tuple(meld.tokens()) for meld in freed.chain.play.table)
    assert frees_joker(position, solution) and takes_the_joker_back(position, solution)


def test_freeing_leaves_a_position_without_a_laid_hand_joker_alone() -> None:
    plain = analyse(Position.parse("german-jokers | 5H 6H 7H / 9S 9H 9D | 9C 2S"), time_limit=60)
    assert freeing("x", plain, time.perf_counter() + 60) is plain

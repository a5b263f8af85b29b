"""The spoiler guard knows a puzzle up to relabelling (RULES.md), with its melds rebuilt, hand cards
left out and a meld added; and it lets other puzzles and other games through. Judged directly on
`Guarded.held_by`, as `refuse_spoilers` asks it, for every relabelling of each puzzle."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import generator
from puzzles import SUITS, Card, Meld, Position, relabel, relabellings
from tests.webapp.conftest import KNOWN
from webapp.analyser.guard import Guarded

PUZZLES = [
    KNOWN,
    "italian | QH KH AH / 5S 5D 5C / 8D 9D 10D JD | 2H 3H AH 9D KS",
    "jokers | 4S 5S JK 7S / 9H 9D 9C / 10C JC QC | 6S 8S 9S JK 2D",
]


def guarded(position: Position) -> Guarded:
    table = Counter(card for meld in position.table for card in meld.cards)
    return Guarded(lambda: "today", table, Counter(position.hand))


def held(guard: Guarded, position: Position) -> bool:
    return guard.held_by(position, Counter(card for meld in position.table for card in meld.cards))


def rebuilt(rng: random.Random, position: Position) -> Position:
    """Runs of four or more lose their end card to the hand, the melds shuffled, a decoy or a placed
    card left out, and a set of kings or of twos added where the cards allow it."""
    rules = position.rules
    table: list[Meld] = []
    hand = list(position.hand)
    for meld in position.table:
        if len(meld.cards) >= 4 and rng.random() < 0.5:
            table.append(Meld.of(meld.cards[:-1], rules))
            hand.append(meld.cards[-1])
        else:
            table.append(meld)
    rng.shuffle(table)
    if len(hand) > 1:
        hand.remove(rng.choice(hand))
    for rank in (13, 2):
        added = [Card(rank, suit) for suit in SUITS[:3]]
        try:
            return Position(rules, (*table, Meld.of(added, rules)), tuple(hand))
        except ValueError:
            continue
    return Position(rules, tuple(table), tuple(hand))


@pytest.mark.parametrize("text", PUZZLES)
def test_every_disguise_of_the_puzzle_is_refused(text: str) -> None:
    puzzle = Position.parse(text)
    guard = guarded(puzzle)
    rng = random.Random(text)
    disguises = list(relabellings(puzzle))
    assert len(disguises) >= 48  # the suits and at least the identity and a mirror
    for relabelling in disguises:
        disguise = relabel(puzzle, relabelling)
        assert held(guard, disguise), disguise
        assert held(guard, rebuilt(rng, disguise)), disguise


def test_the_mirrored_daily_with_two_suits_swapped_is_refused() -> None:
    # the break found: today's ranks mirrored (r to 14 - r) and two suits swapped was answered in full
    disguise = Position.parse("classic | 4S 4C 4D / 3S 3C 3D / 2C 2H 2D / 10H 9H 8H 7H | 5S 2D 2S 6H AC QD")
    assert held(guarded(Position.parse(KNOWN)), disguise)


def test_a_table_and_a_hand_of_none_of_the_puzzles_cards_are_answered() -> None:
    guard = guarded(Position.parse(KNOWN))
    assert not held(
        guard, Position.parse("classic | 10S 10H 10D / JS JH JD / QH QD QC / 4C 5C 6C 7C | AS AH")
    )
    # the puzzle's hand with a third of its table: a game of one's own
    assert not held(guard, Position.parse("classic | 10S 10H 10D / 4C 5C 6C 7C | 9S QD QS 8C KH 2D"))


def test_generated_puzzles_are_not_taken_for_each_other() -> None:
    made = [
        generator.make_puzzle(rules, tier=tier, seed=seed)
        for rules in ("classic", "italian")
        for tier, seed in (("easy", 3), ("medium", 4), ("hard", 5))
    ]
    for puzzle in made:
        guard = guarded(puzzle.position())
        assert held(guard, puzzle.position())
        others = [other for other in made if other.id != puzzle.id]
        assert not any(held(guard, other.position()) for other in others), puzzle.id

"""Candidate melds for the optimisation model: plain combinatorics, no solver.

A final table is a partition of cards into valid melds. Every valid run of any length splits into
runs of 3 to 5 cards (with at most one joker in each), so the model only needs sets and those short
runs ("pieces"); longer runs are joins of pieces. Candidates are card-count vectors over the 53 card
types (`Card.index`), so the model sees nothing but a membership matrix.

For chain depth the model also needs, for each original meld, every way it can stay whole: the
final meld that holds all its cards, cut down to what cannot be laid as separate pieces (a
"keeping" of the meld).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations

from puzzles._cards import SUITS, Card
from puzzles._melds import Meld, MeldKind, rank_at
from puzzles._rules import Rules

JOKER_INDEX = 52
Candidate = tuple[tuple[int, int], ...]
"""A multiset of card types as sorted (card index, count) pairs."""


def _index(suit: int, position: int) -> int:
    return suit * 13 + rank_at(position) - 1


def _candidate(indices: list[int]) -> Candidate:
    return tuple(sorted(Counter(indices).items()))


def _ace_both_ends(low: int, high: int) -> bool:
    return low == 1 and high == 14


@cache
def pieces(rules: Rules) -> tuple[Candidate, ...]:
    """Every set, and every run of 3 to 5 cards, the rules allow, with joker variants."""
    found: set[Candidate] = set()
    jokers = rules.jokers_per_meld > 0
    for rank in range(1, 14):
        for size in (3, 4):
            for suits in combinations(range(4), size):
                found.add(_candidate([_index(s, rank) for s in suits]))
            if jokers:
                # the joker stands for any one missing suit, and the set keeps two real cards or more
                for suits in combinations(range(4), size - 1):
                    found.add(_candidate([_index(s, rank) for s in suits] + [JOKER_INDEX]))
    for suit in range(4):
        for start in range(1, rules.top_position + 1):
            for length in (3, 4, 5):
                end = start + length - 1
                if end > rules.top_position:
                    break
                cards = [_index(suit, p) for p in range(start, end + 1)]
                found.add(_candidate(cards))
                if jokers:
                    for hole in range(length):
                        found.add(_candidate(cards[:hole] + cards[hole + 1 :] + [JOKER_INDEX]))
    return tuple(sorted(found))


def keepings(meld: Meld, rules: Rules) -> tuple[Candidate, ...]:
    """Every final meld that keeps this meld whole, less what could be laid apart as pieces.

    A kept set stays a set, perhaps with one more card. A kept run sits in a longer run; beyond the
    span of its real cards and its joker, up to two cards on each side belong with it (three or
    more form pieces of their own). Its joker may move anywhere in the final run.
    """
    return tuple(sorted(set(_keepings(meld, rules))))


def _keepings(meld: Meld, rules: Rules) -> Iterator[Candidate]:
    own = [card.index for card in meld.cards]
    allow_joker = rules.jokers_per_meld > 0
    if meld.kind is MeldKind.SET:
        yield _candidate(own)
        present = {card.suit for card in meld.cards if card.suit is not None}
        if len(own) < 4:
            for suit in SUITS:
                if suit not in present:
                    yield _candidate([*own, Card(meld.start, suit).index])
            if allow_joker and meld.jokers == 0:
                yield _candidate([*own, JOKER_INDEX])
        return
    run_suit = meld.suit
    assert run_suit is not None
    s = run_suit.index
    real = [meld.start + i for i, card in enumerate(meld.cards) if not card.is_joker]
    low, high = min(real), max(real)
    joker_places: list[int | None] = [None]
    if meld.jokers:
        joker_places = [p for p in range(1, rules.top_position + 1) if p not in real]
    for joker in joker_places:
        core_low = low if joker is None else min(low, joker)
        core_high = high if joker is None else max(high, joker)
        core = [_index(s, p) for p in range(core_low, core_high + 1) if p != joker]
        if joker is not None:
            core.append(JOKER_INDEX)
        for left in range(3):
            for right in range(3):
                first, last = core_low - left, core_high + right
                if first < 1 or last > rules.top_position or _ace_both_ends(first, last):
                    continue
                extra = [_index(s, p) for p in range(first, core_low)]
                extra += [_index(s, p) for p in range(core_high + 1, last + 1)]
                yield _candidate(core + extra)
                if joker is None and allow_joker:
                    for hole in range(len(extra)):
                        yield _candidate(core + extra[:hole] + extra[hole + 1 :] + [JOKER_INDEX])


def fits(candidate: Candidate, available: Counter[int]) -> bool:
    return all(available[index] >= count for index, count in candidate)


def cards_of(candidate: Candidate) -> list[Card]:
    return [Card.from_index(index) for index, count in candidate for _ in range(count)]

"""Tables that look like a game in progress, and other ways to lay the same cards.

Cards are handled here as `Card.index` numbers (0-51, the joker 52) in count vectors, because the
splitting search below runs thousands of times per puzzle.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

from puzzles import Card, Meld, MeldKind, Rules

JOKER_INDEX = 52
CARD_TYPES = 53
SET_SHARE = 0.4
"""About this share of a real table's melds are sets; the rest are runs."""
RUN_LENGTHS = (3, 4, 5, 6, 7, 8, 9)
RUN_WEIGHTS = (34, 24, 16, 10, 7, 5, 4)
"""Short runs are the most common, but long ones build up as a game goes on."""
JOKER_SHARE = 0.3
"""How often a meld takes a joker while jokers are left, under rules that have them."""


def card_at(suit: int, position: int) -> int:
    """The index of the card at a run position (1-14, 14 being the high ace)."""
    return suit * 13 + (0 if position == 14 else position - 1)


def rank_of(index: int) -> int:
    return index % 13 + 1


def suit_of(index: int) -> int:
    return index // 13


def supply(rules: Rules) -> list[int]:
    """How many of each card type the game holds."""
    return [rules.decks] * 52 + [rules.jokers]


def sample_final_table(rules: Rules, rng: random.Random, melds: int) -> list[list[int]]:
    """A table of `melds` melds as a game in progress might show: sets, short and long runs, cards
    twice where the decks allow it, jokers under rules that have them.

    Each meld is a list of card indices in table order (a run low to high, a joker in its place).
    """
    stock = supply(rules)
    table: list[list[int]] = []
    tries = 0
    while len(table) < melds and tries < melds * 20:
        tries += 1
        meld = _sample_set(rules, rng, stock) if rng.random() < SET_SHARE else _sample_run(rules, rng, stock)
        if meld is None:
            continue
        if stock[JOKER_INDEX] and rng.random() < JOKER_SHARE:
            # the joker takes the place of one card, which goes back to the stock
            place = rng.randrange(len(meld))
            stock[meld[place]] += 1
            meld[place] = JOKER_INDEX
            stock[JOKER_INDEX] -= 1
        table.append(meld)
    return table


def _sample_set(rules: Rules, rng: random.Random, stock: list[int]) -> list[int] | None:
    rank = rng.randrange(13)
    suits = [s for s in range(4) if stock[s * 13 + rank]]
    size = 4 if rng.random() < 0.3 else 3
    if len(suits) < size:
        return None
    meld = sorted(s * 13 + rank for s in rng.sample(suits, size))
    for index in meld:
        stock[index] -= 1
    return meld


def _sample_run(rules: Rules, rng: random.Random, stock: list[int]) -> list[int] | None:
    suit = rng.randrange(4)
    length = rng.choices(RUN_LENGTHS, RUN_WEIGHTS)[0]
    top = rules.top_position
    start = rng.randrange(1, top - length + 2)
    if start == 1 and start + length - 1 == 14:
        return None
    meld = [card_at(suit, p) for p in range(start, start + length)]
    if any(not stock[index] for index in meld):
        return None
    for index in meld:
        stock[index] -= 1
    return meld


def counts_of(melds: Sequence[Sequence[int]]) -> list[int]:
    counts = [0] * CARD_TYPES
    for meld in melds:
        for index in meld:
            counts[index] += 1
    return counts


def to_meld(cards: Sequence[int], rules: Rules) -> Meld:
    return Meld.of([Card.from_index(index) for index in cards], rules)


def meld_indices(meld: Meld) -> list[int]:
    return [card.index for card in meld.cards]


def is_run(meld: Meld) -> bool:
    return meld.kind is MeldKind.RUN


class _Search:
    """A depth-first search for a split of cards into valid melds, with a budget of steps."""

    def __init__(self, rules: Rules, rng: random.Random, avoid: Sequence[Counter[int]], budget: int) -> None:
        self.rules = rules
        self.rng = rng
        self.avoid = avoid
        self.budget = budget
        self.order = sorted(range(52), key=lambda i: (rank_of(i), suit_of(i)))

    def split(self, counts: list[int]) -> list[list[int]] | None:
        first = next((i for i in self.order if counts[i]), None)
        if first is None:
            # every real card is in a meld; a joker left over has nowhere to go
            return [] if counts[JOKER_INDEX] == 0 else None
        self.budget -= 1
        if self.budget < 0:
            return None
        options = list(melds_with(first, counts, self.rules))
        self.rng.shuffle(options)
        # melds that cut across the melds to avoid come first: the table must be rearranged
        options.sort(key=self._inside)
        for meld in options:
            for index in meld:
                counts[index] -= 1
            rest = self.split(counts)
            for index in meld:
                counts[index] += 1
            if rest is not None:
                return [meld, *rest]
            if self.budget < 0:
                return None
        return None

    def _inside(self, meld: list[int]) -> bool:
        needed = Counter(meld)
        return any(all(other[i] >= n for i, n in needed.items()) for other in self.avoid)


def split_into_melds(
    counts: Sequence[int],
    rules: Rules,
    rng: random.Random,
    avoid: Sequence[Sequence[int]] = (),
    budget: int = 400,
) -> list[list[int]] | None:
    """A random way to lay all these cards as valid melds, or None if none was found in budget.

    Melds that lie inside one of the `avoid` melds are tried last, so the split tends to cut across
    them.
    """
    search = _Search(rules, rng, [Counter(meld) for meld in avoid], budget)
    return search.split(list(counts))


def melds_with(index: int, counts: Sequence[int], rules: Rules) -> Iterator[list[int]]:
    """Every meld of the available cards that holds `index` and no real card of a lower rank.

    Each is a list of indices in table order; a joker is used where the rules allow one.
    """
    rank, suit = rank_of(index), suit_of(index)
    jokers = counts[JOKER_INDEX] > 0 and rules.jokers_per_meld > 0
    others = [s * 13 + rank - 1 for s in range(4) if s != suit and counts[s * 13 + rank - 1]]
    for size in (2, 3):
        for pair in combinations(others, size):
            yield sorted([index, *pair])
    if jokers:
        for size in (1, 2):
            for pair in combinations(others, size):
                yield [*sorted([index, *pair]), JOKER_INDEX]
    yield from _runs_from(suit, rank, counts, rules, jokers)
    if rank == 1 and rules.ace_high:
        yield from _runs_to_high_ace(suit, counts, rules, jokers)


def _runs_from(
    suit: int, start: int, counts: Sequence[int], rules: Rules, jokers: bool
) -> Iterator[list[int]]:
    top = 13 if start == 1 else rules.top_position
    # the card at `start` opens the run; one later place may be a joker
    run = [card_at(suit, start)]
    hole = False
    for position in range(start + 1, top + 1):
        index = card_at(suit, position)
        if counts[index]:
            run.append(index)
        elif jokers and not hole:
            run.append(JOKER_INDEX)
            hole = True
        else:
            break
        if len(run) >= 3:
            yield list(run)
    if jokers and start > 1:
        # or a joker just below it opens the run
        run = [JOKER_INDEX, card_at(suit, start)]
        for position in range(start + 1, top + 1):
            index = card_at(suit, position)
            if not counts[index]:
                break
            run.append(index)
            if len(run) >= 3:
                yield list(run)


def _runs_to_high_ace(suit: int, counts: Sequence[int], rules: Rules, jokers: bool) -> Iterator[list[int]]:
    # the ace closes the run at position 14; one earlier place may be a joker
    run = [card_at(suit, 14)]
    hole = False
    for position in range(13, 1, -1):
        index = card_at(suit, position)
        if counts[index]:
            run.insert(0, index)
        elif jokers and not hole:
            run.insert(0, JOKER_INDEX)
            hole = True
        else:
            break
        if len(run) >= 3:
            yield list(run)

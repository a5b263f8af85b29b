"""The same table, relabelled (RULES.md): a permutation of the suits and a shift of the ranks, or a
mirror of them, turns one position into another that plays the same way. A position's `shape` is
the same for every relabelling of it, so near-duplicates and the spoiler guard judge tables by it.

Ranks are read as run positions (1 the low ace, 14 the high ace where the rules allow it). A shift
moves every position by the same amount; a mirror turns position p into c - p (the ace-low mirror
r to 14 - r is c = 14; where the ace is also high, c = 15 swaps the ace's two ends, A with A, 2
with K). A relabelling applies to a position when every card lands on a rank that exists. An ace
that is not in a run (in a set or the hand) stands at either end where the ace is high, so it takes
whichever end the map keeps among the ranks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

from puzzles._cards import SUITS, Card
from puzzles._melds import Meld, MeldKind, rank_at
from puzzles._position import Position
from puzzles._rules import Rules

_Meld = tuple[int, int, int, int, int]
"""A meld as numbers: (0, rank, suits present as bits, jokers, 0) for a set, (1, suit, first
position, length, joker places as bits) for a run."""
_Hand = tuple[tuple[int, int], ...]
"""The hand as sorted (rank, suit) pairs, a joker as (0, 4)."""
Shape = tuple[tuple[_Meld, ...], _Hand]
"""A position up to relabelling: the least of its relabelled tables and hands."""


@dataclass(frozen=True, slots=True)
class Relabelling:
    """Suits permuted, then positions shifted (`mirror` False: p to p + `offset`) or mirrored
    (`mirror` True: p to `offset` - p)."""

    suits: tuple[int, int, int, int]
    """The new suit of each suit, by `Suit.index`."""
    mirror: bool
    offset: int

    def position(self, position: int) -> int:
        return self.offset - position if self.mirror else position + self.offset


IDENTITY = Relabelling((0, 1, 2, 3), False, 0)


def rank_maps(rules: Rules) -> Iterator[tuple[bool, int]]:
    """Every (mirror, offset) that could keep some card among the ranks, the identity first."""
    top = rules.top_position
    yield False, 0
    for offset in range(-top, top + 1):
        if offset:
            yield False, offset
    for offset in range(2, 2 * top + 1):
        yield True, offset


def relabellings(position: Position) -> Iterator[Relabelling]:
    """Every relabelling that applies to the position (the identity first)."""
    for mirror, offset in rank_maps(position.rules):
        if _ranks_fit(position, Relabelling(IDENTITY.suits, mirror, offset)):
            for suits in permutations(range(4)):
                yield Relabelling(suits, mirror, offset)  # type: ignore[arg-type]


def relabel(position: Position, relabelling: Relabelling) -> Position:
    """The position with its cards relabelled; ValueError when a card leaves the ranks."""
    rules = position.rules
    if not _ranks_fit(position, relabelling):
        raise ValueError(f"{relabelling} moves a card of {position} off the ranks")
    table: list[tuple[Card, ...]] = []
    for meld in position.table:
        if meld.kind is MeldKind.RUN:
            cards = [_card(card, relabelling, rules, meld.start + i) for i, card in enumerate(meld.cards)]
            table.append(tuple(reversed(cards)) if relabelling.mirror else tuple(cards))
        else:
            table.append(tuple(_card(card, relabelling, rules) for card in meld.cards))
    hand = tuple(_card(card, relabelling, rules) for card in position.hand)
    return Position(rules, tuple(Meld.of(cards, rules) for cards in table), hand)


def shape(position: Position) -> Shape:
    """The position up to relabelling: two positions have one shape when relabellings turn one into
    the other (their melds and hands compared as multisets).

    Where the ace is also high, an ace outside a run stands at either end, so a relabelling that
    makes one may not undo it; the shape is therefore the least form over every position that a
    chain of relabellings reaches, which makes it the same for all of them.
    """
    rules = position.rules
    start = _numbers(position, IDENTITY, rules)
    reached = {start}
    todo = [start]
    while todo:
        form = todo.pop()
        for mirror, offset in rank_maps(rules):
            moved = _moved(form, mirror, offset, rules)
            if moved is not None and moved not in reached:
                reached.add(moved)
                todo.append(moved)
    return min(_permuted(form, suits) for form in reached for suits in permutations(range(4)))


def table_shape(position: Position) -> Shape:
    """The table alone up to relabelling (the hand left out)."""
    return shape(Position(position.rules, position.table, ()))


def melds_in_common(a: Position, b: Position) -> int:
    """The most melds the two tables have in common (as multisets) over every relabelling of either
    one onto the other."""

    def most(a: Position, b: Position) -> int:
        theirs = Counter(_meld_numbers(meld, IDENTITY, b.rules) for meld in b.table)
        return max(
            sum((Counter(_meld_numbers(meld, relabelling, a.rules) for meld in a.table) & theirs).values())
            for relabelling in relabellings(Position(a.rules, a.table, ()))
        )

    return max(most(a, b), most(b, a))


def shares_melds(a: Position, b: Position, least: int) -> bool:
    """Whether some relabelling of one table onto the other leaves `least` melds in common
    (`melds_in_common(a, b) >= least`), the near-duplicate test. A bound that leaves the suits out,
    one map of the ranks at a time, rules most pairs out before the suits' 24 orders are tried."""
    if not any(
        sum((mine & theirs).values()) >= least
        for one, other in ((a, b), (b, a))
        for theirs in _suitless(other)[:1]
        for mine in _suitless(one)
    ):
        return False
    return melds_in_common(a, b) >= least


@lru_cache(maxsize=4096)
def _suitless(position: Position) -> tuple[Counter[tuple[int, ...]], ...]:
    """The table's melds without their suits under each map of the ranks (`rank_maps`, the identity
    first); a meld the map moves off the ranks is left out, which keeps the count a bound."""
    rules = position.rules
    maps = [Relabelling(IDENTITY.suits, mirror, offset) for mirror, offset in rank_maps(rules)]
    return tuple(
        Counter(
            numbers
            for meld in position.table
            if (numbers := _suitless_meld(meld, relabelling, rules)) is not None
        )
        for relabelling in maps
    )


def _suitless_meld(meld: Meld, relabelling: Relabelling, rules: Rules) -> tuple[int, ...] | None:
    if meld.kind is MeldKind.SET:
        rank = _rank_or_none(meld.start, relabelling, rules)
        return None if rank is None else (0, rank, len(meld.cards), meld.jokers)
    ends = relabelling.position(meld.start), relabelling.position(meld.end)
    if min(ends) < 1 or max(ends) > rules.top_position:
        return None
    _, _, start, length, places = _meld_numbers(meld, relabelling, rules)
    return 1, start, length, places


def _numbers(position: Position, relabelling: Relabelling, rules: Rules) -> Shape:
    table = tuple(sorted(_meld_numbers(meld, relabelling, rules) for meld in position.table))
    hand = tuple(sorted(_card_numbers(card, relabelling, rules) for card in position.hand))
    return table, hand


def _meld_numbers(meld: Meld, relabelling: Relabelling, rules: Rules) -> _Meld:
    if meld.kind is MeldKind.SET:
        suits = sum(1 << relabelling.suits[card.suit.index] for card in meld.cards if card.suit is not None)
        return 0, _rank(meld.start, relabelling, rules), suits, meld.jokers, 0
    suit = meld.suit
    assert suit is not None  # a run has real cards
    jokers = [card.is_joker for card in meld.cards]
    start = relabelling.position(meld.start)
    if relabelling.mirror:
        jokers.reverse()
        start = relabelling.position(meld.end)
    places = sum(1 << i for i, joker in enumerate(jokers) if joker)
    return 1, relabelling.suits[suit.index], start, len(jokers), places


def _card_numbers(card: Card, relabelling: Relabelling, rules: Rules) -> tuple[int, int]:
    if card.suit is None:
        return 0, 4
    return _rank(card.rank, relabelling, rules), relabelling.suits[card.suit.index]


def _moved(form: Shape, mirror: bool, offset: int, rules: Rules) -> Shape | None:
    """A form with its ranks relabelled, suits kept; None when a card leaves the ranks."""
    relabelling = Relabelling(IDENTITY.suits, mirror, offset)
    top = rules.top_position
    melds: list[_Meld] = []
    for kind, a, b, length, places in form[0]:
        if kind == 0:
            rank = _rank_or_none(a, relabelling, rules)
            if rank is None:
                return None
            melds.append((0, rank, b, length, places))
            continue
        first, last = relabelling.position(b), relabelling.position(b + length - 1)
        if mirror:
            first, last = last, first
            places = sum(1 << (length - 1 - i) for i in range(length) if places >> i & 1)
        if not (first >= 1 and last <= top):
            return None
        melds.append((1, a, first, length, places))
    hand: list[tuple[int, int]] = []
    for rank, suit in form[1]:
        if suit == 4:
            hand.append((rank, suit))
            continue
        moved = _rank_or_none(rank, relabelling, rules)
        if moved is None:
            return None
        hand.append((moved, suit))
    return tuple(sorted(melds)), tuple(sorted(hand))


def _permuted(form: Shape, suits: tuple[int, ...]) -> Shape:
    melds: list[_Meld] = []
    for kind, a, b, length, places in form[0]:
        if kind == 0:
            melds.append((0, a, sum(1 << suits[i] for i in range(4) if b >> i & 1), length, places))
        else:
            melds.append((1, suits[a], b, length, places))
    hand = tuple(sorted((rank, suit if suit == 4 else suits[suit]) for rank, suit in form[1]))
    return tuple(sorted(melds)), hand


def _card(card: Card, relabelling: Relabelling, rules: Rules, at: int | None = None) -> Card:
    """The card relabelled; `at` is its run position, None for a card outside a run."""
    if card.suit is None:
        return card
    rank = rank_at(relabelling.position(at)) if at is not None else _rank(card.rank, relabelling, rules)
    return Card(rank, SUITS[relabelling.suits[card.suit.index]])


def _rank(rank: int, relabelling: Relabelling, rules: Rules) -> int:
    """A rank outside a run relabelled (it must land on a rank: see `_ranks_fit`)."""
    moved = _rank_or_none(rank, relabelling, rules)
    assert moved is not None
    return moved


def _rank_or_none(rank: int, relabelling: Relabelling, rules: Rules) -> int | None:
    """A rank outside a run relabelled, None off the ranks: an ace takes the end the map keeps where
    it is high too."""
    moved = relabelling.position(rank)
    if rank == 1 and rules.ace_high and not 1 <= moved <= rules.top_position:
        moved = relabelling.position(14)
    return rank_at(moved) if 1 <= moved <= rules.top_position else None


def _ranks_fit(position: Position, relabelling: Relabelling) -> bool:
    """Whether every card lands on a rank: each run inside the positions, every other card on a rank."""
    rules = position.rules
    for meld in position.table:
        if meld.kind is MeldKind.RUN:
            ends = relabelling.position(meld.start), relabelling.position(meld.end)
            if not (min(ends) >= 1 and max(ends) <= rules.top_position):
                return False
        elif _rank_or_none(meld.start, relabelling, rules) is None:
            return False
    return all(
        card.suit is None or _rank_or_none(card.rank, relabelling, rules) is not None
        for card in position.hand
    )


CardCounts = Counter[Card]


def card_overlaps(
    puzzle: CardCounts, held: CardCounts, hand: CardCounts
) -> Iterator[tuple[int, Relabelling]]:
    """For every relabelling of a puzzle's cards (table `puzzle` and `hand`, outside their melds),
    how many of the relabelled table cards `held` holds (each card as often as both have it).

    The spoiler guard's search: a position that rebuilt the puzzle's melds still holds its cards.
    Out of their melds an ace may stand at either end under any preset, so the maps are the widest
    of the rules' (which costs a guard nothing: more disguises are caught). Suits are matched by the
    best of the 24 permutations for each map of the ranks, from a 4 x 4 table of shared cards.
    """
    everything = puzzle + hand
    for mirror, offset in rank_maps(_WIDE):
        ranks = Relabelling(IDENTITY.suits, mirror, offset)
        if any(
            card.suit is not None and _rank_or_none(card.rank, ranks, _WIDE) is None for card in everything
        ):
            continue
        shared = [[0] * 4 for _ in range(4)]
        for card, count in puzzle.items():
            if card.suit is None:
                continue
            rank = _rank(card.rank, ranks, _WIDE)
            row = shared[card.suit.index]
            for suit in SUITS:
                row[suit.index] += min(count, held[Card(rank, suit)])
        for suits in permutations(range(4)):
            yield sum(shared[i][suits[i]] for i in range(4)), Relabelling(suits, mirror, offset)  # type: ignore[arg-type]


def relabel_cards(cards: CardCounts, relabelling: Relabelling) -> CardCounts:
    """Cards outside their melds relabelled, as `card_overlaps` reads them."""
    moved: CardCounts = Counter()
    for card, count in cards.items():
        moved[card if card.suit is None else _card(card, relabelling, _WIDE)] += count
    return moved


_WIDE = Rules.named("italian")
"""Rules whose ace stands at either end: the widest maps for cards outside their melds."""

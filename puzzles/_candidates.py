"""Candidate melds for the optimisation model: plain combinatorics, no solver.

A final table is a partition of cards into valid melds. Every valid run of any length splits into
runs of 3 to 5 cards (with at most one joker in each), so the model only needs sets and those short
runs ("pieces"); longer runs are joins of pieces. Candidates are card-count vectors over the 53 card
types (`Card.index`), so the model sees nothing but a membership matrix.

For chain depth the model also needs, for each original meld, every way it can stay whole: the
final meld that holds all its cards, cut down to what cannot be laid as separate pieces (a
"keeping" of the meld).

`allowed_by` gathers, once for a position, the candidates and keepings its cards allow, with what
the models read off them (`Allowed`: each one's card types, the most copies, which original melds a
final meld could join); `laid_out` narrows them to one layout, `reachable` says which melds a
rearrangement may break, and `meld_of` turns a candidate back into a meld.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations

from puzzles._cards import SUITS, Card
from puzzles._melds import Meld, MeldKind, rank_at
from puzzles._position import Position
from puzzles._rules import Rules

JOKER_INDEX = 52
Candidate = tuple[tuple[int, int], ...]
"""A multiset of card types as sorted (card index, count) pairs."""


def _index(suit: int, position: int) -> int:
    return suit * 13 + rank_at(position) - 1


def _candidate(indices: list[int]) -> Candidate:
    return tuple(sorted(Counter(indices).items()))


def _distinct(indices: list[int]) -> Candidate:
    """`_candidate` of a run's cards, each of another type (a run holds one of each place and its
    joker once), without counting them."""
    return tuple([(index, 1) for index in sorted(indices)])


def _ace_both_ends(low: int, high: int) -> bool:
    return low == 1 and high == 14


# one of the six solver caches kept together for the full analysis (issue 20): 5% of its CPU on classic
# and jokers, bench/caches.py; under 2 ms of a request each, bench/web_caches.py
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


@dataclass(frozen=True, slots=True)
class Keeping:
    """One final meld that keeps original melds whole: its cards, and which melds it keeps."""

    melds: tuple[int, ...]
    """Indices into the original table: the meld it was made for first, then any it also holds."""
    cards: Candidate
    """Every card of the final meld (less what could be laid apart as pieces)."""
    extra: Candidate
    """The cards beyond those of the melds it keeps."""


def _keepings_of(table: Sequence[Meld], index: int, rules: Rules) -> tuple[Keeping, ...]:
    """Every final meld that keeps meld `index` whole, less what could be laid apart as pieces.

    A kept set stays a set, perhaps with one more card. A kept run sits in a longer run; beyond the
    span of its real cards and its joker, up to two cards on each side belong with it (three or
    more form pieces of their own). Its joker may move anywhere in the final run, and the cards
    between the joker's new place and the real cards may hold other original runs whole: such a
    final meld keeps them too (they are listed after `index`).
    """
    if not table[index].jokers:
        # only a joker's new place can hold other melds: without one, the meld alone decides
        return _keepings_alone(table[index], index, rules)
    return _keeping_values(table, index, rules)


# one of the six solver caches kept together for the full analysis (issue 20): 5% of its CPU on classic
# and jokers, bench/caches.py; under 2 ms of a request each, bench/web_caches.py
@lru_cache(maxsize=4096)
def _keepings_alone(meld: Meld, index: int, rules: Rules) -> tuple[Keeping, ...]:
    """The keepings of a meld without a joker: each model of a position asks again for every meld."""
    return tuple(Keeping((index,), way.cards, way.extra) for way in _keepings_anywhere(meld, rules))


# one of the six solver caches kept together for the full analysis (issue 20): 5% of its CPU on classic
# and jokers, bench/caches.py; under 2 ms of a request each, bench/web_caches.py
@lru_cache(maxsize=1024)
def _keepings_anywhere(meld: Meld, rules: Rules) -> tuple[Keeping, ...]:
    """The keepings of a meld without a joker as the first meld of a table: they keep that meld
    alone, so only their meld number changes with its place, and the same meld lies at other places
    on other tables."""
    return _keeping_values((meld,), 0, rules)


def _keeping_values(table: Sequence[Meld], index: int, rules: Rules) -> tuple[Keeping, ...]:
    found = set(_keepings(table, index, rules))
    # the kept melds' cards, once for each choice of melds: a joker's run has dozens of keepings
    # that keep the same melds
    held: dict[tuple[int, ...], list[int]] = {}
    ways = []
    for melds, cards in sorted(found):
        own = held.get(melds)
        if own is None:
            own = held[melds] = [c.index for i in melds for c in table[i].cards]
        ways.append(Keeping(melds, cards, _minus(cards, own)))
    return tuple(ways)


def _keepings(table: Sequence[Meld], index: int, rules: Rules) -> Iterator[tuple[tuple[int, ...], Candidate]]:
    meld = table[index]
    own = [card.index for card in meld.cards]
    allow_joker = rules.jokers_per_meld > 0
    if meld.kind is MeldKind.SET:
        yield (index,), _candidate(own)
        present = {card.suit for card in meld.cards if card.suit is not None}
        if len(own) < 4:
            for suit in SUITS:
                if suit not in present:
                    yield (index,), _candidate([*own, Card(meld.start, suit).index])
            if allow_joker and meld.jokers == 0:
                yield (index,), _candidate([*own, JOKER_INDEX])
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
        # the places between the joker's new place and the real cards
        bridge = set() if joker is None else set(range(joker + 1, low)) | set(range(high + 1, joker))
        inside = _runs_within(table, index, s, bridge)
        for left in range(3):
            for right in range(3):
                first, last = core_low - left, core_high + right
                if first < 1 or last > rules.top_position or _ace_both_ends(first, last):
                    continue
                extra = [_index(s, p) for p in range(first, core_low)]
                extra += [_index(s, p) for p in range(core_high + 1, last + 1)]
                whole = _distinct(core + extra)
                for held in inside:
                    yield (index, *held), whole
                if joker is None and allow_joker:
                    for hole in range(len(extra)):
                        yield (index,), _distinct(core + extra[:hole] + extra[hole + 1 :] + [JOKER_INDEX])


def _runs_within(table: Sequence[Meld], index: int, suit: int, places: set[int]) -> list[tuple[int, ...]]:
    """Every choice of other original runs, without jokers and apart from one another, that lie
    in `places` of this suit: the empty choice first."""
    fitting = [
        i
        for i, other in enumerate(table)
        if i != index
        and other.kind is MeldKind.RUN
        and not other.jokers
        and other.suit is not None
        and other.suit.index == suit
        and set(range(other.start, other.end + 1)) <= places
    ]
    choices: list[tuple[int, ...]] = [()]
    for i in fitting:
        span = set(range(table[i].start, table[i].end + 1))
        for chosen in list(choices):
            if not any(span & set(range(table[j].start, table[j].end + 1)) for j in chosen):
                choices.append((*chosen, i))
    return choices


def _minus(candidate: Candidate, indices: list[int]) -> Candidate:
    # a plain dict: Counter's subtract and unary plus were a third of the chain depth's keepings
    left = dict(candidate)
    for index in indices:
        left[index] = left.get(index, 0) - 1
    assert all(n >= 0 for n in left.values()), "a keeping holds the cards of the melds it keeps"
    return tuple(sorted((index, n) for index, n in left.items() if n))


def _fits(candidate: Candidate, available: Counter[int]) -> bool:
    return all(available[index] >= count for index, count in candidate)


def _cards_of(candidate: Candidate) -> list[Card]:
    return [Card.from_index(index) for index, count in candidate for _ in range(count)]


def _neighbours(melds: Sequence[frozenset[int]], shapes: Iterable[Candidate]) -> list[set[int]]:
    """For each original meld (given by its card types), the melds that one final meld could hold
    cards of together with it: both hold a card type of some candidate meld (or keeping's extra
    cards). A rearrangement is joined by such final melds, so it is connected in this graph."""
    # the melds a final meld touches, as bits: thousands of candidates, each ORs a few ints
    holders: dict[int, int] = {}
    for i, types in enumerate(melds):
        for index in types:
            holders[index] = holders.get(index, 0) | 1 << i
    joined: set[int] = set()
    for shape in shapes:
        touched = 0
        for index, _ in shape:
            touched |= holders.get(index, 0)
        if touched & (touched - 1):  # a final meld that holds cards of one meld alone joins none
            joined.add(touched)
    reach = [0] * len(melds)
    for touched in joined:
        bits = touched
        while bits:
            low = bits & -bits
            reach[low.bit_length() - 1] |= touched
            bits ^= low
    return [{j for j in range(len(melds)) if found >> j & 1 and j != i} for i, found in enumerate(reach)]


def reachable(near: Sequence[AbstractSet[int]], leader: int, steps: int) -> list[int]:
    """The melds a rearrangement led by `leader` may break: `leader` first, then those it reaches
    in at most `steps` steps through melds after it in table order (a leader is its first meld)."""
    found = [leader]
    seen = {leader}
    frontier = [leader]
    for _ in range(steps):
        frontier = sorted({i for j in frontier for i in near[j] if i > leader and i not in seen})
        seen.update(frontier)
        found += frontier
    return found


# -- what a position's cards allow: the same for every model of the position


# one of the six solver caches kept together for the full analysis (issue 20): 5% of its CPU on classic
# and jokers, bench/caches.py; under 2 ms of a request each, bench/web_caches.py
@lru_cache(maxsize=4096)
def meld_of(candidate: Candidate, rules: Rules) -> Meld:
    """The meld of a candidate's cards: a position's phases read back mostly the same candidates."""
    return Meld.of(_cards_of(candidate), rules)


@dataclass(frozen=True, slots=True)
class Allowed:
    """The candidate melds and keepings a position's cards allow, and what the models read off
    them: the same for every model of the position, whatever it asks (the chain length builds one
    model per bound)."""

    meld_types: tuple[frozenset[int], ...]
    """Each original meld's card types."""
    every: tuple[Candidate | Keeping, ...]
    """The candidate melds, then the ways the original melds can stay whole."""
    candidates: int
    """How many of `every` are candidate melds: the rest are keepings."""
    types_of: tuple[frozenset[int], ...]
    """For each of `every`, the card types it lays (for a keeping, beyond its melds' own)."""
    by_type: dict[int, tuple[int, ...]]
    """For each card type, the numbers (into `every`) of those that lay it."""
    bounds: tuple[int, ...]
    """For each candidate meld, the most copies the cards allow."""
    near: tuple[frozenset[int], ...]
    """For each original meld, the melds one final meld could hold cards of together with it
    (empty for a model that does not keep melds)."""


# one of the six solver caches kept together for the full analysis (issue 20): 5% of its CPU on classic
# and jokers, bench/caches.py; under 2 ms of a request each, bench/web_caches.py
@lru_cache(maxsize=16)
def allowed_by(position: Position, keep: bool) -> Allowed:
    """The candidate melds the cards allow and, with `keep`, the ways each original meld can stay
    whole: kept for the position's next models (a chain length builds one per bound)."""
    rules = position.rules
    available = Counter(card.index for meld in position.table for card in meld.cards)
    available.update(card.index for card in position.hand)
    if keep:
        ways = [way for way in _table_keepings(position.table, rules) if _fits(way.cards, available)]
        return _with_ways(allowed_by(position, False), ways)
    present = frozenset(available)
    shapes: list[Candidate] = []
    types_of: list[frozenset[int]] = []
    for piece, types in _piece_types(rules):
        if types <= present:
            shapes.append(piece)
            types_of.append(types)
    # a piece holds one card of each of its types: as many copies as its scarcest card
    bounds = [min(available[index] for index in types) for types in types_of]
    meld_types = tuple(frozenset(card.index for card in meld.cards) for meld in position.table)
    return _build_allowed(meld_types, shapes, [], bounds, False, types_of)


# bench/web_caches.py, POST /api/solve of a real-game table not asked before: 20.6 against 22.9 ms of
# CPU on classic, 50.6 against 58.3 ms on jokers (the jokers' pieces take 2 ms to list)
@cache
def _piece_types(rules: Rules) -> tuple[tuple[Candidate, frozenset[int]], ...]:
    """Every piece the rules allow, with its card types: a piece fits the cards where each of its
    types is there, a test of sets faster than checking card by card."""
    found = []
    for piece in pieces(rules):
        assert all(count == 1 for _, count in piece), "a piece holds one card of each of its types"
        found.append((piece, frozenset(index for index, _ in piece)))
    return tuple(found)


# one of the six solver caches kept together for the full analysis (issue 20): 5% of its CPU on classic
# and jokers, bench/caches.py; under 2 ms of a request each, bench/web_caches.py
@lru_cache(maxsize=16)
def _table_keepings(table: tuple[Meld, ...], rules: Rules) -> tuple[Keeping, ...]:
    """Every way each original meld can stay whole, before the cards decide which fit: the same
    for the chain length's models, whose position places only the depth play's hand cards (they
    computed them again)."""
    return tuple(way for i in range(len(table)) for way in _keepings_of(table, i, rules))


def _with_ways(alone: Allowed, ways: list[Keeping]) -> Allowed:
    """The candidate melds of a model without keepings (the maximum's, built before the chain
    depth's), then the keepings: the same as building them all anew, in less time.

    `near` is found here though only grouped models read it: finding it on their first ask was no
    faster in all."""
    shapes = [shape for shape in alone.every if not isinstance(shape, Keeping)]
    way_types = tuple(frozenset(i for i, _ in way.extra) for way in ways)
    by_type = {index: list(numbers) for index, numbers in alone.by_type.items()}
    for number, types in enumerate(way_types, start=len(shapes)):
        for index in types:
            by_type.setdefault(index, []).append(number)
    near = _neighbours(alone.meld_types, [*shapes, *(way.extra for way in ways)])
    return Allowed(
        alone.meld_types,
        (*shapes, *ways),
        len(shapes),
        alone.types_of + way_types,
        {index: tuple(numbers) for index, numbers in by_type.items()},
        alone.bounds,
        tuple(frozenset(found) for found in near),
    )


def laid_out(allowed: Allowed, layout: Counter[Candidate | Keeping]) -> Allowed:
    """Only the candidate melds and keepings of a layout."""
    shapes = [shape for shape in allowed.every if not isinstance(shape, Keeping) and layout[shape]]
    ways = [way for way in allowed.every if isinstance(way, Keeping) and layout[way]]
    bounds = dict(zip(allowed.every, allowed.bounds, strict=False))
    return _build_allowed(allowed.meld_types, shapes, ways, [bounds[shape] for shape in shapes], True)


def _build_allowed(
    meld_types: tuple[frozenset[int], ...],
    shapes: list[Candidate],
    ways: list[Keeping],
    bounds: list[int],
    grouping: bool,
    shape_types: list[frozenset[int]] | None = None,
) -> Allowed:
    """`shape_types`: the card types of `shapes`, where the caller has them."""
    every: tuple[Candidate | Keeping, ...] = (*shapes, *ways)
    if shape_types is None:
        shape_types = [frozenset(i for i, _ in shape) for shape in shapes]
    types_of = (*shape_types, *(frozenset(i for i, _ in way.extra) for way in ways))
    by_type: dict[int, list[int]] = {}
    for number, types in enumerate(types_of):
        for index in types:
            by_type.setdefault(index, []).append(number)
    # only the models that keep melds may group them into rearrangements
    near = _neighbours(meld_types, [*shapes, *(way.extra for way in ways)]) if grouping else []
    return Allowed(
        meld_types,
        every,
        len(shapes),
        types_of,
        {index: tuple(numbers) for index, numbers in by_type.items()},
        tuple(bounds),
        tuple(frozenset(found) for found in near),
    )

"""A brute-force oracle for the solver, written straight from the definitions in RULES.md.

It tries every sub-multiset of the hand and every way to split the resulting cards into valid melds
of any length. That is hopeless beyond a dozen table cards and a hand of five, and obviously correct
below that. It shares nothing with the solver's formulation (no short-run pieces, no keepings, no
CP-SAT): the only engine code it trusts is `meld_problem`, for whether some cards form a meld.

Objectives are named by strings, "cards" or "points", so that this module imports no solver code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations, product

from puzzles import JOKER, Card, FreedJoker, Meld, Position, Rules, meld_problem

Cards = tuple[Card, ...]
"""A multiset of cards, sorted by `Card.index` (jokers last) so that equal multisets are equal tuples."""


def _index(card: Card) -> int:
    return card.index


def cards_of(cards: Iterable[Card]) -> Cards:
    return tuple(sorted(cards, key=_index))


def sub_multisets(cards: Iterable[Card]) -> Iterator[Cards]:
    """Every sub-multiset of the cards, each once."""
    counts = Counter(cards)
    kinds = sorted(counts, key=_index)
    for takes in product(*(range(counts[card] + 1) for card in kinds)):
        yield cards_of(card for card, take in zip(kinds, takes, strict=True) for _ in range(take))


def _minus(cards: Iterable[Card], taken: Iterable[Card]) -> Cards:
    left = Counter(cards)
    left.subtract(taken)
    assert all(n >= 0 for n in left.values()), "took cards that were not there"
    return cards_of(left.elements())


# -- splitting cards into melds


@cache
def is_meld(meld: Cards, rules: Rules) -> bool:
    """Whether these cards (a sorted multiset) form a valid meld: the engine's `meld_problem`,
    asked once per multiset, since the searches below meet the same few melds again and again."""
    return len(meld) >= 3 and meld_problem(meld, rules) is None


@cache
def _melds_with_first(cards: Cards, rules: Rules) -> tuple[tuple[Cards, Cards], ...]:
    """Every valid meld that holds the first card of `cards`, with the cards it leaves.

    A meld is cards of one rank (a set) or of one suit (a run), plus jokers, and never holds the same
    real card twice (a set has different suits, a run different ranks): only such cards are tried.
    Kept per multiset of cards: `can_split` and `final_tables` ask for the same ones many times.
    """
    first, rest = cards[0], cards[1:]
    if first.is_joker:  # only jokers are left, and no meld is made of jokers alone
        return ()
    partners = [c for c in rest if c.is_joker or c.rank == first.rank or c.suit == first.suit]
    counts = Counter(partners)
    kinds = sorted(counts, key=_index)
    limits = [counts[card] if card.is_joker else 1 for card in kinds]
    found = []
    for takes in product(*(range(limit + 1) for limit in limits)):
        if sum(takes) < 2:
            continue  # a meld holds three cards or more
        chosen = [card for card, take in zip(kinds, takes, strict=True) for _ in range(take)]
        meld = cards_of([first, *chosen])
        if is_meld(meld, rules):
            found.append((meld, _minus(rest, chosen)))
    return tuple(found)


@cache
def can_split(cards: Cards, rules: Rules) -> bool:
    """Whether the cards can all be laid out as valid melds."""
    if not cards:
        return True
    return any(can_split(rest, rules) for _, rest in _melds_with_first(cards, rules))


@cache
def final_tables(cards: Cards, rules: Rules) -> tuple[tuple[Cards, ...], ...]:
    """Every way to lay out all the cards as valid melds, each once (as a multiset of melds)."""
    if not cards:
        return ((),)
    return tuple(
        (meld, *table)
        for meld, rest in _melds_with_first(cards, rules)
        if can_split(rest, rules)
        for table in final_tables(rest, rules)
    )


# -- plays


@dataclass(frozen=True, slots=True)
class Outcome:
    """One legal end of a turn, up to the arrangement of the final table."""

    laid: Cards
    """Hand cards that reached the table."""
    freed: int
    """Table jokers taken into the hand by swapping in their real card (`german-jokers` only)."""
    final: Cards
    """The cards of the final table."""

    @property
    def placed(self) -> int:
        return len(self.laid) - self.freed

    def value(self, position: Position, objective: str) -> int:
        """What the play is worth: cards placed, or hand points placed, less freed jokers."""
        if objective == "cards":
            return self.placed
        assert objective == "points", objective
        points = position.rules.points
        return sum(points.of(card) for card in self.laid) - self.freed * points.joker

    def hand_after(self, position: Position) -> Cards:
        return cards_of([*_minus(position.hand, self.laid), *[JOKER] * self.freed])


def can_free(position: Position, placed: Sequence[Card], freed: int) -> bool:
    """Whether `freed` table jokers may go to the hand: each swapped for its own placed real card."""
    if freed == 0:
        return True
    if position.rules.freed_joker is not FreedJoker.HAND:
        return False
    jokers = [options for meld in position.table for options in meld.stand_ins()]
    for chosen in combinations(jokers, freed):
        for cards in permutations(placed, freed):
            if all(card in options for card, options in zip(cards, chosen, strict=True)):
                return True
    return False


@cache
def outcomes(position: Position) -> tuple[Outcome, ...]:
    """Every legal end of the turn, the untouched table (nothing placed) included."""
    table = cards_of(card for meld in position.table for card in meld.cards)
    table_jokers = table.count(JOKER)
    found = []
    for placed in sub_multisets(position.hand):
        for freed in range(min(table_jokers, len(placed)) + 1):
            if not can_free(position, placed, freed):
                continue
            final = _minus([*table, *placed], [JOKER] * freed)
            if can_split(final, position.rules):
                found.append(Outcome(placed, freed, final))
    return tuple(found)


def best_value(position: Position, objective: str = "cards") -> int:
    """The maximum: the most cards (or hand points) any play places. 0 when nothing can be placed."""
    return max(outcome.value(position, objective) for outcome in outcomes(position))


def best_outcomes(position: Position, objective: str = "cards") -> list[Outcome]:
    best = best_value(position, objective)
    return [o for o in outcomes(position) if o.value(position, objective) == best]


def best_hands(position: Position, objective: str = "cards") -> set[Cards]:
    """The different hands that maximal plays leave: a puzzle has exactly one."""
    return {outcome.hand_after(position) for outcome in best_outcomes(position, objective)}


def is_unique(position: Position, objective: str = "cards") -> bool:
    return len(best_hands(position, objective)) == 1


def step_best(position: Position, laid: Iterable[Card]) -> int | None:
    """The most cards a play can place that includes the `laid` hand cards; None for a dead end."""
    needed = Counter(laid)
    values = [o.placed for o in outcomes(position) if not needed - Counter(o.laid)]
    return max(values, default=None)


# -- chain depth


def kept_melds(table: Sequence[Sequence[Card]], final_table: Sequence[Sequence[Card]]) -> int:
    """The most original melds that can be kept at once in this final table.

    Kept melds are assigned to final melds, and the melds assigned to one final meld must not need
    more copies of a card than it holds. Every assignment is tried.
    """
    originals = [Counter(meld) for meld in table]
    room = [Counter(meld) for meld in final_table]

    def most(i: int) -> int:
        if i == len(originals):
            return 0
        best = most(i + 1)  # the meld breaks
        for space in room:
            if not originals[i] - space:
                space.subtract(originals[i])
                best = max(best, 1 + most(i + 1))
                space.update(originals[i])
        return best

    return most(0)


def broken(position: Position, final_table: tuple[Cards, ...] | tuple[Meld, ...]) -> int:
    """How many melds of the position's table this final table breaks (RULES.md: kept when all its
    cards end up together in one final meld)."""
    melds = [meld.cards for meld in position.table]
    final = [meld.cards if isinstance(meld, Meld) else meld for meld in final_table]
    return len(melds) - kept_melds(melds, final)


def points_left(position: Position, hand: Cards | tuple[Card, ...]) -> int:
    points = position.rules.points
    return sum(points.of(card) for card in hand)


def chain_depth(position: Position, objective: str = "cards") -> int:
    """The fewest original melds that a maximal play must break, over every maximal final table."""
    fewest = len(position.table)
    for outcome in best_outcomes(position, objective):
        for final_table in final_tables(outcome.final, position.rules):
            fewest = min(fewest, broken(position, final_table))
            if fewest == 0:
                return 0
    return fewest


def fewest_points_left(position: Position, objective: str = "cards") -> int:
    """Among the maximal plays that break the fewest melds, the fewest hand points left."""
    depth = chain_depth(position, objective)
    return min(
        points_left(position, outcome.hand_after(position))
        for outcome in best_outcomes(position, objective)
        if any(
            broken(position, final_table) == depth
            for final_table in final_tables(outcome.final, position.rules)
        )
    )


# -- chain length

_TO_HAND = -1
"""Where a freed joker goes in an assignment: back to the hand."""


def assignments(
    table: Sequence[Sequence[Card]], final_table: Sequence[Sequence[Card]], freed: int = 0
) -> Iterator[list[list[int]]]:
    """Every way to send each original table card to a final meld that holds a card like it (or,
    for up to `freed` jokers, to the hand), each final meld receiving no more than it holds.

    Yields, for each original meld, the final meld (or _TO_HAND) of each of its cards.
    """
    room = [Counter(meld) for meld in final_table]
    cards = [(i, card) for i, meld in enumerate(table) for card in meld]
    chosen: list[int] = []
    to_hand = [freed]

    def search(n: int) -> Iterator[list[list[int]]]:
        if n == len(cards):
            where: list[list[int]] = [[] for _ in table]
            for (i, _), k in zip(cards, chosen, strict=True):
                where[i].append(k)
            yield where
            return
        card = cards[n][1]
        for k, space in enumerate(room):
            if space[card] > 0:
                space[card] -= 1
                chosen.append(k)
                yield from search(n + 1)
                chosen.pop()
                space[card] += 1
        if card.is_joker and to_hand[0] > 0:
            to_hand[0] -= 1
            chosen.append(_TO_HAND)
            yield from search(n + 1)
            chosen.pop()
            to_hand[0] += 1

    yield from search(0)


def rearrangements(where: Sequence[Sequence[int]]) -> list[set[int]]:
    """The rearrangements of one assignment: broken melds (cards in more than one place) joined
    when one final meld holds cards of both, directly or through other broken melds."""
    broken = [i for i, places in enumerate(where) if len(set(places)) > 1]
    groups: list[set[int]] = []
    reach: list[set[int]] = []
    for i in broken:
        finals = {k for k in where[i] if k != _TO_HAND}
        joined = [n for n, places in enumerate(reach) if places & finals]
        group, places = {i}, set(finals)
        for n in reversed(joined):
            group |= groups.pop(n)
            places |= reach.pop(n)
        groups.append(group)
        reach.append(places)
    return groups


def groupings(
    table: Sequence[Sequence[Card]], final_table: Sequence[Sequence[Card]], freed: int = 0
) -> set[frozenset[frozenset[int]]]:
    """Every way the broken melds of this final table can fall into rearrangements."""
    return {
        frozenset(frozenset(group) for group in rearrangements(where))
        for where in assignments(table, final_table, freed)
    }


def largest(grouping: Iterable[Iterable[int]]) -> int:
    return max((len(list(group)) for group in grouping), default=0)


def chain_length(position: Position, objective: str = "cards") -> int:
    """The smallest k such that some maximal play splits into rearrangements that each break at
    most k melds, over every maximal final table and every way its cards can have got there."""
    table = [meld.cards for meld in position.table]
    fewest = len(table)
    for outcome in best_outcomes(position, objective):
        for final_table in final_tables(outcome.final, position.rules):
            for grouping in groupings(table, final_table, outcome.freed):
                fewest = min(fewest, largest(grouping))
                if fewest == 0:
                    return 0
    return fewest

"""Melds: sets and runs, their validity under a rule set, and where a joker sits in them."""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from puzzles._cards import JOKER, SUITS, Card, CardError, Suit, parse_cards
from puzzles._problems import Problem, ProblemCode
from puzzles._rules import Rules


class MeldError(ValueError):
    """Cards that do not form a valid meld; the message says why, and `problem` (None for a token
    that is no card) says it as a value."""

    def __init__(self, problem: Problem | str) -> None:
        super().__init__(str(problem))
        self.problem = problem if isinstance(problem, Problem) else None


class MeldKind(enum.Enum):
    SET = "set"
    RUN = "run"

    __hash__ = object.__hash__  # in C, as `Suit`'s: every meld's hash holds its kind


def rank_at(position: int) -> int:
    """The rank at a run position: positions run 1 (low ace) to 14 (high ace)."""
    return 1 if position == 14 else position


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid set or run, its cards in table order (a run low to high, jokers in their places).

    Build one with `Meld.of(cards, rules)` or `Meld.parse("3S 4S 5S", rules)`; both check it.
    """

    cards: tuple[Card, ...]
    kind: MeldKind
    start: int
    """For a run, the position of its first card (1-14, 14 being the high ace); for a set, its rank."""

    @classmethod
    def of(cls, cards: Iterable[Card], rules: Rules) -> Meld:
        """Arrange the cards as a meld, keeping a run's written order where it is consistent."""
        return _arrange(tuple(cards), rules)

    @classmethod
    def parse(cls, text: str | Sequence[str], rules: Rules) -> Meld:
        try:
            cards = parse_cards(text)
        except CardError as error:
            raise MeldError(str(error)) from None
        return cls.of(cards, rules)

    @property
    def suit(self) -> Suit | None:
        """The suit of a run; None for a set."""
        if self.kind is MeldKind.SET:
            return None
        return next(card.suit for card in self.cards if card.suit is not None)

    @property
    def end(self) -> int:
        """For a run, the position of its last card."""
        return self.start + len(self.cards) - 1

    @property
    def jokers(self) -> int:
        return sum(card.is_joker for card in self.cards)

    def stand_ins(self) -> tuple[frozenset[Card], ...]:
        """For each joker, in table order, the real cards it may stand for.

        In a run that is the one card of its place; in a set, each suit the set lacks (one card
        in a set of four, either of two in a set of three).
        """
        options: list[frozenset[Card]] = []
        if self.kind is MeldKind.RUN:
            suit = self.suit
            for i, card in enumerate(self.cards):
                if card.is_joker:
                    options.append(frozenset({Card(rank_at(self.start + i), suit)}))
            return tuple(options)
        present = {card.suit for card in self.cards}
        missing = frozenset(Card(self.start, suit) for suit in SUITS if suit not in present)
        return tuple(missing for card in self.cards if card.is_joker)

    def counts(self) -> Counter[Card]:
        return Counter(self.cards)

    def tokens(self) -> list[str]:
        return [str(card) for card in self.cards]

    def pretty(self) -> str:
        return " ".join(card.pretty() for card in self.cards)

    def __str__(self) -> str:
        return " ".join(self.tokens())

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r}, rules)"


def meld_problem(cards: Sequence[Card], rules: Rules) -> Problem | None:
    """Why these cards are not a valid meld under the rules, or None when they are."""
    try:
        _arrange(tuple(cards), rules)
    except MeldError as error:
        assert error.problem is not None  # cards, not tokens: every error is a Problem
        return error.problem
    return None


def _arrange(cards: tuple[Card, ...], rules: Rules) -> Meld:
    if len(cards) < 3:
        raise MeldError(Problem(ProblemCode.TOO_FEW, count=len(cards)))
    jokers = sum(card.is_joker for card in cards)
    if jokers and not rules.jokers:
        raise MeldError(Problem(ProblemCode.NO_JOKERS, rules=rules.name))
    if jokers > rules.jokers_per_meld:
        raise MeldError(Problem(ProblemCode.JOKERS_IN_MELD, count=jokers))
    real = [card for card in cards if not card.is_joker]
    if len({card.rank for card in real}) == 1:
        return _arrange_set(real, jokers)
    if len({card.suit for card in real}) == 1:
        return _arrange_run(cards, real, jokers, rules)
    first = real[0]
    other = next((c for c in real if c.rank != first.rank and c.suit != first.suit), None)
    if other is not None:
        raise MeldError(Problem(ProblemCode.NO_SHARED, (first, other)))
    raise MeldError(Problem(ProblemCode.MIXED))


def _arrange_set(real: list[Card], jokers: int) -> Meld:
    seen: set[Suit | None] = set()
    for card in real:
        if card.suit in seen:
            raise MeldError(Problem(ProblemCode.TWICE_IN_SET, (card,)))
        seen.add(card.suit)
    if len(real) + jokers > 4:
        raise MeldError(Problem(ProblemCode.SET_TOO_BIG, count=len(real) + jokers))
    ordered = sorted(real, key=Card.sort_key) + [JOKER] * jokers
    return Meld(tuple(ordered), MeldKind.SET, real[0].rank)


def _arrange_run(cards: tuple[Card, ...], real: list[Card], jokers: int, rules: Rules) -> Meld:
    ranks = Counter(card.rank for card in real)
    twice = next((card for card in real if ranks[card.rank] > 1), None)
    if twice is not None:
        raise MeldError(Problem(ProblemCode.TWICE_IN_RUN, (twice,)))
    suit = real[0].suit
    length = len(cards)
    ace_options = (1, 14) if rules.ace_high else (1,)
    # The written order wins when it already reads as a run, so a joker keeps the place it was given.
    for ace in ace_options:
        start = _written_start(cards, ace)
        if start is not None and _fits(start, length, rules):
            return Meld(cards, MeldKind.RUN, start)
    problems: list[Problem] = []
    for ace in ace_options:
        positions = sorted(ace if card.rank == 1 else card.rank for card in real)
        gaps = positions[-1] - positions[0] + 1 - len(positions)
        if gaps > jokers:
            problems.append(_gap_problem(positions, suit))
            continue
        start = positions[0]
        end = positions[-1] + (jokers - gaps)
        while end > rules.top_position:
            start, end = start - 1, end - 1
        if not _fits(start, length, rules):
            problems.append(Problem(ProblemCode.ACE_BOTH_ENDS))
            continue
        layout: list[Card] = []
        taken = set(positions)
        for position in range(start, end + 1):
            layout.append(Card(rank_at(position), suit) if position in taken else JOKER)
        return Meld(tuple(layout), MeldKind.RUN, start)
    problem = problems[0]
    if {1, 2, 13} <= set(ranks) and len(ranks) < 13:
        problem = Problem(ProblemCode.WRAP)
    if not rules.ace_high and any(card.rank == 1 for card in real):
        high = Rules(
            rules.name, rules.decks, rules.jokers, rules.jokers_per_meld, True,
            rules.freed_joker, rules.points,
        )  # fmt: skip
        if meld_problem(cards, high) is None:
            problem = replace(problem, rules=rules.name, ace_low_only=True)
    raise MeldError(problem)


def _written_start(cards: tuple[Card, ...], ace: int) -> int | None:
    start: int | None = None
    for i, card in enumerate(cards):
        if card.is_joker:
            continue
        position = ace if card.rank == 1 else card.rank
        if start is None:
            start = position - i
        elif position - i != start:
            return None
    return start


def _fits(start: int, length: int, rules: Rules) -> bool:
    end = start + length - 1
    return start >= 1 and end <= rules.top_position and not (start == 1 and end == 14)


def _gap_problem(positions: list[int], suit: Suit | None) -> Problem:
    low, high = next((low, high) for low, high in pairwise(positions) if high - low > 1)
    return Problem(ProblemCode.GAP, (Card(rank_at(low), suit), Card(rank_at(high), suit)))


def join_runs(melds: Iterable[Meld], rules: Rules) -> tuple[Meld, ...]:
    """Join runs that continue one another into long runs, as a player would lay them out.

    Joining never breaks a meld apart, so every meld kept whole before is still whole after.
    """
    runs: dict[Suit | None, list[Meld]] = {}
    others: list[Meld] = []
    for meld in melds:
        if meld.kind is MeldKind.RUN:
            runs.setdefault(meld.suit, []).append(meld)
        else:
            others.append(meld)
    joined: list[Meld] = []
    for suit_runs in runs.values():
        pending = sorted(suit_runs, key=lambda m: (m.start, m.end))
        merged = True
        while merged:
            merged = False
            for i, left in enumerate(pending):
                for j, right in enumerate(pending):
                    # Any two runs whose cards together make one valid run may be laid as one;
                    # a joker at an end may shift to the other end for that.
                    if i == j or right.start < left.start:
                        continue
                    if right.start != left.end + 1 and not (_has_joker(left) or _has_joker(right)):
                        # two runs of real cards make one run only where the second goes on
                        # from the first: the check below costs a tenth of reading a solution
                        continue
                    combined = left.cards + right.cards
                    if meld_problem(combined, rules) is not None:
                        continue
                    pending[i] = Meld.of(combined, rules)
                    del pending[j]
                    merged = True
                    break
                if merged:
                    break
        joined.extend(pending)
    return tuple(sorted(others + joined, key=table_order))


def _has_joker(meld: Meld) -> bool:
    return any(card.suit is None for card in meld.cards)


def table_order(meld: Meld) -> tuple[int, int, int, int, str]:
    """How a player lays out a table: sets by rank, then runs by suit and first card."""
    if meld.kind is MeldKind.SET:
        return (0, meld.start, len(meld.cards), 0, str(meld))
    suit = meld.suit
    return (1, suit.index if suit else 0, meld.start, meld.end, str(meld))

"""Plays: the end of a turn, and an independent check that one is legal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from puzzles._cards import JOKER, Card, sorted_cards
from puzzles._melds import Meld, meld_problem
from puzzles._position import Position
from puzzles._problems import Problem, ProblemCode
from puzzles._rules import FreedJoker


@dataclass(frozen=True, slots=True)
class Play:
    """One legal end of a turn: the final table, which hand cards reached it, which jokers left it."""

    table: tuple[Meld, ...]
    laid: tuple[Card, ...]
    """Hand cards moved to the table, sorted."""
    freed: tuple[Card, ...] = ()
    """Jokers taken back into the hand by swapping in their real card (`german-jokers`)."""

    @property
    def placed(self) -> int:
        """How many cards the hand shrinks by: the number of cards this play places (laid less freed)."""
        return len(self.laid) - len(self.freed)

    def hand_after(self, position: Position) -> tuple[Card, ...]:
        left = Counter(position.hand)
        left.subtract(self.laid)
        left.update(self.freed)
        return sorted_cards(left.elements())


def play_of(position: Position, table: Iterable[Meld]) -> Play:
    """The play that ends on this final table: the hand cards it lays and the jokers it frees.

    The one count of a play: `Play.placed` is the number by which the hand shrinks. It is read off
    the cards alone, legal or not; `play_problems` says whether the table is a legal play.
    """
    melds = tuple(table)
    final: Counter[Card] = Counter()
    for meld in melds:
        final.update(meld.cards)
    old = position.table_counts()
    return Play(melds, sorted_cards((final - old).elements()), (JOKER,) * (old - final)[JOKER])


def play_problems(position: Position, table: Sequence[Sequence[Card]]) -> list[Problem]:
    """What is wrong with a final table for this position; empty when it is a legal play.

    Legal: every meld valid, every original table card still on the table (except jokers freed
    to the hand by their real card, where the rules allow it), every added card from the hand.
    """
    problems = []
    for number, meld in enumerate(table, start=1):
        problem = meld_problem(meld, position.rules)
        if problem:
            problems.append(Problem(ProblemCode.MELD, tuple(meld), number, inner=problem))
    final: Counter[Card] = Counter()
    for meld in table:
        final.update(meld)
    old = position.table_counts()
    missing = old - final
    added = final - old
    too_many = added - position.hand_counts()
    freed_jokers = missing.pop(JOKER, 0)
    if freed_jokers:
        problems += _freed_joker_problems(position, added, freed_jokers)
    for card in sorted_cards(missing.elements()):
        problems.append(Problem(ProblemCode.LEFT_TABLE, (card,)))
    for card in sorted_cards(too_many.elements()):
        problems.append(Problem(ProblemCode.NOT_IN_HAND, (card,)))
    return problems


def _freed_joker_problems(position: Position, added: Counter[Card], freed: int) -> list[Problem]:
    if position.rules.freed_joker is not FreedJoker.HAND:
        return [Problem(ProblemCode.JOKERS_LEFT, count=freed)]
    options = [opts for meld in position.table for opts in meld.stand_ins()]
    # each freed joker needs its own copy of a card it stands for among the added cards
    if matching(options, Counter(added)) < freed:
        return [Problem(ProblemCode.JOKER_UNREPLACED)]
    return []


def matching(options: list[frozenset[Card]], supply: Counter[Card]) -> int:
    """The most jokers that can each be paired with a distinct supplied card they stand for."""
    if not options:
        return 0
    first, rest = options[0], options[1:]
    best = matching(rest, supply)
    for card in first:
        if supply[card] > 0:
            supply[card] -= 1
            best = max(best, 1 + matching(rest, supply))
            supply[card] += 1
    return best

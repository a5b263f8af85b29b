"""Weak forks (docs/RULES.md): a fork that lays a card in its one home while nothing competes for
what that home needs, so that keeping the card back only places it (and what hangs on it) fewer.

A fork's card has *one home* when, once every obvious move is declined and the forced moves made,
its values each keep a different number of copies in the hand: the only choice is how many to lay,
never where. Such a fork is *weak* when the solver proves that every play that places the most cards
with one copy of it fewer laid, and no obvious card laid beyond the maximal play (its declines
stand), lays only cards the maximal play lays: no other card takes what the card's home needed. Else
a card the maximal play keeps (a *rival*) is laid instead, and which of the two goes down is a real
decision. A puzzle's real forks are the fewest forks that are not weak among the lines of its
fewest decisions, searched as `forcing_player` searches its forks, a weak fork costing none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from puzzles._cards import Card
from puzzles._forcing import (
    DEFAULT_NODE_LIMIT,
    JOKER_NODE_LIMIT,
    Decision,
    Forcing,
    _Board,
    _obvious,
    _search,
    decisions_of,
)
from puzzles._model import Model, Objective, Status
from puzzles._position import Position
from puzzles._solver import FORK_TIME_LIMIT, FORK_WORK_LIMIT

WEAK = "weak"
"""The kind (`Decision.kind`) of a weak fork in `WeakForks.line`."""


@dataclass(frozen=True, slots=True)
class WeakForks:
    """Which forks of a puzzle are weak, and how many real ones its lines of fewest decisions need."""

    forks: int | None
    """The fewest forks that are not weak among the lines of fewest decisions; None when not proved
    (see `forks_at_least`)."""
    forks_at_least: int
    """A proved lower bound on `forks`: never above the truth. A card not proved weak or real counts
    as weak here."""
    weak: tuple[Card, ...]
    """The cards a decision on which is a weak fork (proved, or not proved either way)."""
    rivals: tuple[tuple[Card, tuple[Card, ...]], ...]
    """For each card of one home whose fork is real: the cards a best play without it lays that the
    maximal play keeps."""
    unproved: tuple[Card, ...]
    """Cards of one home that the solver proved neither weak nor real within its limits."""
    line: tuple[Decision, ...]
    """A line of fewest decisions with `forks` real forks (its weak forks of kind WEAK), or the
    forcing player's own line."""

    @property
    def proven(self) -> bool:
        return self.forks is not None


def one_home_cards(position: Position, maximum: int) -> tuple[Card, ...]:
    """The hand cards whose values, once every obvious move is declined and the forced moves made,
    each keep a different number of copies: a decision on one only says how many to lay."""
    board = _Board(position, maximum)
    widest = board.propagate(board.everything)
    if widest is None:
        return ()
    return tuple(
        card
        for card, values, held in zip(board.cards, widest, board.hand, strict=True)
        if held and not card.is_joker and len(values) > 1 and len({v[2] for v in values}) == len(values)
    )


def rivals_of(
    position: Position,
    laid: Iterable[Card],
    card: Card,
    time_limit: float = FORK_TIME_LIMIT,
    work_limit: float = FORK_WORK_LIMIT,
) -> tuple[Card, ...] | None:
    """The cards that a best play laying one copy of `card` fewer than the maximal play (whose
    hand cards laid are `laid`) lays beyond it, when some best play does; () when every best play
    lays only the maximal play's cards (the fork on `card` is weak). Obvious cards keep their
    declines: none is laid more often than the maximal play lays it. None when the solve stopped at
    its limits (a limit on work, not the clock, so any machine finds the same)."""
    counts = Counter(laid)
    held = position.hand_counts()
    model = Model(position, Objective.CARDS)
    # one copy of the card fewer: it is kept back
    model.add(model.laid[card.index] <= counts[card] - 1)
    watched: dict[Card, int] = {}
    for other, copies in held.items():
        if other == card or counts[other] >= copies:
            continue
        if not other.is_joker and _obvious(other, position) is not None:
            # a declined obvious move stays declined
            model.add(model.laid[other.index] <= counts[other])
        else:
            watched[other] = counts[other]
    beyond = model.laid_beyond(watched)
    # the most cards first; among those plays, as many rivals as there can be
    model.maximize((model.cards, model.ceiling), (beyond, len(watched)))
    solved = model.solve(time_limit, [beyond], work_limit=work_limit)
    if solved.status is not Status.OPTIMAL or solved.play is None:
        return None
    if not solved.values[0]:
        return ()
    more = Counter(solved.play.laid)
    return tuple(other for other in sorted(watched, key=Card.sort_key) if more[other] > watched[other])


def weak_forks(
    position: Position,
    maximum: int,
    laid: Iterable[Card],
    forcing: Forcing | None = None,
    time_limit: float = FORK_TIME_LIMIT,
    work_limit: float = FORK_WORK_LIMIT,
) -> WeakForks:
    """The weak forks of a puzzle whose maximal play lays `laid`, and its real forks (see the
    module's docstring). `forcing`: the count of `decisions_of(position, maximum)`, if made."""
    forcing = forcing if forcing is not None else decisions_of(position, maximum)
    counts = Counter(laid)
    if forcing.forks == 0:
        # no fork to weaken
        return WeakForks(0, 0, (), (), (), forcing.line)
    free = set(forcing.free)
    weak: list[Card] = []
    rivals: list[tuple[Card, tuple[Card, ...]]] = []
    unproved: list[Card] = []
    for card in one_home_cards(position, maximum):
        if not counts[card] or card in free:
            continue
        found = rivals_of(position, counts.elements(), card, time_limit, work_limit)
        if found is None:
            unproved.append(card)
            weak.append(card)
        elif found:
            rivals.append((card, found))
        else:
            weak.append(card)
    real, at_least, line = _fewest_real(position, maximum, forcing, free | set(weak))
    if unproved:
        real = None
    return WeakForks(real, at_least, tuple(weak), tuple(rivals), tuple(unproved), _kinds(line, weak))


def _fewest_real(
    position: Position, maximum: int, forcing: Forcing, free: set[Card]
) -> tuple[int | None, int, tuple[Decision, ...]]:
    """The fewest forks among the lines of `forcing.decisions` decisions, a decision on a card of
    `free` counting none: the count (None when not proved), a proved lower bound, and such a line."""
    weak = len(free - set(forcing.free))
    if forcing.decisions is None or forcing.forks is None:
        # the forks were not proved: each weak card takes one fork off a line at most
        return None, max(0, forcing.forks_at_least - weak), forcing.line
    if weak == 0:
        return forcing.forks, forcing.forks, forcing.line
    board = _Board(position, maximum)
    board.free = frozenset(i for i, card in enumerate(board.cards) if card in free)
    root = board.begin(frozenset(), ())
    budget = JOKER_NODE_LIMIT if board.joker is not None else DEFAULT_NODE_LIMIT
    for cap in range(forcing.forks):
        fewer = _search(board, root, budget, most_forks=cap, most_levels=forcing.decisions)
        budget -= fewer.nodes
        if fewer.line is not None:
            return cap, cap, board.decisions(fewer.line)
        if not fewer.exhausted:
            return None, cap, forcing.line
    return forcing.forks, forcing.forks, forcing.line


def _kinds(line: tuple[Decision, ...], weak: Iterable[Card]) -> tuple[Decision, ...]:
    """The line with each decision on a weak card said to be WEAK (it reads "choice" where the
    search counted it as no fork)."""
    cards = set(weak)
    return tuple(
        Decision(d.card, d.sets, d.runs, d.kept, kind=WEAK) if d.card in cards and d.kind != "decline" else d
        for d in line
    )

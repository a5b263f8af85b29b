"""Masters with a fork planted (issue 38 item 4): an Expert's fork, then a second one built in.

A Master needs two real forks. Searches and climbs reach a chain of 6 about half the time, but from
a position with one fork fewer than one change in a hundred adds the second (docs/GENERATOR.md).
So a planted attempt builds the second fork instead of waiting for it (`planted`):

1. the Expert search of 2m's starts (5e's chains, 3e's twists), or of 2e's chains of varied links
   (5t), which ends with a chain of 4 or more and one real fork about one time in three (from 2m's);
2. a **fork gadget** beside it (`gadget`): a set of rank r that can give one of two of its cards,
   two partial runs in the hand that compete for them, and a card that only one of them can take
   (the decider), so that the forced moves cannot tell the two homes apart until the goal counts the
   cards. The giver of the set's replacement is a run of the fourth suit ending at r (or a set of
   four, which spares a card itself); a card beyond the run's r end may tempt (a decline), and one at
   its far end is laid by the best play (an honest obvious card). Rank, suits, sides, the giver's
   length and the extra cards are drawn, and the gadget uses only cards left in the two decks;
3. the climb of 2m (`generator._ladder.climb`), which keeps both forks and lengthens the chain at
   its hand end to the Master's 6.

The solver has the last word at every step: a gadget is kept only when the analysis says the
position stays unique and forks once more; every step reads proved answers alone, and the gadget
draws from a random state of its own, so an ID replays.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from generator._grading import LEAST_FORKS, graded_forks
from generator._ladder import START_GOAL, climb
from generator._search import Found, Style, _a_puzzle, _left_over, graded, search
from puzzles import SUITS, Analysis, Card, Meld, MeldKind, Position, Suit, analyse

TRIES = 16
"""Gadgets that fit the decks tried on one position (an analysis each) before the attempt gives up."""
DRAWS = 200
"""Gadgets drawn at most for those tries: near the chain, the decks often hold no copy left."""
DECLINE = 0.5
"""How often a gadget with a run as its giver brings a card that tempts beyond the run's r end."""
OBVIOUS = 0.5
"""How often such a gadget brings a card the best play lays at the run's far end."""
FOUR = 0.25
"""How often the giver is a set of four (no run): the set spares a card by itself."""
ON_TABLE = 0.3
"""How often, where the table has a run of four or more, the giver is one of them: the gadget then
lies on the table's own melds rather than beside them."""


@dataclass(frozen=True, slots=True)
class Gadget:
    """A fork gadget's cards: the melds it adds to the table and the cards it adds to the hand."""

    melds: tuple[tuple[Card, ...], ...]
    hand: tuple[Card, ...]
    giver: Meld | None = None
    """The table's run that gives the set its replacement, when the gadget brings none of its own."""


def gadget(rng: random.Random, runs: Sequence[Meld] = ()) -> Gadget | None:
    """A fork gadget drawn at random (see the module's docstring); None when its ranks fall off the
    ends of a suit. `runs`: the table's runs of four or more, one of which may be the giver."""
    giver = rng.choice(runs) if runs and rng.random() < ON_TABLE else None
    if giver is None:
        r = rng.randint(1, 13)
        a, b, d, c = rng.sample(SUITS, 4)
    else:
        suit = giver.cards[0].suit
        assert suit is not None
        c = suit
        up = rng.random() < 0.5
        r = giver.start if up else giver.start + len(giver.cards) - 1
        a, b, d = rng.sample([suit for suit in SUITS if suit != c], 3)
    # the partial runs: below r (r-2, r-1) or above it (r+1, r+2), each side drawn
    pair_a = (r + 1, r + 2) if rng.random() < 0.5 else (r - 2, r - 1)
    pair_b = (r + 1, r + 2) if rng.random() < 0.5 else (r - 2, r - 1)
    # the decider lengthens b's run of three (its pair and r) past r: beyond the pair, it would
    # make a run of three with the pair alone and need no card of the set
    decider = r + 1 if pair_b[0] < r else r - 1
    hand = [(rank, a) for rank in pair_a] + [(rank, b) for rank in pair_b] + [(decider, b)]
    table: list[list[tuple[int, Suit]]]
    if giver is None and rng.random() < FOUR:
        table = [[(r, a), (r, b), (r, d), (r, c)]]
    else:
        if giver is None:
            length = rng.choice((4, 4, 5))
            up = rng.random() < 0.5  # the run of suit c climbs from r, or ends at r
            table = [[(r, a), (r, b), (r, d)], [(rank, c) for rank in _ranks(r, length, up)]]
        else:
            length = len(giver.cards)
            table = [[(r, a), (r, b), (r, d)]]
        near, far = (r - 1, r + length) if up else (r + 1, r - length)
        if rng.random() < DECLINE and near not in (*pair_a, *pair_b):
            # (beside a pair's card of its rank it would make a set with the hand alone)
            hand.append((near, c))
        if rng.random() < OBVIOUS:
            hand.append((far, c))
    if any(not 1 <= rank <= 13 for rank, _ in [*hand, *(card for meld in table for card in meld)]):
        return None
    return Gadget(
        tuple(tuple(Card(rank, suit) for rank, suit in meld) for meld in table),
        tuple(Card(rank, suit) for rank, suit in hand),
        giver,
    )


def _ranks(r: int, length: int, up: bool) -> range:
    return range(r, r + length) if up else range(r - length + 1, r + 1)


def givers(position: Position) -> list[Meld]:
    """The table's runs that can spare an end card to a gadget's set: four or more, no joker."""
    return [
        meld
        for meld in position.table
        if meld.kind is MeldKind.RUN and len(meld.cards) >= 4 and not meld.jokers
    ]


def fits(position: Position, planted: Gadget) -> bool:
    """Whether the two decks still hold the gadget's cards beside the position's."""
    left = _left_over(position)
    wanted = Counter(card for meld in planted.melds for card in meld) + Counter(planted.hand)
    return all(left[card] >= count for card, count in wanted.items())


def touches(position: Position, planted: Gadget) -> int:
    """How many pairs of a gadget's card and a position's card could share a meld: of one rank, or
    of one suit two ranks apart at most."""
    cards = [card for meld in position.table if meld != planted.giver for card in meld.cards]
    cards += position.hand
    mine = [card for meld in planted.melds for card in meld] + list(planted.hand)
    return sum(
        1
        for card in mine
        for other in cards
        if other.suit is not None
        and (other.rank == card.rank or (other.suit == card.suit and abs(other.rank - card.rank) <= 2))
    )


def with_gadget(position: Position, planted: Gadget) -> Position:
    """The position with the gadget's melds on the table and its cards in the hand."""
    rules = position.rules
    melds = tuple(Meld.of(cards, rules) for cards in planted.melds)
    return Position(rules, (*position.table, *melds), (*position.hand, *planted.hand))


def planted(
    seed: str,
    start: Analysis,
    goal: str,
    deadline: float,
    style: Style | None = None,
    settled: bool = True,
    plain: bool = False,
    real: bool = False,
) -> Found | None:
    """The best position a planted attempt reaches from `start` (see the module's docstring): the
    Expert search, then, from an Expert search that ends with a fork (and a chain of 4 or more), a
    gadget that forks once more, then the climb to `goal`. The position reached so far when a step
    does not apply; None when the solver could not prove a step in time. `style` is the caller's
    (its pruning comes after), `settled` as `generator._search.graded`."""
    del style
    found = search(seed, start, START_GOAL, deadline, Style(), settled)
    if found is None or found.forcing is None:
        return found
    forks = graded_forks(found.forcing) or 0
    if forks < LEAST_FORKS[goal] - 1:
        return found
    if forks < LEAST_FORKS[goal]:
        forked = plant(seed, found, goal, deadline, settled)
        if forked is None:
            return None
        found = forked
    climbed = climb(seed, found, goal, deadline, settled, plain, real)
    if (
        climbed is None
        or climbed.forcing is None
        or (graded_forks(climbed.forcing) or 0) >= LEAST_FORKS[goal]
    ):
        return climbed
    # no gadget fitted beside the Expert: the climbed table, beside other cards, may take one
    return plant(f"{seed}/climbed", climbed, goal, deadline, settled)


def planted_plain(
    seed: str, start: Analysis, goal: str, deadline: float, style: Style | None = None, settled: bool = True
) -> Found | None:
    """`planted` with a climb that makes no figure (`generator._ladder.climb`'s `plain`): 5p."""
    return planted(seed, start, goal, deadline, style, settled, plain=True)


def planted_real(
    seed: str, start: Analysis, goal: str, deadline: float, style: Style | None = None, settled: bool = True
) -> Found | None:
    """`planted_plain` whose climb wants real forks and a decision more than the goal needs
    (`generator._ladder.climb`'s `real`): 5q, and 5t from 2e's starts."""
    return planted(seed, start, goal, deadline, style, settled, plain=True, real=True)


PLANTERS = {"5m": planted, "5p": planted_plain, "5q": planted_real, "5t": planted_real}
"""The planted attempts by letter (`generator._methods.GADGETS`)."""


def plant(seed: str, found: Found, goal: str, deadline: float, settled: bool = True) -> Found | None:
    """The found position with the first gadget drawn (of TRIES) that fits the decks and after which
    the position is a unique puzzle that forks once more; `found` when none does; None when the
    solver could not prove a step in time."""
    rng = random.Random(f"{seed}/gadget")
    position = found.analysis.position
    assert found.forcing is not None
    forks = graded_forks(found.forcing) or 0
    # the gadgets that touch the position's cards least first: one that shares their ranks and
    # suits may make the maximum another or take the first fork away
    runs = givers(position)
    drawn = [one for one in (gadget(rng, runs) for _ in range(DRAWS)) if one and fits(position, one)]
    drawn.sort(key=lambda one: touches(position, one))
    for one in drawn[:TRIES]:
        try:
            changed = with_gadget(position, one)
        except ValueError:  # a meld the gadget made is not valid
            continue
        analysis = analyse(changed, time_limit=_left(deadline), puzzle=True)
        if not analysis.proven:
            return None
        if not _a_puzzle(analysis):
            continue
        forked = graded(analysis, goal, deadline, settled, any_chain=True)
        if forked is None:
            return None
        if forked.forcing is not None and (graded_forks(forked.forcing) or 0) > forks:
            return forked
    return found


def _left(deadline: float) -> float:
    return max(deadline - time.perf_counter(), 0.001)

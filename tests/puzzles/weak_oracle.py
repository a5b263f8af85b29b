"""A brute-force judge of weak forks, written from *Weak forks* in docs/RULES.md.

It shares no code with `puzzles._weak`: a card's one home is read off the brute-force forcing
player's forced moves (`forcing_oracle.Board.force`, every obvious move declined), its rivals off
every legal end of the turn (`oracle.outcomes`), and the real forks are `forcing_oracle`'s fewest
forks with the weak cards counted as no fork. Hopeless beyond small positions.
"""

from __future__ import annotations

from collections import Counter

from puzzles import Card, Position
from tests.puzzles import oracle
from tests.puzzles.forcing_oracle import Board, fewest_forks, settled_cards


def one_home(position: Position, maximum: int) -> set[Card]:
    """The hand cards whose values left, once every obvious move is declined and the forced moves
    made, each keep a different number of copies in the hand."""
    board = Board(position, maximum)
    widest = board.force({card: board.all_values(card) for card in board.cards})
    if widest is None:
        return set()
    return {
        card
        for card, values in widest.items()
        if board.hand[card] and not card.is_joker and len(values) > 1
        if len({value[2] for value in values}) == len(values)
    }


def rivals(position: Position, laid: Counter[Card], card: Card) -> set[Card]:
    """The cards that some play placing the most with one copy of `card` fewer laid (and no obvious
    card laid more often than in `laid`) lays more often than `laid` says."""
    board = Board(position, 1)
    allowed = []
    for outcome in oracle.outcomes(position):
        counts = Counter(outcome.laid)
        if counts[card] >= laid[card]:
            continue
        if any(counts[other] > laid[other] for other in board.obvious):
            continue
        allowed.append((outcome.placed, counts))
    best = max(placed for placed, _ in allowed)
    return {
        other
        for placed, counts in allowed
        if placed == best
        for other in counts
        if counts[other] > laid[other]
    }


def weak_cards(position: Position, maximum: int, laid: Counter[Card]) -> set[Card]:
    """The cards of one home that the maximal play lays, are settled, and have no rival."""
    settled = settled_cards(position)
    return {
        card
        for card in one_home(position, maximum)
        if laid[card] and card in settled and not rivals(position, laid, card)
    }


def fewest_real_forks(position: Position, maximum: int, decisions: int, weak: set[Card]) -> int | None:
    """The fewest forks among the lines of `decisions` decisions, a decision on a weak card (or on
    a card that is not settled) counting none."""
    return fewest_forks(position, maximum, decisions, settled_cards(position) - weak)

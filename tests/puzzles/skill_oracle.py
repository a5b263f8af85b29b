"""A brute-force skill-limited player, written straight from RULES.md with the oracle's primitives.

RULES.md: at each step the player breaks at most k melds of the table as it then stands and places
as many hand cards as it can, leaving a valid table, and repeats until no step places a card. Its
tie-breaks are the engine's (`puzzles.skill_limited`): after the most cards, the fewest melds
broken, then the fewest hand points left.

One step tries every legal end of the turn (`oracle.outcomes`: every sub-multiset of the hand, and
every number of jokers freed where the rules send them to the hand) and every way to lay out its
final cards (`oracle.final_tables`); a meld of the table as it stands is broken unless the layout
keeps it whole (`oracle.kept_melds`). Plays that tie on all three can still leave different tables
(runs joined or not, another split of the same cards, a joker at the other end of a run), and the
next step may go differently on each: every tie-equal branch is explored, and a run's result is the
set of totals its branches reach.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product

from puzzles import JOKER, Card, FreedJoker, Meld, MeldError, MeldKind, Position, Rules
from tests.puzzles.oracle import Cards, broken, cards_of, final_tables, outcomes, points_left


@dataclass(frozen=True, slots=True)
class Step:
    """The best a step can do, and every table and hand a step that does it can leave."""

    placed: int
    """Cards placed: the number by which the hand shrinks."""
    broken: int
    """Melds of the table as it stood that the step breaks."""
    points_left: int
    """Hand points left after the step."""
    after: frozenset[Position]
    """Each position a step with these three values can leave, its melds in a canonical order."""


@cache
def layouts(cards: Cards, rules: Rules) -> tuple[Meld, ...]:
    """Every way to lay these cards out as one meld that the rules tell apart: a joker at either
    end of a run stands for another card, and only where a freed joker goes to the hand does that
    matter (it may be swapped only for the card it stands for). Elsewhere the one layout
    `Meld.of` makes."""
    default = Meld.of(cards, rules)
    if rules.freed_joker is not FreedJoker.HAND or default.kind is MeldKind.SET or not default.jokers:
        return (default,)
    real = {card for card in cards if not card.is_joker}
    suit = default.suit
    found: dict[tuple[Card, ...], Meld] = {}
    for start in range(1, rules.top_position - len(cards) + 2):
        # run positions 1-14, 14 being the ace above the king
        line = [Card(1 if p == 14 else p, suit) for p in range(start, start + len(cards))]
        written = [card if card in real else JOKER for card in line]
        if cards_of(written) != cards:
            continue
        try:
            meld = Meld.of(written, rules)
        except MeldError:
            continue
        if meld.start == start:  # `Meld.of` keeps a written order that reads as a valid run
            found[meld.cards] = meld
    assert default.cards in found, (cards, default)
    return tuple(found.values())


def _canonical(rules: Rules, melds: tuple[Meld, ...], hand: Cards) -> Position:
    """The position, its melds in one order: equal tables meet one cache entry."""
    ordered = tuple(sorted(melds, key=lambda meld: [card.index for card in meld.cards]))
    return Position(rules, ordered, hand)


@cache
def step(position: Position, skill: int) -> Step | None:
    """The best step that breaks at most `skill` melds; None when no such step places a card."""
    best: tuple[int, int, int] | None = None
    after: set[Position] = set()
    rules = position.rules
    for outcome in sorted(outcomes(position), key=lambda outcome: -outcome.placed):
        if outcome.placed <= 0 or (best is not None and outcome.placed < best[0]):
            break
        hand = outcome.hand_after(position)
        left = points_left(position, hand)
        for final_table in final_tables(outcome.final, rules):
            breaks = broken(position, final_table)
            if breaks > skill:
                continue
            value = (outcome.placed, -breaks, -left)
            if best is not None and value < best:
                continue
            if best is None or value > best:
                best, after = value, set()
            for melds in product(*(layouts(meld, rules) for meld in final_table)):
                after.add(_canonical(rules, melds, hand))
    if best is None:
        return None
    count, breaks, left = best
    return Step(count, -breaks, -left, frozenset(after))


def first_step_count(position: Position, skill: int) -> int:
    """The most cards one step of the player places (0 when none)."""
    found = step(_canonical(position.rules, position.table, cards_of(position.hand)), skill)
    return 0 if found is None else found.placed


@cache
def _totals(position: Position, skill: int) -> frozenset[int]:
    found = step(position, skill)
    if found is None:
        return frozenset({0})
    return frozenset(found.placed + total for after in found.after for total in _totals(after, skill))


def run_totals(position: Position, skill: int) -> frozenset[int]:
    """The cards the player places in all, over every way its tie-equal steps can go."""
    return _totals(_canonical(position.rules, position.table, cards_of(position.hand)), skill)

"""A found puzzle whose best play frees a joker (issue 38): the German joker rule, asked for.

Under `german-jokers` a player who holds the exact card a table joker stands for may put it in the
joker's place and take the joker into the hand (RULES.md), to lay it again. A searched Expert or
Master rarely asks for that: its joker, if any, sits in the hand and the best play lays it. So the
letters of `FREEING` take the searched position's hand joker, which the best play lays, and change
it for a card of a table meld (`free_a_joker`, but trying each place in turn instead of one drawn
at random): the joker stands in that meld for the card, and the card waits in the hand. Where the
solver proves that the position is still a puzzle that places as many cards, and that its best play
puts the card back in the joker's place and the joker elsewhere (`frees_joker`), with its obvious
cards still honest where they were (`generator._search.honest`), the attempt goes on
from there; it is graded again from scratch, as the change may add a decision or join two
rearrangements.

A best play that *keeps* a freed joker in the hand is another matter: it places one card less for
it, and is almost never the unique best play (RULES.md, *Taking a joker back*), so no letter asks
for it.
"""

from __future__ import annotations

import random
import time

from generator._search import honest
from generator._shapes import frees_joker
from puzzles import JOKER, Analysis, Card, Meld, MeldError, Position, analyse

FREEING_TRIES = 8
"""Table cards tried as the joker's new place, each a solve."""


def freeing(seed: str, analysis: Analysis, deadline: float) -> Analysis | None:
    """The analysis of the position with the hand joker changed for a table card, where the best
    play then frees it (see the module's docstring); the analysis unchanged when no place tried
    makes such a puzzle, or the hand has no joker that the best play lays; None when the solver
    could not prove a try in time (a slower machine must not pick another place)."""
    position = analysis.position
    if JOKER not in position.hand or JOKER not in analysis.best.play.laid:
        return analysis
    rng = random.Random(f"{seed}/free")
    # a found Expert or Master whose obvious cards are honest must stay so (`generator._make`
    # rejects it otherwise): the card the joker stood for may be one more obvious card
    was_honest = honest(position, analysis.best.play.laid)
    places = _places(position)
    rng.shuffle(places)
    for i, j in places[:FREEING_TRIES]:
        changed = _swapped(position, i, j)
        if changed is None:
            continue
        tried = analyse(changed, time_limit=max(deadline - time.perf_counter(), 0.001), puzzle=True)
        if not tried.proven:
            return None
        if tried.best.placed != analysis.best.placed or tried.uniqueness.unique is not True:
            continue
        if was_honest and not honest(changed, tried.best.play.laid):
            continue
        graded = tried.chain.play
        if graded is not None and frees_joker(changed, [meld.tokens() for meld in graded.table]):
            return tried
    return analysis


def _places(position: Position) -> list[tuple[int, int]]:
    """Each card of a table meld without a joker, as (meld, place)."""
    return [
        (i, j) for i, meld in enumerate(position.table) if not meld.jokers for j in range(len(meld.cards))
    ]


def _swapped(position: Position, i: int, j: int) -> Position | None:
    """The position with the hand's joker in place `j` of meld `i`, and that card in the hand; None
    where the meld would not be valid so."""
    meld = position.table[i]
    taken: Card = meld.cards[j]
    try:
        joker_meld = Meld.of((*meld.cards[:j], JOKER, *meld.cards[j + 1 :]), position.rules)
    except MeldError:
        return None
    table = list(position.table)
    table[i] = joker_meld
    hand = list(position.hand)
    hand.remove(JOKER)
    return Position(position.rules, tuple(table), (*hand, taken))

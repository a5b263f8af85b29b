"""The step check as the board words it: on track, off track (at most N now), dead end.

The engine's `step_check` under a time limit, kept per process: the same cards laid again (a card
moved between melds, or taken back and laid again) must not cost the solver again.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

from puzzles._cards import Card
from puzzles._position import Position
from puzzles._solver import step_check
from puzzles._words import Words, words


class Track(enum.Enum):
    ON = "on-track"
    OFF = "off-track"
    DEAD_END = "dead-end"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Progress:
    """What the step check says about the cards laid so far."""

    track: Track
    reachable: int | None
    """The most cards that can still be placed with these on the table, when the check found it."""
    maximum: int
    at_fault: tuple[Card, ...] = ()
    """At a dead end, the laid cards without any one of which a valid table would hold the rest."""

    @property
    def words(self) -> Words:
        if self.track is Track.ON:
            return words("on track")
        if self.track is Track.OFF:
            return words("off track: at most %(count)s now", count=self.reachable)
        if self.track is Track.DEAD_END and len(self.at_fault) == 1:
            return words("dead end: no valid table holds %(card)s with these cards", card=self.at_fault[0])
        if self.track is Track.DEAD_END and self.at_fault:
            return words("dead end: no valid table holds %(cards)s together", cards=self.at_fault)
        if self.track is Track.DEAD_END:
            return words("dead end: no valid table holds these cards")
        return words("no verdict in time: keep going")


def progress(position: Position, laid: tuple[Card, ...], maximum: int, time_limit: float) -> Progress:
    """Whether the maximum is still reachable while the hand cards laid so far stay on the table."""
    # one key for the same cards laid in any order: the check only asks which cards are down
    return _progress(position, tuple(sorted(laid, key=Card.sort_key)), maximum, time_limit)


# Kept for every step POST: bench/web_caches.py timed a step POST laying a card (one puzzle of each
# tier as today's, the site's STEP_TIME_LIMIT) at 4.2-5.7 ms of CPU with it, 8.3-10.2 ms without it
# (the move's slip check and the board it draws each solving again), 4.1-5.0 ms saved; a card moved
# between melds, or taken back and laid again, lays nothing new.
@functools.lru_cache(maxsize=4096)
def _progress(position: Position, laid: tuple[Card, ...], maximum: int, time_limit: float) -> Progress:
    check = step_check(position, list(laid), time_limit)
    if check.dead_end:
        return Progress(Track.DEAD_END, None, maximum, _at_fault(position, laid, time_limit))
    if check.reachable is None:
        return Progress(Track.UNKNOWN, None, maximum)
    if check.reachable >= maximum:
        return Progress(Track.ON, check.reachable, maximum)
    if not check.proven:  # a lower bound only: the maximum may still be reachable
        return Progress(Track.UNKNOWN, check.reachable, maximum)
    return Progress(Track.OFF, check.reachable, maximum)


def _at_fault(position: Position, laid: tuple[Card, ...], time_limit: float) -> tuple[Card, ...]:
    """The laid cards whose taking back (one copy) leaves a table that is no dead end: what the player
    should look at. Each is one more feasibility check, so they share the time of the first."""
    distinct = sorted(set(laid), key=Card.sort_key)
    share = time_limit / (len(distinct) + 1)
    found = []
    for card in distinct:
        rest = list(laid)
        rest.remove(card)
        if step_check(position, rest, share).reachable is not None:  # a valid table found: proven
            found.append(card)
    return tuple(found)

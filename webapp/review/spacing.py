"""When a puzzle comes back for review: 1, 3 and 7 days (then every 7) after the turn that went wrong,
counted on the server's clock, until a turn at it is a clean solve. The player's time zone only says
which of their days that is: a zone chosen by its midnight (the `tz` cookie is the client's) made
rounds fall due minutes after a give-up. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from webapp.models import Status

INTERVALS = (1, 3, 7)
"""Days until the first, second and third return; every later return waits the last."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One of the player's turns at a puzzle, as review reads it."""

    puzzle_id: int
    review: int
    """0 for the first turn, then the review round."""
    status: Status
    hints: int
    slips: int
    finished: datetime | None

    @property
    def clean(self) -> bool:
        return self.status == Status.SOLVED and self.hints == 0 and self.slips == 0


@dataclass(frozen=True, slots=True)
class Waiting:
    """A puzzle in the player's review: its next round and the day it comes back."""

    puzzle_id: int
    round: int
    """The review round to play: a new one, or the one in progress."""
    due: date
    """The player's day it comes back on, as the pages show it."""
    at: datetime
    """The moment it comes back, on the server's clock: what decides."""
    playing: bool = False
    """The round has begun and is not finished."""

    def is_due(self, moment: datetime) -> bool:
        return self.playing or self.at <= moment


ALWAYS = datetime.min.replace(tzinfo=UTC)
"""When a round in progress comes back: it waits now."""


IN_PROGRESS = datetime(1970, 1, 1, tzinfo=UTC)
"""`PlayerAttempt.comes_back` of a review round being played: it waits now, before any other."""


def comes_back(
    review: int, status: Status, hints: int, slips: int, finished: datetime | None, run_id: int | None
) -> datetime | None:
    """When a turn's puzzle comes back, were the turn the latest at its puzzle: `IN_PROGRESS` for a
    review round being played, the turn's end plus the next round's interval for a finished turn that
    was not a clean solve, else None (a first turn being played, a clean solve, a run's turn)."""
    if run_id is not None:
        return None
    if status == Status.PLAYING:
        return IN_PROGRESS if review > 0 else None
    if finished is None or Turn(0, review, status, hints, slips, finished).clean:
        return None
    return finished + interval(review + 1)


def interval(round_: int) -> timedelta:
    """How long round `round_` (1, 2, ...) waits after the turn before it went wrong: whole days of
    24 hours."""
    return timedelta(days=INTERVALS[min(round_, len(INTERVALS)) - 1])


def waiting(turns: Iterable[Turn], zone: ZoneInfo) -> list[Waiting]:
    """Every puzzle in review, soonest first: its latest turn was not a clean solve (a review round
    still being played counts as waiting, now). A first turn still going is not in review yet, and an
    unfinished first turn never comes back."""
    latest: dict[int, Turn] = {}
    for turn in turns:
        if turn.puzzle_id not in latest or turn.review > latest[turn.puzzle_id].review:
            latest[turn.puzzle_id] = turn
    found = []
    for turn in latest.values():
        if turn.status == Status.PLAYING:
            if turn.review > 0:
                found.append(Waiting(turn.puzzle_id, turn.review, date.min, ALWAYS, playing=True))
            continue
        if turn.clean or turn.finished is None:
            continue
        round_ = turn.review + 1
        at = turn.finished + interval(round_)
        found.append(Waiting(turn.puzzle_id, round_, at.astimezone(zone).date(), at))
    return sorted(found, key=lambda item: (not item.playing, item.at, item.puzzle_id))


def round_to_show(turns: Iterable[Turn], puzzle_id: int, moment: datetime, zone: ZoneInfo) -> int | None:
    """The review round `/review/<code>` shows for this puzzle: the one in progress or due now, else
    the latest finished round (so its result stays on its page); None when the puzzle has no review
    round to show (never played, solved clean the first time, or not due yet)."""
    mine = [turn for turn in turns if turn.puzzle_id == puzzle_id]
    for item in waiting(mine, zone):
        if item.is_due(moment):
            return item.round
    rounds = [turn.review for turn in mine if turn.review > 0]
    return max(rounds) if rounds else None

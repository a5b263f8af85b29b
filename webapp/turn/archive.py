"""The archive: every past daily puzzle, playable once it has closed, marked with how this player did.

An archive play starts after its puzzle closed everywhere, so it never touches the streak; an attempt
begun while the puzzle was open carries on here, and counts no more than if it had been left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import Row, func, select
from sqlalchemy.orm import Session

from puzzles import Words, words
from webapp.models import Daily, PlayerAttempt, PoolPuzzle, Status
from webapp.players.crowd import FINISHED, solved_shares
from webapp.schedule.days import Calendar

PER_PAGE = 60


@dataclass(frozen=True, slots=True)
class Entry:
    """One daily puzzle in the archive list, as this player left it."""

    number: int
    day: date
    tier: str
    chain: int
    """The chain length (the depth of a puzzle not yet rescored), as the tier chip shows it."""
    mark: str
    """clean, solved, gave-up, missed, timed-out, playing, unplayed; or, for a puzzle still open and
    not yet played: today (the player's own day), ahead (already open in time zones ahead) or behind
    (the player's yesterday, still open in time zones behind)."""
    is_open: bool
    solved_share: int | None = None
    """How many of the players who finished it solved it (in %): shown once this player has finished."""
    slips: int = 0
    """The player's slips on it: moves that took the table off track or to a dead end."""
    decisions: int | None = None
    """The forcing player's decisions, when counted: the proved count, else its proved lower bound
    (`decisions_bound`)."""
    decisions_bound: bool = False
    """`decisions` is only a lower bound: the chip says "at least"."""

    @property
    def words(self) -> Words:
        return MARK_WORDS[self.mark]


MARK_WORDS = {
    "clean": words("clean"),
    "solved": words("solved"),
    "gave-up": words("given up"),
    "missed": words("missed"),
    "timed-out": words("timed out"),
    "playing": words("in progress"),
    "unplayed": words("unplayed"),
    "today": words("today's"),
    "ahead": words("open in time zones ahead"),
    "behind": words("still open"),
}


def mark(attempt: tuple[Status, int, int] | None, is_open: bool, number: int, today: int) -> str:
    """The mark of puzzle `number` from the player's attempt at it (status, hints and slips), if any;
    `today` is the number of the player's own day. A clean solve has no hint and no slip."""
    if attempt is not None:
        status, hints, slips = attempt
        if status == Status.SOLVED:
            return "clean" if hints == 0 and slips == 0 else "solved"
        return str(status)
    if not is_open:
        return "unplayed"
    return "today" if number == today else "ahead" if number > today else "behind"


def entries(
    session: Session,
    player: str | None,
    dates: Calendar,
    now: datetime,
    today: int,
    last: int | None = None,
) -> tuple[list[Entry], int | None]:
    """A page of the archive, newest first, from puzzle `last` (the newest if None) down, marked for
    this player, whose own day is puzzle `today`; and the number the next (older) page starts from,
    if there is one."""
    newest = dates.open_numbers(now).stop - 1
    rows = _page(session, newest if last is None else min(last, newest))
    attempts = _attempts(session, player, [row.id for row in rows])
    finished = [row.id for row in rows[:PER_PAGE] if row.id in attempts and attempts[row.id][0] in FINISHED]
    shares = solved_shares(session, finished, now)
    listed = [
        Entry(
            row.number,
            row.day,
            row.tier,
            row.chain,
            mark(attempts.get(row.id), opened, row.number, today),
            opened,
            shares.get(row.id),
            attempts[row.id][2] if row.id in attempts else 0,
            row.decisions if row.decisions is not None else row.decisions_at_least,
            row.decisions is None and row.decisions_at_least is not None,
        )
        for row in rows[:PER_PAGE]
        for opened in [dates.is_open(row.number, now)]
    ]
    return listed, rows[PER_PAGE].number if len(rows) > PER_PAGE else None


def _page(session: Session, last: int) -> Sequence[Row[int, date, str, int, int, int | None, int | None]]:
    """The published days from `last` down, one more than a page holds (to tell there are older)."""
    return session.execute(
        select(
            Daily.number,
            Daily.day,
            PoolPuzzle.tier,
            func.coalesce(PoolPuzzle.chain, PoolPuzzle.depth).label("chain"),
            PoolPuzzle.id,
            PoolPuzzle.decisions,
            PoolPuzzle.decisions_at_least,
        )
        .join(PoolPuzzle, Daily.puzzle_id == PoolPuzzle.id)
        .where(Daily.number <= last)
        .order_by(Daily.number.desc())
        .limit(PER_PAGE + 1)
    ).all()


def _attempts(
    session: Session, player: str | None, puzzle_ids: list[int]
) -> dict[int, tuple[Status, int, int]]:
    """The player's attempts at these puzzles: status, hints and slips, by puzzle id."""
    if player is None or not puzzle_ids:
        return {}
    found = session.execute(
        select(PlayerAttempt.puzzle_id, PlayerAttempt.status, PlayerAttempt.hints, PlayerAttempt.slips).where(
            PlayerAttempt.player_id == player, PlayerAttempt.puzzle_id.in_(puzzle_ids)
        )
    )
    return {puzzle_id: (status, hints, slips) for puzzle_id, status, hints, slips in found}

"""A player's review, read from their attempts: what waits now and later, and which round a review
page shows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import Session

from webapp.models import Daily, PlayerAttempt, PoolPuzzle
from webapp.review.spacing import Turn, Waiting, round_to_show, waiting


def turns(session: Session, player: str, puzzle_id: int | None = None) -> list[Turn]:
    query = select(
        PlayerAttempt.puzzle_id,
        PlayerAttempt.review,
        PlayerAttempt.status,
        PlayerAttempt.hints,
        PlayerAttempt.slips,
        PlayerAttempt.finished,
    )
    # a rush or streak run is a game of its own, against a clock or to the first miss: what it leaves
    # unsolved does not come back
    query = query.where(PlayerAttempt.player_id == player, PlayerAttempt.run_id.is_(None))
    if puzzle_id is not None:
        query = query.where(PlayerAttempt.puzzle_id == puzzle_id)
    return [Turn(*row) for row in session.execute(query)]


@dataclass(frozen=True, slots=True)
class Entry:
    """A puzzle in the player's review, with what names it in the list: a daily's number and day, or
    the day a practice puzzle was first played."""

    waiting: Waiting
    puzzle: PoolPuzzle
    number: int | None
    """The daily's number; None for a practice puzzle."""
    day: date
    """The daily's day, or the player's day of their first turn at a practice puzzle."""


@dataclass(frozen=True, slots=True)
class Review:
    """A player's review on a day: the puzzles due (now) and those coming back later."""

    due: list[Entry]
    later: list[Entry]


def review(session: Session, player: str | None, today: date, zone: ZoneInfo) -> Review:
    if player is None:
        return Review([], [])
    played = turns(session, player)
    items = waiting(played, zone)
    ids = [item.puzzle_id for item in items]
    puzzles = {row.id: row for row in session.scalars(select(PoolPuzzle).where(PoolPuzzle.id.in_(ids)))}
    dailies = {
        puzzle_id: (number, day)
        for puzzle_id, number, day in session.execute(
            select(Daily.puzzle_id, Daily.number, Daily.day).where(Daily.puzzle_id.in_(ids))
        )
    }
    first_played: dict[int, date] = {}
    for turn in played:
        if turn.review == 0 and turn.finished is not None:
            first_played[turn.puzzle_id] = turn.finished.astimezone(zone).date()

    def entry(item: Waiting) -> Entry:
        number, day = dailies.get(item.puzzle_id, (None, first_played.get(item.puzzle_id, today)))
        return Entry(item, puzzles[item.puzzle_id], number, day)

    due = [entry(item) for item in items if item.is_due(today)]
    later = [entry(item) for item in items if not item.is_due(today)]
    return Review(due, later)


def counts(session: Session, player: str | None, today: date, zone: ZoneInfo) -> tuple[int, int]:
    """How many puzzles wait for review now, and how many come back later."""
    if player is None:
        return 0, 0
    items = waiting(turns(session, player), zone)
    now = sum(1 for item in items if item.is_due(today))
    return now, len(items) - now


def round_of(session: Session, player: str | None, puzzle_id: int, today: date, zone: ZoneInfo) -> int | None:
    """The review round the puzzle's review page shows this player; None when it has none."""
    if player is None:
        return None
    return round_to_show(turns(session, player, puzzle_id), puzzle_id, today, zone)

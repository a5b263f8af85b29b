"""A player's review, read from their attempts: what waits now and later, and which round a review
page shows.

Read in the database, never by loading every turn: a player's latest turn at each puzzle (outside
runs) is found there, and what waits is counted there (`spacing`'s rule, in SQL: the moment a round
falls due is its turn's end plus the round's interval, so a turn is due once it ended that interval
before now). Only the first `LISTED` of each list are read as rows, soonest first, so the page costs
the same whether a player has 30 attempts or 30,000.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, and_, case, exists, func, not_, or_, select
from sqlalchemy.orm import Session, aliased

from webapp.models import Daily, PlayerAttempt, PoolPuzzle, Status
from webapp.review.spacing import ALWAYS, INTERVALS, Turn, Waiting, interval, round_to_show

LISTED = 50
"""Puzzles each list of the review page shows, soonest first; the page counts the rest."""


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


def _latest(player: str) -> ColumnElement[bool]:
    """The player's latest turn at each puzzle outside runs: no turn of a later round follows it."""
    later = aliased(PlayerAttempt)
    followed = exists().where(
        later.player_id == player,
        later.puzzle_id == PlayerAttempt.puzzle_id,
        later.run_id.is_(None),
        later.review > PlayerAttempt.review,
    )
    return and_(PlayerAttempt.player_id == player, PlayerAttempt.run_id.is_(None), not_(followed))


PLAYING = and_(PlayerAttempt.status == Status.PLAYING, PlayerAttempt.review > 0)
"""A review round begun and not finished: it waits now."""
ENDED_WRONG = and_(
    PlayerAttempt.status != Status.PLAYING,
    PlayerAttempt.finished.is_not(None),
    not_(and_(PlayerAttempt.status == Status.SOLVED, PlayerAttempt.hints == 0, PlayerAttempt.slips == 0)),
)
"""A finished turn that was not a clean solve: its puzzle comes back."""


def _rounds() -> list[tuple[ColumnElement[bool], int]]:
    """The latest turns by the interval their next round waits: (which turns, the round after them)."""
    last = len(INTERVALS)
    return [(PlayerAttempt.review == n - 1, n) for n in range(1, last)] + [
        (PlayerAttempt.review >= last - 1, last)
    ]


def _due(moment: datetime) -> ColumnElement[bool]:
    """An ended-wrong latest turn whose next round is due at `moment`."""
    return or_(*(and_(turns, PlayerAttempt.finished <= moment - interval(n)) for turns, n in _rounds()))


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
    """A player's review on a day: the first `LISTED` puzzles due (now) and coming back later, and
    how many there are in all."""

    due: list[Entry]
    later: list[Entry]
    due_count: int = 0
    later_count: int = 0


def review(session: Session, player: str | None, moment: datetime, zone: ZoneInfo) -> Review:
    if player is None:
        return Review([], [])
    due_count, later_count = _counts(session, player, moment)
    playing = [
        Waiting(puzzle_id, review_round, date.min, ALWAYS, playing=True)
        for puzzle_id, review_round in session.execute(
            select(PlayerAttempt.puzzle_id, PlayerAttempt.review)
            .where(_latest(player), PLAYING)
            .order_by(PlayerAttempt.puzzle_id)
            .limit(LISTED)
        )
    ]
    due = [*playing, *_soonest(session, player, _due(moment), zone, LISTED - len(playing))]
    later = _soonest(session, player, not_(_due(moment)), zone, LISTED)
    ids = [item.puzzle_id for item in (*due, *later)]
    puzzles = {row.id: row for row in session.scalars(select(PoolPuzzle).where(PoolPuzzle.id.in_(ids)))}
    dailies = {
        puzzle_id: (number, day)
        for puzzle_id, number, day in session.execute(
            select(Daily.puzzle_id, Daily.number, Daily.day).where(Daily.puzzle_id.in_(ids))
        )
    }
    # found by the listed puzzles (one first turn each), the run told apart here: asked in the query,
    # the index of a round's turns by their end looked cheaper to SQLite, and read them all
    first_played = {
        puzzle_id: finished.astimezone(zone).date()
        for puzzle_id, finished, run_id in session.execute(
            select(PlayerAttempt.puzzle_id, PlayerAttempt.finished, PlayerAttempt.run_id).where(
                PlayerAttempt.player_id == player,
                PlayerAttempt.review == 0,
                PlayerAttempt.puzzle_id.in_([puzzle for puzzle in ids if puzzle not in dailies]),
            )
        )
        if finished is not None and run_id is None
    }
    today = moment.astimezone(zone).date()

    def entry(item: Waiting) -> Entry:
        number, day = dailies.get(item.puzzle_id, (None, first_played.get(item.puzzle_id, today)))
        return Entry(item, puzzles[item.puzzle_id], number, day)

    return Review([entry(item) for item in due], [entry(item) for item in later], due_count, later_count)


def _soonest(
    session: Session, player: str, which: ColumnElement[bool], zone: ZoneInfo, most: int
) -> list[Waiting]:
    """The first `most` ended-wrong latest turns of `which`, by the moment their round comes back:
    within one interval that is the order of their ends, so each interval's first `most` are read
    and merged."""
    if most <= 0:
        return []

    def of(turns: ColumnElement[bool]) -> Iterator[Waiting]:
        rows = session.execute(
            select(PlayerAttempt.puzzle_id, PlayerAttempt.review, PlayerAttempt.finished)
            .where(_latest(player), ENDED_WRONG, turns, which)
            .order_by(PlayerAttempt.finished, PlayerAttempt.puzzle_id)
            .limit(most)
        )
        for puzzle_id, review_round, finished in rows:
            assert finished is not None, "an ended turn has ended"
            at = finished + interval(review_round + 1)
            yield Waiting(puzzle_id, review_round + 1, at.astimezone(zone).date(), at)

    merged = heapq.merge(*(of(turns) for turns, _ in _rounds()), key=lambda item: (item.at, item.puzzle_id))
    return [item for _, item in zip(range(most), merged, strict=False)]


def _counts(session: Session, player: str, moment: datetime) -> tuple[int, int]:
    due = or_(PLAYING, and_(ENDED_WRONG, _due(moment)))
    later = and_(ENDED_WRONG, not_(_due(moment)))
    found: Any = session.execute(
        select(
            func.coalesce(func.sum(case((due, 1), else_=0)), 0),
            func.coalesce(func.sum(case((later, 1), else_=0)), 0),
        ).where(_latest(player))
    ).one()
    return int(found[0]), int(found[1])


def counts(session: Session, player: str | None, moment: datetime, zone: ZoneInfo) -> tuple[int, int]:
    """How many puzzles wait for review now, and how many come back later."""
    if player is None:
        return 0, 0
    return _counts(session, player, moment)


def round_of(
    session: Session, player: str | None, puzzle_id: int, moment: datetime, zone: ZoneInfo
) -> int | None:
    """The review round the puzzle's review page shows this player; None when it has none. Only the
    latest turn decides (`spacing.round_to_show`), so only it is read."""
    if player is None:
        return None
    latest = session.execute(
        select(
            PlayerAttempt.puzzle_id,
            PlayerAttempt.review,
            PlayerAttempt.status,
            PlayerAttempt.hints,
            PlayerAttempt.slips,
            PlayerAttempt.finished,
        )
        .where(PlayerAttempt.player_id == player, PlayerAttempt.run_id.is_(None))
        .where(PlayerAttempt.puzzle_id == puzzle_id)
        .order_by(PlayerAttempt.review.desc())
        .limit(1)
    ).first()
    return None if latest is None else round_to_show([Turn(*latest)], puzzle_id, moment, zone)

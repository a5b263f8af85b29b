"""The daily schedule: which puzzle each day has, published ahead by the clock or on first request.

Publishing a day is idempotent and safe under races: the `daily` table holds one row per number and
each puzzle once, so when two processes publish the same day together one insert fails, rolls back,
and reads the winner's row. Both would have chosen the same puzzle anyway: the choice is
deterministic (the pool's oldest unused puzzle of the day's tier, or one generated from the day's
number as seed).
"""

from __future__ import annotations

from flask import abort, current_app
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from webapp import db, models
from webapp.caching import AppCache
from webapp.schedule import pool
from webapp.schedule.clock import calendar, now
from webapp.schedule.days import weekly_tier

SEED_TRIES = 3
PUBLISHED_DAYS: AppCache[int, models.Daily] = AppCache(
    "published days", 64, serves="GET / for a newcomer: 1.2 ms, 2.0 ms reading the day's row again"
)


class ScheduleError(RuntimeError):
    """No puzzle could be published for a day."""


def find(session: Session, number: int) -> models.Daily | None:
    return session.get(models.Daily, number)


def open_daily(number: int) -> models.Daily:
    """The daily puzzle `number` if it is open now; 404 before its day, 410 after."""
    dates, moment = calendar(), now()
    if dates.is_future(number, moment):
        abort(404, description=f"Puzzle #{number} is not out yet.")
    if not dates.is_open(number, moment):
        abort(410, description=f"Puzzle #{number} has closed: its day has ended everywhere.")
    return _published_now(number)


def opened_daily(number: int) -> models.Daily:
    """A daily puzzle that has opened: still open, or closed (reading and checking it stays allowed);
    404 before its day, or if it was never published."""
    dates, moment = calendar(), now()
    if dates.is_future(number, moment):
        abort(404, description=f"Puzzle #{number} is not out yet.")
    if not dates.is_open(number, moment):
        # a closed day is only read, never published late: no request makes the generator work for it
        row = find(db.session(), number)
        if row is None:
            abort(404, description=f"Puzzle #{number} was never published.")
        return row
    return _published_now(number)


def _published_now(number: int) -> models.Daily:
    try:
        return daily(number)
    except ScheduleError as error:
        abort(503, description=str(error))


def daily(number: int) -> models.Daily:
    """The day's puzzle, published now if the clock has not done it yet.

    A published day never changes, so each process keeps the rows it has read (a few a day)."""
    known = PUBLISHED_DAYS()
    row = known.get(number)
    if row is None:
        row = find(db.session(), number) or publish(number)
        known.put(number, row)
    return row


def publish(number: int) -> models.Daily:
    """Give day `number` its puzzle unless it has one; returns the day's row either way."""
    database = db.database()
    rules = current_app.config["DAILY_RULES"]
    day = calendar().day(number)
    tier = weekly_tier(day)
    for _ in range(SEED_TRIES):
        try:
            with database.write() as session:
                row = find(session, number)
                if row is None:
                    candidate = pool.unused(session, rules, tier, exact=True)
                    if candidate is None:
                        break
                    row = _schedule(session, number, candidate)
                return row
        except IntegrityError:
            # another publisher (PostgreSQL lets them run together) took this day, or this puzzle for
            # another day: use its row, or choose again
            with database.reader() as session:
                row = find(session, number)
                if row is not None:
                    return row
    # none of the day's tier in the pool: make one outside any transaction, since it takes seconds
    for attempt in range(SEED_TRIES):
        seed = number + attempt * 1_000_000
        try:
            made = pool.make(rules, tier, seed, current_app.config["GENERATE_TIME_LIMIT"])
        except pool.PoolError:
            break
        try:
            with database.write() as session:
                row = find(session, number)
                if row is not None:
                    return row
                stored, _ = pool.add(session, made, now())
                if _scheduled_elsewhere(session, stored):
                    continue
                return _schedule(session, number, stored)
        except IntegrityError:  # a racing publisher won: use its row
            with database.reader() as session:
                row = find(session, number)
                if row is not None:
                    return row
    # the generator found nothing: the pool's puzzle of the nearest tier, rather than no puzzle
    try:
        with database.write() as session:
            row = find(session, number)
            candidate = None if row is not None else pool.unused(session, rules, tier)
            if candidate is not None:
                row = _schedule(session, number, candidate)
            if row is not None:
                return row
    except IntegrityError:  # a racing publisher won: use its row
        with database.reader() as session:
            row = find(session, number)
            if row is not None:
                return row
    raise ScheduleError(f"no puzzle could be published for #{number}")


def _schedule(session: Session, number: int, puzzle: models.PoolPuzzle) -> models.Daily:
    row = models.Daily(number=number, day=calendar().day(number), puzzle=puzzle, published=now())
    session.add(row)
    session.flush()
    return row


def _scheduled_elsewhere(session: Session, puzzle: models.PoolPuzzle) -> bool:
    return session.scalar(select(models.Daily.number).where(models.Daily.puzzle_id == puzzle.id)) is not None


def publish_ahead(days: int | None = None) -> list[int]:
    """Publish every day still open anywhere and the next `days` ones; returns the numbers made."""
    ahead = current_app.config["PUBLISH_AHEAD_DAYS"] if days is None else days
    moment = now()
    dates = calendar()
    first = dates.open_numbers(moment).start
    last = dates.number(moment.date()) + ahead
    made = []
    with db.database().reader() as session:
        have = set(
            session.scalars(select(models.Daily.number).where(models.Daily.number.between(first, last)))
        )
    for number in range(max(first, 1), last + 1):
        if number not in have:
            publish(number)
            made.append(number)
    return made

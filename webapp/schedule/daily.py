"""The daily schedule: which puzzle each day has, published ahead by the clock or on first request.

Only the clock and the commands run the generator; a request that finds its day unpublished (the
clock was down) publishes it from the pool alone, so no page waits seconds for a new puzzle.

Publishing a day is idempotent and safe under races: the `daily` table holds one row per number and
each puzzle once, so when two processes publish the same day together one insert fails, rolls back,
and reads the winner's row. Both would have chosen the same puzzle anyway: the choice is
deterministic given the site's daily secret (`DAILY_SECRET`): HMAC-SHA256 of the day's number under it
picks one of the pool's oldest unused puzzles of the day's tier, or gives the generator's seeds when
the pool has none. Whoever holds the code and the pool still cannot tell a future day's puzzle.

No motif (`generator.motif_of`) is that of two days less than 7 days apart, and no two days less
than 90 days apart share 4 or more melds up to relabelling (`generator.near_duplicate`), as long as
the pool and the generator's tries allow it; rather than no puzzle, a day repeats one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from flask import current_app
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

import generator
from puzzles import words
from webapp import db, models
from webapp.errors import Refusal
from webapp.schedule import pool
from webapp.schedule.clock import calendar, now
from webapp.schedule.days import daily_seed, day_digest, pool_choice, weekly_tier

SEED_TRIES = 3


class ScheduleError(RuntimeError):
    """No puzzle could be published for a day."""


def find(session: Session, number: int) -> models.Daily | None:
    return session.get(models.Daily, number)


def open_daily(number: int) -> models.Daily:
    """The daily puzzle `number` if it is open now; 404 before its day, 410 after."""
    dates, moment = calendar(), now()
    if dates.is_future(number, moment):
        raise Refusal(words("Puzzle #%(number)s is not out yet.", number=number), 404)
    if not dates.is_open(number, moment):
        closed = words("Puzzle #%(number)s has closed: its day has ended everywhere.", number=number)
        raise Refusal(closed, 410)
    return _published_now(number)


def opened_daily(number: int) -> models.Daily:
    """A daily puzzle that has opened: still open, or closed (reading and checking it stays allowed);
    404 before its day, or if it was never published."""
    dates, moment = calendar(), now()
    if dates.is_future(number, moment):
        raise Refusal(words("Puzzle #%(number)s is not out yet.", number=number), 404)
    if not dates.is_open(number, moment):
        # a closed day is only read, never published late: no request makes the generator work for it
        row = find(db.session(), number)
        if row is None:
            raise Refusal(words("Puzzle #%(number)s was never published.", number=number), 404)
        return row
    return _published_now(number)


def _published_now(number: int) -> models.Daily:
    try:
        return daily(number)
    except ScheduleError as error:
        # the error's own words are the commands' (English); the page says them in the player's language
        raise Refusal(words("no puzzle could be published for #%(number)s", number=number), 503) from error


def daily(number: int) -> models.Daily:
    """The day's puzzle, published now from the pool if the clock has not done it yet.

    Read again on every request: a cache of the rows saved 0.8 ms (1.2 against 2.0 ms for GET /),
    under the 2 ms a cache must save to be kept."""
    return find(db.session(), number) or publish(number, generate=False)


THEME_GAP = 7
"""Days less than this far apart never share a main theme."""


def publish(number: int, generate: bool = True) -> models.Daily:
    """Give day `number` its puzzle unless it has one; returns the day's row either way. Without
    `generate` (a request's publishing), a day whose tier the pool lacks takes the nearest tier."""
    rules = current_app.config["DAILY_RULES"]
    tier = weekly_tier(calendar().day(number))
    digest = day_digest(current_app.config["DAILY_SECRET"], number)
    # an unused pool puzzle of the day's tier, chosen again if a racing publisher took it
    for _ in range(SEED_TRIES):
        row, lost = _publish_once(
            number, partial(_from_pool, number=number, tier=tier, exact=True, digest=digest)
        )
        if row is not None:
            return row
        if not lost:
            break
    # none of the day's tier in the pool: make one outside any transaction, since it takes seconds
    for attempt in range(SEED_TRIES if generate else 0):
        try:
            made = pool.make(
                rules, tier, daily_seed(digest, attempt), current_app.config["GENERATE_TIME_LIMIT"]
            )
        except pool.PoolError:
            break
        row, _ = _publish_once(number, partial(_pooled, number=number, made=made))
        if row is not None:
            return row
    # the generator found nothing new: the pool's puzzle of the nearest tier, rather than no puzzle
    for spread in (True, False):
        pick = partial(_from_pool, number=number, tier=tier, exact=False, digest=digest, spread=spread)
        row, _ = _publish_once(number, pick)
        if row is not None:
            return row
    raise ScheduleError(f"no puzzle could be published for #{number}")


def recent_motifs(session: Session, number: int) -> frozenset[str]:
    """The main themes of the days less than THEME_GAP days before or after day `number`."""
    themes = session.scalars(
        select(models.PoolPuzzle.themes)
        .join(models.Daily, models.Daily.puzzle_id == models.PoolPuzzle.id)
        .where(models.Daily.number.between(number - THEME_GAP + 1, number + THEME_GAP - 1))
    )
    return frozenset(theme for names in themes if (theme := generator.motif_of(names)) is not None)


TABLE_GAP = 90
"""Days less than this far apart never nearly repeat each other's table."""


def nearby_tables(session: Session, number: int) -> list[list[list[str]]]:
    """The tables of the days less than TABLE_GAP days before or after day `number`."""
    return list(
        session.scalars(
            select(models.PoolPuzzle.table)
            .join(models.Daily, models.Daily.puzzle_id == models.PoolPuzzle.id)
            .where(models.Daily.number.between(number - TABLE_GAP + 1, number + TABLE_GAP - 1))
        )
    )


def _from_pool(
    session: Session, number: int, tier: str, exact: bool, digest: bytes, spread: bool = True
) -> models.PoolPuzzle | None:
    avoid = recent_motifs(session, number) if spread else frozenset()
    unlike = nearby_tables(session, number) if spread else []
    rules = current_app.config["DAILY_RULES"]
    return pool.unused(
        session, rules, tier, exact=exact, avoid=avoid, choice=pool_choice(digest), unlike=unlike
    )


Pick = Callable[[Session], models.PoolPuzzle | None]
"""Chooses a day's puzzle inside the write transaction; None when it has none to give."""


def _publish_once(number: int, pick: Pick) -> tuple[models.Daily | None, bool]:
    """Schedule the puzzle `pick` chooses on day `number`, unless the day has one already. Returns the
    day's row (None when `pick` had nothing), and whether a racing publisher's insert won without
    giving the day its puzzle (it took this puzzle for another day): then choose again."""
    database = db.database()
    try:
        with database.write() as session:
            row = find(session, number)
            if row is None:
                puzzle = pick(session)
                if puzzle is None:
                    return None, False
                row = _schedule(session, number, puzzle)
            return row, False
    except IntegrityError:
        # another publisher (PostgreSQL lets them run together) took this day, or this puzzle for
        # another day: use its row, or choose again
        with database.reader() as session:
            row = find(session, number)
        return row, row is None


def _pooled(session: Session, number: int, made: generator.Puzzle) -> models.PoolPuzzle | None:
    """A puzzle just made, added to the pool (if new); None if it is some other day's puzzle already,
    its main theme is a nearby day's, or its table nearly repeats a nearby day's."""
    stored, _ = pool.add(session, made, now())
    scheduled = session.scalar(select(models.Daily.number).where(models.Daily.puzzle_id == stored.id))
    if scheduled is not None or generator.motif_of(stored.themes) in recent_motifs(session, number):
        return None
    if pool.repeats(stored.table, nearby_tables(session, number), stored.rules):
        return None
    return stored


def _schedule(session: Session, number: int, puzzle: models.PoolPuzzle) -> models.Daily:
    row = models.Daily(number=number, day=calendar().day(number), puzzle=puzzle, published=now())
    session.add(row)
    session.flush()
    return row


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

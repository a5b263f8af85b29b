"""How everyone else did on a puzzle: the share who solved it, the median moves and time of the
solves, and where one player's solve stands. Shown only once that player has finished the puzzle.

The figures come from the stored attempts, counted in full per puzzle every few minutes and in
between kept up with the attempts finished since: in a rush every result card comes after one more
finished attempt. Only real play counts (`real_players`): a throwaway cookie that opens a puzzle and
gives up moves no figure, as it moves no puzzle's rating (`records.rate`).
"""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median
from typing import Any

from flask import current_app
from sqlalchemy import ColumnElement, Select, bindparam, case, func, literal, select
from sqlalchemy.orm import Session, aliased

from webapp.caching import AppCache
from webapp.columns import UtcDateTime
from webapp.models import Player, PlayerAttempt, Status

FRESH_SECONDS = 300
"""How long a puzzle's figures are kept before they are counted again in full; in between, only the
attempts finished since are read."""
OVERLAP_SECONDS = 5
"""How far before the latest finished attempt counted the next reading starts (requests racing, hosts'
clocks a little apart); an attempt committed later still is found by the sums, and counted in full."""
FINISHED = (Status.SOLVED, Status.MISSED, Status.GAVE_UP, Status.TIMED_OUT)

FEW = 5
"""Below this many players of real play (`real_players`) who finished a puzzle, the result card says
how many players finished it and solved it in plain counts, not in shares and medians."""


@dataclass(frozen=True, slots=True)
class Crowd:
    """Every finished attempt at one puzzle, as figures: shares and medians from the players of real
    play, and plain counts of every player who finished it (a newcomer's first puzzle too)."""

    finished: int
    solve_seconds: tuple[float, ...]
    """The time each solve took, sorted."""
    solve_moves: tuple[int, ...]
    """The moves each solve took, sorted."""
    everyone: int = 0
    """Every player who finished it (their first turn), of real play or not."""
    everyone_solved: int = 0
    """Those of `everyone` who solved it."""

    @property
    def few(self) -> bool:
        """Too few players of real play for shares and medians to mean much."""
        return self.finished < FEW

    @property
    def solved(self) -> int:
        return len(self.solve_seconds)

    @property
    def solved_percent(self) -> int:
        return round(100 * self.solved / self.finished) if self.finished else 0

    @property
    def median_moves(self) -> float | None:
        return median(self.solve_moves) if self.solve_moves else None

    @property
    def median_seconds(self) -> float | None:
        return median(self.solve_seconds) if self.solve_seconds else None

    def faster_than(self, seconds: float) -> int:
        """The share (in %) of the other solves that took longer than `seconds`."""
        return _beaten(self.solve_seconds, seconds)

    def fewer_moves_than(self, moves: int) -> int:
        """The share (in %) of the other solves that took more moves than `moves`."""
        return _beaten(self.solve_moves, moves)


def _beaten(sorted_values: tuple[float, ...] | tuple[int, ...], mine: float) -> int:
    # the player's own solve is among the figures unless they were counted before it: leave it out
    at = bisect_left(sorted_values, mine)
    own = at < len(sorted_values) and sorted_values[at] == mine
    others = len(sorted_values) - (1 if own else 0)
    if others <= 0:
        return 0
    return round(100 * (len(sorted_values) - bisect_right(sorted_values, mine)) / others)


def crowd_of(rows: Iterable[tuple[Status, int, datetime, datetime | None, bool]]) -> Crowd:
    """The figures of the attempts given as (status, moves, started, finished, real play), finished
    or not."""
    tally = _Tally(datetime.min)
    tally.add(
        (number, status, count, started, ended, real)
        for number, (status, count, started, ended, real) in enumerate(rows, 1)
        if status in FINISHED and ended is not None
    )
    return tally.crowd


class _Tally:
    """One puzzle's finished attempts as this process has counted them: every id counted (so an attempt
    read twice counts once), the figures so far, and when they were last counted in full."""

    def __init__(self, counted: datetime) -> None:
        self.lock = threading.Lock()
        self.full_at = counted
        self.counted = counted
        self.ids: set[int] = set()
        self.id_sum = 0
        self.latest: datetime | None = None
        self.finished = self.everyone_solved = 0
        self.seconds: list[float] = []
        self.moves: list[int] = []
        self.crowd = Crowd(0, (), ())

    def add(self, rows: Iterable[tuple[int, Status, int, datetime, datetime, bool]]) -> None:
        for attempt_id, status, count, started, ended, real in rows:
            if attempt_id in self.ids:
                continue
            self.ids.add(attempt_id)
            self.id_sum += attempt_id
            self.latest = ended if self.latest is None else max(self.latest, ended)
            self.everyone_solved += status == Status.SOLVED
            if not real:
                continue
            self.finished += 1
            if status == Status.SOLVED:
                insort(self.seconds, (ended - started).total_seconds())
                insort(self.moves, count)
        self.crowd = Crowd(
            self.finished, tuple(self.seconds), tuple(self.moves), len(self.ids), self.everyone_solved
        )


CROWDS: AppCache[int, _Tally] = AppCache(
    "crowds",
    512,
    serves="GET / with the result card, 2,000 other finished attempts at the puzzle on SQLite: 7.7 ms "
    "of CPU with it, 22.8 ms counting them again (bench/web_caches.py); counted in full every few "
    "minutes, and in between only the attempts finished since (issue 42: an end of turn in a rush "
    "counted every finished attempt again)",
)


def real_players(now: datetime) -> ColumnElement[bool]:
    """The attempts whose players play for real: a record begun `REAL_PLAY_DAYS` days ago or more,
    with puzzles finished on `REAL_PLAY_FINISHED` different days or more. A cookie made to give up a
    puzzle is neither: to count, it must come back on days apart and finish puzzles, for each cookie
    (finished attempts of any day counted, a cookie made days ago passed after a minute's give-ups)."""
    old_before, days = _real_play_params(now)
    return _real_play(literal(old_before, UtcDateTime()), literal(days))


def _real_play_params(now: datetime) -> tuple[datetime, int]:
    config = current_app.config
    return now - timedelta(days=float(config["REAL_PLAY_DAYS"])), int(config["REAL_PLAY_FINISHED"])


def _real_play(old_before: ColumnElement[datetime], days: ColumnElement[int]) -> ColumnElement[bool]:
    earlier = aliased(PlayerAttempt)
    finished = (
        select(func.count(func.distinct(func.date(earlier.finished))))
        .where(earlier.player_id == PlayerAttempt.player_id, earlier.status.in_(FINISHED))
        .scalar_subquery()
    )
    old_enough = select(Player.id).where(Player.created <= old_before)
    return PlayerAttempt.player_id.in_(old_enough) & (finished >= days)


def how_others_did(session: Session, puzzle_id: int, now: datetime, finished: datetime) -> Crowd:
    """The figures of puzzle `puzzle_id` for a player who finished it at `finished`: never counted
    before that player's own attempt was, and as a full count would find them.

    Counted in full at most every FRESH_SECONDS per process (attempts become real play as days pass).
    In between, one statement reads the count and id sum of the finished attempts, with those finished
    from OVERLAP_SECONDS before the latest counted on; sums that still disagree (an attempt committed
    later, or erased) make a full count."""
    cache = CROWDS()
    tally = cache.get(puzzle_id)
    fresh = tally is not None and (now - tally.counted).total_seconds() < FRESH_SECONDS
    if tally is not None and fresh and tally.counted >= finished:
        return tally.crowd
    if tally is None or (now - tally.full_at).total_seconds() >= FRESH_SECONDS:
        return _in_full(session, puzzle_id, now)
    with tally.lock:
        since = finished if tally.latest is None else min(finished, tally.latest)
        count, id_sum, rows = _since(session, puzzle_id, now, since - timedelta(seconds=OVERLAP_SECONDS))
        if (count, id_sum) != (len(tally.ids), tally.id_sum):
            tally.add(rows)
            if (count, id_sum) != (len(tally.ids), tally.id_sum):
                return _in_full(session, puzzle_id, now)
        tally.counted = max(tally.counted, now)
        return tally.crowd


def _in_full(session: Session, puzzle_id: int, now: datetime) -> Crowd:
    tally = _Tally(now)
    tally.add(_finished_rows(session, puzzle_id, now))
    CROWDS().put(puzzle_id, tally)
    return tally.crowd


def _counted() -> ColumnElement[bool]:
    """The attempts the figures are of: every finished first turn of puzzle `:puzzle_id` (a run's
    solves race a clock or a streak: another game)."""
    return (
        (PlayerAttempt.puzzle_id == bindparam("puzzle_id"))
        & PlayerAttempt.status.in_(FINISHED)
        & PlayerAttempt.finished.is_not(None)
        & PlayerAttempt.run_id.is_(None)
        & (PlayerAttempt.review == 0)
    )


def _statements() -> tuple[Select[Any], Select[Any]]:
    """Every counted attempt, and the sums with those finished at `:since` or later, each marked real
    play or not (the figures are of real play, the counts of everyone). Built once: building them
    took more of an end of turn's CPU than running them."""
    real = case(
        (_real_play(bindparam("old_before", type_=UtcDateTime()), bindparam("days")), True), else_=False
    ).label("real")
    columns = (
        PlayerAttempt.id,
        PlayerAttempt.status,
        PlayerAttempt.moves,
        PlayerAttempt.started,
        PlayerAttempt.finished,
        real,
    )
    every = select(*columns).where(_counted())
    sums = (
        select(func.count().label("attempts"), func.coalesce(func.sum(PlayerAttempt.id), 0).label("id_sum"))
        .where(_counted())
        .subquery()
    )
    since = select(sums.c.attempts, sums.c.id_sum, *columns).select_from(
        sums.outerjoin(PlayerAttempt, _counted() & (PlayerAttempt.finished >= bindparam("since")))
    )
    return every, since


_EVERY, _SINCE = _statements()


def _params(puzzle_id: int, now: datetime) -> dict[str, Any]:
    old_before, days = _real_play_params(now)
    return {"puzzle_id": puzzle_id, "old_before": old_before, "days": days}


def _since(
    session: Session, puzzle_id: int, now: datetime, since: datetime
) -> tuple[int, int, list[tuple[int, Status, int, datetime, datetime, bool]]]:
    """How many attempts the figures are of and the sum of their ids, with those finished at `since` or
    later: one statement (the sums' one row joined to the attempts, none of them read if none finished)."""
    result = session.execute(_SINCE, {**_params(puzzle_id, now), "since": since}).all()
    rows = [
        (row.id, row.status, row.moves, row.started, row.finished, bool(row.real))
        for row in result
        if row.id is not None
    ]
    return int(result[0].attempts), int(result[0].id_sum), rows


def _finished_rows(
    session: Session, puzzle_id: int, now: datetime
) -> Iterator[tuple[int, Status, int, datetime, datetime, bool]]:
    """Every finished attempt the figures are of."""
    for row in session.execute(_EVERY, _params(puzzle_id, now)):
        assert row.finished is not None, "only finished attempts are read"
        yield row.id, row.status, row.moves, row.started, row.finished, bool(row.real)


def solved_shares(session: Session, puzzle_ids: list[int], now: datetime) -> dict[int, int]:
    """For each puzzle with a finished attempt: the share (in %) of finished attempts that solved it."""
    if not puzzle_ids:
        return {}
    rows = session.execute(
        select(
            PlayerAttempt.puzzle_id,
            func.count(),
            func.sum(case((PlayerAttempt.status == Status.SOLVED, 1), else_=0)),
        )
        .where(
            PlayerAttempt.puzzle_id.in_(puzzle_ids),
            PlayerAttempt.status.in_(FINISHED),
            PlayerAttempt.run_id.is_(None),
            PlayerAttempt.review == 0,
            real_players(now),
        )
        .group_by(PlayerAttempt.puzzle_id)
    )
    return {puzzle_id: round(100 * (solved or 0) / count) for puzzle_id, count, solved in rows if count}

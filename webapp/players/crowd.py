"""How everyone else did on a puzzle: the share who solved it, the median moves and time of the
solves, and where one player's solve stands. Shown only once that player has finished the puzzle.

The figures come from the stored attempts, cached per puzzle for a few minutes: a result card is
drawn far more often than the figures move. Only real play counts (`real_players`): a throwaway cookie
that opens a puzzle and gives up moves no figure, as it moves no puzzle's rating (`records.rate`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median

from flask import current_app
from sqlalchemy import ColumnElement, case, func, select
from sqlalchemy.orm import Session, aliased

from webapp.caching import AppCache
from webapp.models import Player, PlayerAttempt, Status

FRESH_SECONDS = 300
"""How long a puzzle's figures are kept before they are counted again."""
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
    """The figures of finished attempts given as (status, moves, started, finished, real play)."""
    finished = everyone = everyone_solved = 0
    seconds: list[float] = []
    moves: list[int] = []
    for status, count, started, ended, real in rows:
        if status not in FINISHED or ended is None:
            continue
        everyone += 1
        everyone_solved += status == Status.SOLVED
        if not real:
            continue
        finished += 1
        if status == Status.SOLVED:
            seconds.append((ended - started).total_seconds())
            moves.append(count)
    return Crowd(finished, tuple(sorted(seconds)), tuple(sorted(moves)), everyone, everyone_solved)


CROWDS: AppCache[int, tuple[datetime, Crowd]] = AppCache(
    "crowds",
    512,
    serves="GET / with the result card, 2,000 other finished attempts at the puzzle on SQLite: 7.7 ms "
    "of CPU with it, 22.8 ms counting them again (bench/web_caches.py); counted again every few "
    "minutes instead of on every result drawn",
)


def real_players(now: datetime) -> ColumnElement[bool]:
    """The attempts whose players play for real: a record begun `REAL_PLAY_DAYS` days ago or more,
    with puzzles finished on `REAL_PLAY_FINISHED` different days or more. A cookie made to give up a
    puzzle is neither: to count, it must come back on days apart and finish puzzles, for each cookie
    (finished attempts of any day counted, a cookie made days ago passed after a minute's give-ups)."""
    config = current_app.config
    earlier = aliased(PlayerAttempt)
    finished = (
        select(func.count(func.distinct(func.date(earlier.finished))))
        .where(earlier.player_id == PlayerAttempt.player_id, earlier.status.in_(FINISHED))
        .scalar_subquery()
    )
    old_enough = select(Player.id).where(
        Player.created <= now - timedelta(days=float(config["REAL_PLAY_DAYS"]))
    )
    return PlayerAttempt.player_id.in_(old_enough) & (finished >= int(config["REAL_PLAY_FINISHED"]))


def how_others_did(session: Session, puzzle_id: int, now: datetime, finished: datetime) -> Crowd:
    """The figures of puzzle `puzzle_id` for a player who finished it at `finished`: counted at most
    FRESH_SECONDS ago, and never before that player's own attempt was."""
    cached = CROWDS().get(puzzle_id)
    if cached is not None:
        counted, crowd = cached
        if counted >= finished and (now - counted).total_seconds() < FRESH_SECONDS:
            return crowd
    # every finished first turn, marked real play or not: the figures are of real play (a throwaway
    # cookie moves no share), the counts of everyone (a friend on their first day has finished it)
    real = case((real_players(now), True), else_=False).label("real")
    rows = session.execute(
        select(
            PlayerAttempt.status, PlayerAttempt.moves, PlayerAttempt.started, PlayerAttempt.finished, real
        ).where(
            PlayerAttempt.puzzle_id == puzzle_id,
            PlayerAttempt.status.in_(FINISHED),
            PlayerAttempt.run_id.is_(None),  # a run's solves race a clock or a streak: another game
            PlayerAttempt.review == 0,
        )
    )
    crowd = crowd_of((row.status, row.moves, row.started, row.finished, bool(row.real)) for row in rows)
    CROWDS().put(puzzle_id, (now, crowd))
    return crowd


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

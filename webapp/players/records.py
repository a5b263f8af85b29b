"""A player's record in the database: their daily plays and streak, their stats, and their rating.

The arithmetic is `streaks`, `glicko` and `charts`; this module only reads and writes rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from webapp import db, models, rating_defaults
from webapp.models import Status
from webapp.players.crowd import FINISHED
from webapp.players.glicko import Rating, idle, play, solve_score
from webapp.players.identity import current_player_id
from webapp.players.streaks import DailyPlay, DayMark, Streak, marks, streak
from webapp.schedule.days import Calendar

FINISHED_ALONE = (models.PlayerAttempt.status != Status.PLAYING) & models.PlayerAttempt.run_id.is_(None)
"""Finished attempts outside rush and streak runs, which keep their own best scores (`players.bests`)."""


def daily_plays(session: Session, player: str) -> list[DailyPlay]:
    return _daily_plays(session, [player]).get(player, [])


def _daily_plays(session: Session, players: list[str]) -> dict[str, list[DailyPlay]]:
    rows = session.execute(
        select(
            models.PlayerAttempt.player_id,
            models.PlayerAttempt.number,
            models.PlayerAttempt.status,
            models.PlayerAttempt.hints,
            models.PlayerAttempt.started,
            models.PlayerAttempt.finished,
            models.PlayerAttempt.slips,
        ).where(models.PlayerAttempt.player_id.in_(players), models.PlayerAttempt.number.is_not(None))
    )
    found: dict[str, list[DailyPlay]] = {}
    for player, number, status, hints, started, finished, slips in rows:
        if number is not None:
            found.setdefault(player, []).append(DailyPlay(number, status, hints, started, finished, slips))
    return found


def published(session: Session, last: int) -> list[int]:
    """The numbers of the daily puzzles published up to `last`."""
    return list(session.scalars(select(models.Daily.number).where(models.Daily.number <= last)))


def day_marks(session: Session, player: str, dates: Calendar, now: datetime) -> dict[int, DayMark]:
    last = dates.open_numbers(now).stop - 1
    return marks(published(session, last), daily_plays(session, player), dates, now)


def player_streak(session: Session, player: str | None, dates: Calendar, now: datetime) -> Streak:
    if player is None:
        return Streak(0, 0)
    return streak(day_marks(session, player, dates, now))


def player_streaks(session: Session, players: list[str], dates: Calendar, now: datetime) -> dict[str, Streak]:
    """Each player's streak, as `player_streak`, in two queries for them all (a friends' table of 50
    asked the published days 50 times)."""
    numbers = published(session, dates.open_numbers(now).stop - 1)
    plays = _daily_plays(session, players)
    return {player: streak(marks(numbers, plays.get(player, []), dates, now)) for player in players}


@dataclass(frozen=True, slots=True)
class ThemeRate:
    """How a player does on the puzzles of one theme: daily and practice ones they finished."""

    theme: str
    played: int
    solved: int

    @property
    def solve_rate(self) -> int:
        return round(100 * self.solved / self.played)


def theme_rates(session: Session, player: str | None) -> list[ThemeRate]:
    """The player's solve rate per theme of the puzzles they finished, weakest first (then the most
    played), as the Lichess puzzle dashboard shows them."""
    if player is None:
        return []
    rows = session.execute(
        select(models.PoolPuzzle.themes, models.PlayerAttempt.status)
        .join(models.PlayerAttempt, models.PlayerAttempt.puzzle_id == models.PoolPuzzle.id)
        # a puzzle once, as first met: a review round replays a puzzle the player has seen solved
        .where(models.PlayerAttempt.player_id == player, FINISHED_ALONE, models.PlayerAttempt.review == 0)
    )
    played: Counter[str] = Counter()
    solved: Counter[str] = Counter()
    for themes, status in rows:
        for theme in set(themes):
            played[theme] += 1
            solved[theme] += status == Status.SOLVED
    rates = [ThemeRate(theme, played[theme], solved[theme]) for theme in played]
    return sorted(rates, key=lambda rate: (rate.solved / rate.played, -rate.played, rate.theme))


def finished_numbers(session: Session, player: str | None, numbers: Iterable[int]) -> set[int]:
    """Which of these daily puzzles the player has finished (solved, missed, given up or timed out)."""
    if player is None:
        return set()
    rows = session.scalars(
        select(models.PlayerAttempt.number).where(
            models.PlayerAttempt.player_id == player,
            models.PlayerAttempt.number.in_(list(numbers)),
            models.PlayerAttempt.status != Status.PLAYING,
        )
    )
    return {number for number in rows if number is not None}


def finished_here(number: int) -> bool:
    """Whether this request's player (the browser's cookie) has finished daily puzzle `number`."""
    return number in finished_numbers(db.session(), current_player_id(), (number,))


def lapsed(attempt: models.PlayerAttempt, dates: Calendar, now: datetime) -> bool:
    """An unfinished daily attempt that counts as played and not solved: the record calls it missed."""
    assert attempt.number is not None
    closes = dates.closes(attempt.number)
    left_open = attempt.started < closes <= now  # an archive play, begun after, is still going
    return left_open or attempt.overdue(now)


def player_rating(session: Session, player: str | None) -> float | None:
    """The player's rating now; None for a newcomer."""
    if player is None:
        return None
    return session.scalar(select(models.Player.rating).where(models.Player.id == player))


def current_rating(session: Session, player: str) -> Rating:
    """The player's rating, deviation and volatility now (a newcomer's defaults if not stored)."""
    row = session.get(models.Player, player)
    return Rating() if row is None else _rating_of(row)


def rating_change(session: Session, attempt: models.PlayerAttempt) -> tuple[float, float] | None:
    """The player's rating after a rated attempt, and how much that attempt moved it."""
    if attempt.rating_after is None:
        return None
    before = session.scalar(
        select(models.PlayerAttempt.rating_after)
        .where(
            models.PlayerAttempt.player_id == attempt.player_id,
            models.PlayerAttempt.rating_after.is_not(None),
            or_(
                models.PlayerAttempt.finished < attempt.finished,
                and_(models.PlayerAttempt.finished == attempt.finished, models.PlayerAttempt.id < attempt.id),
            ),
        )
        .order_by(models.PlayerAttempt.finished.desc(), models.PlayerAttempt.id.desc())
        .limit(1)
    )
    previous = rating_defaults.DEFAULT_RATING if before is None else before
    return attempt.rating_after, attempt.rating_after - previous


def score(attempt: models.PlayerAttempt) -> float:
    """The player's result in the attempt's rating game: a solve less its hints' and slips' cost, else 0."""
    return solve_score(attempt.hints, attempt.slips) if attempt.status == Status.SOLVED else 0.0


def _real(session: Session, player: models.Player, attempt: models.PlayerAttempt) -> bool:
    """Whether the player plays for real (`crowd.real_players`, the same test): a record at least
    `REAL_PLAY_DAYS` old when this attempt finished, with puzzles finished on `REAL_PLAY_FINISHED`
    different days, this one's included."""
    config = current_app.config
    moment = attempt.finished or attempt.started
    if player.created > moment - timedelta(days=float(config["REAL_PLAY_DAYS"])):
        return False
    finished = session.scalar(
        select(func.count(func.distinct(func.date(models.PlayerAttempt.finished)))).where(
            models.PlayerAttempt.player_id == player.id, models.PlayerAttempt.status.in_(FINISHED)
        )
    )
    return int(finished or 0) >= int(config["REAL_PLAY_FINISHED"])


@dataclass(frozen=True, slots=True)
class Rated:
    """A game just rated: what the result card says of it, without reading the rows again."""

    player: Rating
    """The player's rating after it."""
    puzzle_before: float
    """The puzzle's rating as the game found it."""
    player_before: float
    """The player's rating as the game found it: the result card's change is the difference."""


def rate(session: Session, attempt_id: int) -> Rated | None:
    """Rate a finished attempt as a Glicko-2 game between player and puzzle, once; the ratings it
    found and made, or None when it was rated already (or is not finished)."""
    attempt = session.get(models.PlayerAttempt, attempt_id, with_for_update=True)
    return None if attempt is None else rate_finished(session, attempt)


def rate_finished(session: Session, attempt: models.PlayerAttempt) -> Rated | None:
    """`rate` for an attempt as its last write left it (an end of turn's), not read again: the
    guarded UPDATE of `rating_after` rates it once whoever races it, and finds it gone if erased."""
    if not attempt.done or attempt.rating_after is not None or attempt.run_id is not None:
        return None  # a rush's or streak's attempt is unrated
    if attempt.review:
        # a review round follows a finished turn, whose result showed the solution: replaying it scored
        # clean solves (4 Masters given up, then replayed: 1327 to 1909), so it moves no rating at all
        return None
    last_rated = (
        select(func.max(models.PlayerAttempt.finished))
        .where(
            models.PlayerAttempt.player_id == attempt.player_id,
            models.PlayerAttempt.rating_after.is_not(None),
        )
        .scalar_subquery()
    )
    # the player locked, their last rated game's end and the puzzle's rating: one statement
    found = session.execute(
        select(
            models.Player,
            last_rated,
            models.PoolPuzzle.rating,
            models.PoolPuzzle.deviation,
            models.PoolPuzzle.volatility,
        )
        .join(models.PoolPuzzle, models.PoolPuzzle.id == attempt.puzzle_id)
        .where(models.Player.id == attempt.player_id)
        .with_for_update(of=models.Player)
    ).first()
    if found is None:  # erased meanwhile
        return None
    player, last, *puzzle_found = found
    puzzle_before = Rating(*puzzle_found)
    # locked only when this game moves it, late: a rush of new players (who never do) queued on it
    moves_puzzle = _real(session, player, attempt)
    puzzle = None
    if moves_puzzle:
        puzzle = session.get_one(models.PoolPuzzle, attempt.puzzle_id, with_for_update=True)
        puzzle_before = _rating_of(puzzle)
    # a rating period is a day, and the game's own period widens the deviation already (in play):
    # each whole day between the last rated game and this one makes the rating less certain too
    days = (attempt.finished - last).days if last is not None and attempt.finished is not None else 0
    player_after, puzzle_after = play(idle(_rating_of(player), days - 1), puzzle_before, score(attempt))
    # the guard makes a second rating of the same attempt, racing this one, change nothing
    changed = session.execute(
        update(models.PlayerAttempt)
        .where(models.PlayerAttempt.id == attempt.id, models.PlayerAttempt.rating_after.is_(None))
        .values(rating_after=player_after.rating)
        .execution_options(synchronize_session=False)
    )
    if changed.rowcount != 1:  # type: ignore[attr-defined]
        return None
    if attempt in session:
        set_committed_value(attempt, "rating_after", player_after.rating)  # written above: not again
    player_before = player.rating
    _store(player, player_after)
    # a throwaway cookie's game moves its own rating, never the puzzle's: 40 fresh cookies giving
    # up moved one from 1500 to 2208
    if puzzle is not None:
        _store(puzzle, puzzle_after)
    return Rated(player_after, puzzle_before.rating, player_before)


def _rating_of(row: models.Player | models.PoolPuzzle) -> Rating:
    return Rating(row.rating, row.deviation, row.volatility)


def _store(row: models.Player | models.PoolPuzzle, rating: Rating) -> None:
    row.rating, row.deviation, row.volatility = rating.rating, rating.deviation, rating.volatility

"""A player's turn at a puzzle, stored as an attempt: moves, undo, reset, end of turn, giving up.

The views call these; the rules themselves are the engine's and the board's.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import JSON, ColumnElement, Connection, Text, Update, bindparam, cast, inspect, select, update
from sqlalchemy.orm import Session

from puzzles import Card, Position, step_check
from webapp import models
from webapp.caching import memoised
from webapp.models import Status
from webapp.schedule.clock import now
from webapp.turn.board import Board, MeldState, MoveError
from webapp.turn.hints import Hint


class TurnError(ValueError):
    """A request the turn cannot take now: the move is illegal, or the turn is over."""

    status = 422


class TurnOver(TurnError):
    status = 409


class TurnRace(TurnError):
    """Other requests kept changing the attempt while this one was working on it."""

    status = 409


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
    maximum: int

    @property
    def words(self) -> str:
        if self.track is Track.ON:
            return "on track"
        if self.track is Track.OFF:
            return f"off track: at most {self.reachable} now"
        if self.track is Track.DEAD_END:
            return "dead end: no valid table holds these cards"
        return "no verdict in time: keep going"


def progress(position: Position, laid: tuple[Card, ...], maximum: int, time_limit: float) -> Progress:
    """Whether the maximum is still reachable while the hand cards laid so far stay on the table."""
    tokens = tuple(sorted(str(card) for card in laid))
    return _progress(str(position), tokens, maximum, time_limit)


@memoised(
    4096,
    serves="the step POST: 4.6 ms a move, 7.3 ms running the step check again on cards laid "
    "before (moving a card between melds, or taking it back, lays nothing new)",
)
def _progress(position_text: str, laid: tuple[str, ...], maximum: int, time_limit: float) -> Progress:
    position = Position.parse(position_text)
    check = step_check(position, [Card.parse(token) for token in laid], time_limit)
    if check.dead_end:
        return Progress(Track.DEAD_END, None, maximum)
    if check.reachable is None:
        return Progress(Track.UNKNOWN, None, maximum)
    if check.reachable >= maximum:
        return Progress(Track.ON, check.reachable, maximum)
    if not check.proven:  # a lower bound only: the maximum may still be reachable
        return Progress(Track.UNKNOWN, check.reachable, maximum)
    return Progress(Track.OFF, check.reachable, maximum)


def find(session: Session, player: str | None, puzzle: models.PoolPuzzle) -> models.PlayerAttempt | None:
    if player is None:
        return None
    return session.scalar(
        select(models.PlayerAttempt).where(
            models.PlayerAttempt.player_id == player, models.PlayerAttempt.puzzle_id == puzzle.id
        )
    )


def board_of(puzzle: models.PoolPuzzle, attempt: models.PlayerAttempt | None) -> Board:
    position = puzzle.position()
    if attempt is None:
        return Board.start(position)
    return Board.load(position, attempt.melds)


def locked(session: Session, player: str, puzzle_id: int) -> models.PlayerAttempt | None:
    """The player's attempt, locked until this transaction ends."""
    return session.scalar(
        select(models.PlayerAttempt)
        .where(models.PlayerAttempt.player_id == player, models.PlayerAttempt.puzzle_id == puzzle_id)
        .with_for_update(of=models.PlayerAttempt)
    )


@dataclass(frozen=True, slots=True)
class Stored:
    """An attempt as read outside any transaction: `attempt` is a copy for an action to change,
    `columns` the row as it was (JSON as its stored text) and `values` as the copy first held them."""

    attempt: models.PlayerAttempt
    columns: dict[str, Any]
    values: dict[str, Any]


ATTEMPT_COLUMNS = tuple((attr.key, attr.columns[0]) for attr in inspect(models.PlayerAttempt).column_attrs)


def _as_stored(column: Any) -> Any:
    # JSON compares as its text: the json type of PostgreSQL has no equality
    return cast(column, Text) if isinstance(column.type, JSON) else column


def _value(column: Any, stored: Any) -> Any:
    return json.loads(stored) if isinstance(column.type, JSON) and stored is not None else stored


READ_ATTEMPT = select(*(_as_stored(column).label(key) for key, column in ATTEMPT_COLUMNS)).where(
    models.PlayerAttempt.player_id == bindparam("player"),
    models.PlayerAttempt.puzzle_id == bindparam("puzzle"),
)


@memoised(64, serves="the step POST: 4.4 ms a move, 7.1 ms building and compiling its UPDATE again")
def _swap(changed: tuple[str, ...], nulls: frozenset[str]) -> Update:
    """The guarded UPDATE for these changed columns, from a row with these NULL columns."""
    guard: list[ColumnElement[bool]] = [
        # `IS` only for NULL: PostgreSQL uses no index for IS NOT DISTINCT FROM
        _as_stored(column).is_(None) if key in nulls else _as_stored(column) == bindparam(f"was_{key}")
        for key, column in ATTEMPT_COLUMNS
    ]
    columns = dict(ATTEMPT_COLUMNS)
    return (
        update(models.PlayerAttempt)
        .where(*guard)
        .values({key: bindparam(f"new_{key}", type_=columns[key].type) for key in changed})
    )


def read(connection: Connection, player: str, puzzle: models.PoolPuzzle) -> Stored | None:
    """The player's attempt at the puzzle, if any, as it is now."""
    row = connection.execute(READ_ATTEMPT, {"player": player, "puzzle": puzzle.id}).first()
    if row is None:
        return None
    columns = dict(row._mapping)
    values = {key: _value(column, columns[key]) for key, column in ATTEMPT_COLUMNS}
    return Stored(models.PlayerAttempt(puzzle=puzzle, **values), columns, values)


def write(connection: Connection, stored: Stored) -> bool:
    """Compare and swap: store what the action changed if the row is still as `read` saw it, in one
    statement; False when another request changed it first (then read again and redo the action)."""
    changes = {}
    for key, column in ATTEMPT_COLUMNS:
        value, before = getattr(stored.attempt, key), stored.values[key]
        # a JSON value changes by being replaced, as for the ORM, which sees no change made in place
        if (value is not before) if isinstance(column.type, JSON) else (value != before):
            changes[key] = value
    if not changes:
        return True
    nulls = frozenset(key for key, value in stored.columns.items() if value is None)
    parameters = {f"was_{key}": value for key, value in stored.columns.items() if value is not None}
    parameters |= {f"new_{key}": value for key, value in changes.items()}
    return connection.execute(_swap(tuple(changes), nulls), parameters).rowcount == 1


def start(
    session: Session, player: str, puzzle: models.PoolPuzzle, number: int | None
) -> models.PlayerAttempt:
    """The player's first move on this puzzle starts their attempt."""
    attempt = models.PlayerAttempt(
        player_id=player,
        puzzle_id=puzzle.id,
        puzzle=puzzle,
        number=number,
        melds=Board.start(puzzle.position()).to_json(),
        history=[],
        moves=0,
        hints=0,
        hint_log=[],
        status=Status.PLAYING,
        placed=0,
        started=now(),
        time_limit=None,
        rating_after=None,
    )
    session.add(attempt)
    session.flush()
    return attempt


def _playing(attempt: models.PlayerAttempt) -> Board:
    if attempt.done:
        raise TurnOver("this puzzle is finished: the table cannot change any more")
    return board_of(attempt.puzzle, attempt)


UNDO_DEPTH = 100
"""Tables kept for undo; Reset goes back to the start from anywhere."""


def undo_entry(board: Board) -> str:
    """A table kept for undo, as text: `t0 t1 t2/t3 t4 t5/h0`. A hundred of them load in microseconds;
    as lists of lists, loading and storing them took most of a move's time."""
    return "/".join(" ".join(meld) for meld in board.melds)


def undone_table(entry: str | list[list[str]]) -> list[list[str]]:
    """The table an undo entry kept (attempts begun before the text form kept the lists)."""
    if isinstance(entry, list):
        return entry
    return [meld.split(" ") for meld in entry.split("/")] if entry else []


def _save(attempt: models.PlayerAttempt, before: Board, after: Board) -> None:
    attempt.history = [*attempt.history[-UNDO_DEPTH + 1 :], undo_entry(before)]
    attempt.melds = after.to_json()


def move(attempt: models.PlayerAttempt, card_id: str, target: str, seen_at: str | None) -> None:
    board = _playing(attempt)
    try:
        moved = board.move(card_id, target, seen_at)
    except MoveError as error:
        raise TurnError(str(error)) from None
    _save(attempt, board, moved)
    attempt.moves += 1


def undo(attempt: models.PlayerAttempt) -> None:
    _playing(attempt)
    if not attempt.history:
        raise TurnError("nothing to undo")
    attempt.melds = undone_table(attempt.history[-1])
    attempt.history = attempt.history[:-1]


def reset(attempt: models.PlayerAttempt) -> None:
    board = _playing(attempt)
    start = Board.start(board.position)
    if board.melds == start.melds:
        raise TurnError("the table is already as it was")
    _save(attempt, board, start)


def end_turn(attempt: models.PlayerAttempt) -> None:
    """End the turn if every meld is valid: solved when it placed the maximum, missed otherwise."""
    board = _playing(attempt)
    invalid = [view for view in board.views() if view.state is not MeldState.VALID]
    if invalid:
        first = invalid[0]
        raise TurnError(f"meld {first.index + 1} is not valid yet: {first.reason}")
    problems = board.problems()
    if problems:
        raise TurnError(problems[0])
    play = board.play()
    assert play is not None, "every meld is valid"
    attempt.placed = play.count
    attempt.status = Status.SOLVED if attempt.placed >= attempt.puzzle.max_placed else Status.MISSED
    attempt.finished = now()


def give_up(attempt: models.PlayerAttempt) -> None:
    """Put the table back as it was, as the rules' penalty does, and show the solution."""
    board = _playing(attempt)
    attempt.melds = Board.start(board.position).to_json()
    attempt.placed = 0
    attempt.status = Status.GAVE_UP
    attempt.finished = now()


SHARE_MARKS = {Status.SOLVED: "✅", Status.MISSED: "❌", Status.GAVE_UP: "🏳️", Status.TIMED_OUT: "⌛"}


def share_text(title: str, attempt: models.PlayerAttempt, streak: int | None = None) -> str:
    """`Tavolo #42 ⛓3 ✅ 5/5 · 9 moves · 💡1 · 🔥12 · ⏱1:37`: spoiler-free. The streak comes with a
    daily puzzle (when there is one to show), the time with a timed turn."""
    puzzle = attempt.puzzle
    parts = [
        f"{title} ⛓{puzzle.depth} {SHARE_MARKS.get(attempt.status, '')} {attempt.placed}/{puzzle.max_placed}",
        f"{attempt.moves} move{'s' if attempt.moves != 1 else ''}",
        f"💡{attempt.hints}",
    ]
    if streak:
        parts.append(f"🔥{streak}")
    if attempt.time_limit and attempt.finished:
        # a turn ended in the grace for the last request's travel took the whole time, no more
        taken = min(attempt.finished - attempt.started, timedelta(seconds=attempt.time_limit))
        parts.append(f"⏱{clock_face(taken)}")
    return " · ".join(parts)


def clock_face(span: timedelta) -> str:
    """`1:37`: minutes and seconds, as a turn clock shows them."""
    seconds = max(int(span.total_seconds()), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


# -- hints


def add_hint(attempt: models.PlayerAttempt, hint: Hint) -> None:
    """Record a hint the player asked for: it shows on the board, in the result and the share text."""
    _playing(attempt)
    attempt.hints += 1
    attempt.hint_log = [*attempt.hint_log, hint.to_json()]


def latest_hint(attempt: models.PlayerAttempt | None) -> Hint | None:
    if attempt is None or not attempt.hint_log:
        return None
    return Hint.from_json(attempt.hint_log[-1])


# -- timed turns: the German rules' two minutes

GRACE = timedelta(seconds=3)
"""Time allowed past the deadline for the last request to travel: the clock on the page reads 0:00
first."""


def start_clock(attempt: models.PlayerAttempt, seconds: int) -> None:
    """Make an untouched attempt a timed turn, starting now."""
    _playing(attempt)
    if attempt.time_limit:
        raise TurnOver("the clock is already running")
    if attempt.moves or attempt.history or attempt.hints:
        raise TurnOver("this turn has begun without the clock: a timed turn starts from an untouched table")
    attempt.time_limit = seconds
    attempt.started = now()


def deadline(attempt: models.PlayerAttempt) -> datetime | None:
    """When a timed turn runs out; None for an untimed one."""
    if not attempt.time_limit:
        return None
    return attempt.started + timedelta(seconds=attempt.time_limit)


def overdue(attempt: models.PlayerAttempt, moment: datetime) -> bool:
    ends = deadline(attempt)
    return not attempt.done and ends is not None and moment > ends + GRACE


def time_out(attempt: models.PlayerAttempt) -> None:
    """The time ran out: the table goes back as it was and the attempt fails, as the rules' penalty says."""
    ends = deadline(attempt)
    assert ends is not None, "only a timed turn runs out"
    attempt.melds = Board.start(attempt.puzzle.position()).to_json()
    attempt.placed = 0
    attempt.status = Status.TIMED_OUT
    attempt.finished = ends


def on_time(action: Callable[[models.PlayerAttempt], None]) -> Callable[[models.PlayerAttempt], None]:
    """The action, unless the attempt's time has run out: then the turn ends there instead."""

    def run(attempt: models.PlayerAttempt) -> None:
        if overdue(attempt, now()):
            time_out(attempt)
            return
        action(attempt)

    return run

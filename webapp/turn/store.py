"""A player's attempt in the database: found, started, and changed with compare and swap.

A move never holds a transaction while Python works: `read` takes the row outside any transaction,
the action changes a copy in memory (`turn.attempts`), and `write` stores it with one guarded UPDATE
that fails if another request changed the row meanwhile. `turn.actions` redoes the action then.

Why not SQLAlchemy's `version_id_col`: a version column guards only against writers that bump it,
and the attempt has writers outside the ORM's unit of work: the rating's guarded Core UPDATE of
`rating_after` (`players.records.rate`), the player's erasure, a restore. Each would have to
remember the version, and one that forgot would let a move overwrite it unseen. This guard compares
every column the move read, so any change by any writer fails the swap; it needs no column of its
own, and the read is one SELECT of the attempt's columns, with no session, identity map or joined
puzzle row. The write is one UPDATE for every move (`GUARDED_UPDATE`: every column set, every column
compared), built and compiled once.

Both are sent to the database's driver directly (`_Driven`): compiled once per dialect, with the
columns' own conversions (SQLAlchemy's bind and result processors) applied here. Through
`Connection.execute` each statement cost as much CPU again as the driver's own work (a third of a
step POST's statements and turn code: bench/move_cpu.py), for parameters, a result and a row that
a move uses once. The engine's cursor events still see both, and a driver's error reaches the app as
SQLAlchemy's (`OperationalError`, and the pool drops a connection that is gone).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    ColumnElement,
    Connection,
    Dialect,
    Text,
    TypeDecorator,
    Update,
    bindparam,
    cast,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.orm import Session

from puzzles import Board
from webapp.models import PlayerAttempt, PoolPuzzle, Status
from webapp.review import due
from webapp.schedule.clock import now
from webapp.turn.driver import compiled, send


def find(session: Session, player: str | None, puzzle: PoolPuzzle, review: int = 0) -> PlayerAttempt | None:
    """The player's attempt at the puzzle: their first turn, or review round `review`."""
    if player is None:
        return None
    return session.scalar(
        select(PlayerAttempt).where(
            PlayerAttempt.player_id == player,
            PlayerAttempt.puzzle_id == puzzle.id,
            PlayerAttempt.review == review,
        )
    )


def locked(session: Session, player: str, puzzle_id: int, review: int = 0) -> PlayerAttempt | None:
    """The player's attempt, locked until this transaction ends."""
    return session.scalar(
        select(PlayerAttempt)
        .where(
            PlayerAttempt.player_id == player,
            PlayerAttempt.puzzle_id == puzzle_id,
            PlayerAttempt.review == review,
        )
        .with_for_update(of=PlayerAttempt)
    )


@dataclass(frozen=True, slots=True)
class Stored:
    """An attempt as read outside any transaction: `attempt` is a copy for an action to change,
    `columns` the row as it was (JSON as its stored text) and `values` as the copy first held them."""

    attempt: PlayerAttempt
    columns: dict[str, Any]
    values: dict[str, Any]


ATTEMPT_COLUMNS = tuple((attr.key, attr.columns[0]) for attr in inspect(PlayerAttempt).column_attrs)


def _as_stored(column: Any) -> Any:
    # JSON compares as its text: the json type of PostgreSQL has no equality
    return cast(column, Text) if isinstance(column.type, JSON) else column


def _value(column: Any, stored: Any) -> Any:
    return json.loads(stored) if isinstance(column.type, JSON) and stored is not None else stored


READ_ATTEMPT = select(*(_as_stored(column).label(key) for key, column in ATTEMPT_COLUMNS)).where(
    PlayerAttempt.player_id == bindparam("player"),
    PlayerAttempt.puzzle_id == bindparam("puzzle"),
    PlayerAttempt.review == bindparam("review"),
)


def _guarded_update() -> Update:
    """The one guarded UPDATE of a move: every column but the key set anew, where the row still holds
    every value the move read. One statement, built and compiled once (SQLAlchemy caches its compiled
    form): building the UPDATE of the changed columns on each move cost a third of the database work
    of a step POST (bench/move_cpu.py)."""
    guard: list[ColumnElement[bool]] = [
        # `IS NOT DISTINCT FROM` where NULL may be (SQLite's `IS`): the key pins the row anyway
        _as_stored(column).is_not_distinct_from(bindparam(f"was_{key}"))
        if column.nullable
        else _as_stored(column) == bindparam(f"was_{key}")
        for key, column in ATTEMPT_COLUMNS
    ]
    return (
        update(PlayerAttempt)
        .where(*guard)
        .values(
            {
                key: bindparam(f"new_{key}", type_=column.type)
                for key, column in ATTEMPT_COLUMNS
                if key != "id"
            }
        )
    )


GUARDED_UPDATE = _guarded_update()


class _Driven:
    """`READ_ATTEMPT` and `GUARDED_UPDATE` as one dialect's driver takes them: their SQL, the order of
    their parameters (None where the driver takes them by name) and the columns' conversions."""

    def __init__(self, dialect: Dialect) -> None:
        self.read = compiled(READ_ATTEMPT, dialect)
        self.update = compiled(GUARDED_UPDATE, dialect)
        # a stored JSON value comes as its text (`_as_stored`) and is parsed by `_value`; the other
        # columns as the driver gives them, but for a type of the app's own (a Status, an aware time)
        self.from_row: tuple[tuple[str, Any, Callable[[Any], Any] | None], ...] = tuple(
            (
                key,
                column,
                column.type.dialect_impl(dialect).result_processor(dialect, None)
                if isinstance(column.type, TypeDecorator)
                else None,
            )
            for key, column in ATTEMPT_COLUMNS
        )
        self.to_row: tuple[tuple[str, str, Callable[[Any], Any] | None], ...] = tuple(
            (key, f"new_{key}", column.type.dialect_impl(dialect).bind_processor(dialect))
            for key, column in ATTEMPT_COLUMNS
            if key != "id"
        )


_DRIVEN: dict[str, _Driven] = {}


def _driven(connection: Connection) -> _Driven:
    dialect = connection.dialect
    driven = _DRIVEN.get(dialect.name)
    if driven is None:
        driven = _DRIVEN[dialect.name] = _Driven(dialect)
    return driven


def read(connection: Connection, player: str, puzzle: PoolPuzzle, review: int = 0) -> Stored | None:
    """The player's attempt at the puzzle (or at its review round `review`), if any, as it is now."""
    driven = _driven(connection)
    cursor = send(connection, driven.read, {"player": player, "puzzle": puzzle.id, "review": review})
    row = cursor.fetchone()
    cursor.close()
    if row is None:
        return None
    columns: dict[str, Any] = {}
    values: dict[str, Any] = {}
    for (key, column, convert), stored in zip(driven.from_row, row, strict=True):
        columns[key] = stored
        values[key] = convert(stored) if convert is not None else _value(column, stored)
    return Stored(PlayerAttempt(puzzle=puzzle, **values), columns, values)


def write(connection: Connection, stored: Stored) -> bool:
    """Compare and swap: store what the action changed if the row is still as `read` saw it, in one
    statement; False when another request changed it first (then read again and redo the action)."""
    if stored.values["status"] == Status.PLAYING and stored.attempt.status != Status.PLAYING:
        due.ended(stored.attempt)  # when it comes back for review, kept on the row (`review.due`)
    changed = False
    for key, column in ATTEMPT_COLUMNS:
        value, before = getattr(stored.attempt, key), stored.values[key]
        # a JSON value changes by being replaced, as for the ORM, which sees no change made in place
        if (value is not before) if isinstance(column.type, JSON) else (value != before):
            changed = True
            break
    if not changed:
        return True
    driven = _driven(connection)
    # the guard compares the row as the driver gave it, so it is sent back as it came
    parameters = {f"was_{key}": value for key, value in stored.columns.items()}
    for key, name, convert in driven.to_row:
        value = getattr(stored.attempt, key)
        parameters[name] = convert(value) if convert is not None else value
    cursor = send(connection, driven.update, parameters)
    written: int = cursor.rowcount
    cursor.close()
    return written == 1


def start(
    session: Session,
    player: str,
    puzzle: PoolPuzzle,
    number: int | None,
    review: int = 0,
    run_id: int | None = None,
) -> tuple[PlayerAttempt, Board]:
    """The player's first move on this puzzle (or on its review round) starts their attempt; a run
    starts it as it deals the puzzle, with the run's id. The board comes too, for the first move to
    go on from rather than build it again."""
    attempt, board = begun(player, puzzle, number, review, run_id)
    session.add(attempt)
    session.flush()
    return attempt, board


def begun(
    player: str, puzzle: PoolPuzzle, number: int | None, review: int = 0, run_id: int | None = None
) -> tuple[PlayerAttempt, Board]:
    """A new attempt at the puzzle's untouched table and its board, in no session: `start` adds it to
    one, `write_new` writes it as an action has left it."""
    board = Board.start(puzzle.position())
    attempt = PlayerAttempt(
        player_id=player,
        puzzle_id=puzzle.id,
        puzzle=puzzle,
        number=number,
        review=review,
        melds=board.to_json(),
        history=[],
        moves=0,
        hints=0,
        hint_log=[],
        slips=0,
        status=Status.PLAYING,
        placed=0,
        started=now(),
        time_limit=None,
        rating_after=None,
        run_id=run_id,
    )
    return attempt, board


INSERT_ATTEMPT = insert(PlayerAttempt).returning(PlayerAttempt.id)


def write_new(session: Session, attempt: PlayerAttempt) -> None:
    """Write a new attempt (`begun`) in the session's transaction, in one statement, as the first
    action left it, and give it its id. Adding it to the session instead cost three: the puzzle's row
    read again to attach it, the INSERT, and an UPDATE for the action's changes. The model's insert
    listeners run as for the ORM's INSERT (`review.due` keeps `comes_back` there), and a column the
    attempt was not given takes its default."""
    mapper, state = inspect(PlayerAttempt), inspect(attempt)
    connection = session.connection()
    for before in mapper.dispatch.before_insert:
        before(mapper, connection, state)  # the listeners' own wrappers take the instance's state
    given = state.dict
    values = {key: given[key] for key, _ in ATTEMPT_COLUMNS if key != "id" and key in given}
    attempt.id = session.execute(INSERT_ATTEMPT, values).scalar_one()
    for after in mapper.dispatch.after_insert:
        after(mapper, connection, state)

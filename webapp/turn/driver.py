"""Statements sent to the database's driver directly, for the few a move sends (`turn.store`).

Compiled once per dialect, sent on the driver's cursor: the engine's cursor events still see them,
and a driver's error reaches the app as SQLAlchemy's (the pool drops a connection that is gone).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import ClauseElement, Connection, Dialect, exc
from sqlalchemy.sql.compiler import SQLCompiler


def compiled(statement: ClauseElement, dialect: Dialect) -> tuple[str, tuple[str, ...] | None]:
    """The statement's SQL for `dialect`, and the order of its parameters (None: by name)."""
    done = statement.compile(dialect=dialect)
    assert isinstance(done, SQLCompiler)
    order = done.positiontup
    return done.string, tuple(order) if order is not None else None


def send(
    connection: Connection, sql: tuple[str, tuple[str, ...] | None], parameters: Mapping[str, Any]
) -> Any:
    """Execute one statement on the driver's cursor, seen by the engine's cursor events as any other,
    its errors raised as SQLAlchemy's."""
    statement, order = sql
    sent: Mapping[str, Any] | Sequence[Any] = (
        parameters if order is None else tuple(parameters[name] for name in order)
    )
    dbapi_connection = connection.connection
    cursor = dbapi_connection.cursor()
    dispatch = connection.dispatch
    for before in dispatch.before_cursor_execute:
        statement, sent = before(connection, cursor, statement, sent, None, False)
    dialect = connection.dialect
    try:
        cursor.execute(statement, sent)
    except dialect.loaded_dbapi.Error as error:
        gone = dialect.is_disconnect(error, dbapi_connection, cursor)
        if gone:
            connection.invalidate(error)
        raise exc.DBAPIError.instance(
            statement, sent, error, dialect.loaded_dbapi.Error, connection_invalidated=gone, dialect=dialect
        ) from error
    for after in dispatch.after_cursor_execute:
        after(connection, cursor, statement, sent, None, False)
    return cursor

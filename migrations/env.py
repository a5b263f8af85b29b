"""Alembic's entry point: `flask db upgrade` passes its connection; plain `alembic` builds the app."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from webapp.models import Base

target_metadata = Base.metadata


def run(connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # SQLite alters a table by copying it and dropping the old one, which the foreign keys of
        # other tables' rows would refuse; the pragma only takes effect outside a transaction
        _sqlite_pragma(connection, "PRAGMA foreign_keys=OFF")
    try:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=sqlite,
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
    finally:
        if sqlite:
            _sqlite_pragma(connection, "PRAGMA foreign_keys=ON")


def _sqlite_pragma(connection: Connection, pragma: str) -> None:
    if connection.in_transaction():
        connection.commit()
    connection.connection.driver_connection.execute(pragma)  # type: ignore[union-attr]


connection = context.config.attributes.get("connection")
if connection is not None:
    run(connection)
else:
    from webapp import create_app
    from webapp.db import database

    with create_app().app_context(), database().write_engine.connect() as own:
        run(own)

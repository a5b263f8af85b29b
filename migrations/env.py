"""Alembic's entry point: `flask db upgrade` passes its connection; plain `alembic` builds the app."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from webapp.models import Base

target_metadata = Base.metadata


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    run(connection)
else:
    from webapp import create_app
    from webapp.db import database

    with create_app().app_context(), database().write_engine.connect() as own:
        run(own)

"""Engines, sessions and migrations.

Readers and writers get separate session factories. On SQLite every write transaction takes the
database lock up front (BEGIN IMMEDIATE) so concurrent workers queue instead of failing with
"database is locked" halfway through; readers never take it, thanks to WAL. The hot path (a move)
uses `autocommit()` instead: each statement is its own transaction, so a write holds SQLite's one
database lock for a single UPDATE, not for the Python work around it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click
from alembic import command
from alembic.config import Config
from flask import Flask, current_app, g
from flask.cli import AppGroup
from sqlalchemy import Connection, Engine, create_engine, event, exc, text
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def engine_url(url: str) -> str:
    """Accept the `postgres://` URLs that hosting platforms hand out, and use psycopg 3 for them."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


class Database:
    """The app's connection to its database: one engine (one pool), seen three ways.

    `engine` for reads, `write_engine` for write transactions and `autocommit_engine` for the
    move's single-statement writes are views of the one engine (`Engine.execution_options`), which
    share its pool and its connections. On PostgreSQL its connections open with `synchronous_commit`
    off, for the moves, and every write transaction turns it on for itself: setting it and resetting
    it around each move cost two round trips (and 1 ms of CPU) a move, where a player makes one or
    two write transactions a day and about twenty moves."""

    def __init__(self, url: str, busy_ms: int = 10_000) -> None:
        self.url = engine_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            self.engine = _sqlite_engine(self.url, busy_ms)
            self.write_engine: Engine = self.engine.execution_options(tavolo_begin="BEGIN IMMEDIATE")
            # without a BEGIN, the driver's autocommit makes each statement a transaction
            self.autocommit_engine: Engine = self.engine.execution_options(tavolo_begin=None)
        else:
            # a move may be lost in a crash, as with SQLite's synchronous=NORMAL, but never half
            # written; not waiting for the disk on every move doubles what the server can take
            self.engine = self.write_engine = create_engine(
                self.url, connect_args={"options": "-c synchronous_commit=off"}
            )
            _ping_when_idle(self.engine, PING_AFTER_IDLE)
            self.autocommit_engine = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.reader = sessionmaker(self.engine, expire_on_commit=False)
        self.writer = sessionmaker(self.write_engine, expire_on_commit=False)

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A write transaction: committed when the block ends, rolled back if it raises."""
        with self.writer() as session, session.begin():
            if not self.is_sqlite:
                # every write but a move waits for the disk (the connections open without)
                session.execute(text("SET LOCAL synchronous_commit TO on"))
            yield session

    @contextmanager
    def autocommit(self) -> Iterator[Connection]:
        """A connection on which every statement commits by itself: for single-statement writes that
        carry their own guard (compare and swap), and for the reads before them."""
        with self.autocommit_engine.connect() as connection:
            yield connection

    def dispose(self) -> None:
        self.engine.dispose()


PING_AFTER_IDLE = 1.0
"""Seconds a pooled PostgreSQL connection may sit unused before its next checkout pings it."""


def _ping_when_idle(engine: Engine, seconds: float) -> None:
    """Ping a connection on checkout when it has sat in the pool longer than `seconds`, and swap it
    for a new one if the ping fails: a database restarted under us costs one failed request at most,
    not a restart. Pinging on every checkout (`pool_pre_ping`) was a round trip more for every
    move and three for an end of turn, while a rush's connections are back in use within
    milliseconds (bench/move_cpu.py)."""

    @event.listens_for(engine, "checkin")
    def checkin(dbapi_connection: Any, record: Any) -> None:
        record.info["tavolo_idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def checkout(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        since = record.info.get("tavolo_idle_since")
        if since is None or time.monotonic() - since <= seconds:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:
            # the pool drops this connection and checks out another (a fresh one if need be)
            raise exc.DisconnectionError(str(error)) from error


def _sqlite_engine(url: str, busy_ms: int) -> Engine:
    engine = create_engine(url, connect_args={"timeout": busy_ms / 1000})

    @event.listens_for(engine, "connect")
    def connect(dbapi_connection: Any, record: Any) -> None:
        # let SQLAlchemy, not the driver, say when a transaction begins
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # with WAL this never corrupts the database; a power cut may lose the last moves, not more
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def begin_transaction(connection: Any) -> None:
        # a reader's BEGIN, a writer's BEGIN IMMEDIATE (the lock up front), or none for autocommit
        begin = connection.get_execution_options().get("tavolo_begin", "BEGIN")
        if begin is not None:
            connection.exec_driver_sql(begin)

    return engine


Row = TypeVar("Row")


def row_by_id(session: Session, model: type[Row], key: int) -> Row | None:
    """The row of `model` whose integer primary key is `key` (a number from an address), None for
    none: a number past the column's range is none, where SQLite and PostgreSQL would refuse to
    compare it."""
    return session.get(model, key) if key < 2**31 else None


def database() -> Database:
    db: Database = current_app.extensions["tavolo.db"]
    return db


def session() -> Session:
    """The read session of this request, closed when the request ends."""
    if "db_session" not in g:
        g.db_session = database().reader()
    reader: Session = g.db_session
    return reader


def close_session(exception: BaseException | None = None) -> None:
    reader = g.pop("db_session", None)
    if reader is not None:
        reader.close()


@contextmanager
def write() -> Iterator[Session]:
    """A write transaction in a request. The request's reads end first, so that reads after the
    write see it (an SQLite read transaction keeps the snapshot of its first read)."""
    close_session()
    with database().write() as writer:
        yield writer


def alembic_config(db: Database) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", db.url.replace("%", "%%"))
    return config


def upgrade(db: Database, revision: str = "head") -> None:
    with db.write_engine.connect() as connection:
        config = alembic_config(db)
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


db_cli = AppGroup("db", help="Database migrations (Alembic).")


@db_cli.command("upgrade", help="Migrate the database to the latest schema (or REVISION).")
@click.argument("revision", default="head")
def upgrade_command(revision: str) -> None:
    upgrade(database(), revision)
    click.echo(f"database at {revision}")


@db_cli.command("revision", help="Write a new migration from the models (developers).")
@click.option("-m", "--message", required=True)
def revision_command(message: str) -> None:
    db = database()
    with db.write_engine.connect() as connection:
        config = alembic_config(db)
        config.attributes["connection"] = connection
        command.revision(config, message=message, autogenerate=True)


def init_app(app: Flask) -> None:
    app.extensions["tavolo.db"] = Database(app.config["DATABASE_URL"], int(app.config["SQLITE_BUSY_MS"]))
    app.teardown_appcontext(close_session)
    app.cli.add_command(db_cli)

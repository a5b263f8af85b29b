"""`flask backup FILE` and `flask restore FILE`: the whole database, while the site serves.

SQLite: its online backup API, a consistent copy even while requests write; a restore copies the file
back the same way, into the live database, so every worker sees it at once without a restart.
PostgreSQL: `pg_dump --format=custom`, and `pg_restore --clean --single-transaction` (Debian's
`postgresql-client`, of the server's major version): the site reads the old data until the restore
commits. A backup never overwrites a file; a restore asks first (`--yes` for scripts).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

import click
from flask import Flask
from flask.cli import with_appcontext
from sqlalchemy.engine import make_url

from webapp import db

SQLITE_HEADER = b"SQLite format 3\x00"


class BackupError(click.ClickException):
    """A backup or restore that cannot be done: one line on stderr and exit status 2."""

    exit_code = 2


@click.command("backup", help="Copy the whole database to FILE (a new file), while the site serves.")
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(path: Path) -> None:
    if path.exists():
        raise BackupError(f"{path} exists already: a backup never overwrites a file")
    partial = path.with_name(path.name + ".partial")  # a failed backup leaves no file that looks whole
    database = db.database()
    try:
        if database.is_sqlite:
            _sqlite_copy(_sqlite_file(database.url), partial)
        else:
            _run("pg_dump", "--format=custom", "--no-owner", "--file", str(partial), _libpq(database.url))
        partial.rename(path)
    finally:
        partial.unlink(missing_ok=True)
    click.echo(f"backed up to {path} ({path.stat().st_size:,} bytes)")


@click.command("restore", help="Replace the whole database with a backup FILE, while the site serves.")
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path))
@click.confirmation_option(prompt="Replace the whole database with this backup?")
@with_appcontext
def restore_command(path: Path) -> None:
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    database = db.database()
    if database.is_sqlite:
        with path.open("rb") as backup:
            if backup.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                raise BackupError(f"{path} is not an SQLite backup (flask backup writes one)")
        _sqlite_copy(path, _sqlite_file(database.url))
    else:
        _run(
            "pg_restore",
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            "--dbname",
            _libpq(database.url),
            str(path),
        )
    database.dispose()  # pooled connections may hold the old tables' plans
    click.echo(f"restored from {path}")


def _sqlite_file(url: str) -> Path:
    name = make_url(url).database
    if not name or name == ":memory:":
        raise BackupError("the database is in memory: there is no file to back up or restore")
    return Path(name)


def _sqlite_copy(source: Path, target: Path) -> None:
    """Page by page with SQLite's backup API: the target ends a consistent copy of the source."""
    try:
        with (
            closing(sqlite3.connect(source, timeout=30)) as reading,
            closing(sqlite3.connect(target, timeout=30)) as writing,
        ):
            reading.backup(writing)
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{source}: {error}") from None


def _libpq(url: str) -> str:
    """The SQLAlchemy URL as the PostgreSQL client programs read it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _run(program: str, *arguments: str) -> None:
    found = shutil.which(program)
    if found is None:
        raise BackupError(f"{program} is not installed (apt-get install postgresql-client)")
    done = subprocess.run([found, *arguments], capture_output=True, text=True, env=os.environ.copy())
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        raise BackupError(f"{program}: {lines[-1]}")


def init_app(app: Flask) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)

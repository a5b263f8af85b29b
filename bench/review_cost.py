"""The review's database work as a record grows: `/review`'s reads for a player of 30 and of 3,000
turns, on SQLite (a file) or the PostgreSQL of `--database`.

    .venv/bin/python bench/review_cost.py [--turns 30 3000] [--database URL]

Two shapes of record, each in a fresh database: `puzzles`, each turn at a puzzle of its own, one in
three given up (3,000 puzzles in review: the page shows 50 of each list and counts the rest); and
`rounds`, every turn a review round of one puzzle (bench/flood.py's flooded player: one puzzle, its
latest turn found among thousands). Printed for each: the statements the review sends
(`queue.review` and the stats page's `queue.counts`), the rows SQLite's virtual machine steps over
(`sqlite_steps`, SQLite only: the work, whatever the machine), and the CPU of one review (the mean of
20, this process's thread). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import event, insert, select, text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webapp import create_app, models  # noqa: E402
from webapp.db import database, upgrade  # noqa: E402
from webapp.review import due, queue  # noqa: E402

NOW = datetime(2026, 12, 6, 12, tzinfo=UTC)
ZONE = ZoneInfo("Europe/Rome")
PLAYER = "p" * 32


def seed(url: str, turns: int, shape: str) -> Any:
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False})
    with app.app_context():
        upgrade(database())
        with database().write() as session:
            session.add(models.Player(id=PLAYER, created=NOW - timedelta(days=900)))
            count = turns if shape == "puzzles" else 1
            session.execute(
                insert(models.PoolPuzzle),
                [
                    dict(
                        code=f"b{n}",
                        canonical=f"c{n}",
                        rules="classic",
                        tier="easy",
                        depth=1,
                        max_placed=1,
                        table=[],
                        hand=[],
                        solution=[],
                        added=NOW,
                        practice=True,
                    )
                    for n in range(count)
                ],
            )
            ids = list(session.scalars(select(models.PoolPuzzle.id)))
            session.execute(
                insert(models.PlayerAttempt),
                [
                    dict(
                        player_id=PLAYER,
                        puzzle_id=ids[n % len(ids)],
                        number=None,
                        review=0 if shape == "puzzles" else n,
                        melds=[],
                        history=[],
                        moves=3,
                        hint_log=[],
                        hints=0,
                        slips=0,
                        time_limit=None,
                        run_id=None,
                        status=models.Status.GAVE_UP if n % 3 == 0 else models.Status.SOLVED,
                        started=NOW - timedelta(hours=3 * n + 1),
                        finished=NOW - timedelta(hours=3 * n),
                    )
                    for n in range(turns)
                ],
            )
            # when each comes back, kept by the turns' own writes, which a bulk INSERT passes by
            due.refill(session, PLAYER)
    return app


def measure(app: Any, url: str) -> dict[str, Any]:
    sent: list[str] = []
    steps = [0]
    with app.app_context():
        engine = database().engine

        def note(*args: Any) -> None:
            sent.append(str(args[2]))

        def counted(connection: Any, record: Any) -> None:
            raw = connection.driver_connection if hasattr(connection, "driver_connection") else connection
            if isinstance(raw, sqlite3.Connection):
                # the virtual machine's steps, in thousands: what a query costs, on any machine
                raw.set_progress_handler(lambda: steps.__setitem__(0, steps[0] + 1) or 0, 1000)

        event.listen(engine, "before_cursor_execute", note)
        event.listen(engine, "connect", counted)
        engine.dispose()
        with database().reader() as session:
            found = queue.review(session, PLAYER, NOW, ZONE)
            queue.counts(session, PLAYER, NOW, ZONE)
            statements, work = len(sent), steps[0]
            started = time.thread_time()
            for _ in range(20):
                queue.review(session, PLAYER, NOW, ZONE)
            cpu = (time.thread_time() - started) / 20 * 1000
        event.remove(engine, "before_cursor_execute", note)
    figures: dict[str, Any] = {
        "statements": statements,
        "review_cpu_ms": round(cpu, 1),
        "due": found.due_count,
        "later": found.later_count,
    }
    if url.startswith("sqlite"):
        figures["sqlite_steps_thousands"] = work
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[30, 3000])
    parser.add_argument("--database", default="", help="a PostgreSQL URL (default: SQLite files)")
    args = parser.parse_args()
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        for shape in ("puzzles", "rounds"):
            for turns in args.turns:
                url = args.database or f"sqlite:///{folder}/{shape}-{turns}.db"
                app = seed(url, turns, shape)
                out[f"{shape}_{turns}"] = measure(app, url)
                if args.database:
                    with app.app_context(), database().write_engine.begin() as connection:
                        models.Base.metadata.drop_all(connection)
                        connection.execute(text("DROP TABLE alembic_version"))
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

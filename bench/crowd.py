"""How everyone did: the cost of counting a puzzle's finished attempts, uncached and from the cache.

    .venv/bin/python bench/crowd.py [--attempts 2000]

A throw-away SQLite database holds one puzzle and that many finished attempts (three in four
solved); prints the milliseconds of `players.crowd.how_others_did` counting them, and from the cache.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from datetime import UTC, date, datetime, timedelta

import generator
from puzzles import Position
from webapp import create_app, models
from webapp.db import database
from webapp.models import Base
from webapp.players.crowd import CROWDS, how_others_did
from webapp.schedule import pool

NOON = datetime(2026, 11, 29, 12, tzinfo=UTC)
ROUNDS = 50


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=2000)
    count = parser.parse_args().attempts
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3",
                "SECRET_KEY": "bench",
                "DAILY_SECRET": "bench",
                "NOW": lambda: NOON,
                "LAUNCH_DATE": date(2026, 11, 23),
            }
        )
        puzzle = generator.puzzle_of(
            "cz1",
            Position.parse("classic | 10H 10D 10S / JH JD JS / QH QD QC / 4C 5C 6C 7C | 9S QD QS 8C KH 2D"),
        )
        with app.app_context():
            Base.metadata.create_all(database().engine)
            with database().write() as session:
                row, _ = pool.add(session, puzzle, NOON)
                session.flush()
                for i in range(count):
                    session.add(models.Player(id=f"p{i}", created=NOON))
                    session.add(
                        models.PlayerAttempt(
                            player_id=f"p{i}",
                            puzzle_id=row.id,
                            melds=[],
                            history=[],
                            moves=rng.randint(5, 20),
                            status=models.Status.SOLVED if rng.random() < 0.75 else models.Status.GAVE_UP,
                            started=NOON,
                            finished=NOON + timedelta(seconds=rng.randint(30, 900)),
                        )
                    )
                puzzle_id = row.id
            with database().reader() as session:
                started = time.perf_counter()
                for _ in range(ROUNDS):
                    CROWDS().__init__(CROWDS.size)  # empty: every call counts again
                    how_others_did(session, puzzle_id, NOON, NOON)
                uncached = (time.perf_counter() - started) / ROUNDS * 1000
                started = time.perf_counter()
                for _ in range(ROUNDS):
                    how_others_did(session, puzzle_id, NOON, NOON)
                cached = (time.perf_counter() - started) / ROUNDS * 1000
    print(f"how everyone did, {count} finished attempts: {uncached:.1f} ms counted, {cached:.3f} ms cached")


if __name__ == "__main__":
    main()

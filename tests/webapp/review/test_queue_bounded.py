"""The review read in the database: the same puzzles, rounds and days as `spacing`'s rule over every
turn, on random records; the page's queries and rows bounded for a player with thousands of puzzles in
review, the first `LISTED` of each list shown and the rest counted."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from sqlalchemy import event, insert, select

import generator
from tests.webapp.conftest import NOON, Player, store
from webapp import models
from webapp.db import database
from webapp.models import Status
from webapp.review import due, queue, spacing

ROME = ZoneInfo("Europe/Rome")


def puzzles(app: Flask, known: generator.Puzzle, count: int) -> list[int]:
    """`count` pool puzzles, the known one and copies of it under other codes (the review reads no
    table), as the known one was stored first."""
    first = store(app, known)
    with app.app_context(), database().write() as session:
        source = session.get_one(models.PoolPuzzle, first)
        columns = {
            column.key: getattr(source, column.key)
            for column in models.PoolPuzzle.__table__.columns
            if column.key not in ("id", "code", "canonical")
        }
        session.execute(
            insert(models.PoolPuzzle),
            [
                {**columns, "code": f"cq{n}", "canonical": f"copy {n}", "practice": True}
                for n in range(count - 1)
            ],
        )
        return list(session.scalars(select(models.PoolPuzzle.id).order_by(models.PoolPuzzle.id)))


def record(app: Flask, player: str, turns: list[dict[str, Any]]) -> None:
    with app.app_context(), database().write() as session:
        if session.get(models.Player, player) is None:
            session.add(models.Player(id=player, created=NOON - timedelta(days=400)))
            session.flush()
        base = dict(
            player_id=player, number=None, melds=[], history=[], moves=3, hint_log=[], time_limit=None
        )
        session.execute(insert(models.PlayerAttempt), [{**base, **turn} for turn in turns])
        # a bulk INSERT passes the ORM by: when each comes back is set from the turns, as the
        # migration does
        due.refill(session, player)


def random_turns(rng: random.Random, ids: list[int], run_id: int | None) -> list[dict[str, Any]]:
    """Each puzzle's rounds 0..k, all finished but perhaps the last, ending within the last 20 days;
    some of them in a run (never in review)."""
    turns = []
    for puzzle in rng.sample(ids, rng.randint(1, len(ids))):
        rounds = rng.randint(1, 5)
        for review in range(rounds):
            status = rng.choice([Status.SOLVED, Status.SOLVED, Status.GAVE_UP, Status.MISSED])
            if review == rounds - 1 and rng.random() < 0.15:
                status = Status.PLAYING
            started = NOON - timedelta(minutes=rng.randint(0, 20 * 24 * 60))
            finished = None if status == Status.PLAYING else started + timedelta(minutes=3)
            in_run = review == 0 and run_id is not None and rng.random() < 0.1
            turns.append(
                dict(
                    puzzle_id=puzzle,
                    review=review,
                    status=status,
                    hints=rng.choice([0, 0, 1]),
                    slips=rng.choice([0, 0, 0, 2]),
                    started=started,
                    finished=finished,
                    run_id=run_id if in_run else None,
                )
            )
    return turns


def run_of(app: Flask, player: str) -> int:
    with app.app_context(), database().write() as session:
        session.add(models.Player(id=player, created=NOON - timedelta(days=400)))
        session.flush()
        run = models.Run(player_id=player, kind="rush", rules="classic", started=NOON, ended=NOON)
        session.add(run)
        session.flush()
        return run.id


@pytest.mark.parametrize("seed", range(6))
def test_the_database_review_is_spacings_rule_over_every_turn(
    app: Flask, known_puzzle: generator.Puzzle, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(queue, "LISTED", 7)  # lists cut short, so that the cut is checked too
    rng = random.Random(seed)
    ids = puzzles(app, known_puzzle, 24)
    player = f"{seed:032d}"
    record(app, player, random_turns(rng, ids, run_of(app, player)))
    for moment in (NOON, NOON + timedelta(days=2, hours=5)):
        with app.app_context(), database().reader() as session:
            expected = spacing.waiting(queue.turns(session, player), ROME)
            found = queue.review(session, player, moment, ROME)
            counted = queue.counts(session, player, moment, ROME)
        due = [item for item in expected if item.is_due(moment)]
        later = [item for item in expected if not item.is_due(moment)]
        assert [entry.waiting for entry in found.due] == due[:7]
        assert [entry.waiting for entry in found.later] == later[:7]
        assert (found.due_count, found.later_count) == counted == (len(due), len(later))
        for puzzle in ids:
            with app.app_context(), database().reader() as session:
                every = queue.turns(session, player, puzzle)
                assert queue.round_of(session, player, puzzle, moment, ROME) == spacing.round_to_show(
                    every, puzzle, moment, ROME
                )


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements the app sends meanwhile."""
    sent: list[str] = []
    with app.app_context():
        engine = database().engine

    def note(*args: Any) -> None:
        sent.append(str(args[2]))

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", note)


def test_the_review_page_costs_the_same_for_thousands_of_puzzles_in_review(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    ids = puzzles(app, known_puzzle, 3001)[1:]  # the first is today's
    assert player.post(f"/puzzles/{published}/give-up").status_code == 200  # back tomorrow
    with app.app_context(), database().reader() as session:
        own = session.scalar(select(models.Player.id))
    assert own is not None
    # a few turns first, then 3,000 puzzles given up: the page's statements stay the same
    gave_up = dict(review=0, status=Status.GAVE_UP, hints=0, slips=0, run_id=None)

    def moment(n: int) -> Any:
        return NOON.astimezone(UTC) - timedelta(days=2, minutes=n)

    record(
        app,
        own,
        [{**gave_up, "puzzle_id": ids[n], "started": moment(n), "finished": moment(n)} for n in range(5)],
    )
    with statements(app) as few:
        small = player.client.get("/review").get_data(as_text=True)
    record(
        app,
        own,
        [
            {**gave_up, "puzzle_id": ids[n], "started": moment(n), "finished": moment(n)}
            for n in range(5, 3000)
        ],
    )
    with statements(app) as many:
        page = player.client.get("/review").get_data(as_text=True)
    assert len(many) == len(few)
    assert small.count('class="review-name"') == 5 + 1  # and today's, back tomorrow
    # the first LISTED shown, soonest first (the oldest give-up), the rest counted
    assert page.count('class="review-name"') == queue.LISTED + 1
    assert "3000 puzzles wait for you today." in page
    assert re.search(rf"and {3000 - queue.LISTED} more", page) and page.count("back on") == 1

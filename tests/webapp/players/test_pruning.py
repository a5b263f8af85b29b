"""Idle players are removed, with their attempts, runs, transfer codes and places at friends' tables,
by `flask players prune` and by the clock's daily job; anyone who played within the months stays."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import func, select

import generator
from tests.webapp.conftest import FrozenClock, Player
from tests.webapp.training.runs import practice_pool, start
from webapp import models
from webapp.db import database
from webapp.schedule.scheduler import scheduler

MONTH = timedelta(days=30)


def counts(app: Flask) -> dict[str, int]:
    tables = {
        "players": models.Player,
        "attempts": models.PlayerAttempt,
        "runs": models.Run,
        "codes": models.TransferCode,
        "members": models.FriendMember,
        "groups": models.FriendGroup,
    }
    with app.app_context(), database().reader() as session:
        return {
            name: session.scalar(select(func.count()).select_from(table)) or 0
            for name, table in tables.items()
        }


def test_a_player_idle_for_the_months_goes_with_everything_theirs(
    app: Flask, runner: FlaskCliRunner, published: int, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    practice_pool(app, known_puzzle)
    idle = Player(app.test_client())
    assert idle.post(f"/puzzles/{published}/give-up").status_code == 200
    start(idle, "rush")
    assert idle.post("/stats/code", htmx=False).status_code == 303
    assert idle.post("/friends", htmx=False, table="Family", name="Anna").status_code == 303
    table = counts(app)
    # a month before the deadline another player begins; the idle one never comes back
    clock.moment += 12 * MONTH
    active = Player(app.test_client())
    assert active.post("/practice/cr0/give-up").status_code == 200
    clock.moment += MONTH + timedelta(hours=1)
    assert runner.invoke(args=["players", "prune", "--months", "14"]).output.startswith("removed 0 players")
    done = runner.invoke(args=["players", "prune"])
    assert done.exit_code == 0 and done.output == "removed 1 player idle for 13 months\n"
    assert counts(app) == {"players": 1, "attempts": 1, "runs": 0, "codes": 0, "members": 0, "groups": 0}
    assert table["runs"] == 1 and table["codes"] == 1 and table["groups"] == 1  # they were there
    # the one still playing keeps playing as themselves
    assert "Practice: 1 played" in active.client.get("/stats").get_data(as_text=True)


def test_a_player_who_finished_lately_stays_even_if_they_began_long_ago(
    app: Flask, runner: FlaskCliRunner, published: int, clock: FrozenClock
) -> None:
    player = Player(app.test_client())
    assert player.post(f"/puzzles/{published}/move", card="h0", to="new").status_code == 200
    clock.moment += 13 * MONTH + timedelta(days=1)
    with app.app_context(), database().write() as session:
        attempt = session.scalars(select(models.PlayerAttempt)).one()
        attempt.finished = clock.moment - timedelta(days=2)
    assert runner.invoke(args=["players", "prune"]).output.startswith("removed 0 players")
    assert counts(app)["players"] == 1


def test_the_clock_prunes_daily(app: Flask) -> None:
    jobs = {job.id: job for job in scheduler(app).get_jobs()}
    assert "prune-players" in jobs
    assert "hour='3'" in str(jobs["prune-players"].trigger)


def test_bad_months_are_refused(runner: FlaskCliRunner) -> None:
    refused = runner.invoke(args=["players", "prune", "--months", "0"])
    assert refused.exit_code == 2 and "--months" in refused.output

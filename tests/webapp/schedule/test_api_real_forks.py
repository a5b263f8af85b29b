"""The JSON API says how many of a daily's forks are real (`real_forks`) once its caller may read the
key ideas that judge them: after finishing it (the browser's cookie), or once its day has closed
everywhere; null where the forks were never judged, until the clock judges them (a lower tier too)."""

from __future__ import annotations

import html

import pytest
from flask import Flask
from flask.testing import FlaskClient

import generator
from generator._make import judged
from puzzles import Position
from tests.generator.test_weak_forks import TWO_OF_SPADES, accepted
from tests.webapp.conftest import NOON, TODAY, FrozenClock, Player, store
from webapp import models
from webapp.db import database
from webapp.schedule.scheduler import publish_job

CLOSED = NOON.replace(day=30, hour=13)
"""#7 has closed everywhere."""
WEAK_MEDIUM = (
    "classic | AS AD AC / 7S 7H 7C / QS QH QD / QS QH QD / AH AD AC / 4D 5D 6D 7D 8D 9D 10D"
    " | AH 5H 6H 8H 9H 2D 6D"
)
"""A fresh Medium (c8m4dblx, seed 7) whose one fork is weak: 5♥ has one home, 5♥ 6♥ ... 9♥ (its key
idea), and nothing competes for it. A run judges no Medium: stored as made, its forks are not judged."""
WEAK_SAID = "5♥ goes to 5♥\u00a06♥\u00a07♥\u00a08♥\u00a09♥, its only home: nothing else competes for it."


@pytest.fixture(scope="module")
def master() -> generator.Puzzle:
    """`c9m1vndi4v` as a run stores it: two forks, one real (J♠), one weak (2♠)."""
    puzzle = judged(accepted(*TWO_OF_SPADES)).puzzle
    assert puzzle is not None and (puzzle.forks, puzzle.real_forks) == (2, 1)
    return puzzle


@pytest.fixture(scope="module")
def medium() -> generator.Puzzle:
    puzzle = generator.puzzle_of("c8m4dblx", Position.parse(WEAK_MEDIUM), time_limit=20)
    assert (puzzle.tier, puzzle.forks, puzzle.real_forks) == ("medium", 1, None)
    return puzzle


PATHS = (f"/api/puzzles/{TODAY}", "/api/daily")


def test_an_open_daily_says_its_real_forks_only_to_whoever_finished_it(
    app: Flask, player: Player, master: generator.Puzzle
) -> None:
    store(app, master, TODAY)
    for path in PATHS:
        answer = player.client.get(path).get_json()
        assert answer["forks"] == 2 and "real_forks" not in answer, path
    assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    for path in PATHS:
        assert player.client.get(path).get_json()["real_forks"] == 1, path
    # another browser, or a script without the cookie, has not finished it: still not said
    stranger = app.test_client()
    for path in PATHS:
        assert "real_forks" not in stranger.get(path).get_json(), path


def test_a_closed_day_says_its_real_forks_to_anyone(
    app: Flask, client: FlaskClient, clock: FrozenClock, master: generator.Puzzle
) -> None:
    store(app, master, TODAY)
    clock.moment = CLOSED
    answer = client.get(f"/api/puzzles/{TODAY}").get_json()
    assert (answer["forks"], answer["real_forks"]) == (2, 1)
    assert "solution" not in answer and "key_ideas" not in answer


def test_forks_never_judged_are_null_until_the_clock_judges_them(
    app: Flask,
    player: Player,
    clock: FrozenClock,
    medium: generator.Puzzle,
    fake_generator: list[tuple[str, int]],
) -> None:
    puzzle_id = store(app, medium, TODAY)
    clock.moment = CLOSED
    answer = player.client.get(f"/api/puzzles/{TODAY}").get_json()
    assert answer["forks"] == 1 and "real_forks" in answer and answer["real_forks"] is None
    clock.moment = NOON
    publish_job(app)  # the clock's hourly run: no operator step
    with app.app_context(), database().reader() as session:
        row = session.get_one(models.PoolPuzzle, puzzle_id)
        assert row.real_forks == 0
        assert [(idea["kind"], idea["card"], idea.get("weak")) for idea in row.key_ideas or []] == [
            ("fork", "5H", True)
        ]
    # the result card says the weak fork plainly, never as the key
    result = html.unescape(player.post(f"/puzzles/{TODAY}/give-up").get_data(as_text=True))
    assert WEAK_SAID in result and "The key:" not in result
    assert player.client.get(f"/api/puzzles/{TODAY}").get_json()["real_forks"] == 0

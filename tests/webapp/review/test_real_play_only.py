"""Ratings from real play only: a review round replays a puzzle whose solution the player was shown, so
it moves no rating; and a round falls due on the server's clock, whatever time zone the browser names."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from sqlalchemy import select

import generator
from tests.webapp.conftest import NOON, FrozenClock, Player, store, variant
from tests.webapp.playing import solve
from webapp import models
from webapp.db import database


def practise(app: Flask, puzzle: generator.Puzzle) -> int:
    row_id = store(app, puzzle)
    with app.app_context(), database().write() as session:
        session.get_one(models.PoolPuzzle, row_id).practice = True
    return row_id


def player_rating(app: Flask) -> float:
    with app.app_context(), database().reader() as session:
        return session.scalars(select(models.Player.rating)).one()


def rating_points(app: Flask) -> list[tuple[int, float | None]]:
    with app.app_context(), database().reader() as session:
        rows = session.execute(
            select(models.PlayerAttempt.review, models.PlayerAttempt.rating_after).order_by(
                models.PlayerAttempt.id
            )
        )
        return [(review, rating) for review, rating in rows]


def test_replaying_a_given_up_puzzle_in_review_moves_no_rating(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    puzzle = variant(known_puzzle, "2H", "master", "cr1")
    practise(app, puzzle)
    assert player.post(f"/practice/{puzzle.id}/give-up").status_code == 200
    given_up = player_rating(app)
    assert given_up < 1500  # the give-up was a real game, lost
    clock.moment += timedelta(days=1)
    solve(player, puzzle.id, known_puzzle, base="/review")
    result = player.post(f"/review/{puzzle.id}/end").get_data(as_text=True)
    assert "Next review" in result
    assert player_rating(app) == given_up  # the shown solution, replayed clean, scores nothing
    assert [review for review, _ in rating_points(app)] == [0, 1]
    assert rating_points(app)[1][1] is None


def test_a_time_zone_whose_midnight_just_passed_brings_no_round_early(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    puzzle = variant(known_puzzle, "2H", "hard", "cr1")
    practise(app, puzzle)
    # 12:45 UTC is 23:45 at UTC+11: that zone's midnight comes 15 minutes after the give-up
    clock.moment = NOON + timedelta(minutes=45)
    player.client.set_cookie("tz", "Etc/GMT-11")
    assert player.post(f"/practice/{puzzle.id}/give-up").status_code == 200
    clock.moment += timedelta(minutes=20)
    for zone in ("Etc/GMT-11", "Etc/GMT-14", "Etc/GMT+12", "UTC"):
        player.client.set_cookie("tz", zone)
        assert "Nothing waits for review today." in player.client.get("/review").get_data(as_text=True), zone
        assert player.client.get(f"/review/{puzzle.id}").status_code == 404, zone
        assert player.client.get("/review/next").headers["Location"] == "/review", zone
    later = player.client.get("/review", query_string={"tz": "Etc/GMT-11"}).get_data(as_text=True)
    assert 'class="review-later"' in later  # on the player's own day: 1 December at UTC+11
    # a whole day on the server's clock after the give-up, it waits, in every zone
    clock.moment = NOON + timedelta(days=1, minutes=45)
    for zone in ("Etc/GMT-11", "Etc/GMT+12", "UTC"):
        player.client.set_cookie("tz", zone)
        assert "1 puzzle waits for you today." in player.client.get("/review").get_data(as_text=True), zone

"""A run's puzzle is played only in its run: `/practice/<code>/...` refuses every action on it, so
that no hint, move, end or timeout reaches it outside the run's clock and rules; and a rush's score
never moves after its deadline."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import select

import generator
from tests.webapp.conftest import FrozenClock, Player
from tests.webapp.playing import card_id, solve
from tests.webapp.training.runs import dealt, practice_pool, solve_one, start
from webapp import models
from webapp.db import database

REFUSED = "This puzzle was dealt in one of your rush or streak runs: it is played there only."


def playing_now(app: Flask, run: int) -> tuple[str, tuple[object, ...]]:
    """The code of the run's puzzle being played, and its attempt's row as it stands."""
    with app.app_context(), database().reader() as session:
        attempt = session.scalars(
            select(models.PlayerAttempt).where(
                models.PlayerAttempt.run_id == run, models.PlayerAttempt.status == models.Status.PLAYING
            )
        ).one()
        row = (
            attempt.melds,
            attempt.history,
            attempt.hints,
            attempt.moves,
            attempt.status,
            attempt.time_limit,
        )
        return attempt.puzzle.code, row


@pytest.mark.parametrize("kind", ["rush", "streak"])
def test_no_practice_action_reaches_a_live_runs_puzzle(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, kind: str
) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, kind)
    code, before = playing_now(app, run)
    page = player.client.get(f"/practice/{code}").get_data(as_text=True)
    eight = card_id(page, "8♣")
    for action, form in (
        ("hint", {}),
        ("move", {"card": eight, "to": "3"}),
        ("timed", {}),
        ("time-up", {}),
        ("end", {}),
        ("give-up", {}),
        ("undo", {}),
        ("reset", {}),
    ):
        refused = player.post(f"/practice/{code}/{action}", **form)
        assert refused.status_code == 409, (action, refused.get_data(as_text=True))
        assert REFUSED in html.unescape(refused.get_data(as_text=True)), action
    assert playing_now(app, run) == (code, before)  # nothing changed
    # the run's own pages still play it
    assert player.post(f"/{kind}/{run}/move", card=eight, to="3").status_code == 200


def test_the_refusal_is_in_the_players_language(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, "streak")
    code, _ = playing_now(app, run)
    refused = player.client.post(
        f"/practice/{code}/hint",
        headers={"X-CSRFToken": player.token, "HX-Request": "true", "Accept-Language": "it"},
    )
    assert refused.status_code == 409
    assert REFUSED not in html.unescape(refused.get_data(as_text=True))
    assert "si gioca solo lì" in refused.get_data(as_text=True)


def test_a_rush_left_unsettled_takes_no_solve_after_its_deadline(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, "rush")
    code, _ = playing_now(app, run)
    # the attack: nobody asks the run's page, so the run is not settled, and its puzzle is solved
    # through practice hours after the deadline
    clock.moment += timedelta(hours=3)
    page = player.client.get(f"/practice/{code}").get_data(as_text=True)
    refused = player.post(f"/practice/{code}/move", card=card_id(page, "8♣"), to="3")
    assert refused.status_code == 409
    end = html.unescape(player.client.get(f"/rush/{run}").get_data(as_text=True))
    assert "Time's up!" in end and "Score <strong>0</strong>" in end
    assert dealt(app, run) == [("easy", "timed-out")]


def test_a_puzzle_in_practice_is_not_taken_by_a_run_page(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    """The other way round: a practice attempt stays practice, played on its own page."""
    practice_pool(app, known_puzzle)
    with app.app_context(), database().reader() as session:
        code = session.scalars(select(models.PoolPuzzle.code).where(models.PoolPuzzle.tier == "easy")).one()
    solve(player, code, known_puzzle, base="/practice")
    assert player.post(f"/practice/{code}/end").status_code == 200
    run = start(player, "rush")
    assert dealt(app, run) == [("medium", "playing")]  # never the one played
    board = solve_one(player, "rush", run, known_puzzle)
    assert "1 solved" in board

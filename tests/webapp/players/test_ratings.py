"""Every finished attempt is a Glicko-2 game: the player's and the puzzle's ratings move once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import select

import generator
from tests.webapp.conftest import TODAY, FrozenClock, Player, store, variant
from tests.webapp.playing import solve
from webapp import models
from webapp.db import database
from webapp.players import records
from webapp.players.glicko import Rating, idle, play


def ratings(app: Flask) -> tuple[Rating, Rating, float | None]:
    """The player's rating, the puzzle's, and the attempt's rating point."""
    with app.app_context(), database().reader() as session:
        attempt = session.scalars(select(models.PlayerAttempt)).one()
        player = session.get_one(models.Player, attempt.player_id)
        puzzle = session.get_one(models.PoolPuzzle, attempt.puzzle_id)
        return (
            Rating(player.rating, player.deviation, player.volatility),
            Rating(puzzle.rating, puzzle.deviation, puzzle.volatility),
            attempt.rating_after,
        )


def test_a_new_puzzle_is_rated_by_its_tier(app: Flask, published: int) -> None:
    with app.app_context(), database().reader() as session:
        puzzle = session.scalars(select(models.PoolPuzzle)).one()
    assert (puzzle.tier, puzzle.rating, puzzle.deviation) == ("hard", 1500.0, 350.0)


def test_a_solve_is_a_win_for_the_player(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    solve(player, TODAY, known_puzzle)
    result = player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    mine, puzzle, point = ratings(app)
    expected_player, expected_puzzle = play(Rating(), Rating(1500.0), 1.0)
    assert mine == expected_player and puzzle == expected_puzzle
    assert point == mine.rating and mine.rating > 1500 > puzzle.rating
    # a first game leaves the rating provisional: shown with a "?", in plain words, without the jump
    assert f"Rating {round(mine.rating)}? " in result
    assert "Provisional: your first puzzles move it a lot" in result
    assert "Glicko" not in result and f"+{round(mine.rating - 1500)}" not in result


def test_a_settled_rating_shows_how_much_the_puzzle_moved_it(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    solve(player, TODAY, known_puzzle)
    with app.app_context(), database().write() as session:
        for row in session.scalars(select(models.Player)):
            row.deviation = 60.0  # as after many games
    result = player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    mine, _, _ = ratings(app)
    assert not mine.provisional
    assert f"Rating {round(mine.rating)} (+{round(mine.rating - 1500)})" in result
    stats = player.client.get("/stats").get_data(as_text=True)
    assert f'<strong id="rating">{round(mine.rating)}</strong>' in stats


def test_giving_up_is_a_loss(app: Flask, player: Player, published: int) -> None:
    player.post(f"/puzzles/{TODAY}/give-up")
    mine, puzzle, _ = ratings(app)
    assert (mine, puzzle) == play(Rating(), Rating(1500.0), 0.0)


def test_hints_make_a_solve_worth_less(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    player.post(f"/puzzles/{TODAY}/hint")
    player.post(f"/puzzles/{TODAY}/hint")
    solve(player, TODAY, known_puzzle)
    player.post(f"/puzzles/{TODAY}/end")
    mine, _, _ = ratings(app)
    assert mine == play(Rating(), Rating(1500.0), 0.7)[0]
    assert 1500 < mine.rating < play(Rating(), Rating(1500.0), 1.0)[0].rating


def test_an_attempt_is_rated_once(app: Flask, player: Player, published: int) -> None:
    player.post(f"/puzzles/{TODAY}/give-up")
    before = ratings(app)
    with app.app_context(), database().write() as session:
        attempt = session.scalars(select(models.PlayerAttempt)).one()
        assert records.rate(session, attempt.id) is None
    assert ratings(app) == before


@pytest.mark.parametrize(
    ("status", "hints", "slips", "expected"),
    [
        ("solved", 0, 0, 1.0),
        ("solved", 3, 0, 0.4),
        ("solved", 0, 1, 0.9),
        ("solved", 1, 2, 0.7),
        ("missed", 0, 0, 0.0),
    ],
)
def test_the_score_of_an_attempt(status: str, hints: int, slips: int, expected: float) -> None:
    attempt = models.PlayerAttempt(status=status, hints=hints, slips=slips)
    assert records.score(attempt) == pytest.approx(expected)


def test_a_rating_left_idle_is_less_certain_when_it_plays_again(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    store(app, variant(known_puzzle, "3H", "hard", "cr6"), 6)
    player.post(f"/puzzles/{TODAY}/give-up")
    with app.app_context(), database().reader() as session:
        row = session.scalars(select(models.Player)).one()
        before = Rating(row.rating, row.deviation, row.volatility)
    clock.moment += timedelta(days=200)
    assert player.post("/archive/6/give-up").status_code == 200
    with app.app_context(), database().reader() as session:
        row = session.scalars(select(models.Player)).one()
        puzzle = session.scalars(select(models.PoolPuzzle).where(models.PoolPuzzle.code == "cr6")).one()
    expected, _ = play(idle(before, 199), Rating(1500.0), 0.0)  # the game's own day is in play
    assert puzzle.deviation < 350.0  # the game was rated against the puzzle's rating before it
    assert row.deviation == pytest.approx(expected.deviation) and row.rating == pytest.approx(expected.rating)
    assert row.deviation > play(before, Rating(1500.0), 0.0)[0].deviation

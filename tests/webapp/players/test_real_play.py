"""Ratings and crowd figures from real play only: throwaway cookies that open today's puzzle and give
up move neither its rating nor how everyone did; a player with a record of some days does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import select

import generator
from tests.webapp.conftest import NOON, TODAY, FrozenClock, Player, make_app, store, variant
from webapp import models
from webapp.db import database
from webapp.players import crowd
from webapp.schedule import pool


@pytest.fixture
def strict(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Flask:
    app = make_app(database_url, clock, REAL_PLAY_DAYS=2, REAL_PLAY_FINISHED=3)
    store(app, known_puzzle, TODAY)
    return app


def puzzle_rating(app: Flask) -> float:
    with app.app_context(), database().reader() as session:
        daily = session.scalars(select(models.Daily).where(models.Daily.number == TODAY)).one()
        return float(daily.puzzle.rating)


def given_up(app: Flask, known_puzzle: generator.Puzzle, name: str, days: tuple[int, ...]) -> Player:
    """A browser whose record began 3 days ago, with a puzzle given up on each of `days` (days before
    today, 0 for today)."""
    player_id = name.ljust(32, "0")
    with app.app_context(), database().write() as session:
        session.add(models.Player(id=player_id, created=NOON - timedelta(days=3)))
        for number, day in enumerate(days):
            decoys = ("2H 3D", "2H 3H", "2D 3D")[number]
            row, _ = pool.add(session, variant(known_puzzle, decoys, "hard", f"c{name}{number}"), NOON)
            moment = NOON - timedelta(days=day, minutes=10 - number)
            session.add(
                models.PlayerAttempt(
                    player_id=player_id,
                    puzzle_id=row.id,
                    melds=[],
                    history=[],
                    status=models.Status.GAVE_UP,
                    started=moment,
                    finished=moment,
                )
            )
    client = app.test_client()
    with client.session_transaction() as cookie:
        cookie["player"] = player_id
    return Player(client)


def veteran(app: Flask, known_puzzle: generator.Puzzle, name: str) -> Player:
    """A browser whose record began 3 days ago, with 2 puzzles finished since."""
    return given_up(app, known_puzzle, name, (2, 1))


def farmed(app: Flask, known_puzzle: generator.Puzzle, name: str, days: tuple[int, ...]) -> Player:
    """A cookie made 3 days ago by giving up a puzzle, then given up a puzzle on each of `days` (days
    before today, 0 for today): what a script does to pass for real play."""
    return given_up(app, known_puzzle, name, (3, *days))


def test_forty_throwaway_give_ups_move_a_rating_less_than_fifty_points(strict: Flask) -> None:
    # the hole found: 40 fresh cookies giving up moved today's rating from 1500 to 2208
    before = puzzle_rating(strict)
    for _ in range(40):
        assert Player(strict.test_client()).post(f"/puzzles/{TODAY}/give-up").status_code == 200
    assert abs(puzzle_rating(strict) - before) < 50
    # nor how everyone did: the throwaways are no crowd
    with strict.app_context(), database().reader() as session:
        daily = session.scalars(select(models.Daily).where(models.Daily.number == TODAY)).one()
        assert crowd.how_others_did(session, daily.puzzle_id, NOON, NOON).finished == 0
        assert crowd.solved_shares(session, [daily.puzzle_id], NOON) == {}


def test_forty_cookies_made_days_ago_and_given_up_puzzles_today_are_no_crowd(
    strict: Flask, known_puzzle: generator.Puzzle
) -> None:
    # the hole found: a cookie made 3 days ago that gives up a practice puzzle today, then today's,
    # had 3 finished attempts in a record 3 days old: 40 of them moved today's rating and figures
    before = puzzle_rating(strict)
    for number in range(40):
        player = farmed(strict, known_puzzle, f"f{number:02d}x", (0,))
        assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    assert abs(puzzle_rating(strict) - before) < 50, puzzle_rating(strict)
    with strict.app_context(), database().reader() as session:
        daily = session.scalars(select(models.Daily).where(models.Daily.number == TODAY)).one()
        assert crowd.how_others_did(session, daily.puzzle_id, NOON, NOON).finished == 0
        assert crowd.solved_shares(session, [daily.puzzle_id], NOON) == {}
    # one that came back on a third day plays for real
    player = farmed(strict, known_puzzle, "real", (1,))
    assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    assert puzzle_rating(strict) > before


def test_a_player_with_a_record_of_some_days_moves_the_rating_and_the_figures(
    strict: Flask, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    before = puzzle_rating(strict)
    for name in ("a", "b"):
        player = veteran(strict, known_puzzle, name)
        assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200
        assert puzzle_rating(strict) > before  # a give-up is the puzzle's win
        before = puzzle_rating(strict)
    clock.moment = NOON + timedelta(minutes=1)
    result = Player(strict.test_client()).post(f"/puzzles/{TODAY}/give-up").get_data(as_text=True)
    # the throwaway is told of the two who finished before it, and is counted in no share
    assert "2 other players have finished it so far; 0 solved it." in result
    with strict.app_context(), database().reader() as session:
        daily = session.scalars(select(models.Daily).where(models.Daily.number == TODAY)).one()
        figures = crowd.how_others_did(session, daily.puzzle_id, clock.moment, clock.moment)
    assert (figures.finished, figures.everyone) == (2, 3)


def test_a_friend_on_their_first_day_who_finished_is_not_left_out(
    strict: Flask, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    # both new today: neither is real play yet, so no share counts them; yet the second to finish is
    # never told that they are the first (a friends' table shows the friend's result beside theirs)
    friend, me = Player(strict.test_client()), Player(strict.test_client())
    first = friend.post(f"/puzzles/{TODAY}/give-up").get_data(as_text=True)
    assert "You are the first to finish this puzzle" in first
    clock.moment = NOON + timedelta(minutes=1)
    result = me.post(f"/puzzles/{TODAY}/give-up").get_data(as_text=True)
    assert "first to finish" not in result
    assert "One other player has finished it so far, and did not solve it." in result


def test_the_help_page_says_what_counts_as_real_play(strict: Flask) -> None:
    page = strict.test_client().get("/help").get_data(as_text=True)
    assert (
        "both count real play only" in page
        and "once its record is 2 days old and has finished puzzles on 3 different days" in page
    )

"""How everyone else did on a puzzle: figures from the stored attempts, shown only once finished."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from sqlalchemy import delete

import generator
from tests.webapp.conftest import NOON, TODAY, FrozenClock, Player, make_app, store
from tests.webapp.players.test_stats import solve_daily
from webapp import models
from webapp.db import database
from webapp.models import Status
from webapp.players import crowd
from webapp.players.crowd import crowd_of


def test_the_figures_count_finished_attempts_and_time_only_solves() -> None:
    rows = [
        (Status.SOLVED, 9, NOON, NOON + timedelta(minutes=4), True),
        (Status.SOLVED, 12, NOON, NOON + timedelta(minutes=10), True),
        (Status.SOLVED, 7, NOON, NOON + timedelta(minutes=2), True),
        (Status.GAVE_UP, 30, NOON, NOON + timedelta(minutes=20), True),
        (Status.PLAYING, 3, NOON, None, True),
        # a newcomer's turns: counted as finished, in no share or median
        (Status.SOLVED, 1, NOON, NOON + timedelta(minutes=1), False),
        (Status.GAVE_UP, 0, NOON, NOON + timedelta(minutes=1), False),
    ]
    crowd = crowd_of(rows)
    assert (crowd.finished, crowd.solved, crowd.solved_percent) == (4, 3, 75)
    assert (crowd.everyone, crowd.everyone_solved, crowd.few) == (6, 4, True)
    assert (crowd.median_moves, crowd.median_seconds) == (9, 240)
    # the 4-minute solve beat one of the two others (10 min), and is among the figures itself
    assert crowd.faster_than(240) == 50
    assert crowd.fewer_moves_than(7) == 100
    # a solve not yet counted is compared with all three
    assert crowd.faster_than(60) == 100


def test_the_result_says_how_everyone_did_and_the_archive_too(
    app: Flask, published: int, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    first, second, third, fourth, fifth, newcomer = (Player(app.test_client()) for _ in range(6))
    lone = first.post(f"/puzzles/{TODAY}/give-up").get_data(as_text=True)
    assert "You are the first to finish this puzzle. It is rated 1500 for now" in lone
    # counted again for a player who finished after the figures were counted
    clock.moment = NOON + timedelta(minutes=1)
    result = solve_daily(second, TODAY, known_puzzle)
    assert "One other player has finished it so far, and did not solve it." in result
    assert "first to finish" not in result and "% of the" not in result  # too few for shares
    assert "How everyone did" not in third.client.get("/").get_data(as_text=True)  # not before finishing
    clock.moment = NOON + timedelta(minutes=2)
    result = solve_daily(third, TODAY, known_puzzle)
    assert "2 other players have finished it so far; 1 solved it." in result
    clock.moment = NOON + timedelta(minutes=3)
    solve_daily(fourth, TODAY, known_puzzle)
    clock.moment = NOON + timedelta(minutes=4)
    result = solve_daily(fifth, TODAY, known_puzzle)
    assert "80% of the 5 players who finished it solved it." in result
    assert "A typical solve took" in result and "You solved it faster than" in result
    archive = second.client.get("/archive").get_data(as_text=True)
    assert "80% solved it" in archive
    assert "% solved it" not in newcomer.client.get("/archive").get_data(as_text=True)


def test_the_figures_kept_up_in_two_processes_are_a_full_count(
    app: Flask, database_url: str, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    # two apps on one database, as two worker processes or hosts: each keeps its figures up with the
    # attempts finished since it last counted; whatever order they finish and commit in, the figures
    # are what counting every attempt again finds
    other = make_app(database_url, clock)
    puzzle_id = store(app, known_puzzle, TODAY)
    made = iter(range(1000))

    def finish(minutes: float, status: Status = Status.SOLVED) -> int:
        name = f"p{next(made)}"
        with app.app_context(), database().write() as session:
            session.add(models.Player(id=name, created=NOON - timedelta(days=3)))
            attempt = models.PlayerAttempt(
                player_id=name,
                puzzle_id=puzzle_id,
                melds=[],
                history=[],
                moves=len(name),
                status=status,
                started=NOON - timedelta(hours=3),
                finished=NOON + timedelta(minutes=minutes),
            )
            session.add(attempt)
            session.flush()
            return attempt.id

    def figures(process: Flask, fresh: bool = False) -> crowd.Crowd:
        with process.app_context(), database().reader() as session:
            if fresh:
                crowd.CROWDS().clear()
            return crowd.how_others_did(session, puzzle_id, clock.moment, clock.moment)

    def agree(everyone: int) -> None:
        full = figures(other, fresh=True)
        assert full.everyone == everyone
        assert figures(app) == full
        assert figures(other) == full

    for minutes, status in ((-10, Status.SOLVED), (-9, Status.GAVE_UP), (-8, Status.SOLVED)):
        finish(minutes, status)
    agree(3)
    clock.moment = NOON + timedelta(minutes=1)
    finish(0.8)
    assert figures(app).everyone == 4
    # committed after that count, though it finished a little before the attempt counted last
    finish(0.75, Status.MISSED)
    clock.moment = NOON + timedelta(minutes=2)
    agree(5)
    with app.app_context():
        assert crowd.CROWDS().get(puzzle_id).full_at == NOON  # kept up with, not counted again
    # a timed turn that ran out hours ago, settled only now its player came back: far out of order
    finish(-150, Status.TIMED_OUT)
    clock.moment = NOON + timedelta(minutes=3)
    agree(6)
    # a player's erased record takes their attempt out, while another is finished
    with app.app_context(), database().write() as session:
        session.execute(delete(models.PlayerAttempt).where(models.PlayerAttempt.player_id == "p1"))
    finish(2.5, Status.SOLVED)
    clock.moment = NOON + timedelta(minutes=4)
    agree(6)
    with other.app_context():
        database().dispose()

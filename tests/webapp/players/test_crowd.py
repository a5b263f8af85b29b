"""How everyone else did on a puzzle: figures from the stored attempts, shown only once finished."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask

import generator
from tests.webapp.conftest import NOON, TODAY, FrozenClock, Player
from tests.webapp.players.test_stats import solve_daily
from webapp.models import Status
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

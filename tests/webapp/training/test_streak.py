"""The streak run: no clock, puzzles rising until the first one failed, one skip a run, and its best
kept on the stats page."""

from __future__ import annotations

import html
from datetime import timedelta

from flask import Flask

import generator
from tests.webapp.conftest import FrozenClock, Player
from tests.webapp.playing import card_id
from tests.webapp.training.runs import dealt, practice_pool, slip, solve_one, start


def test_a_streak_run_has_no_clock_and_rises_with_each_solve(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, "streak")
    clock.moment += timedelta(days=2)
    page = player.client.get(f"/streak/{run}").get_data(as_text=True)
    assert 'id="run-clock"' not in page and "0 solved" in page
    slip(player, "streak", run)  # a slip is no failure: the turn goes on
    player.post(f"/streak/{run}/undo")
    board = solve_one(player, "streak", run, known_puzzle)
    assert "1 solved" in board
    assert dealt(app, run) == [("easy", "solved"), ("medium", "playing")]


def test_one_skip_a_run_then_giving_up_ends_it(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, "streak")
    solve_one(player, "streak", run, known_puzzle)
    skipped = player.post(f"/streak/{run}/skip").get_data(as_text=True)
    assert "Skipped" in skipped and "Give up" in skipped and "−10 s" not in skipped
    # a skip does not raise the next puzzle: the run has solved one, as before
    assert dealt(app, run) == [("easy", "solved"), ("medium", "gave-up"), ("hard", "playing")]
    end = html.unescape(player.post(f"/streak/{run}/skip").get_data(as_text=True))
    assert "The streak run is over" in end and "Tavolo Streak 1 · best 1</output>" in end
    assert dealt(app, run)[-1] == ("hard", "gave-up")
    assert player.post(f"/streak/{run}/end").status_code == 200  # the end screen again: nothing changes
    assert len(dealt(app, run)) == 3


def test_the_first_turn_ended_short_ends_the_run_and_the_best_goes_to_the_stats(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, "streak")
    solve_one(player, "streak", run, known_puzzle)
    solve_one(player, "streak", run, known_puzzle)
    page = player.client.get(f"/streak/{run}").get_data(as_text=True)
    assert "2 solved" in page
    # 8♣ on the run of clubs places one card of five, and the turn ends there
    player.post(f"/streak/{run}/move", card=card_id(page, "8♣"), to="3")
    end = html.unescape(player.post(f"/streak/{run}/end").get_data(as_text=True))
    assert "The streak run is over" in end and "Tavolo Streak 2 · best 2</output>" in end
    assert [status for _, status in dealt(app, run)] == ["solved", "solved", "missed"]
    stats = player.client.get("/stats").get_data(as_text=True)
    assert '<dd id="streak-run-best">2</dd>' in stats and '<dd id="rush-best">0</dd>' in stats
    assert "Your best: 2" in player.client.get("/streak").get_data(as_text=True)


def test_a_new_streak_run_closes_the_one_left_going(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    practice_pool(app, known_puzzle)
    first = start(player, "streak")
    assert 'id="run-continue"' in player.client.get("/streak").get_data(as_text=True)
    second = start(player, "streak")
    assert dealt(app, first) == [("easy", "timed-out")]
    assert dealt(app, second) == [("medium", "playing")]  # the easy one was played
    assert "The streak run is over" in player.client.get(f"/streak/{first}").get_data(as_text=True)

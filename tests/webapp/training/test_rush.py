"""The rush: three minutes on the server's clock, practice puzzles rising with each solve, seconds lost
for slips, turns ended short and skips, unrated, and an end screen with the score and the best."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

import generator
from tests.webapp.conftest import TODAY, FrozenClock, Player, make_app
from tests.webapp.playing import board_builds, card_id, save_verdict
from tests.webapp.training.runs import dealt, practice_pool, slip, solve_one, start
from webapp import models
from webapp.db import database


def clock_of(board: str) -> str:
    found = re.search(r'id="run-clock" data-seconds="(\d+)"', board)
    assert found, "the board shows the run's clock"
    return found.group(1)


def test_a_rush_starts_easy_and_each_solve_raises_the_next_puzzle(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    practice_pool(app, known_puzzle)
    landing = player.client.get("/rush").get_data(as_text=True)
    assert "Your best: 0" in landing and 'id="run-start"' in landing
    run = start(player, "rush")
    page = player.client.get(f"/rush/{run}").get_data(as_text=True)
    assert clock_of(page) == "180" and "0 solved" in page
    assert dealt(app, run) == [("easy", "playing")]
    board = solve_one(player, "rush", run, known_puzzle)
    assert "1 solved" in board and "Solved! The next one is a little harder." in board
    assert clock_of(board) == "185"  # a solve without a slip puts 5 s back, and says so
    assert "+5 s" in board and "combo ×1" in board
    assert dealt(app, run) == [("easy", "solved"), ("medium", "playing")]
    solve_one(player, "rush", run, known_puzzle)
    assert dealt(app, run)[-1] == ("hard", "playing")


def test_a_move_in_a_rush_builds_the_board_once(
    monkeypatch: pytest.MonkeyPatch, app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, "rush")
    page = player.client.get(f"/rush/{run}").get_data(as_text=True)
    builds = board_builds(monkeypatch)
    # the run's board draws the turn the move left
    assert builds(player.post(f"/rush/{run}/move", card=card_id(page, "8♣"), to="3")) == ["load"]
    assert builds(player.post(f"/rush/{run}/undo")) == ["load"]


def test_a_slip_a_short_turn_and_a_skip_each_cost_ten_seconds(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, "rush")
    clock.moment += timedelta(seconds=20)
    assert clock_of(slip(player, "rush", run)) == "150"  # 180 - 20 - 10
    # the slip laid 2♦ on a meld of its own: take it back, lay one card, end the turn short
    player.post(f"/rush/{run}/undo")
    page = player.client.get(f"/rush/{run}").get_data(as_text=True)
    eight = re.search(r'data-card="(\w+)" data-from="hand" draggable="true"\s+aria-label="8♣', page)
    assert eight
    board = player.post(f"/rush/{run}/move", card=eight.group(1), to="3").get_data(as_text=True)
    assert "dead end" not in board
    short = player.post(f"/rush/{run}/end").get_data(as_text=True)
    assert "You placed 1; 5 was possible" in html.unescape(short) and "−10 s" in short
    assert clock_of(short) == "140"
    skipped = player.post(f"/rush/{run}/skip").get_data(as_text=True)
    assert "Skipped" in skipped and clock_of(skipped) == "130"
    assert [status for _, status in dealt(app, run)] == ["missed", "gave-up", "playing"]


def test_the_step_check_setting_hides_the_verdict_on_a_run_board_but_the_slip_still_costs(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    save_verdict(player, shown=False)
    practice_pool(app, known_puzzle)
    run = start(player, "rush")
    board = slip(player, "rush", run)
    assert "Step check off" in board and "dead end" not in board
    assert clock_of(board) == "170"
    save_verdict(player, shown=True)
    board = player.client.get(f"/rush/{run}").get_data(as_text=True)
    assert "dead end" in board and "Step check off" not in board


def test_the_server_ends_the_rush_and_a_late_move_is_not_made(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, "rush")
    solve_one(player, "rush", run, known_puzzle)
    page = player.client.get(f"/rush/{run}").get_data(as_text=True)
    card = re.search(r'data-card="(h\w+)" data-from="hand"', page)
    assert card
    # within the grace for the last request's travel, a move still counts (the clean solve put 5 s back)
    clock.moment += timedelta(seconds=187)
    assert 'id="run-clock" data-seconds="0"' in player.post(
        f"/rush/{run}/move", card=card.group(1), to="new"
    ).get_data(as_text=True)
    clock.moment += timedelta(seconds=2)
    late = player.post(f"/rush/{run}/undo").get_data(as_text=True)
    assert "Time's up!" in late and "Score <strong>1</strong>" in late
    assert dealt(app, run) == [("easy", "solved"), ("medium", "timed-out")]
    with app.app_context(), database().reader() as session:
        left = session.scalars(
            select(models.PlayerAttempt).where(models.PlayerAttempt.status == "timed-out")
        ).one()
        assert left.moves == 1  # the late undo was not made
    # nothing the browser sends brings the run back
    for action in ("skip", "end", "reset", "time-up"):
        assert "Time's up!" in player.post(f"/rush/{run}/{action}").get_data(as_text=True)
    assert dealt(app, run) == [("easy", "solved"), ("medium", "timed-out")]


def test_the_end_screen_has_the_score_the_best_the_puzzles_and_the_share_text(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    practice_pool(app, known_puzzle)
    first = start(player, "rush")
    solve_one(player, "rush", first, known_puzzle)
    solve_one(player, "rush", first, known_puzzle)
    clock.moment += timedelta(minutes=5)
    end = html.unescape(player.client.get(f"/rush/{first}").get_data(as_text=True))
    assert "Tavolo Rush 2 · best 2</output>" in end and "A new best!" in end
    second = start(player, "rush")
    solve_one(player, "rush", second, known_puzzle)
    clock.moment += timedelta(minutes=5)
    end = html.unescape(player.client.get(f"/rush/{second}").get_data(as_text=True))
    assert "Tavolo Rush 1 · best 2</output>" in end and "A new best!" not in end
    # the next game: another rush first, then every other game
    assert 'id="run-again"' in end
    assert set(re.findall(r'data-game="(\w+)"', end)) == {"today", "practice", "streak", "review", "friends"}
    replays = re.findall(r'href="(/analyse/play\?[^"]+)"', end)
    assert len(replays) == 2  # the solved Expert one and the Master one the time ran out on
    assert player.client.get(html.unescape(replays[1])).status_code == 200
    assert "Your best: 2" in player.client.get("/rush").get_data(as_text=True)


def test_a_run_is_unrated_and_touches_neither_practice_stats_nor_the_daily_streak(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, "rush")
    solve_one(player, "rush", run, known_puzzle)
    with app.app_context(), database().reader() as session:
        assert session.scalars(select(models.PlayerAttempt.rating_after)).all() == [None, None]
        assert session.scalars(select(models.Player.deviation)).one() == 350.0
        ratings = session.scalars(select(models.PoolPuzzle.rating).order_by(models.PoolPuzzle.id)).all()
    assert ratings == [1100.0, 1300.0, 1500.0, 1700.0, 1900.0]
    stats = player.client.get("/stats").get_data(as_text=True)
    assert 'id="rush-best">1<' in stats
    assert "Practice: 0 played, 0 solved." in stats
    assert '<dd id="best-streak">0</dd>' in stats and '<dd id="played">0</dd>' in stats


def test_what_a_run_leaves_unsolved_does_not_come_back_for_review(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, "rush")
    slip(player, "rush", run)
    player.post(f"/rush/{run}/undo")
    player.post(f"/rush/{run}/skip")
    player.post(f"/rush/{run}/skip")
    assert [status for _, status in dealt(app, run)] == ["gave-up", "gave-up", "playing"]
    for days in (1, 3, 7):
        clock.moment = clock.moment + timedelta(days=days)
        assert "Nothing waits for review today." in player.client.get("/review").get_data(as_text=True)


def test_a_run_is_its_players_only_and_bad_input_is_a_readable_4xx(
    app: Flask, player: Player, client: FlaskClient, known_puzzle: generator.Puzzle
) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, "rush")
    stranger = Player(app.test_client())
    refused = stranger.client.get(f"/rush/{run}")
    assert refused.status_code == 404 and f"There is no run {run} of yours here." in refused.get_data(
        as_text=True
    )
    assert stranger.post(f"/rush/{run}/skip").status_code == 404
    assert player.client.get(f"/streak/{run}").status_code == 404  # a rush is not a streak run
    assert player.client.get("/rush/99999999999999999999").status_code == 404
    assert player.post("/rush/99999999999999999999/undo").status_code == 404
    assert player.post(f"/rush/{run}/move", card="h0").status_code == 400
    wrong = player.post(f"/rush/{run}/move", card="h99", to="new")
    assert wrong.status_code == 422
    no_token = player.client.post("/rush/start")
    assert no_token.status_code == 400 and "CSRF" in no_token.get_data(as_text=True)


def test_no_puzzle_ready_is_a_503_that_says_so(player: Player) -> None:
    response = player.post("/rush/start", htmx=False)
    assert response.status_code == 503
    assert "No practice puzzle is ready for a run" in response.get_data(as_text=True)


def test_a_run_never_deals_a_daily_puzzle(app: Flask, player: Player, published: int) -> None:
    assert player.post("/rush/start", htmx=False).status_code == 503
    assert published == TODAY


def test_the_board_holds_no_solution(app: Flask, player: Player, known_puzzle: generator.Puzzle) -> None:
    practice_pool(app, known_puzzle)
    run = start(player, "rush")
    page = player.client.get(f"/rush/{run}").get_data(as_text=True)
    assert "The solution" not in page
    assert page.count('class="card ') == 13 + 7  # the table and the hand, nothing more
    skipped = player.post(f"/rush/{run}/skip").get_data(as_text=True)
    assert "The solution" not in skipped and skipped.count('class="card ') == 20


def test_starting_runs_is_rate_limited(database_url: str, clock: FrozenClock) -> None:
    limited = make_app(database_url, clock, RATELIMIT_ENABLED=True, RUN_RATE_LIMIT="2 per minute")
    starter = Player(limited.test_client())
    statuses = [starter.post("/rush/start", htmx=False).status_code for _ in range(3)]
    assert statuses == [503, 503, 429]  # an empty pool, then the limit


def test_the_help_page_says_runs_are_unrated(client: FlaskClient) -> None:
    page = html.unescape(client.get("/help").get_data(as_text=True))
    assert 'href="/rush">Rush</a> and <a href="/streak">streak</a> runs are unrated' in page

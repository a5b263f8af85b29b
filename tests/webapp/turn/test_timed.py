"""The timed turn: two minutes on a visible clock; when they run out the table goes back and the
attempt fails."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask
from sqlalchemy import select

import generator
from tests.webapp.conftest import NOON, TODAY, FrozenClock, Player, attempts
from tests.webapp.playing import card_id, share_text, solve
from webapp import models
from webapp.db import database

START = [["t0", "t1", "t2"], ["t3", "t4", "t5"], ["t6", "t7", "t8"], ["t9", "t10", "t11", "t12"]]


def stored(app: Flask) -> models.PlayerAttempt:
    with app.app_context(), database().reader() as session:
        return session.scalars(select(models.PlayerAttempt)).one()


def test_an_untouched_puzzle_offers_a_timed_turn(client: object, published: int) -> None:
    page = client.get("/").get_data(as_text=True)  # type: ignore[attr-defined]
    assert 'id="timed-start"' in page and "Timed turn (2 min)" in page
    assert 'action="/puzzles/7/timed"' in page


def test_starting_a_timed_turn_shows_the_clock(app: Flask, player: Player, published: int) -> None:
    board = player.post(f"/puzzles/{TODAY}/timed").get_data(as_text=True)
    deadline = (NOON + timedelta(minutes=2)).isoformat()
    assert f'<time class="turn-clock" id="turn-clock" datetime="{deadline}"' in board
    assert 'data-time-up-url="/puzzles/7/time-up"' in board and "⏱ 2:00" in board
    assert 'id="timed-start"' not in board
    row = stored(app)
    assert (row.time_limit, row.status, row.moves) == (120, "playing", 0)


def test_moves_in_time_count(app: Flask, player: Player, published: int, clock: FrozenClock) -> None:
    player.post(f"/puzzles/{TODAY}/timed")
    clock.moment = NOON + timedelta(seconds=100)
    page = player.client.get("/").get_data(as_text=True)
    assert "⏱ 0:20" in page
    moved = player.move(TODAY, card_id(page, "9♠"), "new")
    assert moved.status_code == 200 and "Time's up" not in moved.get_data(as_text=True)
    assert attempts(app)[0][2:] == ("playing", 1)


def test_a_move_after_the_time_ends_the_turn_and_restores_the_table(
    app: Flask, player: Player, published: int, clock: FrozenClock
) -> None:
    player.post(f"/puzzles/{TODAY}/timed")
    page = player.client.get("/").get_data(as_text=True)
    player.move(TODAY, card_id(page, "9♠"), "new")
    clock.moment = NOON + timedelta(minutes=2, seconds=10)
    late = player.move(TODAY, card_id(page, "Q♠"), "new")
    assert late.status_code == 200
    result = late.get_data(as_text=True)
    assert "Time's up: the table is back as it was" in result and "The solution" in result
    assert "⌛ 0/5" in result and "⏱2:00" in result  # the share text says it ran out at two minutes
    row = stored(app)
    assert (row.status, row.placed, row.melds, row.moves) == ("timed-out", 0, START, 1)
    assert row.finished == NOON + timedelta(minutes=2)


def test_the_grace_lets_a_last_move_arrive(
    app: Flask, player: Player, published: int, clock: FrozenClock
) -> None:
    player.post(f"/puzzles/{TODAY}/timed")
    clock.moment = NOON + timedelta(minutes=2, seconds=2)  # the page read 0:00, the request was on its way
    page = player.client.get("/").get_data(as_text=True)
    assert player.move(TODAY, card_id(page, "9♠"), "new").status_code == 200
    assert stored(app).status == "playing"


def test_a_reload_after_the_time_shows_the_failed_attempt(
    app: Flask, player: Player, published: int, clock: FrozenClock
) -> None:
    player.post(f"/puzzles/{TODAY}/timed")
    clock.moment = NOON + timedelta(minutes=5)
    page = player.client.get("/").get_data(as_text=True)
    assert "Time's up" in page
    row = stored(app)
    assert row.status == "timed-out" and row.rating_after is not None  # rated as a loss


def test_the_page_clock_asks_the_server_at_zero(
    app: Flask, player: Player, published: int, clock: FrozenClock
) -> None:
    player.post(f"/puzzles/{TODAY}/timed")
    early = player.post(f"/puzzles/{TODAY}/time-up").get_data(as_text=True)
    assert "Time's up" not in early and stored(app).status == "playing"  # the server's clock decides
    clock.moment = NOON + timedelta(minutes=2, seconds=4)
    assert "Time's up" in player.post(f"/puzzles/{TODAY}/time-up").get_data(as_text=True)
    assert stored(app).status == "timed-out"
    # and nothing moves afterwards
    refused = player.move(TODAY, "h0", "new")
    assert refused.status_code == 409


def test_time_up_without_an_attempt_stores_nothing(app: Flask, player: Player, published: int) -> None:
    assert player.post(f"/puzzles/{TODAY}/time-up").status_code == 200
    assert attempts(app) == []


def test_a_turn_begun_untimed_cannot_become_timed(app: Flask, player: Player, published: int) -> None:
    player.move(TODAY, "h0", "new")
    refused = player.post(f"/puzzles/{TODAY}/timed")
    assert refused.status_code == 409
    assert "begun without the clock" in refused.get_data(as_text=True)
    assert stored(app).time_limit is None


def test_a_timed_solve_shares_its_time(
    app: Flask, player: Player, published: int, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    player.post(f"/puzzles/{TODAY}/timed")
    clock.moment = NOON + timedelta(seconds=97)
    moves = solve(player, TODAY, known_puzzle)
    result = player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    assert "Solved!" in result
    assert share_text(result) == f"Tavolo #7 ⛓3 ✅ 5/5 · {moves} moves · 💡0 · 🔥1 · ⏱1:37"


def test_a_turn_ended_in_the_grace_shares_the_whole_time_and_no_more(
    app: Flask, player: Player, published: int, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    player.post(f"/puzzles/{TODAY}/timed")
    solve(player, TODAY, known_puzzle)
    clock.moment = NOON + timedelta(minutes=2, seconds=2)  # End turn pressed at 0:00, still travelling
    result = player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    assert stored(app).status == "solved"
    assert "⏱2:00" in result and "⏱2:02" not in result

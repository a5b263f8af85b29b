"""Faults and races: concurrent moves on one attempt, publishers racing for a day, a stopped clock,
a worker killed in the middle of a move, a database away for a moment."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask

from tests.webapp.conftest import TODAY, Player, attempts
from webapp import daily, turns
from webapp.db import database


def stored_attempt(app: Flask) -> turns.Stored:
    """The only attempt, as a move reads it."""
    with app.app_context(), database().autocommit() as connection:
        stored = turns.read(connection, attempts(app)[0][0], daily.daily(TODAY).puzzle)
        assert stored is not None
        return stored


def test_a_move_writes_only_onto_the_attempt_it_read(app: Flask, player: Player, published: int) -> None:
    player.move(TODAY, "h0", "new")
    stale = stored_attempt(app)
    assert player.move(TODAY, "h1", "new").status_code == 200
    turns.move(stale.attempt, "h2", "new", None)
    with app.app_context(), database().autocommit() as connection:
        assert not turns.write(connection, stale)
    # the stale write lost: the table holds h0 and h1, as the two moves that succeeded left it
    table = attempts(app)[0][1]
    assert ["h0"] in table and ["h1"] in table and ["h2"] not in table
    assert attempts(app)[0][3] == 2


def test_a_move_that_loses_a_race_is_redone_on_the_new_table(
    app: Flask, player: Player, published: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    player.move(TODAY, "h0", "new")
    other = Player(app.test_client())
    other.client.set_cookie("tavolo", player.client.get_cookie("tavolo").value)  # type: ignore[union-attr]
    other.token = player.token
    real_read = turns.read
    raced: list[int] = []

    def read_then_race(*args: Any) -> turns.Stored | None:
        stored = real_read(*args)
        if not raced:  # another window moves a card between this request's read and its write
            raced.append(0)
            raced[0] = other.move(TODAY, "h1", "new").status_code
        return stored

    monkeypatch.setattr(turns, "read", read_then_race)
    response = player.move(TODAY, "h2", "new")
    assert raced == [200]
    assert response.status_code == 200
    table = attempts(app)[0][1]
    assert ["h0"] in table and ["h1"] in table and ["h2"] in table
    assert attempts(app)[0][3] == 3


def test_a_move_that_always_loses_the_race_is_refused_and_changes_nothing_of_its_own(
    app: Flask, player: Player, published: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    player.move(TODAY, "h0", "new")
    monkeypatch.setattr(turns, "write", lambda connection, stored: False)
    response = player.move(TODAY, "h1", "new")
    assert response.status_code == 409
    assert "reload the page" in response.get_data(as_text=True)
    assert attempts(app)[0][3] == 1


def test_concurrent_moves_on_one_attempt_lose_no_update(app: Flask, player: Player, published: int) -> None:
    """Six windows of one player, each moving its own card out and back: every accepted move counts,
    and the table ends as it began."""
    player.move(TODAY, "h0", "new")
    player.move(TODAY, "h0", "hand")
    cookie = player.client.get_cookie("tavolo")
    assert cookie is not None
    start_table = attempts(app)[0][1]
    accepted: list[int] = []
    failures: list[str] = []
    barrier = threading.Barrier(6)

    def window(card: str) -> None:
        client = app.test_client()
        client.set_cookie("tavolo", cookie.value)
        barrier.wait()
        for step in range(8):
            response = client.post(
                f"/puzzles/{TODAY}/move",
                data={"card": card, "to": "new" if step % 2 == 0 else "hand"},
                headers={"X-CSRFToken": player.token, "HX-Request": "true"},
            )
            if response.status_code == 200:
                accepted.append(1)
            else:  # only a race lost three times over may refuse, and then the card did not move
                failures.append(response.get_data(as_text=True))
                return

    threads = [threading.Thread(target=window, args=(f"h{i}",)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all("reload the page" in failure for failure in failures)
    _, table, status, moves = attempts(app)[0]
    assert moves == 2 + len(accepted)
    if not failures:
        assert table == start_table
    assert status == "playing"

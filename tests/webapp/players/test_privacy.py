"""A player's own data: `/me/export.json` holds the whole record, `POST /me/forget` erases it, only
with the CSRF token and the typed confirmation, and nothing of it stays on the server."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tests.webapp.conftest import TODAY, Player, attempts
from webapp import models
from webapp.db import database
from webapp.players import privacy
from webapp.turn import store


def rows(app: Flask, model: type[models.Base]) -> int:
    with app.app_context(), database().reader() as session:
        return len(list(session.scalars(select(model))))


def test_the_export_holds_the_attempts_streak_and_rating_history(
    app: Flask, player: Player, published: int
) -> None:
    assert player.move(TODAY, "h0", "new").status_code == 200
    assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    answer = player.client.get("/me/export.json")
    assert answer.status_code == 200
    assert answer.headers["Content-Disposition"] == 'attachment; filename="tavolo-record.json"'
    assert answer.headers["Cache-Control"] == "no-store"
    record = json.loads(answer.get_data(as_text=True))
    [attempt] = record["attempts"]
    assert attempt["daily_number"] == TODAY and attempt["status"] == "gave-up" and attempt["moves"] == 1
    assert record["streak"] == {"current": 0, "best": 0}
    [point] = record["rating_history"]
    assert point["rating"] == attempt["rating_after"] == record["player"]["rating"] < 1500
    assert len(record["player"]["id"]) == 32 and record["transfer_codes"] == []


def test_no_record_is_a_404(client: FlaskClient) -> None:
    answer = client.get("/me/export.json")
    assert answer.status_code == 404 and "nothing to download" in answer.get_data(as_text=True)


def test_forgetting_needs_the_token_and_the_typed_word_and_then_erases_everything(
    app: Flask, player: Player, published: int
) -> None:
    assert player.move(TODAY, "h0", "new").status_code == 200
    assert player.post("/stats/code", htmx=False).status_code == 303
    page = player.client.get("/me/forget").get_data(as_text=True)
    assert "Erase my record" in page and "/me/export.json" in page
    forged = player.client.post("/me/forget", data={"confirm": "erase"})  # no CSRF token
    assert forged.status_code == 400
    unconfirmed = player.post("/me/forget", htmx=False, confirm="yes")
    assert unconfirmed.status_code == 422 and "Type erase" in unconfirmed.get_data(as_text=True)
    assert len(attempts(app)) == 1
    erased = player.post("/me/forget", htmx=False, confirm=" Erase ")
    assert erased.status_code == 303
    assert attempts(app) == []
    assert rows(app, models.Player) == 0 and rows(app, models.TransferCode) == 0
    # the browser starts afresh: no record to download, an untouched board
    assert player.client.get("/me/export.json").status_code == 404
    assert "Your record is erased" in player.client.get("/stats").get_data(as_text=True)


def player_ids(app: Flask) -> set[str]:
    with app.app_context(), database().reader() as session:
        return set(session.scalars(select(models.Player.id)))


def test_an_old_cookie_after_erasure_starts_a_new_player(app: Flask, player: Player, published: int) -> None:
    assert player.move(TODAY, "h0", "new").status_code == 200
    [erased] = player_ids(app)
    old_cookie = player.client.get_cookie("tavolo")
    assert old_cookie is not None
    assert player.post("/me/forget", htmx=False, confirm="erase").status_code == 303
    # the cookie kept aside before erasing, sent again: the erased id never comes back
    player.client.set_cookie("tavolo", old_cookie.value)
    assert player.client.get("/me/export.json").status_code == 404
    assert player.move(TODAY, "h0", "new").status_code == 200
    [fresh] = player_ids(app)
    assert fresh != erased and [row[0] for row in attempts(app)] == [fresh]
    player.client.set_cookie("tavolo", old_cookie.value)
    assert player.client.get("/me/export.json").status_code == 404


def test_a_move_in_flight_during_erasure_cannot_recreate_the_player(
    app: Flask, player: Player, published: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert player.move(TODAY, "h0", "new").status_code == 200
    [erased] = player_ids(app)
    read = store.read
    erasing = []

    def read_then_erase(*args: Any, **kwargs: Any) -> Any:
        # the move has read its attempt; the erasure commits before the move writes
        stored = read(*args, **kwargs)
        if not erasing:
            erasing.append(True)
            with database().write() as writer:
                privacy.forget(writer, erased)
        return stored

    monkeypatch.setattr(store, "read", read_then_erase)
    assert player.move(TODAY, "h1", "new").status_code == 200
    assert erasing and erased not in player_ids(app)
    [(owner, _, _, moves)] = attempts(app)
    assert owner != erased and moves == 1  # a new player's first move, not the old attempt's second
    assert player.client.get("/me/export.json").get_json()["player"]["id"] != erased

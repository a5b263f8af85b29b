"""A player's own data: `/me/export.json` holds the whole record, `POST /me/forget` erases it, only
with the CSRF token and the typed confirmation, and nothing of it stays on the server."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, insert, select

import generator
from tests.webapp import conftest
from tests.webapp.conftest import NOON, TODAY, FrozenClock, Player, attempts, make_app
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


def test_a_long_record_downloads_in_parts_each_naming_the_next(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    app = make_app(database_url, clock, EXPORT_PAGE_SIZE=4)
    conftest.store(app, known_puzzle, TODAY)
    player = Player(app.test_client())
    assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    with app.app_context(), database().write() as session:
        first = session.scalars(select(models.PlayerAttempt)).one()
        owner = first.player_id
        for _ in range(5):
            session.add(models.Run(player_id=owner, kind="rush", rules="classic", started=NOON, ended=NOON))
        # nine review rounds of today's puzzle, begun before and after the first turn
        for n in range(1, 10):
            moment = NOON + timedelta(minutes=(-1) ** n * n)
            session.add(
                models.PlayerAttempt(
                    player_id=owner, puzzle_id=first.puzzle_id, review=n, melds=[], history=[], hint_log=[],
                    moves=n, status=models.Status.GAVE_UP, started=moment, finished=moment,
                )
            )  # fmt: skip
    page = player.client.get("/me/forget").get_data(as_text=True)
    assert "it downloads as 3 JSON files" in page and page.count("/me/export.json?part=") == 3
    parts, link = [], "/me/export.json"
    while link:
        answer = player.client.get(link)
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
        parts.append(answer.get_json())
        number = len(parts)
        assert f'filename="tavolo-record-{number}-of-3.json"' in answer.headers["Content-Disposition"]
        link = parts[-1]["part"]["next"]
        assert parts[-1]["part"] == {"number": number, "of": 3, "next": link}
    assert [len(part["attempts"]) for part in parts] == [4, 4, 2]
    assert [len(part["runs"]) for part in parts] == [4, 1, 0]
    # every attempt once, in the order they began; the record's other fields in the first part alone
    moves = [attempt["moves"] for part in parts for attempt in part["attempts"]]
    assert moves == [9, 7, 5, 3, 1, 0, 2, 4, 6, 8]
    assert all(part["player"]["id"] == owner for part in parts)
    assert "streak" in parts[0] and "friends_tables" in parts[0] and "transfer_codes" in parts[0]
    assert not {"streak", "friends_tables", "transfer_codes"} & set(parts[1])
    assert sum(len(part["rating_history"]) for part in parts) == 1  # the daily's give-up alone is rated


@pytest.mark.parametrize(("part", "status"), [("4", 404), ("0", 400), ("01", 400), ("x", 400), ("-1", 400)])
def test_a_part_past_the_last_or_not_a_number_is_refused(
    app: Flask, player: Player, published: int, part: str, status: int
) -> None:
    assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    answer = player.client.get("/me/export.json", query_string={"part": part})
    text = answer.get_data(as_text=True)
    assert answer.status_code == status and ("whole number" in text or "has 1 part:" in text), text


def test_each_part_and_the_stats_cost_the_same_statements_for_thousands_of_attempts(
    app: Flask, player: Player, published: int
) -> None:
    assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    with app.app_context(), database().reader() as session:
        first = session.scalars(select(models.PlayerAttempt)).one()
        owner, puzzle = first.player_id, first.puzzle_id

    def rounds(numbers: range) -> None:
        with app.app_context(), database().write() as session:
            session.execute(
                insert(models.PlayerAttempt),
                [
                    dict(player_id=owner, puzzle_id=puzzle, review=n, melds=[], history=[], hint_log=[],
                         moves=n, status=models.Status.GAVE_UP, started=NOON + timedelta(minutes=n),
                         finished=NOON + timedelta(minutes=n))
                    for n in numbers
                ],
            )  # fmt: skip

    def sent(path: str) -> tuple[int, Any]:
        statements: list[str] = []
        with app.app_context():
            engine = database().engine
        listen = lambda *args: statements.append(str(args[2]))  # noqa: E731
        event.listen(engine, "before_cursor_execute", listen)
        try:
            answer = player.client.get(path)
        finally:
            event.remove(engine, "before_cursor_execute", listen)
        assert answer.status_code == 200, path
        return len(statements), answer

    rounds(range(1, 30))
    few = {path: sent(path)[0] for path in ("/me/export.json", "/stats")}
    rounds(range(30, 3000))
    for path in ("/me/export.json", "/me/export.json?part=3", "/stats"):
        count, answer = sent(path)
        assert count <= few[path.split("?")[0]], path  # a later part leaves out the streak, codes, tables
        if "export" in path:
            assert len(answer.get_json()["attempts"]) == 1000 and answer.get_json()["part"]["of"] == 3

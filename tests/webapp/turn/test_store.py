"""The attempt's read and guarded write, sent to the driver directly (`turn.store`): the values the ORM
would read, the statements the engine's events see, and a driver's error as SQLAlchemy's."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event, exc, inspect, select

from tests.webapp.conftest import TODAY, Player, attempts
from webapp.db import database
from webapp.models import PlayerAttempt, Status
from webapp.schedule import daily
from webapp.turn import store


def read_now(app: Flask, player: str) -> store.Stored:
    with app.app_context(), database().autocommit() as connection:
        stored = store.read(connection, player, daily.daily(TODAY).puzzle)
    assert stored is not None
    return stored


def test_a_move_reads_every_column_as_the_orm_does(app: Flask, player: Player, published: int) -> None:
    assert player.post(f"/puzzles/{TODAY}/timed").status_code == 200  # a time limit
    player.move(TODAY, "h0", "new")
    player.move(TODAY, "h1", "new")
    assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200  # a status, a finish
    [(owner, _, _, _)] = attempts(app)
    stored = read_now(app, owner)
    with app.app_context(), database().reader() as session:
        orm = session.scalar(select(PlayerAttempt).where(PlayerAttempt.player_id == owner))
    assert orm is not None and orm.finished is not None and orm.time_limit is not None
    for column in inspect(PlayerAttempt).column_attrs:
        read, expected = getattr(stored.attempt, column.key), getattr(orm, column.key)
        assert read == expected and type(read) is type(expected), column.key
    assert stored.attempt.status is Status.GAVE_UP
    assert stored.attempt.started.tzinfo is not None


def test_the_engine_sees_a_moves_two_statements(app: Flask, player: Player, published: int) -> None:
    player.move(TODAY, "h0", "new")
    seen: list[str] = []
    with app.app_context():
        engine = database().engine

        def note(*args: Any) -> None:
            seen.append(" ".join(str(args[2]).split()[:2]))

        event.listen(engine, "after_cursor_execute", note)
        try:
            assert player.move(TODAY, "h1", "new").status_code == 200
        finally:
            event.remove(engine, "after_cursor_execute", note)
    assert seen == ["SELECT attempt.id", "UPDATE attempt"]
    assert attempts(app)[0][3] == 2


def test_a_write_stores_what_the_action_changed_and_only_on_the_row_it_read(
    app: Flask, player: Player, published: int
) -> None:
    player.move(TODAY, "h0", "new")
    [(owner, _, _, _)] = attempts(app)
    stored, stale = read_now(app, owner), read_now(app, owner)
    stored.attempt.melds = [*stored.attempt.melds, []]
    stored.attempt.moves += 5
    with app.app_context(), database().autocommit() as connection:
        assert store.write(connection, stored)
        stale.attempt.moves += 1
        assert not store.write(connection, stale)
    again = read_now(app, owner)
    assert again.attempt.moves == stored.attempt.moves and again.attempt.melds == stored.attempt.melds


def test_a_drivers_error_reaches_the_app_as_sqlalchemys(
    app: Flask, player: Player, published: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    player.move(TODAY, "h0", "new")
    [(owner, _, _, _)] = attempts(app)
    with app.app_context(), database().autocommit() as connection:
        driven = store._driven(connection)
        monkeypatch.setattr(driven, "read", ("SELECT no_such_column FROM attempt", None))
        with pytest.raises(exc.DBAPIError) as raised:
            store.read(connection, owner, daily.daily(TODAY).puzzle)
    assert "no_such_column" in str(raised.value)

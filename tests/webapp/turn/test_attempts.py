"""The stored turn: undo entries as text, and attempts stored before that form."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import update

import generator
from puzzles import Board, Card, Position, Track, progress
from tests.webapp.conftest import TODAY, Player, attempts
from tests.webapp.playing import board_builds, solve
from webapp import models
from webapp.db import database
from webapp.turn.attempts import undo_entry, undone_table


def test_undo_entries_are_text_that_gives_the_table_back() -> None:
    board = Board.start(Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 9D")).move("h0", "0")
    entry = undo_entry(board.melds)
    assert entry == "t0 t1 t2 h0/t3 t4 t5"
    assert undone_table(entry) == [list(meld) for meld in board.melds]
    assert undone_table(undo_entry(Board.start(Position.parse("classic | | 6S 9D")).melds)) == []


def test_an_attempt_stored_with_whole_tables_still_undoes(app: Flask, player: Player, published: int) -> None:
    player.move(TODAY, "h0", "new")
    player.move(TODAY, "h1", "new")
    _, table, _, _ = attempts(app)[0]
    before = [meld for meld in table if meld != ["h1"]]
    start = [meld for meld in before if meld != ["h0"]]
    with app.app_context(), database().write() as session:
        session.execute(update(models.PlayerAttempt).values(history=[start, before]))
    assert player.post(f"/puzzles/{TODAY}/undo").status_code == 200
    assert attempts(app)[0][1] == before
    assert player.post(f"/puzzles/{TODAY}/undo").status_code == 200
    assert attempts(app)[0][1] == start


def test_moves_keep_text_entries_for_undo(app: Flask, player: Player, published: int) -> None:
    player.move(TODAY, "h0", "new")
    with app.app_context(), database().reader() as session:
        history = session.query(models.PlayerAttempt.history).scalar()
    assert history == ["t0 t1 t2/t3 t4 t5/t6 t7 t8/t9 t10 t11 t12"]


def test_every_move_builds_the_board_once(
    monkeypatch: pytest.MonkeyPatch,
    app: Flask,
    player: Player,
    known_puzzle: generator.Puzzle,
    published: int,
) -> None:
    builds = board_builds(monkeypatch)
    # the first move starts the attempt, whose board the move goes on from
    assert builds(player.move(TODAY, "h0", "new")) == ["start"]
    assert builds(player.move(TODAY, "h1", "new")) == ["load"]
    # the page draws the board the undo built; the table as it stood is not built
    assert builds(player.post(f"/puzzles/{TODAY}/undo")) == ["load"]
    assert builds(player.post(f"/puzzles/{TODAY}/reset")) == ["start"]
    assert builds(player.post(f"/puzzles/{TODAY}/undo")) == ["load"]
    assert builds(player.post(f"/puzzles/{TODAY}/undo")) == ["load"]
    moves = solve(player, TODAY, known_puzzle)
    # solve's page, each of its moves and this page: one board each
    assert builds(player.client.get(f"/puzzles/{TODAY}")) == ["load"] * (1 + moves + 1)
    ended = player.post(f"/puzzles/{TODAY}/end")
    assert "✅" in ended.get_data(as_text=True)
    assert builds(ended) == ["load"]


def test_giving_up_first_builds_the_board_once(
    monkeypatch: pytest.MonkeyPatch, app: Flask, player: Player, published: int
) -> None:
    builds = board_builds(monkeypatch)
    gave_up = player.post(f"/puzzles/{TODAY}/give-up")
    assert gave_up.status_code == 200
    assert builds(gave_up) == ["start"]


def test_the_step_check_words_each_verdict() -> None:
    position = Position.parse("classic | 3S 4S 5S 6S | 7S 6H 6D")
    laid = {token: Card.parse(token) for token in ("7S", "6H", "KD")}
    off = progress(position, (laid["7S"],), 2, 5.0)
    assert (off.track, off.reachable, str(off.words)) == (Track.OFF, 1, "off track: at most 1 now")
    on = progress(position, (laid["6H"],), 2, 5.0)
    assert (on.track, str(on.words)) == (Track.ON, "on track")
    dead = progress(Position.parse("classic | 3S 4S 5S 6S | 7S 6H KD"), (laid["KD"],), 1, 5.0)
    assert dead.track is Track.DEAD_END
    assert str(dead.words) == "dead end: no valid table holds K♦ with these cards"
    assert dead.at_fault == (laid["KD"],)

"""A turn's POST sent again with the same id (nginx retrying it on another host) is answered as the
first was and applied once; another id, or none, is applied as it comes."""

from __future__ import annotations

import re

from flask import Flask
from sqlalchemy import select

import generator
from tests.webapp.conftest import TODAY, Player, attempts
from tests.webapp.playing import card_id, solve
from webapp import models
from webapp.db import database
from webapp.turn.replays import REQUEST_HEADER


def send(player: Player, path: str, request: str | None, **form: str) -> tuple[int, str]:
    headers = {"X-CSRFToken": player.token, "HX-Request": "true"}
    if request is not None:
        headers[REQUEST_HEADER] = request
    answer = player.client.post(f"/puzzles/{TODAY}/{path}", data=form, headers=headers)
    return answer.status_code, answer.get_data(as_text=True)


def test_a_move_sent_twice_with_one_id_is_answered_alike_and_stored_once(
    app: Flask, player: Player, published: int
) -> None:
    page = player.client.get("/").get_data(as_text=True)
    nine, eight = card_id(page, "9♠"), card_id(page, "8♣")
    # the first move starts the attempt (and the player): sent again, it starts nothing more
    first = send(player, "move", "a" * 32, card=nine, to="new")
    assert send(player, "move", "a" * 32, card=nine, to="new") == first
    assert first[0] == 200 and [row[3] for row in attempts(app)] == [1]
    second = send(player, "move", "b" * 32, card=eight, to="new")
    assert send(player, "move", "b" * 32, card=eight, to="new") == second
    assert second[0] == 200 and [row[3] for row in attempts(app)] == [2]
    assert 'data-version="4-playing"' in second[1]  # two moves, two tables kept for undo
    table = attempts(app)[0][1]
    # the same card under another id is another request, applied
    assert send(player, "move", "c" * 32, card=nine, to="hand")[0] == 200
    assert attempts(app)[0][1] != table


def test_an_undo_sent_twice_undoes_one_move(app: Flask, player: Player, published: int) -> None:
    page = player.client.get("/").get_data(as_text=True)
    assert send(player, "move", None, card=card_id(page, "9♠"), to="new")[0] == 200
    after_one = attempts(app)[0][1]
    assert send(player, "move", None, card=card_id(page, "8♣"), to="new")[0] == 200
    undone = send(player, "undo", "u" * 20)
    assert send(player, "undo", "u" * 20) == undone
    assert undone[0] == 200 and attempts(app)[0][1] == after_one
    # without an id every undo is applied, as a plain form's is
    assert send(player, "undo", None)[0] == 200 and attempts(app)[0][1] != after_one


def test_an_end_of_turn_sent_twice_is_one_result_rated_once(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    solve(player, TODAY, known_puzzle)
    status, ended = send(player, "end", "e" * 32)
    assert status == 200 and "Solved!" in ended
    again_status, again = send(player, "end", "e" * 32)
    assert again_status == 200 and "Solved!" in again
    rating = re.compile(r'<p class="result-rating">.*?</p>', re.S)
    assert rating.findall(again) == rating.findall(ended) != []
    with app.app_context(), database().reader() as session:
        rated = session.scalars(select(models.PlayerAttempt.rating_after)).all()
        player_rating = session.scalars(select(models.Player.rating)).one()
    assert len(rated) == 1 and rated[0] == player_rating
    # another id is another end: refused, the turn is over
    assert send(player, "end", "f" * 32)[0] == 409


def test_a_malformed_request_id_is_refused_with_a_reason(app: Flask, player: Player, published: int) -> None:
    page = player.client.get("/").get_data(as_text=True)
    for bad in ("short", "x" * 65, "no spaces in ids!"):
        status, text = send(player, "move", bad, card=card_id(page, "10♥"), to="new")
        assert status == 400 and "the request&#39;s id must be" in text.replace("'", "&#39;")
    assert attempts(app) == []


def test_a_first_move_sent_again_without_the_cookie_its_answer_set_finds_its_player(
    app: Flask, player: Player, published: int
) -> None:
    page = player.client.get("/").get_data(as_text=True)
    before = player.client.get_cookie("tavolo")
    assert before is not None  # the session of the page's CSRF token, with no player yet
    first = send(player, "move", "d" * 32, card=card_id(page, "9♠"), to="new")
    # the answer, and the cookie naming the new player, were lost with the host that made them
    player.client.set_cookie("tavolo", before.value)
    assert send(player, "move", "d" * 32, card=card_id(page, "9♠"), to="new") == first
    assert [(row[0], row[3]) for row in attempts(app)] == [(attempts(app)[0][0], 1)]
    # the answer sent again named that player: the next move is theirs
    assert send(player, "move", "e" * 32, card=card_id(page, "8♣"), to="new")[0] == 200
    assert [row[3] for row in attempts(app)] == [2]
    with app.app_context(), database().reader() as session:
        assert len(session.scalars(select(models.Player.id)).all()) == 1

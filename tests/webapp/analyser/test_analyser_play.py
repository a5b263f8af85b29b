"""Playing a typed position: the moves live in the URL, every step is checked, nothing is stored."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.webapp.conftest import Player, attempts

POSITION = {"rules": "classic", "table": "3S 4S 5S / 7H 7D 7C", "hand": "6S 7S KD"}
"""Hand ids: h0 = 6♠, h1 = 7♠, h2 = K♦ (the hand sorted); table ids t0-t2 the run, t3-t5 the set."""


def board(client: FlaskClient, moves: str = "", **more: str) -> Any:
    query = dict(POSITION, **more)
    if moves:
        query["moves"] = moves
    return client.get("/analyse/play", query_string=query)


def move(
    player: Player, moves: str, card: str, to: str, seen_at: str | None = None, htmx: bool = True
) -> Any:
    query = "&".join(f"{key}={value}" for key, value in dict(POSITION, moves=moves).items())
    form = {"card": card, "to": to}
    if seen_at is not None:
        form["from"] = seen_at
    return player.post(f"/analyse/play/move?{query}", htmx=htmx, **form)


def track(response: Any) -> str:
    found = re.search(r'<p class="track track-([a-z-]+)"', response.get_data(as_text=True))
    assert found, "the board says where the player stands"
    return found.group(1)


def test_the_analysis_links_to_playing_the_position(client: FlaskClient) -> None:
    analysis = client.get("/analyse", query_string=POSITION).get_data(as_text=True)
    link = re.search(r'id="play-link" href="([^"]+)"', analysis)
    assert link
    response = client.get(html.unescape(link.group(1)))
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert "Place <strong>2</strong> of your 3 cards" in body
    assert track(response) == "on-track"
    assert body.count('data-card="h') == 3 and body.count('data-card="t') == 6


def test_moves_are_checked_and_pushed_into_the_url(app: Flask, player: Player) -> None:
    response = move(player, "", "h2", "new")
    assert response.status_code == 200
    assert track(response) == "dead-end"
    pushed = urlsplit(response.headers["HX-Push-Url"])
    assert pushed.path == "/analyse/play"
    assert parse_qs(pushed.query)["moves"] == ["h2-new"]
    # the pushed URL is the board: a reload shows the same, and undo is a link to one move less
    again = player.client.get(response.headers["HX-Push-Url"])
    assert track(again) == "dead-end"
    undo = re.search(r'id="undo" href="([^"]+)"', again.get_data(as_text=True))
    assert undo and "moves" not in html.unescape(undo.group(1))
    # nothing was stored: no attempt, no player
    assert attempts(app) == []


def test_the_right_moves_solve_it(player: Player) -> None:
    first = move(player, "", "h0", "0", seen_at="hand")
    assert track(first) == "on-track"
    second = move(player, "h0-0", "h1", "1")
    assert track(second) == "on-track"
    body = second.get_data(as_text=True)
    end = re.search(r'id="end-turn" href="([^"]+)"', body)
    assert end, "every meld is valid: the turn can end"
    result = player.client.get(html.unescape(end.group(1)))
    text = result.get_data(as_text=True)
    assert "Solved! You placed 2" in text
    assert 'class="board done"' in text


def test_ending_below_the_maximum_says_what_was_possible(client: FlaskClient) -> None:
    response = board(client, "h0-0", end="1")
    assert "You placed 1; 2 was possible" in response.get_data(as_text=True)


def test_a_turn_that_cannot_end_is_not_ended_by_the_url(client: FlaskClient) -> None:
    response = board(client, "h2-new", end="1")
    body = response.get_data(as_text=True)
    assert 'id="result"' not in body
    assert '<button type="button" class="button primary" id="end-turn" disabled>' in body


def test_without_htmx_a_move_redirects_to_the_new_board(player: Player) -> None:
    response = move(player, "", "h0", "0", htmx=False)
    assert response.status_code == 303
    assert "moves=h0-0" in response.headers["Location"]


@pytest.mark.parametrize(
    ("moves", "card", "to", "status", "message"),
    [
        ("", "t0", "hand", 422, "3♠ belongs to the table: no table card may go to the hand"),
        ("", "h9", "0", 422, "there is no card 'h9' in this puzzle"),
        ("", "h0", "7", 422, "there is no meld 8 on the table"),
        ("", "h0", "", 400, "a move needs a card and where it goes"),
        ("h0-9", "h1", "0", 400, "move 1 (h0-9): there is no meld 10 on the table"),
        ("h0-0.h0-0", "h1", "0", 400, "move 2 (h0-0): 6♠ is already in meld 1"),
    ],
)
def test_bad_moves_are_refused_with_a_reason(
    player: Player, moves: str, card: str, to: str, status: int, message: str
) -> None:
    response = move(player, moves, card, to)
    assert response.status_code == status
    assert message in html.unescape(response.get_data(as_text=True))


def test_a_page_out_of_date_gets_an_error_not_a_move(player: Player) -> None:
    response = move(player, "h0-0", "h0", "1", seen_at="hand")
    assert response.status_code == 422
    assert "not where the page showed it" in html.unescape(response.get_data(as_text=True))


def test_an_unplayable_position_or_a_long_url_is_a_400(client: FlaskClient) -> None:
    bad = client.get("/analyse/play", query_string={"rules": "classic", "table": "3S 4S", "hand": "6S"})
    assert bad.status_code == 400
    assert "This position cannot be played: meld 1 (3♠ 4♠): only 2 cards." in html.unescape(
        bad.get_data(as_text=True)
    )
    long = board(client, ".".join(["h0-0", "h0-hand"] * 151))
    assert long.status_code == 400
    assert "too many moves" in long.get_data(as_text=True)


def test_moves_need_the_csrf_token(client: FlaskClient) -> None:
    query = "&".join(f"{key}={value}" for key, value in POSITION.items())
    response = client.post(f"/analyse/play/move?{query}", data={"card": "h0", "to": "0"})
    assert response.status_code == 400
    assert "CSRF" in response.get_data(as_text=True)

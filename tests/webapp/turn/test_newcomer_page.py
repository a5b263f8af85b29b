"""Today's page for a visitor who is no player yet, served from the process's page cache before the
daily's row is read: still with a CSRF token and cookie of its own, in the visitor's language, and
never to a player whose table has moved."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.webapp.conftest import TODAY, Player
from tests.webapp.playing import card_id, card_places

TOKEN = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


def test_each_newcomer_gets_a_token_and_cookie_of_their_own(app: Flask, published: int) -> None:
    pages, tokens = [], []
    for _ in range(3):
        client = app.test_client()
        response = client.get("/")
        assert response.status_code == 200
        assert "HttpOnly" in response.headers["Set-Cookie"]
        page = response.get_data(as_text=True)
        token = TOKEN.search(page)
        assert token is not None
        tokens.append(token.group(1))
        pages.append(page.replace(token.group(1), ""))
        # the token works for the first move, with the cookie it came with
        moved = client.post(
            f"/puzzles/{TODAY}/move",
            data={"card": card_id(page, "9♠"), "to": "new"},
            headers={"X-CSRFToken": token.group(1), "HX-Request": "true"},
        )
        assert moved.status_code == 200
    assert len(set(tokens)) == 3
    assert pages[0] == pages[1] == pages[2]


def test_a_kept_newcomer_page_keeps_to_the_visitors_language(app: Flask, published: int) -> None:
    for _ in range(2):  # drawn, then kept
        english = app.test_client().get("/").get_data(as_text=True)
        german = app.test_client().get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
        assert 'lang="en"' in english and 'lang="de"' not in english
        assert 'lang="de"' in german and 'lang="en"' not in german


def test_a_player_who_moved_sees_their_table_not_the_newcomers(
    client: FlaskClient, player: Player, published: int
) -> None:
    nine = card_id(player.client.get("/").get_data(as_text=True), "9♠")
    assert player.move(TODAY, nine, "new", "hand").status_code == 200
    # a newcomer's page drawn after the move, so the cache holds one for this minute
    fresh = client.application.test_client().get("/").get_data(as_text=True)
    assert card_places(fresh)[nine] == "hand"
    mine = player.client.get("/").get_data(as_text=True)
    assert card_places(mine)[nine] != "hand"

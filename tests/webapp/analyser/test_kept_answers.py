"""A kept answer asked again in the same words is served without reading the position again, and
the spoiler guard is still asked, with each caller's own cookie."""

from __future__ import annotations

import json
import re

from flask import Flask

import generator
from tests.webapp.analyser.test_analyser_open_daily import query
from tests.webapp.conftest import TODAY, Player


def test_the_same_request_kept_for_one_caller_is_refused_to_another(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    player.client.get("/")
    assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    body = json.dumps(known_puzzle.position().to_json())
    for _ in range(2):  # solved and kept, then served as kept
        page = player.client.get("/analyse", query_string=query(known_puzzle))
        assert page.status_code == 200
        assert "The best play places" in page.get_data(as_text=True)
        answer = player.client.post("/api/solve", data=body, content_type="application/json")
        assert answer.status_code == 200
        assert answer.get_json()["max_placed"] == known_puzzle.max_placed
    stranger = app.test_client()
    refused = stranger.get("/analyse", query_string=query(known_puzzle))
    assert refused.status_code == 403
    assert "once you have solved it or given up" in refused.get_data(as_text=True)
    assert stranger.post("/api/solve", data=body, content_type="application/json").status_code == 403


def test_a_kept_page_carries_each_requests_own_csrf_token(app: Flask) -> None:
    position = {"rules": "classic", "table": "3S 4S 5S / 7H 7D 7C", "hand": "6S 7S KD"}
    pages, tokens = [], []
    for _ in range(3):
        client = app.test_client()
        client.get("/token")  # a session, whose token the page carries
        page = client.get("/analyse", query_string=position)
        assert page.status_code == 200
        text = page.get_data(as_text=True)
        token = re.search(r'<meta name="csrf-token" content="([^"]+)"', text)
        assert token is not None
        tokens.append(token.group(1))
        pages.append(text.replace(token.group(1), ""))
    assert len(set(tokens)) == 3
    assert pages[0] == pages[1] == pages[2]
    # without a session the kept page starts none: no token, no cookie, the same bytes for everyone
    sessionless = [app.test_client().get("/analyse", query_string=position) for _ in range(2)]
    assert all("Set-Cookie" not in answer.headers for answer in sessionless)
    assert '<meta name="csrf-token" content=""' in sessionless[0].get_data(as_text=True)
    assert sessionless[0].get_data() == sessionless[1].get_data()
    for _ in range(2):  # htmx's fragment, drawn then kept: the address bar's tidy link each time
        fragment = app.test_client().get("/analyse", query_string=position, headers={"HX-Request": "true"})
        assert fragment.status_code == 200
        assert fragment.headers["HX-Push-Url"].startswith("/analyse?")

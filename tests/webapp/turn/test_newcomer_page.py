"""Today's page for a visitor who is no player yet, served from the process's page cache before the
daily's row is read: without a session, one page for all (no token, no cookie, kept whole for a few
seconds, never past midnight), the token then asked from `/token`; with a session, its own token. In
the visitor's language, and never to a player whose table has moved."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.webapp.conftest import NOON, TODAY, FrozenClock, Player, attempts
from tests.webapp.playing import card_id, card_places

TOKEN = re.compile(r'<meta name="csrf-token" content="([^"]*)"')
MIDNIGHT = (NOON + timedelta(days=1)).replace(hour=0)


def test_a_newcomer_page_is_one_for_all_with_no_token_and_no_cookie(app: Flask, published: int) -> None:
    pages = []
    for _ in range(3):
        client = app.test_client()
        response = client.get("/")
        assert response.status_code == 200
        assert "Set-Cookie" not in response.headers
        assert response.headers["Cache-Control"] == "no-cache"  # no browser keeps it as its own
        assert response.headers["X-Accel-Expires"] == "10"
        assert "Content-Security-Policy" in response.headers
        page = response.get_data(as_text=True)
        token = TOKEN.search(page)
        assert token is not None and token.group(1) == ""
        assert 'name="csrf_token" value=""' in page
        pages.append(page)
        # the page's script asks for a token, which brings the session cookie with it
        given = client.get("/token")
        assert given.headers["Cache-Control"] == "no-store" and "HttpOnly" in given.headers["Set-Cookie"]
        moved = client.post(
            f"/puzzles/{TODAY}/move",
            data={"card": card_id(page, "9♠"), "to": "new"},
            headers={"X-CSRFToken": given.get_json()["token"], "HX-Request": "true"},
        )
        assert moved.status_code == 200
    assert pages[0] == pages[1] == pages[2]
    assert len({player for player, *_ in attempts(app)}) == 3


def test_a_visitor_with_a_session_gets_a_token_of_their_own(app: Flask, published: int) -> None:
    tokens = []
    for _ in range(2):
        client = app.test_client()
        client.get("/token")
        response = client.get("/")
        assert "X-Accel-Expires" not in response.headers
        token = TOKEN.search(response.get_data(as_text=True))
        assert token is not None and token.group(1)
        tokens.append(token.group(1))
    assert tokens[0] != tokens[1]


def test_without_javascript_the_first_form_comes_back_with_a_token(app: Flask, published: int) -> None:
    client = app.test_client()
    assert "Set-Cookie" not in client.get("/").headers
    first = client.post(f"/puzzles/{TODAY}/give-up", data={"csrf_token": ""})
    assert first.status_code == 400 and attempts(app) == []  # nothing done yet
    page = first.get_data(as_text=True)
    assert "HttpOnly" in first.headers["Set-Cookie"]
    again = re.search(
        r'<form method="post" action="([^"]+)">\s*<input type="hidden" name="csrf_token" value="([^"]+)"',
        page,
    )
    assert again is not None and again.group(1) == f"/puzzles/{TODAY}/give-up"
    # the player reads what to do first; the token's fault is named after the button, as a detail
    said = re.search(r"<h1>One more press</h1>\s*<p>([^<]*)</p>", page)
    assert said is not None and "nothing was done" in said.group(1) and "CSRF" not in said.group(1)
    assert re.search(r'id="send-again-why">Why: The CSRF token is missing\.', page)
    done = client.post(again.group(1), data={"csrf_token": again.group(2)})
    assert done.status_code == 303
    assert [status for _, _, status, _ in attempts(app)] == ["gave-up"]


def test_a_forged_form_from_elsewhere_gets_only_the_page_again(app: Flask, published: int) -> None:
    client = app.test_client()
    client.get("/token")  # a session: the refusal is the plain one
    refused = client.post(f"/puzzles/{TODAY}/give-up", data={"csrf_token": "forged"})
    assert refused.status_code == 400 and "send-again" not in refused.get_data(as_text=True)
    stranger = app.test_client()
    echoed = stranger.post(f"/puzzles/{TODAY}/move", data={"card": '"><script>', "to": "new"})
    assert echoed.status_code == 400 and "<script>" not in echoed.get_data(as_text=True)
    assert attempts(app) == []


def counted(app: Flask) -> list[int]:
    """How many times today's view runs: a kept answer is served before Flask."""
    runs = [0]
    view: Callable[..., Any] = app.view_functions["choosing.today"]

    def counting(**values: Any) -> Any:
        runs[0] += 1
        return view(**values)

    app.view_functions["choosing.today"] = counting
    return runs


def test_the_process_keeps_the_shared_page_whole_per_language(
    app: Flask, published: int, clock: FrozenClock
) -> None:
    runs = counted(app)
    english = [app.test_client().get("/").get_data() for _ in range(3)]
    assert runs == [1] and english[0] == english[1] == english[2]
    german = app.test_client().get("/", headers={"Accept-Language": "de-AT, de;q=0.9"})
    assert runs == [2] and b'lang="de"' in german.get_data()
    app.test_client().get("/", headers={"Accept-Language": "de"})
    assert runs == [2]  # the same language, negotiated
    assert german.headers["Content-Security-Policy"] and "Accept-Language" in german.headers["Vary"]
    with_cookie = app.test_client()
    with_cookie.set_cookie("tavolo_deck", "four")
    assert b'class="four-colour"' in with_cookie.get("/").get_data()
    assert runs == [3]
    clock.moment = NOON + timedelta(seconds=10)
    app.test_client().get("/")
    assert runs == [4]


def test_the_shared_page_changes_at_midnight(app: Flask, published: int, clock: FrozenClock) -> None:
    clock.moment = MIDNIGHT - timedelta(seconds=3)
    before = app.test_client().get("/")
    assert before.headers["X-Accel-Expires"] == "3" and f"#{TODAY}<" in before.get_data(as_text=True)
    clock.moment = MIDNIGHT - timedelta(milliseconds=400)
    assert "X-Accel-Expires" not in app.test_client().get("/").headers  # too late to keep
    clock.moment = MIDNIGHT
    after = app.test_client().get("/").get_data(as_text=True)
    assert f"#{TODAY + 1}<" in after


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

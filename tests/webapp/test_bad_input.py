"""Bad input, every kind the issue lists, on the step, check and solve endpoints, and in puzzle numbers,
time zones and numbers in the query: each gets a 4xx with a message, never a 500, and leaves every
table of the database as it was. Then Hypothesis plays whole sequences of steps, good and bad."""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from puzzles import Board
from tests.webapp.conftest import NOON, TODAY, FrozenClock, Player
from webapp import models
from webapp.db import database
from webapp.models import Base
from webapp.turn import attempts


def everything(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table."""
    with app.app_context(), database().reader() as session:
        return {
            table.name: sorted((tuple(row) for row in session.execute(select(table))), key=repr)
            for table in Base.metadata.sorted_tables
        }


def message(response: Any) -> str:
    if response.is_json:
        return str(response.get_json()["error"])
    return html.unescape(response.get_data(as_text=True))


def post_move(
    player: Player, htmx: bool, body: bytes | dict[str, Any], number: int = TODAY, **headers: str
) -> Any:
    headers = {"X-CSRFToken": player.token, **headers}
    if htmx:
        headers["HX-Request"] = "true"
    if isinstance(body, bytes):
        return player.client.post(
            f"/puzzles/{number}/move",
            data=body,
            headers=headers,
            content_type="application/x-www-form-urlencoded",
        )
    return player.client.post(f"/puzzles/{number}/move", data=body, headers=headers)


MOVES: dict[str, tuple[Callable[[Player, bool], Any], int, str]] = {
    "unknown card": (lambda p, htmx: post_move(p, htmx, {"card": "h99", "to": "new"}), 422, "no card 'h99'"),
    "not a card at all": (
        lambda p, htmx: post_move(p, htmx, {"card": "ZZ", "to": "new"}),
        422,
        "no card 'ZZ'",
    ),
    "a card twice in one move": (
        lambda p, htmx: post_move(p, htmx, b"card=h1&card=h1&to=new"),
        400,
        "one card to one place",
    ),
    "a card not in the hand": (
        lambda p, htmx: post_move(p, htmx, {"card": "h0", "to": "new", "from": "hand"}),
        422,
        "not where the page showed it",
    ),
    "a hand card already in the hand": (
        lambda p, htmx: post_move(p, htmx, {"card": "h1", "to": "hand"}),
        422,
        "already in the hand",
    ),
    "a table card to the hand": (
        lambda p, htmx: post_move(p, htmx, {"card": "t0", "to": "hand"}),
        422,
        "no table card may go to the hand",
    ),
    "a meld that is not there": (
        lambda p, htmx: post_move(p, htmx, {"card": "h1", "to": "40"}),
        422,
        "no meld 41",
    ),
    "a meld number in digits that are not ASCII": (
        lambda p, htmx: post_move(p, htmx, {"card": "h1", "to": "²"}),
        422,
        "'²' is not a meld",
    ),
    "a future puzzle": (
        lambda p, htmx: post_move(p, htmx, {"card": "h1", "to": "new"}, number=9),
        404,
        "not out yet",
    ),
    "a puzzle number beyond every date": (
        lambda p, htmx: post_move(p, htmx, {"card": "h1", "to": "new"}, number=99_999_999_999),
        404,
        "Puzzle #99999999999 is not out yet.",
    ),
    "a closed puzzle": (
        lambda p, htmx: post_move(p, htmx, {"card": "h1", "to": "new"}, number=5),
        410,
        "has closed",
    ),
    "an oversized body": (
        lambda p, htmx: post_move(p, htmx, {"card": "h1", "to": "new", "x": "y" * 40_000}),
        413,
        "too large",
    ),
    # Werkzeug reads no field from a form that is not UTF-8
    "invalid UTF-8": (
        lambda p, htmx: post_move(p, htmx, b"card=h\xff\xfe&to=new"),
        400,
        "a move needs a card",
    ),
    "no CSRF token": (
        lambda p, htmx: p.client.post(
            f"/puzzles/{TODAY}/move",
            data={"card": "h1", "to": "new"},
            headers={"HX-Request": "true"} if htmx else {},
        ),
        400,
        "The CSRF token is missing",
    ),
    "a wrong CSRF token": (
        lambda p, htmx: post_move(p, htmx, {"card": "h1", "to": "new"}, **{"X-CSRFToken": "IjQ2MjUi.forged"}),
        400,
        "CSRF",
    ),
}


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "form"])
@pytest.mark.parametrize("case", list(MOVES))
def test_a_bad_move_is_a_4xx_with_a_message_and_changes_nothing(
    app: Flask, player: Player, published: int, case: str, htmx: bool
) -> None:
    assert player.move(TODAY, "h0", "new").status_code == 200  # the player has an attempt to protect
    before = everything(app)
    send, status, words = MOVES[case]
    response = send(player, htmx)
    assert response.status_code == status
    assert words in message(response)
    if htmx:
        assert response.headers["HX-Retarget"] == "#notice"  # the board stays; only the notice changes
    assert everything(app) == before


def test_a_tampered_cookie_is_refused_and_changes_nothing(app: Flask, player: Player, published: int) -> None:
    player.move(TODAY, "h0", "new")
    before = everything(app)
    cookie = player.client.get_cookie("tavolo")
    assert cookie is not None
    for forged in (cookie.value[:-4] + "AAAA", "e30.forged.signature", "not even a cookie"):
        player.client.set_cookie("tavolo", forged)
        response = player.move(TODAY, "h1", "new")
        assert response.status_code == 400
        assert "CSRF" in message(response)
    assert everything(app) == before


CHECKS: dict[str, tuple[bytes, int, str]] = {
    "an unknown card": (b'{"table": [["3S", "4S", "XX"]]}', 400, "meld 1: 'XX' is not a card"),
    "invalid UTF-8": (b'{"table": [["3S\xff"]]}', 400, "not UTF-8"),
    "not JSON": (b"table=3S", 400, "not JSON"),
    "10,000 arrays nested": (
        b"[" * 10_000 + b"]" * 10_000,
        400,
        "the body is not JSON: nested more than 100",
    ),
    "a table nested 150 deep": (
        b'{"table": ' + b"[" * 150 + b"]" * 150 + b"}",
        400,
        "the body is not JSON: nested more than 100 deep",
    ),
    "a 5,000-digit number": (
        b'{"table": ' + b"1" * 5_000 + b"}",
        400,
        "the body is not JSON: a number of more than",
    ),
    "an oversized body": (json.dumps({"table": [["2D"] * 30] * 200}).encode(), 413, "too large"),
}


@pytest.mark.parametrize("case", list(CHECKS))
def test_a_bad_check_is_a_4xx_with_a_message_and_changes_nothing(
    app: Flask, client: FlaskClient, published: int, case: str
) -> None:
    before = everything(app)
    body, status, words = CHECKS[case]
    response = client.post(f"/api/puzzles/{TODAY}/check", data=body, content_type="application/json")
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert everything(app) == before


def test_a_check_of_a_future_puzzle_is_a_404(app: Flask, client: FlaskClient, published: int) -> None:
    response = client.post("/api/puzzles/9/check", json={"table": []})
    assert response.status_code == 404 and "not out yet" in response.get_json()["error"]


def numbered_routes(app: Flask) -> list[tuple[str, str]]:
    """(method, rule) of every route that takes a puzzle number."""
    return sorted(
        (method, rule.rule)
        for rule in app.url_map.iter_rules()
        if "<int:number>" in rule.rule
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    )


@pytest.mark.parametrize("number", [0, 9, 2_932_897, 3_000_000, 99_999_999_999, 10**30])
def test_a_puzzle_number_beyond_every_date_is_not_out_yet_on_every_route(
    app: Flask, player: Player, published: int, number: int
) -> None:
    """Puzzle #2932897 would fall after the year 9999: no date is computed for a number not out yet."""
    assert player.move(TODAY, "h0", "new").status_code == 200
    before = everything(app)
    routes = numbered_routes(app)
    assert len(routes) >= 2 * 9 + 3  # the play and archive pages and their turns, the API, the preview
    for method, rule in routes:
        url = rule.replace("<int:number>", str(number))
        if method == "GET":
            response = player.client.get(url)
        elif url.startswith("/api/"):
            response = player.client.post(url, json={"table": []})
        else:
            response = player.post(url, card="h1", to="new")
        assert response.status_code == 404, (method, url)
        assert f"Puzzle #{number} is not out yet." in message(response), (method, url)
    assert everything(app) == before


def test_a_negative_or_non_ascii_puzzle_number_is_no_route(client: FlaskClient, published: int) -> None:
    assert client.get(f"/puzzles/{published}").status_code == 200
    urls = ("/puzzles/-1", "/archive/-1", "/api/puzzles/-1", "/puzzles/-1/preview.svg", "/puzzles/\u0667")
    for url in urls:
        response = client.get(url)
        assert response.status_code == 404
        assert "not found" in message(response)


def test_a_table_with_a_card_twice_or_a_lost_table_card_is_judged_invalid(
    client: FlaskClient, published: int
) -> None:
    """The check's own answer, as the API documents it: a judgement with reasons, not a refusal."""
    twice = [["10H", "10D", "10S"], ["JH", "JD", "JS"], ["QH", "QD", "QC"], ["4C", "5C", "6C", "7C"]]
    twice += [["9S", "9S", "9S"]]
    answer = client.post(f"/api/puzzles/{TODAY}/check", json={"table": twice}).get_json()
    assert answer["valid"] is False and answer["errors"]
    lost = client.post(f"/api/puzzles/{TODAY}/check", json={"table": twice[1:4]}).get_json()
    assert lost["valid"] is False and any("10" in error for error in lost["errors"])


SOLVES: dict[str, tuple[bytes, int, str]] = {
    "an unknown card": (b'{"table": [["3S", "4S", "XX"]], "hand": ["6S"]}', 400, "XX"),
    "invalid UTF-8": (b'{"hand": ["6S\xff"]}', 400, "UTF-8"),
    "10,000 arrays nested": (
        b"[" * 10_000 + b"]" * 10_000,
        400,
        "not one JSON position: nested more than 100",
    ),
    # json.loads reads it, but the answer would fail to write the id back
    "an id nested 980 deep": (
        b'{"id": ' + b"[" * 980 + b"]" * 980 + b', "table": [["3S", "4S", "5S"]], "hand": ["6S"]}',
        400,
        "not one JSON position: nested more than 100 deep",
    ),
    "a 5,000-digit number": (
        b'{"table": [["3S", "4S", "5S"]], "hand": ["6S"], "id": -' + b"9" * 5_000 + b"}",
        400,
        "not one JSON position: a number of more than",
    ),
    "an oversized body": (json.dumps({"hand": ["2D"] * 20_000}).encode(), 413, "too large"),
    # Python reads NaN; written back in the id it would make the answer not JSON
    "a NaN id": (
        b'{"id": NaN, "table": [["3S", "4S", "5S"]], "hand": ["6S"]}',
        400,
        "NaN is not a JSON value",
    ),
    "the objective in the body": (
        b'{"objective": "points", "table": [["3S", "4S", "5S"]], "hand": ["6S"]}',
        400,
        "objective goes in the query (?objective=...), not in the body",
    ),
    "the time limit in the body": (
        b'{"time_limit": 5, "table": [["3S", "4S", "5S"]], "hand": ["6S"]}',
        400,
        "time_limit goes in the query",
    ),
}


@pytest.mark.parametrize("case", list(SOLVES))
def test_a_bad_solve_is_a_4xx_with_a_message_and_changes_nothing(
    app: Flask, client: FlaskClient, published: int, case: str
) -> None:
    before = everything(app)
    body, status, words = SOLVES[case]
    response = client.post("/api/solve", data=body, content_type="application/json")
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert everything(app) == before


# -- time zones, and numbers in the query

BAD_ZONES = [
    "Moon/Base",
    "Europe",  # folders of the time zone database
    "America",
    "Etc",
    "Europe/",
    "Europe/Rome/x",
    "tzdata.zi",  # a file of the database that is not a zone
    "../etc/passwd",
    "/etc/localtime",
    ".",
    "UTC\x00",
    "x" * 300,
]
ZONE_PAGES = ["/api/daily", "/", f"/puzzles/{TODAY}", "/stats"]


@pytest.mark.parametrize("name", BAD_ZONES)
def test_a_bad_time_zone_asked_for_is_a_400_naming_it(client: FlaskClient, published: int, name: str) -> None:
    for path in ZONE_PAGES:
        response = client.get(path, query_string={"tz": name})
        assert response.status_code == 400, path
        assert f"unknown time zone {name[:64]!r}" in message(response), path


def test_a_bad_time_zone_is_named_in_the_players_language(client: FlaskClient, published: int) -> None:
    client.set_cookie("tavolo_language", "de")
    for path in ("/", f"/puzzles/{TODAY}", "/stats"):
        response = client.get(path, query_string={"tz": "Nowhere/Atlantis"})
        assert response.status_code == 400, path
        assert "unbekannte Zeitzone 'Nowhere/Atlantis'" in message(response), path


@pytest.mark.parametrize("name", BAD_ZONES)
def test_a_bad_time_zone_cookie_is_ignored(client: FlaskClient, published: int, name: str) -> None:
    client.set_cookie("tz", name)
    for path in ZONE_PAGES:
        assert client.get(path).status_code == 200, path
    assert f"Tavolo #{TODAY}" in client.get("/").get_data(as_text=True)  # UTC's day


@pytest.mark.parametrize("digits", ["²", "١", "１", "5²"])
def test_digits_int_cannot_read_or_that_are_not_ascii_are_not_numbers(
    client: FlaskClient, published: int, digits: str
) -> None:
    """`?beat=` and `?before=` are read leniently, as any other text that is not a number: ignored."""
    challenge = client.get(f"/puzzles/{TODAY}", query_string={"beat": digits})
    assert challenge.status_code == 200
    assert "challenge-banner" not in challenge.get_data(as_text=True)
    archive = client.get("/archive", query_string={"before": digits})  # from the newest puzzle, #7
    assert archive.status_code == 200
    assert f'href="/puzzles/{TODAY}"' in archive.get_data(as_text=True)
    played = client.get(
        "/analyse/play",
        query_string={"rules": "classic", "table": "3S 4S 5S", "hand": "6S", "moves": f"h0-{digits}"},
    )
    assert played.status_code == 400
    assert f"move 1 (h0-{digits}): {digits!r} is not a meld" in message(played)


# -- whole sequences of steps

HAND = [f"h{i}" for i in range(6)]
TABLE = [f"t{i}" for i in range(13)]
STEPS = st.one_of(
    st.tuples(
        st.just("move"),
        st.sampled_from(HAND + TABLE[:4] + ["h9", "x"]),
        st.sampled_from(["new", "hand", "0", "1", "3", "4", "5", "9"]),
        st.sampled_from([None, None, "hand", "0", "4"]),
    ),
    st.tuples(st.sampled_from(["undo", "reset", "end", "give-up"])),
)


@pytest.mark.slow  # Hypothesis plays whole sequences of steps
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(STEPS, min_size=1, max_size=10))
def test_any_sequence_of_steps_leaves_a_valid_attempt(
    database_url: str, clock: FrozenClock, known_puzzle: Any, steps: list[tuple[Any, ...]]
) -> None:
    from tests.webapp.conftest import make_app, store

    app = make_app(database_url, clock)
    with app.app_context(), database().write() as session:
        for table in reversed(Base.metadata.sorted_tables):
            session.execute(table.delete())
    store(app, known_puzzle, TODAY)
    clock.moment = NOON
    player = Player(app.test_client())
    for step in steps:
        if step[0] == "move":
            _, card, target, seen_at = step
            response = player.move(TODAY, card, target, seen_at)
        else:
            response = player.post(f"/puzzles/{TODAY}/{step[0]}")
        assert response.status_code in (200, 400, 409, 422), (step, response.status_code)
        if response.status_code != 200:
            assert message(response).strip()
    with app.app_context(), database().reader() as session:
        rows = list(session.scalars(select(models.PlayerAttempt)))
        for attempt in rows:
            board = attempts.board_of(attempt.puzzle, attempt)  # raises if the stored table is not whole
            assert board.to_json() == attempt.melds
            assert (attempt.finished is None) == (attempt.status == "playing")
            if attempt.status in ("gave-up",):
                assert Board.start(board.position).melds == board.melds
    assert player.client.get("/").status_code == 200
    with app.app_context():
        database().dispose()

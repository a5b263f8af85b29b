"""Property-based fuzzing: whatever a client sends to the move, check and solve endpoints, in a puzzle
number, a time zone or a number in the query, the answer is a 200 or a 4xx with a message, never a
500, and a refused move stores nothing.

The strategies reach past what Python's readers take for granted: digits `int` cannot read (`²`),
puzzle numbers beyond every date, folders of the time zone database (`Europe`), deep nesting and
long numbers in JSON."""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.webapp.conftest import FUZZ_EXAMPLES, TODAY, Player, attempts
from webapp.schedule import daily

TOKENS = st.sampled_from(
    ["10H", "JH", "QH", "QD", "QS", "9S", "8C", "KH", "2D", "4C", "JK", "ZZ", "", "10♥", "1H"]
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6) | TOKENS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=30,
)
BODIES = (
    st.builds(lambda table: {"table": table}, st.lists(st.lists(TOKENS, max_size=6), max_size=6))
    | st.builds(lambda value: {"table": value}, JSON_VALUES)
    | JSON_VALUES
)
NESTED = st.integers(min_value=1, max_value=12_000).map(lambda depth: "[" * depth + "]" * depth)
"""Arrays inside one another, up to far deeper than Python's recursion limit."""
LONG_NUMBERS = st.integers(min_value=1, max_value=6_000).map(lambda digits: "-" * (digits % 2) + "9" * digits)
"""Integers up to past the 4,300 digits Python converts."""
RAW_BODIES = st.builds(
    lambda field, value: f'{{"{field}": {value}}}' if field else value,
    st.sampled_from(["", "table", "hand", "id"]),
    NESTED | LONG_NUMBERS | st.builds(lambda number: f"[[{number}]]", LONG_NUMBERS),
).map(str.encode)
"""Bodies written by hand, since json.dumps would refuse them."""
DIGITS = st.text(st.characters(categories=("Nd", "No")), min_size=1, max_size=4)
"""Digits of every script, and characters that `str.isdigit` calls digits but `int` cannot read (`²`)."""
PUZZLE_NUMBERS = st.integers(min_value=0, max_value=12) | st.integers(min_value=2_900_000, max_value=10**40)
ZONE_DATABASE = sorted(entry.name for entry in resources.files("tzdata.zoneinfo").iterdir())
"""The top of the time zone database: zones (`UTC`), folders (`Europe`) and other files (`tzdata.zi`)."""
ZONE_NAMES = (
    st.sampled_from(ZONE_DATABASE)
    | st.builds(
        str.__add__,
        st.sampled_from(ZONE_DATABASE),
        st.sampled_from(["/", "/Rome", "/..", "//x", "\x00", "/a"]),
    )
    | st.sampled_from(["", ".", "..", "/", "../etc/passwd", "/etc/localtime", "x" * 300])
    | st.text(max_size=12)
)
FUZZ = settings(
    max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def error_text(response: Any) -> str:
    if response.is_json:
        return str(response.get_json()["error"])
    return html.unescape(response.get_data(as_text=True))


@FUZZ
@given(body=BODIES.map(lambda body: json.dumps(body).encode()) | RAW_BODIES)
def test_the_check_never_fails_whatever_the_body(app: Flask, published: int, body: bytes) -> None:
    response = app.test_client().post(
        f"/api/puzzles/{TODAY}/check", data=body, content_type="application/json"
    )
    assert response.status_code in (200, 400)
    answer = response.get_json()
    if response.status_code == 200:
        assert set(answer) == {"valid", "placed", "max", "solved", "errors", "codes"}
        assert len(answer["codes"]) == len(answer["errors"])
        assert answer["valid"] == (answer["errors"] == [])
    else:
        assert answer["error"]


@FUZZ
@given(body=RAW_BODIES)
def test_the_solve_never_fails_whatever_the_body(app: Flask, body: bytes) -> None:
    response = app.test_client().post("/api/solve", data=body, content_type="application/json")
    assert response.status_code in (200, 400)
    assert ("error" in response.get_json()) == (response.status_code == 400)


@FUZZ
@given(
    card=st.sampled_from(["h0", "h5", "h6", "t0", "t12", "t13", "x", "", "h-1", "ｈ0"]) | st.text(max_size=8),
    target=st.sampled_from(["0", "3", "4", "99", "new", "hand", "", "-1", "１", "²"])
    | DIGITS
    | st.text(max_size=8),
    seen_at=st.none() | st.sampled_from(["hand", "0", "4"]) | DIGITS | st.text(max_size=4),
)
def test_a_move_is_a_new_board_or_a_refusal_that_stores_nothing(
    app: Flask, player: Player, published: int, card: str, target: str, seen_at: str | None
) -> None:
    before = attempts(app)
    response = player.move(TODAY, card, target, seen_at)
    assert response.status_code in (200, 400, 422)
    if response.status_code != 200:
        assert attempts(app) == before
        assert "notice-text" in response.get_data(as_text=True)


@FUZZ
@given(
    number=PUZZLE_NUMBERS,
    path=st.sampled_from(["/api/puzzles/{}", "/puzzles/{}", "/archive/{}", "/puzzles/{}/preview.svg"]),
)
@example(number=TODAY + 1, path="/api/puzzles/{}")  # open in zones ahead: the clock has published it
def test_any_puzzle_number_is_a_page_or_a_4xx(
    app: Flask, published_ahead: None, number: int, path: str
) -> None:
    response = app.test_client().get(path.format(number))
    assert response.status_code in (200, 303, 404, 409, 410)
    if response.status_code >= 400:
        assert f"Puzzle #{number}" in error_text(response)


@pytest.fixture
def published_ahead(app: Flask, published: int, fake_generator: list[tuple[str, int]]) -> None:
    """Today's puzzle and the days the clock keeps published ahead: a zone ahead of UTC may already
    be on tomorrow's, and only the clock (never a request) runs the generator."""
    with app.app_context():
        daily.publish_ahead()


@FUZZ
@given(name=ZONE_NAMES, path=st.sampled_from(["/api/daily", "/", f"/puzzles/{TODAY}", "/stats"]))
@example(name="NZ", path="/api/daily")  # already on tomorrow's puzzle at noon UTC
def test_a_time_zone_asked_for_is_a_zone_or_a_400_and_a_cookie_is_never_an_error(
    app: Flask, published_ahead: None, name: str, path: str
) -> None:
    client = app.test_client()
    asked = client.get(path, query_string={"tz": name})
    assert asked.status_code in (200, 400)
    if asked.status_code == 400:
        assert "unknown time zone" in error_text(asked)
    client.set_cookie("tz", name)
    assert client.get(path).status_code == 200


@FUZZ
@given(beat=DIGITS | st.text(max_size=6), before=DIGITS | st.text(max_size=8))
@example(beat="0.0", before="0")  # two moves, the second refused
def test_numbers_in_the_query_are_read_or_ignored(app: Flask, published: int, beat: str, before: str) -> None:
    client = app.test_client()
    assert client.get(f"/puzzles/{TODAY}", query_string={"beat": beat}).status_code == 200
    assert client.get("/archive", query_string={"before": before}).status_code == 200
    played = client.get(
        "/analyse/play",
        query_string={"rules": "classic", "table": "3S 4S 5S", "hand": "6S", "moves": f"h0-{beat}"},
    )
    assert played.status_code in (200, 400)
    if played.status_code == 400:
        # a dot in `beat` starts another move: the refusal names whichever one failed
        moves = [move for move in f"h0-{beat}".split(".") if move]
        text = error_text(played)
        assert any(f"move {number} " in text for number in range(1, len(moves) + 1)), text

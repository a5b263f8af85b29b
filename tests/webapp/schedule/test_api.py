"""The JSON API: puzzles without their solutions, and the check that stores nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import generator
from tests.webapp.conftest import NOON, TODAY, FrozenClock, attempts, store, variant
from webapp import create_app


def check(client: FlaskClient, table: Any, number: int = TODAY) -> Any:
    return client.post(f"/api/puzzles/{number}/check", json={"table": table})


def test_daily_gives_the_puzzle_without_its_solution(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle
) -> None:
    answer = client.get("/api/daily").get_json()
    assert answer["number"] == 7
    assert answer["date"] == "2026-11-29"
    assert answer["rules"] == "classic"
    assert (answer["tier"], answer["depth"], answer["chain"], answer["max"]) == ("hard", 3, 3, 5)
    assert answer["table"] == [list(meld) for meld in known_puzzle.table]
    assert answer["hand"] == list(known_puzzle.hand)
    assert answer["opens"] == "2026-11-28T10:00:00+00:00"
    assert answer["closes"] == "2026-11-30T12:00:00+00:00"
    assert "solution" not in answer and "laid" not in answer and "played" not in answer
    assert client.get("/api/puzzles/7").get_json() == answer


def test_daily_follows_the_time_zone(client: FlaskClient, app: Flask, known_puzzle: generator.Puzzle) -> None:
    store(app, known_puzzle, 7)
    store(app, variant(known_puzzle, "3D", "hard", "cy3"), 8)
    assert client.get("/api/daily?tz=Europe/Rome").get_json()["number"] == 7
    assert client.get("/api/daily?tz=Pacific/Kiritimati").get_json()["number"] == 8
    bad = client.get("/api/daily?tz=Moon/Base")
    assert bad.status_code == 400
    assert bad.get_json()["error"] == "unknown time zone 'Moon/Base'"


def test_future_puzzles_are_not_found(client: FlaskClient, published: int, clock: FrozenClock) -> None:
    response = client.get("/api/puzzles/9")
    assert response.status_code == 404
    assert response.get_json()["error"] == "Puzzle #9 is not out yet."
    assert check(client, [["2D"]], number=9).status_code == 404
    clock.moment = NOON.replace(month=10)
    assert client.get("/api/daily").status_code == 404


def test_closed_puzzles_stay_readable_and_checkable(
    client: FlaskClient, published: int, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    clock.moment = NOON.replace(day=30, hour=13)
    assert client.get("/api/puzzles/7").status_code == 200
    assert check(client, [list(meld) for meld in known_puzzle.solution]).get_json()["solved"] is True


def test_the_solution_checks_as_solved(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle
) -> None:
    answer = check(client, [list(meld) for meld in known_puzzle.solution]).get_json()
    assert answer == {"valid": True, "placed": 5, "max": 5, "solved": True, "errors": [], "codes": []}


def test_a_smaller_legal_play_is_valid_but_not_solved(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle
) -> None:
    table = [list(meld) for meld in known_puzzle.table]
    table[3] = [*table[3], "8C"]
    answer = check(client, table).get_json()
    assert answer == {"valid": True, "placed": 1, "max": 5, "solved": False, "errors": [], "codes": []}


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda t: t[:3], "4♣ left the table"),
        (lambda t: [*t, ["8C", "8C", "8D"]], "8♣ is not in the hand"),
        (lambda t: [*t, ["AH", "2H", "3H"]], "A♥ is not in the hand"),
        (lambda t: [*t[:3], [*t[3], "8C", "KH"]], "K♥ share neither rank nor suit"),
        (lambda t: t, "no card from the hand is on the table"),
        (lambda t: [*t, []], "meld 5 (): only 0 cards"),
    ],
)
def test_illegal_tables_are_invalid_with_a_reason(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle, change: Any, error: str
) -> None:
    response = check(client, change([list(meld) for meld in known_puzzle.table]))
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["valid"] is False and answer["solved"] is False
    assert any(error in problem for problem in answer["errors"]), answer["errors"]
    assert len(answer["codes"]) == len(answer["errors"]) and all(answer["codes"])


def test_a_table_with_an_invalid_meld_places_nothing(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle
) -> None:
    table = [list(meld) for meld in known_puzzle.table]
    answer = check(client, [*table[:3], [*table[3], "8C", "KH"]]).get_json()
    assert (answer["valid"], answer["placed"], answer["solved"]) == (False, 0, False)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"", "the body is not JSON"),
        (b"{table", "the body is not JSON"),
        (b"\xff\xfe", "the body is not UTF-8"),
        (b"[]", "the body must be a JSON object"),
        (b'{"melds": []}', "the body must be a JSON object"),
        (b'{"table": [], "hand": []}', "unknown field 'hand'"),
        (b'{"table": "3S 4S 5S"}', "table must be a list of melds"),
        (b'{"table": [3]}', "table must be a list of melds"),
        (b'{"table": [["ZZ"]]}', "meld 1: 'ZZ' is not a card"),
        (b'{"table": [[7]]}', "meld 1: 7 is not a card"),
        (b'{"table": [' + b",".join([b'["2D"]'] * 61) + b"]}", "table is too large"),
    ],
)
def test_bad_bodies_get_a_400_with_a_message(
    client: FlaskClient, app: Flask, published: int, body: bytes, message: str
) -> None:
    response = client.post(f"/api/puzzles/{TODAY}/check", data=body, content_type="application/json")
    assert response.status_code == 400
    assert message in response.get_json()["error"]
    assert attempts(app) == []


def test_an_oversized_body_gets_a_413(client: FlaskClient, published: int) -> None:
    body = json.dumps({"table": [["2D"] * 10] * 2000})
    response = client.post(f"/api/puzzles/{TODAY}/check", data=body, content_type="application/json")
    assert response.status_code == 413
    assert "error" in response.get_json()


def test_the_check_needs_no_cookie_and_stores_nothing(
    app: Flask, client: FlaskClient, published: int, known_puzzle: generator.Puzzle
) -> None:
    response = check(client, [list(meld) for meld in known_puzzle.solution])
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers
    assert attempts(app) == []


def test_unknown_api_paths_answer_in_json(client: FlaskClient) -> None:
    response = client.get("/api/nothing")
    assert response.status_code == 404
    assert response.get_json()["status"] == 404


@pytest.mark.parametrize(
    ("moment", "tz", "number"),
    [
        ("2026-11-28T22:59:59", "Europe/Rome", 6),
        ("2026-11-28T23:00:00", "Europe/Rome", 7),
        ("2026-11-29T07:59:59", "America/Los_Angeles", 6),
        ("2026-11-29T08:00:00", "America/Los_Angeles", 7),
        ("2026-11-29T10:00:00", "Pacific/Kiritimati", 8),
        ("2026-11-29T10:00:00", "Etc/GMT+12", 6),
    ],
)
def test_midnight_turns_the_daily_puzzle_in_each_time_zone(
    client: FlaskClient,
    app: Flask,
    clock: FrozenClock,
    known_puzzle: generator.Puzzle,
    moment: str,
    tz: str,
    number: int,
) -> None:
    for day, decoy in ((6, "3H"), (7, None), (8, "3D")):
        store(app, variant(known_puzzle, decoy, "hard", f"cx{day}") if decoy else known_puzzle, day)
    clock.moment = datetime.fromisoformat(moment).replace(tzinfo=UTC)
    assert client.get("/api/daily", query_string={"tz": tz}).get_json()["number"] == number


def test_an_unreachable_database_is_a_503_not_a_traceback(clock: FrozenClock) -> None:
    from tests.webapp.conftest import LAUNCH

    app = create_app(
        {
            "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none",
            "SECRET_KEY": "x",
            "NOW": clock,
            "LAUNCH_DATE": LAUNCH,
        }
    )
    response = app.test_client().get("/api/puzzles/7")
    assert response.status_code == 503
    assert "unavailable" in response.get_json()["error"]
    assert response.headers["Retry-After"] == "5"


def test_a_closed_day_never_published_is_not_made_on_request(
    client: FlaskClient, published: int, fake_generator: list[tuple[str, int]]
) -> None:
    response = client.get("/api/puzzles/3")
    assert response.status_code == 404
    assert response.get_json()["error"] == "Puzzle #3 was never published."
    assert client.post("/api/puzzles/3/check", json={"table": []}).status_code == 404
    assert fake_generator == []


def test_a_joker_taken_back_counts_against_the_cards_placed(client: FlaskClient, app: Flask) -> None:
    german = generator.Puzzle(
        id="gk1", rules="german-jokers", table=(("6H", "6S", "JK"),), hand=("6D", "6C"),
        max_placed=1, laid=("6D", "6C"), solution=(("6H", "6S", "6D", "6C"),),
        depth=1, chain=1, tier="easy", themes=("joker-to-hand",), hand_size=2, decoys=0, live_decoys=0,
    )  # fmt: skip
    store(app, german, TODAY)
    taken_back = check(client, [["6H", "6S", "6D", "6C"]]).get_json()
    assert (taken_back["valid"], taken_back["placed"], taken_back["solved"]) == (True, 1, True)
    # one six for the joker, the joker back: a card was laid, though the hand is no smaller
    swapped = check(client, [["6H", "6S", "6D"]]).get_json()
    assert (swapped["valid"], swapped["placed"], swapped["errors"]) == (True, 0, [])

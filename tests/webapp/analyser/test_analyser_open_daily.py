"""The analyser never answers a daily puzzle that is still open for a caller who has not finished it:
typing today's table and hand into it must not reveal the solution before a solve or a give-up."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import generator
from tests.webapp.conftest import TODAY, Player, store


def query(puzzle: generator.Puzzle) -> dict[str, Any]:
    return {
        "rules": puzzle.rules,
        "table": " / ".join(" ".join(meld) for meld in puzzle.table),
        "hand": " ".join(puzzle.hand),
    }


def test_the_api_refuses_todays_puzzle(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle
) -> None:
    body = json.dumps(known_puzzle.position().to_json())
    refused = client.post("/api/solve", data=body, content_type="application/json")
    assert refused.status_code == 403
    assert f"daily puzzle #{TODAY}, still open" in refused.get_data(as_text=True)
    assert "solution" not in refused.get_json() and "table" not in refused.get_json()


@pytest.mark.parametrize(
    "change",
    [
        "a decoy dropped from the hand",
        "a hand card added",
        "a meld added to the table",
        "melds reordered",
        "a table meld moved into the hand",
    ],
)
def test_the_api_refuses_todays_table_with_any_hand_or_more_melds(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle, change: str
) -> None:
    table = [list(meld) for meld in known_puzzle.table]
    hand = list(known_puzzle.hand)
    if change == "a decoy dropped from the hand":
        hand.remove(next(card for card in hand if card not in known_puzzle.played))
    elif change == "a hand card added":
        hand.append("2C")
    elif change == "a meld added to the table":
        table.append(["KS", "KH", "KD"])
    elif change == "a table meld moved into the hand":
        hand += table.pop()
    else:
        table.reverse()
    body = json.dumps({"rules": known_puzzle.rules, "table": table, "hand": hand})
    refused = client.post("/api/solve", data=body, content_type="application/json")
    assert refused.status_code == 403, refused.get_data(as_text=True)


def test_the_api_answers_a_table_that_lacks_part_of_todays(
    client: FlaskClient, published: int, known_puzzle: generator.Puzzle
) -> None:
    table = [list(meld) for meld in known_puzzle.table[1:]]
    body = json.dumps({"rules": known_puzzle.rules, "table": table, "hand": list(known_puzzle.hand)})
    assert client.post("/api/solve", data=body, content_type="application/json").status_code == 200


def test_the_api_answers_the_same_puzzle_once_its_day_has_closed(
    app: Flask, client: FlaskClient, known_puzzle: generator.Puzzle
) -> None:
    store(app, known_puzzle, 1)  # puzzle #1 closed days before the frozen noon of day #7
    body = json.dumps(known_puzzle.position().to_json())
    answered = client.post("/api/solve", data=body, content_type="application/json")
    assert answered.status_code == 200
    assert answered.get_json()["max_played"] == known_puzzle.max_played


def test_the_page_and_the_play_view_refuse_until_the_player_gives_up(
    player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    for path in ("/analyse", "/analyse/play"):
        refused = player.client.get(path, query_string=query(known_puzzle))
        assert refused.status_code == 403, path
        assert "once you have solved it or given up" in refused.get_data(as_text=True)
    player.client.get("/")
    assert player.post(f"/puzzles/{TODAY}/give-up").status_code == 200
    answered = player.client.get("/analyse", query_string=query(known_puzzle))
    assert answered.status_code == 200
    assert "The best play places" in answered.get_data(as_text=True)

"""The analyser never answers a daily puzzle that is still open for a caller who has not finished it:
typing today's table and hand into it must not reveal the solution before a solve or a give-up."""

from __future__ import annotations

import json
from typing import Any

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

"""A puzzle's key ideas: the result card says its decisions in words once the puzzle is finished,
solved or given up; before that only the first hint names the key card, and nothing says where it
goes."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask

import generator
from puzzles import Position
from tests.webapp.conftest import TODAY, Player, store
from tests.webapp.playing import card_id, solve
from webapp.languages import LANGUAGE_COOKIE

MASTER = (
    "classic | 3S 3D 3C / 6H 6D 6C / 9S 9H 9D / QS QH QC / 6S 7S 8S / 3H 4H 5H / 9C 10C JC"
    " | 10S JS 2H 10H JH QH AD 2D 4D 5D 8C 8C"
)
"""A generated Master (seed 38): a fork (10♠ to the tens) and two declines (2♥ and 8♣ kept)."""
IDEAS = (
    "10♠ goes to the set 10♠\u00a010♥\u00a010♣, not to a run.",
    "Keep 2♥ back, though it fits 3♥\u00a04♥\u00a05♥.",
    "Keep 8♣ back, though it fits 9♣\u00a010♣\u00a0J♣.",
)


@pytest.fixture(scope="module")
def master() -> generator.Puzzle:
    return generator.puzzle_of("cz9", Position.parse(MASTER), time_limit=20)


@pytest.fixture
def stored(app: Flask, master: generator.Puzzle) -> int:
    store(app, master, TODAY)
    return TODAY


def text(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


def test_giving_up_shows_the_key_ideas_fork_first(player: Player, stored: int) -> None:
    page = text(player.client.get("/"))
    assert "The key ideas" not in page and not any(idea in page for idea in IDEAS)
    result = text(player.post(f"/puzzles/{TODAY}/give-up"))
    section = re.search(r'<div class="key-ideas" id="key-ideas">(.*?)</div>', result, re.S)
    assert section is not None
    assert "<h3>The key ideas</h3>" in section.group(1)
    said = re.findall(r"<li>(.*?)</li>", section.group(1))
    assert said == list(IDEAS)
    # and on the page reloaded
    assert IDEAS[0] in text(player.client.get("/"))


def test_solving_shows_them_too_in_the_players_language(
    player: Player, stored: int, master: generator.Puzzle
) -> None:
    solve(player, TODAY, master)
    result = text(player.post(f"/puzzles/{TODAY}/end"))
    assert "Solved!" in result and all(idea in result for idea in IDEAS)
    player.client.set_cookie(LANGUAGE_COOKIE, "it")
    italian = text(player.client.get("/"))
    assert "Le idee chiave" in italian and "Tieni 2♥ in mano" in italian


def test_the_first_hint_names_the_key_card_and_nothing_more(player: Player, stored: int) -> None:
    page = text(player.client.get("/"))
    ten = card_id(page, "10♠")
    board = text(player.post(f"/puzzles/{TODAY}/hint"))
    assert "💡 Hint 1:</span> 10♠ is the key card: think about where it goes." in board
    marked = re.findall(r'class="card [^"]*\bhinted"\s+data-card="(\w+)"', board)
    assert marked == [ten], "the hint marks the card alone, no meld"
    assert "hinted-meld" not in board
    assert not any(idea in board for idea in IDEAS)
    assert "goes to" not in board and "key ideas" not in board
    # the JSON API says nothing of it either
    api = player.client.get(f"/api/puzzles/{TODAY}").get_data(as_text=True)
    assert "key" not in api.lower() and "10S" not in api.split('"hand"')[0]

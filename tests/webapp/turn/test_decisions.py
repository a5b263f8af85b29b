"""A puzzle's decisions (the forcing player's, RULES.md) travel with it: the tier chip and its words,
the archive, the share text and the JSON API say them; a puzzle whose decisions were not counted
(jokers, or stored before they were) says nothing of them."""

from __future__ import annotations

import html
from dataclasses import replace

from flask import Flask

import generator
from tests.webapp.conftest import TODAY, Player, store
from tests.webapp.playing import solve


def test_the_decisions_show_on_the_chip_archive_share_text_and_api(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    store(app, replace(known_puzzle, decisions=2), TODAY)
    page = html.unescape(player.client.get("/").get_data(as_text=True))
    decisions = '<span class="chip-fact decisions"><span aria-hidden="true">🧭</span>2 decisions</span>'
    assert decisions in page
    assert "at once. It needs 2 decisions: moves no loose card forces. Tiers follow" in page
    assert decisions in html.unescape(player.client.get("/archive").get_data(as_text=True))
    assert player.client.get(f"/api/puzzles/{TODAY}").get_json()["decisions"] == 2
    solve(player, TODAY, known_puzzle)
    result = player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    assert "Tavolo #7 ⛓3 🧭2 ✅ 5/5" in result


def test_a_puzzle_without_counted_decisions_says_nothing_of_them(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    store(app, replace(known_puzzle, decisions=None), TODAY)
    page = player.client.get("/").get_data(as_text=True)
    assert 'class="decisions"' not in page and "It needs" not in page
    assert player.client.get(f"/api/puzzles/{TODAY}").get_json()["decisions"] is None


def test_a_lower_bound_is_said_as_at_least_everywhere(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    # a joker puzzle's count is mostly a lower bound the forcing player proved: the tier read it
    bounded = replace(known_puzzle, decisions=None, decisions_at_least=3, forks=None, forks_at_least=2)
    store(app, bounded, TODAY)
    page = html.unescape(player.client.get("/").get_data(as_text=True))
    chip = '<span class="chip-fact decisions"><span aria-hidden="true">🧭</span>at least 3 decisions</span>'
    assert chip in page
    # the sentences of the explanation keep their spaces between them
    assert "at once. It needs at least 3 decisions" in page and "proved further). Tiers follow" in page
    assert chip in html.unescape(player.client.get("/archive").get_data(as_text=True))
    answer = player.client.get(f"/api/puzzles/{TODAY}").get_json()
    assert (answer["decisions"], answer["decisions_at_least"]) == (None, 3)
    assert (answer["forks"], answer["forks_at_least"]) == (None, 2)
    solve(player, TODAY, known_puzzle)
    result = player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    assert "Tavolo #7 ⛓3 🧭3+ ✅ 5/5" in result

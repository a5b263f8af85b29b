"""Training by theme: practice picks puzzles of the theme asked; the stats list each theme's solve rate."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

import generator
from tests.webapp.conftest import DECOY_PAIRS, Player, variant
from tests.webapp.schedule.test_practice import practise

SWAP = ("extend", "swap")
LADDER = ("new-meld", "ladder")


def test_practice_offers_the_themes_the_pool_holds(
    app: Flask, client: FlaskClient, known_puzzle: generator.Puzzle
) -> None:
    empty = client.get("/practice?theme=ladder").get_data(as_text=True)
    assert not any(f'value="{name}"' in empty for name in generator.THEMES)  # none in the pool yet
    practise(app, variant(known_puzzle, "2H 3H", "hard", "cp1", LADDER))
    page = client.get("/practice?theme=ladder").get_data(as_text=True)
    for name in LADDER:
        assert f'value="{name}"' in page and generator.THEMES[name].title in page
    assert '<option value="ladder" selected>' in page
    assert 'value="swap"' not in page


def test_a_theme_asked_gives_a_puzzle_of_that_theme(
    app: Flask, client: FlaskClient, known_puzzle: generator.Puzzle
) -> None:
    for index in range(6):
        themes = SWAP if index == 4 else LADDER
        practise(app, variant(known_puzzle, " ".join(DECOY_PAIRS[index]), "hard", f"cp{index}", themes))
    for _ in range(5):  # random among a few: the theme must decide, not luck
        answer = client.get("/practice/next?rules=classic&tier=hard&theme=swap")
        assert answer.status_code == 303 and answer.headers["Location"].endswith("/practice/cp4")
    assert (
        client.get("/practice/next?rules=classic&tier=rating&theme=swap").headers["Location"].endswith("/cp4")
    )
    missing = client.get("/practice/next?rules=classic&tier=easy&theme=swap")
    assert missing.status_code == 404 and "Swap into a set" in missing.get_data(as_text=True)
    assert client.get("/practice/next?rules=classic&tier=hard&theme=nonsense").status_code == 400


def test_the_stats_list_themes_weakest_first_with_a_link_to_practise(
    app: Flask, client: FlaskClient, player: Player, known_puzzle: generator.Puzzle
) -> None:
    practise(app, variant(known_puzzle, "2H 3H", "hard", "cp1", SWAP))
    practise(app, variant(known_puzzle, "2H 3D", "hard", "cp2", LADDER))
    assert "Finish a puzzle to see" in client.get("/stats").get_data(as_text=True)
    for code in ("cp1", "cp2"):
        client.get(f"/practice/{code}")
    player.post("/practice/cp2/give-up")  # the ladder lost, the swap never finished
    page = client.get("/stats").get_data(as_text=True)
    assert "Climb the ladder" in page and "Swap into a set" not in page
    assert 'href="/practice?theme=ladder"' in page
    assert page.count('<strong>0%</strong> <span class="muted">of 1</span>') == 2  # new meld, ladder

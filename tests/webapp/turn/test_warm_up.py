"""A newcomer's first puzzle is not a Master: on an Expert or Master day, a visitor with no cookie, or
with no puzzle finished yet, is offered an Easy warm-up above today's puzzle, which stays in place
(issue 40, item 2)."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

import generator
from tests.webapp.conftest import TODAY, Player, store, variant
from tests.webapp.training.runs import practice_pool


@pytest.mark.parametrize(
    ("tier", "offered"), [("master", True), ("expert", True), ("hard", False), ("easy", False)]
)
def test_a_newcomer_is_offered_a_warm_up_on_a_hard_day_only(
    app: Flask, client: FlaskClient, known_puzzle: generator.Puzzle, tier: str, offered: bool
) -> None:
    store(app, variant(known_puzzle, "2D", tier, "cw1"), TODAY)
    for _ in range(2):  # drawn, then served as kept
        page = client.get("/").get_data(as_text=True)
        assert ('id="warm-up"' in page) is offered
        assert 'id="board"' in page  # today's puzzle stays on the page, under the offer
    if offered:
        assert 'id="warm-up-easy" href="/practice/next?rules=classic&amp;tier=easy"' in page


def test_the_warm_up_is_an_easy_puzzle_and_its_result_leads_back_to_today(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    store(app, variant(known_puzzle, "2D", "master", "cw1"), TODAY)
    practice_pool(app, known_puzzle)
    assert 'id="warm-up"' in player.client.get("/").get_data(as_text=True)  # a cookie, nothing finished
    easy = player.client.get("/practice/next?rules=classic&tier=easy")
    assert easy.status_code == 303
    code = easy.headers["Location"].rsplit("/", 1)[1]
    warm_up = player.client.get(easy.headers["Location"]).get_data(as_text=True)
    assert "Easy" in warm_up
    result = player.post(f"/practice/{code}/give-up").get_data(as_text=True)
    assert 'data-game="today" href="/"' in result
    # a player who has finished a puzzle is no newcomer: no offer, on the same hard day
    page = player.client.get("/").get_data(as_text=True)
    assert 'id="warm-up"' not in page and 'id="board"' in page


def test_a_player_who_has_started_today_sees_no_offer(
    app: Flask, player: Player, known_puzzle: generator.Puzzle
) -> None:
    store(app, variant(known_puzzle, "2D", "expert", "cw1"), TODAY)
    player.post(f"/puzzles/{TODAY}/hint")
    assert 'id="warm-up"' not in player.client.get("/").get_data(as_text=True)

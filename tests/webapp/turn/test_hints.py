"""Hints on the play page: asked for, logged on the attempt, shown, and paid for in the score."""

from __future__ import annotations

import itertools
import re

from flask import Flask
from sqlalchemy import select

import generator
from puzzles import HINT_RUNGS
from tests.webapp.conftest import TODAY, Player
from tests.webapp.playing import card_id, share_text, solve
from webapp import models
from webapp.db import database
from webapp.players.glicko import HINT_COSTS, solve_score


def test_each_hint_costs_more_than_the_last() -> None:
    scores = [solve_score(n) for n in range(HINT_RUNGS + 1)]
    assert scores == [1.0, 0.9, 0.7, 0.4]
    costs = [a - b for a, b in itertools.pairwise(scores)]
    assert costs == sorted(costs) and len(set(costs)) == HINT_RUNGS
    assert len(HINT_COSTS) == HINT_RUNGS  # a cost for every rung of the engine's ladder


# -- hints on the play page


def hint_log(app: Flask) -> tuple[int, list[dict[str, object]]]:
    with app.app_context(), database().reader() as session:
        attempt = session.scalars(select(models.PlayerAttempt)).one()
        return attempt.hints, attempt.hint_log


def test_asking_for_a_hint_shows_it_on_the_board(app: Flask, player: Player, published: int) -> None:
    board = player.post(f"/puzzles/{TODAY}/hint").get_data(as_text=True)
    assert '<span class="hint-rung">💡 Hint 1:</span> Break the meld' in board
    assert "Break the meld Q♥\u00a0Q♦\u00a0Q♣:" in board  # a meld never splits over two lines
    assert board.count(" hinted") >= 3 and "hinted-meld" in board  # the meld to break is marked
    assert '<span class="hint-count">2 left</span>' in board
    used, log = hint_log(app)
    assert used == 1 and log[0]["rung"] == 1
    # the hint stays on the page after a reload
    assert "💡 Hint 1:" in player.client.get("/").get_data(as_text=True)


def test_the_ladder_climbs_then_runs_out(app: Flask, player: Player, published: int) -> None:
    player.post(f"/puzzles/{TODAY}/hint")
    second = player.post(f"/puzzles/{TODAY}/hint").get_data(as_text=True)
    assert "💡 Hint 2:</span> Move " in second
    third = player.post(f"/puzzles/{TODAY}/hint").get_data(as_text=True)
    assert "💡 Hint 3:</span> One meld of the best table: " in third
    assert 'id="hint-button" disabled' in third
    refused = player.post(f"/puzzles/{TODAY}/hint")
    assert refused.status_code == 422 and "no hints left" in refused.get_data(as_text=True)
    assert hint_log(app)[0] == 3


def test_a_hint_after_moves_speaks_of_the_table_as_it_is(app: Flask, player: Player, published: int) -> None:
    page = player.client.get("/").get_data(as_text=True)
    two = card_id(page, "2♦")
    player.move(TODAY, two, "new")
    board = player.post(f"/puzzles/{TODAY}/hint").get_data(as_text=True)
    assert "Take 2♦ back into your hand: no best play places it." in board
    assert re.search(rf'class="card red diamonds from-hand hinted"\s+data-card="{two}"', board)


def test_a_hint_on_a_finished_puzzle_changes_nothing(app: Flask, player: Player, published: int) -> None:
    player.post(f"/puzzles/{TODAY}/give-up")
    response = player.post(f"/puzzles/{TODAY}/hint")
    assert response.status_code == 409
    assert hint_log(app)[0] == 0


def test_solving_with_a_hint_shows_it_in_the_result_and_share_text(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    player.post(f"/puzzles/{TODAY}/hint")
    moves = solve(player, TODAY, known_puzzle)
    result = player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    assert share_text(result) == f"Tavolo #7 ⛓3 ✅ 5/5 · {moves} moves · 💡1 · 🔥1"
    assert "<span>1 hint</span>" in result and '<ol class="hints-used"' in result
    assert "a clean solve" not in result

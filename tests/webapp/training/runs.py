"""Runs as a test's player plays them: a pool of practice puzzles rated apart, a run started, its board."""

from __future__ import annotations

import re

from flask import Flask
from sqlalchemy import select

import generator
from tests.webapp.conftest import Player, store, variant
from tests.webapp.playing import card_id, solve
from webapp import models
from webapp.db import database

LADDER = (("easy", 1100.0), ("medium", 1300.0), ("hard", 1500.0), ("expert", 1700.0), ("master", 1900.0))
"""A pool whose puzzles lie more than 100 rating points apart: which one a run deals is certain."""


OTHER_DECOYS = ("2S", "3H", "AH", "5S", "5H", "2H", "3S", "4H", "4S", "6H", "6S")


def practice_pool(
    app: Flask, known: generator.Puzzle, ladder: tuple[tuple[str, float], ...] = LADDER
) -> None:
    """The known puzzle as practice puzzles of these tiers and ratings, each with 2♦ and another card
    as dead decoys."""
    for index, (tier, rating) in enumerate(ladder):
        row_id = store(app, variant(known, f"2D {OTHER_DECOYS[index]}", tier, f"cr{index}"))
        with app.app_context(), database().write() as session:
            row = session.get_one(models.PoolPuzzle, row_id)
            row.practice, row.rating = True, rating


def start(player: Player, kind: str) -> int:
    """Start a run of this kind; returns its id."""
    response = player.post(f"/{kind}/start", htmx=False)
    assert response.status_code == 303, response.get_data(as_text=True)
    found = re.search(rf"/{kind}/(\d+)$", response.headers["Location"])
    assert found
    return int(found.group(1))


def dealt(app: Flask, run: int) -> list[tuple[str, str]]:
    """The (tier, status) of each puzzle the run dealt, in order."""
    with app.app_context(), database().reader() as session:
        rows = session.execute(
            select(models.PoolPuzzle.tier, models.PlayerAttempt.status)
            .join(models.PlayerAttempt, models.PlayerAttempt.puzzle_id == models.PoolPuzzle.id)
            .where(models.PlayerAttempt.run_id == run)
            .order_by(models.PlayerAttempt.id)
        )
        return [(tier, status.value) for tier, status in rows]


def solve_one(player: Player, kind: str, run: int, known: generator.Puzzle) -> str:
    """Lay out the solution of the puzzle being played and end the turn; returns the board after."""
    solve(player, run, known, base=f"/{kind}")
    response = player.post(f"/{kind}/{run}/end")
    assert response.status_code == 200, response.get_data(as_text=True)
    return str(response.get_data(as_text=True))


def slip(player: Player, kind: str, run: int) -> str:
    """Lay 2♦, which no valid play places: a dead end, so a slip. Returns the board."""
    page = player.client.get(f"/{kind}/{run}").get_data(as_text=True)
    response = player.post(f"/{kind}/{run}/move", card=card_id(page, "2♦"), to="new")
    assert response.status_code == 200
    return str(response.get_data(as_text=True))

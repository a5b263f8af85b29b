"""Slips: a move after which the step check says the maximum is out of reach counts against the solve,
on the result card, in the share text, the stats, the archive and the rating; a setting hides the
per-move verdict while the melds' marks still show."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from sqlalchemy import select

import generator
from puzzles import Card, Progress, Track
from tests.webapp.conftest import TODAY, Player
from tests.webapp.playing import card_id, save_verdict, share_text, solve
from webapp import models
from webapp.db import database
from webapp.players.glicko import solve_score
from webapp.turn.attempts import Verdict, is_slip

SIX, SEVEN = Card.parse("6S"), Card.parse("7S")


def verdict_by(tracks: dict[tuple[Card, ...], Track]) -> Verdict:
    """A step check that says `tracks[laid]` (on track for anything else)."""

    def check(laid: tuple[Card, ...]) -> Progress:
        return Progress(tracks.get(tuple(sorted(laid, key=Card.sort_key)), Track.ON), None, 2)

    return check


@pytest.mark.parametrize(
    ("before", "after", "tracks", "slipped"),
    [
        ((), (SIX,), {(SIX,): Track.OFF}, True),
        ((), (SIX,), {(SIX,): Track.DEAD_END}, True),
        ((), (SIX,), {}, False),
        ((), (SIX,), {(SIX,): Track.UNKNOWN}, False),
        # already off track: the move that left the track was the slip, not this one
        ((SIX,), (SIX, SEVEN), {(SIX,): Track.OFF, (SIX, SEVEN): Track.OFF}, False),
        # a card moved between melds lays nothing new
        ((SIX,), (SIX,), {(SIX,): Track.OFF}, False),
        # taking a card back is a move like any other: a slip when it leaves the track
        ((SIX, SEVEN), (SIX,), {(SIX,): Track.OFF}, True),
        ((SIX, SEVEN), (SIX,), {(SIX,): Track.OFF, (SIX, SEVEN): Track.OFF}, False),
    ],
)
def test_a_slip_is_a_move_from_on_track_to_off_track_or_a_dead_end(
    before: tuple[Card, ...], after: tuple[Card, ...], tracks: dict[tuple[Card, ...], Track], slipped: bool
) -> None:
    assert is_slip(verdict_by(tracks), before, after) is slipped


def test_a_slip_costs_the_rating_what_the_first_hint_does() -> None:
    assert solve_score(0, 1) == solve_score(1, 0) == 0.9
    assert solve_score(0, 0) == 1.0 and solve_score(1, 1) == 0.8 and solve_score(3, 9) == 0.0


def slips_of(app: Flask) -> int:
    with app.app_context(), database().reader() as session:
        return session.scalars(select(models.PlayerAttempt.slips)).one()


def lay_the_dead_card(player: Player) -> str:
    """Lay 2♦, which no valid play places: a dead end. Returns the board."""
    page = player.client.get(f"/puzzles/{TODAY}").get_data(as_text=True)
    two = card_id(page, "2♦")
    response = player.move(TODAY, two, "new")
    assert response.status_code == 200
    return str(response.get_data(as_text=True))


def test_a_move_to_a_dead_end_is_a_slip_that_undo_does_not_take_back(
    app: Flask, player: Player, published: int
) -> None:
    board = lay_the_dead_card(player)
    assert "dead end" in board
    assert slips_of(app) == 1
    assert player.post(f"/puzzles/{TODAY}/undo").status_code == 200
    assert slips_of(app) == 1


def test_a_slip_shows_on_the_result_card_share_text_stats_and_archive(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    lay_the_dead_card(player)
    player.post(f"/puzzles/{TODAY}/undo")
    moves = solve(player, TODAY, known_puzzle)
    result = player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    assert '<span id="result-slips">1 slip</span>' in result
    assert share_text(result) == f"Tavolo #7 ⛓3 ✅ 5/5 · {moves} moves · 💡0 · ❗1 · 🔥1"
    assert "a clean solve" not in result
    stats = player.client.get("/stats").get_data(as_text=True)
    assert re.search(r'<dd id="slips">1</dd>', stats) and re.search(r'<dd id="clean">0</dd>', stats)
    archive = player.client.get("/archive").get_data(as_text=True)
    assert "1 slip" in archive and "mark-solved" in archive


def test_a_solve_without_hint_or_slip_is_clean(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    moves = solve(player, TODAY, known_puzzle)
    result = player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True)
    assert '<span id="result-slips">0 slips</span>' in result and "a clean solve" in result
    assert share_text(result) == f"Tavolo #7 ⛓3 ✅ 5/5 · {moves} moves · 💡0 · 🔥1"
    assert slips_of(app) == 0


def test_the_setting_hides_the_verdict_but_not_the_melds_marks_nor_the_slip(
    app: Flask, player: Player, published: int
) -> None:
    save_verdict(player, shown=False)
    settings = player.client.get("/settings").get_data(as_text=True)
    assert re.search(r'<input type="checkbox" name="verdict" value="on" id="verdict">', settings)
    board = lay_the_dead_card(player)
    assert "dead end" not in board and "on track" not in board
    assert "Step check off" in board
    assert 'class="meld meld-incomplete' in board  # the lone 2♦ is still marked
    assert slips_of(app) == 1
    save_verdict(player, shown=True)
    board = player.client.get(f"/puzzles/{TODAY}").get_data(as_text=True)
    assert "dead end" in board and "Step check off" not in board


def test_a_settings_form_without_the_choice_leaves_the_verdict_alone(player: Player) -> None:
    save_verdict(player, shown=False)
    assert player.post("/settings", htmx=False, deck="four").status_code == 303
    kept = player.client.get_cookie("tavolo_verdict")
    assert kept is not None and kept.value == "off"

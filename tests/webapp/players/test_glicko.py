"""Glicko-2 against the worked example of Glickman's paper, and the properties ratings rely on."""

from __future__ import annotations

import pytest

from webapp.players.glicko import MIN_DEVIATION, Game, Rating, idle, play, update
from webapp.rating_defaults import DEFAULT_DEVIATION


def test_the_papers_worked_example() -> None:
    # "Example of the Glicko-2 system", section 3: a 1500/200/0.06 player meets three opponents
    player = Rating(1500, 200, 0.06)
    games = [
        Game(Rating(1400, 30), 1.0),
        Game(Rating(1550, 100), 0.0),
        Game(Rating(1700, 300), 0.0),
    ]
    after = update(player, games)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_papers_intermediate_quantities_on_the_glicko_2_scale() -> None:
    player = Rating(1500, 200, 0.06)
    assert player.mu == 0
    assert player.phi == pytest.approx(1.1513, abs=0.0001)
    assert Rating(1400, 30).mu == pytest.approx(-0.5756, abs=0.0001)
    assert Rating(1700, 300).phi == pytest.approx(1.7269, abs=0.0001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    player = Rating(1620, 80, 0.06)
    after = update(player, [])
    assert after.rating == 1620
    assert after.volatility == 0.06
    assert after.deviation == pytest.approx((80**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_a_solve_raises_the_player_and_lowers_the_puzzle() -> None:
    player, puzzle = Rating(1500, 200), Rating(1600, 150)
    player_after, puzzle_after = play(player, puzzle, 1.0)
    assert player_after.rating > 1500 and puzzle_after.rating < 1600
    missed_player, missed_puzzle = play(player, puzzle, 0.0)
    assert missed_player.rating < 1500 and missed_puzzle.rating > 1600
    # a solve with hints earns less than a clean one
    hinted, _ = play(player, puzzle, 0.7)
    assert 1500 < hinted.rating < player_after.rating


def test_beating_a_stronger_puzzle_earns_more() -> None:
    player = Rating(1500, 120)
    against_strong, _ = play(player, Rating(1800, 100), 1.0)
    against_weak, _ = play(player, Rating(1200, 100), 1.0)
    assert against_strong.rating - 1500 > against_weak.rating - 1500


def test_deviations_keep_a_floor() -> None:
    # a steady player: the paper's own update would take the deviation below the floor
    steady = Rating(1500, 45.2, 0.0001)
    assert update(steady, [Game(Rating(1500, 45.2), 0.5)]).deviation < MIN_DEVIATION
    player, puzzle = play(steady, Rating(1500, 45.2, 0.0001), 0.5)
    assert player.deviation == MIN_DEVIATION == puzzle.deviation
    assert player.rating == pytest.approx(1500)


def test_scores_outside_zero_to_one_are_refused() -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        Game(Rating(), 1.5)


def test_idle_periods_widen_the_deviation_as_that_many_empty_periods_do() -> None:
    start = Rating(1600.0, 60.0, 0.06)
    stepped = start
    for _ in range(30):
        stepped = update(stepped, [])
    assert idle(start, 30).deviation == pytest.approx(stepped.deviation)
    assert idle(start, 30).rating == start.rating and idle(start, 0) == start
    assert idle(start, 100_000).deviation == DEFAULT_DEVIATION  # never less certain than a newcomer

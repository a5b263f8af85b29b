"""`flask puzzles rescore`: stored puzzles graded again by chain length; opened days never change."""

from __future__ import annotations

from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import update

import generator
from puzzles import Position
from tests.webapp.conftest import TODAY, store, variant
from webapp import models
from webapp.db import database
from webapp.schedule import rescore


def forget_grades(app: Flask) -> None:
    """As the 0004 migration leaves puzzles stored before it."""
    with app.app_context(), database().write() as session:
        session.execute(
            update(models.PoolPuzzle).values(
                chain=None, themes=[], live_decoys=None, decisions=None, tier="easy"
            )
        )


def row(app: Flask, puzzle_id: int) -> models.PoolPuzzle:
    with app.app_context(), database().reader() as session:
        return session.get_one(models.PoolPuzzle, puzzle_id)


def day(app: Flask, number: int) -> tuple[int, str]:
    with app.app_context(), database().reader() as session:
        daily = session.get_one(models.Daily, number)
        return daily.puzzle_id, daily.puzzle.tier


def test_rescore_fills_chain_themes_and_live_decoys_and_the_tier_of_the_chain(
    app: Flask, runner: FlaskCliRunner, known_puzzle: generator.Puzzle
) -> None:
    puzzle_id = store(app, known_puzzle)
    forget_grades(app)
    assert row(app, puzzle_id).chain is None
    result = runner.invoke(args=["puzzles", "rescore"])
    assert result.exit_code == 0, result.output
    assert "graded 1, retired 0" in result.output
    graded = row(app, puzzle_id)
    assert (graded.chain, graded.tier) == (known_puzzle.chain, known_puzzle.tier)
    assert graded.themes == list(known_puzzle.themes) and graded.themes
    assert graded.live_decoys == known_puzzle.live_decoys
    assert graded.decisions == known_puzzle.decisions is not None


def test_opened_days_keep_their_puzzle_and_tier_and_future_days_that_fail_are_replaced(
    app: Flask,
    runner: FlaskCliRunner,
    known_puzzle: generator.Puzzle,
    fake_generator: list[tuple[str, int]],
    monkeypatch: object,
) -> None:
    today = store(app, variant(known_puzzle, "2H 3D", "master", "cx1"), TODAY)  # Sunday, master
    tuesday = store(app, variant(known_puzzle, "2H 3H", "medium", "cx2"), TODAY + 2)  # not open anywhere
    wednesday = store(app, variant(known_puzzle, "2H AD", "hard", "cx3"), TODAY + 3)

    def grade(code: str, position: object, time_limit: float) -> rescore.Grade:
        # every puzzle turns out easy, but the Wednesday one, which stays hard
        if code == "cx3":
            return rescore.Grade(3, "hard", ("ladder",), 1)
        return rescore.Grade(1, "easy", ("end-card",), 0)

    monkeypatch.setattr(rescore, "grade", grade)  # type: ignore[attr-defined]
    result = runner.invoke(args=["puzzles", "rescore"])
    assert result.exit_code == 0, result.output
    assert f"published again: #{TODAY + 2}" in result.output
    assert day(app, TODAY) == (today, "master")  # an opened day never changes
    assert row(app, today).chain == 1 and row(app, today).themes == ["end-card"]
    assert day(app, TODAY + 3) == (wednesday, "hard")
    replacement, tier = day(app, TODAY + 2)
    assert replacement != tuesday and tier == "medium"
    assert row(app, tuesday).tier == "easy"  # back in the pool, at the tier of its chain


def test_rescore_rewrites_the_stored_solution_to_the_graded_play(
    app: Flask, runner: FlaskCliRunner, known_puzzle: generator.Puzzle
) -> None:
    puzzle_id = store(app, known_puzzle)
    # another final table of the same cards, as a puzzle stored with its depth play would hold
    shuffled = [list(reversed(meld)) if len(meld) == 3 and meld[0][:-1] == meld[1][:-1] else list(meld)
                for meld in reversed(known_puzzle.solution)]  # fmt: skip
    with app.app_context(), database().write() as session:
        session.execute(update(models.PoolPuzzle).values(solution=shuffled))
    assert row(app, puzzle_id).solution != [list(meld) for meld in known_puzzle.solution]
    with app.app_context(), database().write() as session:
        stale = {"kind": "fork", "card": "9S", "home": None, "home_kind": None, "instead": None}
        session.execute(update(models.PoolPuzzle).values(key_ideas=[stale], forks=None))
    result = runner.invoke(args=["puzzles", "rescore"])
    assert result.exit_code == 0, result.output
    graded = row(app, puzzle_id)
    assert graded.solution == [list(meld) for meld in known_puzzle.solution]
    # the key ideas speak of the solution's melds: they are found again with it, and the forks too
    assert graded.key_ideas == [idea.to_json() for idea in known_puzzle.key_ideas or ()]
    assert graded.forks == known_puzzle.forks is not None
    assert graded.real_forks == 0 == known_puzzle.forks, "judged as a run judges an Expert"


TRAPPED = (
    "classic | AS AH AC / QS QH QC / QH QD QC / KS KD KC / KS KD KC / 3S 4S 5S / 6S 7S 8S / 5H 6H 7H / "
    "8H 9H 10H / 4D 5D 6D / 7D 8D 9D | 2S 6S 10S 3H KH 2D 7D QD AC 3C 4C 6C 7C 9C 10C"
)
"""A Master of issue 21 (cg2y): chain length 6 and three decisions, every one a decline."""


@pytest.mark.slow  # the grade of a deep table, twice
def test_a_master_whose_decisions_are_all_declines_is_rescored_hard(
    app: Flask, runner: FlaskCliRunner
) -> None:
    """Issue 38: Master needs two forks. A puzzle graded Master before forks were counted keeps its
    position and its ID, and rescore moves it to the tier its forks give."""
    now = generator.puzzle_of("cg2y", Position.parse(TRAPPED), time_limit=60)
    assert (now.tier, now.chain, now.decisions, now.forks) == ("hard", 6, 3, 0)
    before = replace(now, tier="master", forks=None)  # as the pool stored it before issue 38
    puzzle_id = store(app, before)
    assert row(app, puzzle_id).tier == "master"
    result = runner.invoke(args=["puzzles", "rescore"])
    assert result.exit_code == 0, result.output
    assert "graded 1, retired 0" in result.output
    graded = row(app, puzzle_id)
    assert (graded.tier, graded.chain, graded.decisions, graded.code) == ("hard", 6, 3, "cg2y")
    assert graded.position() == Position.parse(TRAPPED)


FAKE_FORK = (
    "classic | AS AH AD / 3S 3D 3C / 4S 4H 4D / 7S 7H 7D / 8S 8H 8D / 9S 9H 9D / 10S 10H 10D / "
    "JS JH JD / QS QH QD / 3S 4S 5S / 3C 4C 5C 6C 7C 8C | 2S 6S 8S 10H KD 4C JC"
)
"""cl37, published as an Expert: two decisions, a decline and 8♠ to a run, which another maximal
play ends otherwise (a free choice, no fork, since issue 38)."""


@pytest.mark.slow  # the grade of a deep table
def test_an_expert_whose_fork_was_a_free_choice_is_rescored_hard_and_keeps_an_opened_day(
    app: Flask, runner: FlaskCliRunner
) -> None:
    """Issue 38: a fork decides a settled card. A puzzle stored with the count before keeps its ID
    and its position; rescore gives it the forks counted now and the tier they give, except on a day
    already open somewhere, which keeps its tier."""
    now = generator.puzzle_of("cl37", Position.parse(FAKE_FORK), time_limit=60)
    assert (now.tier, now.chain, now.decisions, now.forks) == ("hard", 6, 2, 0)
    before = replace(now, tier="expert", forks=1)  # as the pool stored it before
    stored = store(app, before)
    opened = store(app, variant(before, "2H 3D", "master", "cx1"), TODAY)  # Sunday, master
    with app.app_context(), database().write() as session:
        session.execute(update(models.PoolPuzzle).values(forks=1))
    result = runner.invoke(args=["puzzles", "rescore"])
    assert result.exit_code == 0, result.output
    graded = row(app, stored)
    assert (graded.tier, graded.decisions, graded.forks, graded.code) == ("hard", 2, 0, "cl37")
    assert graded.position() == Position.parse(FAKE_FORK)
    assert day(app, TODAY) == (opened, "master")  # an opened day never changes


def test_a_puzzle_the_engine_refuses_is_left_as_it_is_and_the_rest_judged(
    app: Flask, known_puzzle: generator.Puzzle, caplog: pytest.LogCaptureFixture
) -> None:
    # the refused row comes first: it must not hold up the clock's hourly judging of the others
    bad = store(app, variant(known_puzzle, "3D", "hard", "cx9"))
    good = store(app, known_puzzle)
    with app.app_context(), database().write() as session:
        session.get_one(models.PoolPuzzle, bad).solution = [["2D", "9S", "KH"]]  # no meld
    with app.app_context():
        filled = rescore.fill_key_ideas()
    assert filled.refused == ["cx9"] and "puzzle cx9 left as it is" in caplog.text
    assert (filled.judged, row(app, good).real_forks, row(app, bad).real_forks) == (1, 0, None)
    # the command names it to the operator
    result = app.test_cli_runner().invoke(args=["puzzles", "key-ideas"])
    assert result.exit_code == 0 and "judged the forks of 0" in result.output
    assert "the engine refuses them: cx9" in result.output

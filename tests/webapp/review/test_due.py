"""When a puzzle comes back, kept on its latest turn (`attempt.comes_back`) by the turns' own writes:
through the pages (a first action that ends the turn, a move's guarded UPDATE, a review round begun
and ended), and through any ORM writes in any order, it is always what the turns say (`due.refill`),
and the review read from it is `spacing`'s rule over every turn."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

import generator
from tests.webapp.conftest import NOON, FrozenClock, Player, variant
from tests.webapp.review.test_queue_bounded import ROME, puzzles, run_of
from tests.webapp.review.test_review import practise
from webapp import models
from webapp.db import database
from webapp.models import Status
from webapp.review import due, queue, spacing


def kept(app: Flask) -> dict[int, Any]:
    """Each turn's `comes_back`, by id."""
    with app.app_context(), database().reader() as session:
        rows = session.execute(select(models.PlayerAttempt.id, models.PlayerAttempt.comes_back))
        return {key: at for key, at in rows}


def refilled(app: Flask) -> dict[int, Any]:
    """What the turns say each should be: set anew from them, for every player."""
    with app.app_context(), database().write() as session:
        for player in session.scalars(select(models.Player.id)).all():
            due.refill(session, player)
    return kept(app)


def by_round(app: Flask) -> list[tuple[int, str, Any]]:
    with app.app_context(), database().reader() as session:
        rows = session.execute(
            select(
                models.PlayerAttempt.review, models.PlayerAttempt.status, models.PlayerAttempt.comes_back
            ).order_by(models.PlayerAttempt.id)
        )
        return [(review, status.value, at) for review, status, at in rows]


def test_the_pages_keep_when_each_puzzle_comes_back(
    app: Flask, player: Player, known_puzzle: generator.Puzzle, clock: FrozenClock
) -> None:
    first = variant(known_puzzle, "2H", "hard", "cd1")
    second = variant(known_puzzle, "3H", "hard", "cd2")
    practise(app, first)
    practise(app, second)
    # a give-up as the first action (the new attempt's transaction), and a move then a give-up (the
    # move's guarded UPDATE)
    assert player.post(f"/practice/{first.id}/give-up").status_code == 200
    given_up = clock.moment
    assert by_round(app) == [(0, "gave-up", given_up + timedelta(days=1))]
    assert player.post(f"/practice/{second.id}/timed").status_code == 200
    assert by_round(app)[1] == (0, "playing", None)  # a first turn being played is not in review
    clock.moment += timedelta(minutes=1)
    assert player.post(f"/practice/{second.id}/give-up").status_code == 200
    assert by_round(app)[1] == (0, "gave-up", clock.moment + timedelta(days=1))
    assert kept(app) == refilled(app)
    # a day on, the first comes back: its round begun clears the first turn's, and waits now
    clock.moment = given_up + timedelta(days=1)
    assert player.post(f"/review/{first.id}/timed").status_code == 200
    assert by_round(app)[0][2] is None and by_round(app)[2] == (1, "playing", spacing.IN_PROGRESS)
    with app.app_context(), database().reader() as session:
        (own,) = session.scalars(select(models.Player.id)).all()
        assert queue.counts(session, own, clock.moment, ROME) == (1, 1)
    # given up again: back three days after this round's end
    clock.moment += timedelta(minutes=1)
    assert player.post(f"/review/{first.id}/give-up").status_code == 200
    assert by_round(app)[2] == (1, "gave-up", clock.moment + timedelta(days=3))
    assert kept(app) == refilled(app)


def finish(turn: models.PlayerAttempt, rng: random.Random) -> None:
    turn.status = rng.choice([Status.SOLVED, Status.SOLVED, Status.GAVE_UP, Status.MISSED, Status.TIMED_OUT])
    turn.hints = rng.choice([0, 0, 1])
    turn.slips = rng.choice([0, 0, 0, 2])
    turn.finished = turn.started + timedelta(minutes=rng.randint(1, 30))


@pytest.mark.parametrize("seed", range(4))
def test_any_writes_through_the_orm_keep_what_the_turns_say(
    app: Flask, known_puzzle: generator.Puzzle, seed: int
) -> None:
    rng = random.Random(seed)
    ids = puzzles(app, known_puzzle, 12)
    player = f"{seed:032d}"
    run = run_of(app, player)
    for step in range(60):
        with app.app_context(), database().write() as session:
            puzzle = rng.choice(ids)
            turns = list(
                session.scalars(
                    select(models.PlayerAttempt)
                    .where(models.PlayerAttempt.player_id == player, models.PlayerAttempt.puzzle_id == puzzle)
                    .order_by(models.PlayerAttempt.review)
                )
            )
            latest = turns[-1] if turns else None
            choice = rng.random()
            if latest is not None and latest.status == Status.PLAYING:
                finish(latest, rng)  # the turn being played ends
            elif latest is not None and choice < 0.3:
                # a finished turn's end or hints moved (a test's clock, a restore): any round
                turn = rng.choice(turns)
                if turn.finished is not None:
                    turn.finished -= timedelta(hours=rng.randint(1, 60))
                    turn.hints = rng.choice([0, 1])
            else:
                started = NOON - timedelta(days=20) + timedelta(hours=step * 7)
                in_run = latest is None and rng.random() < 0.15
                turn = models.PlayerAttempt(
                    player_id=player,
                    puzzle_id=puzzle,
                    number=None,
                    review=0 if latest is None else latest.review + 1,
                    melds=[],
                    history=[],
                    moves=0,
                    hints=0,
                    hint_log=[],
                    slips=0,
                    status=Status.PLAYING,
                    started=started,
                    run_id=run if in_run else None,
                )
                if rng.random() < 0.5:
                    finish(turn, rng)  # inserted finished, as a restore would
                session.add(turn)
        assert kept(app) == refilled(app), step
    for moment in (NOON, NOON + timedelta(days=4)):
        with app.app_context(), database().reader() as session:
            expected = spacing.waiting(queue.turns(session, player), ROME)
            found = queue.review(session, player, moment, ROME)
        assert [entry.waiting for entry in (*found.due, *found.later)] == expected
        assert found.due_count == sum(item.is_due(moment) for item in expected)
        assert found.due_count + found.later_count == len(expected)

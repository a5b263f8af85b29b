"""A run in the database: started, found, dealt its next puzzle, and ended once it is over.

The next puzzle is one of the stored practice puzzles (`schedule.practice.choose`, near the run's
target rating, never one the player has played), so it is ready the moment the last one ends: no
request waits for the generator. Dealing happens in a write transaction that holds the run's row,
so two windows ending a turn at once deal one puzzle, not two.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from puzzles import Board, words
from webapp import db
from webapp.errors import Refusal
from webapp.models import PlayerAttempt, Run, Status
from webapp.players.identity import ensure_player
from webapp.schedule import practice
from webapp.schedule.clock import now
from webapp.training.runs import KINDS, RULES, Kind, Played, RunState, next_rating, run_state
from webapp.turn import store


@dataclass(frozen=True, slots=True)
class RunNow:
    """A run as a request finds it: the row, its attempts in the order dealt, and its state."""

    run: Run
    attempts: tuple[PlayerAttempt, ...]
    state: RunState

    @property
    def current(self) -> PlayerAttempt | None:
        """The puzzle being played, while the run goes on."""
        if self.state.over:
            return None
        return next((one for one in self.attempts if one.status is Status.PLAYING), None)

    @property
    def last_finished(self) -> PlayerAttempt | None:
        return next((one for one in reversed(self.attempts) if one.done), None)


def read(session: Session, run: Run) -> RunNow:
    """The run with its attempts and its state now."""
    attempts = tuple(
        session.scalars(
            select(PlayerAttempt).where(PlayerAttempt.run_id == run.id).order_by(PlayerAttempt.id)
        )
    )
    played = [Played(one.status, one.slips, one.finished) for one in attempts]
    return RunNow(run, attempts, run_state(KINDS[run.kind], run.started, run.ended, played, now()))


def find(session: Session, player: str | None, kind: Kind, run_id: int) -> Run:
    """The player's run `run_id` of this kind; a 404 for anyone else's, or one that never was."""
    run = db.row_by_id(session, Run, run_id)
    if run is None or player is None or run.player_id != player or run.kind != kind.name:
        raise Refusal(words("There is no run %(number)s of yours here.", number=run_id), 404)
    return run


def latest(session: Session, player: str | None, kind: Kind) -> Run | None:
    """The player's latest run of this kind, if any."""
    if player is None:
        return None
    return session.scalar(
        select(Run).where(Run.player_id == player, Run.kind == kind.name).order_by(Run.id.desc()).limit(1)
    )


def start(kind: Kind) -> int:
    """Start a run of this kind now, with its first puzzle dealt; returns its id. A run of the same
    kind still going is ended first: a player plays one of each at a time. A 503 when the pool has
    no puzzle ready."""
    with db.write() as session:
        player = ensure_player(session)
        earlier = latest(session, player, kind)
        if earlier is not None and earlier.ended is None:
            _end(session, read(session, earlier))
        run = Run(player_id=player, kind=kind.name, rules=RULES, started=now(), seconds=kind.seconds)
        session.add(run)
        session.flush()
        if _deal(session, run, 0) is None:
            raise Refusal(
                words("No practice puzzle is ready for a run: the pool is being topped up. Try again soon."),
                503,
            )
        return run.id


def deal_next(run_id: int) -> None:
    """Deal the run its next puzzle if it goes on and none is being played; end it if it is over
    (or the pool has nothing left for it)."""
    with db.write() as session:
        # the row lock (PostgreSQL) or the write lock (SQLite) makes racing requests deal once
        run = session.get_one(Run, run_id, with_for_update=True)
        if run.ended is not None:
            return
        found = read(session, run)
        # over, or nothing left in the pool to deal: the run ends here
        if found.state.over or (not found.state.playing and _deal(session, run, found.state.solved) is None):
            _end(session, found)


def _deal(session: Session, run: Run, solved: int) -> PlayerAttempt | None:
    kind = KINDS[run.kind]
    puzzle = practice.choose(
        session, run.player_id, run.rules, None, next_rating(kind, solved), random.Random()
    )
    if puzzle is None:
        return None
    attempt, _ = store.start(session, run.player_id, puzzle, None, run_id=run.id)
    return attempt


def _end(session: Session, found: RunNow) -> None:
    """End the run (`Run.ended`): its puzzle in play ends as timed out (a rush) or given up (a streak
    left for a new one), counted as no solve, so that its table no longer waits and the analyser may
    replay it."""
    moment = now()
    deadline = found.state.deadline
    ended = min(moment, deadline) if deadline is not None else moment
    for attempt in found.attempts:
        if attempt.status is Status.PLAYING:
            attempt.melds = Board.start(attempt.puzzle.position()).to_json()
            attempt.placed = 0
            attempt.status = Status.TIMED_OUT
            attempt.finished = ended
    found.run.ended = ended

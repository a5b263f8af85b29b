"""A run's requests: an action on the puzzle being played, the next puzzle dealt once it ends, and
what the run's page draws (the board and the clock while it goes on, the end screen once it is over).

The puzzle being played is a turn like any other: its moves go through `turn.actions` (the step
check, slips, compare and swap), on a practice `PuzzlePage`. The run only checks its clock first (a
move after the time ran out is not made: the end screen answers it) and deals the next puzzle after.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import url_for

from webapp import db
from webapp.models import PlayerAttempt, PoolPuzzle, Run
from webapp.players import bests
from webapp.players.identity import current_player_id
from webapp.schedule.clock import now
from webapp.templating import verdict_shown
from webapp.training import dealing
from webapp.training.dealing import RunNow
from webapp.training.runs import Kind
from webapp.turn.actions import Turn, turn_of
from webapp.turn.modes import Mode, PuzzlePage
from webapp.wording import gettext

TurnAction = Callable[[PuzzlePage], Turn]
"""What a request does to the puzzle being played: `turn.actions.move`, `act` with an action, ..."""


def page_of(puzzle: PoolPuzzle) -> PuzzlePage:
    """The puzzle of a run as the turn's actions take it: a practice puzzle (which it is)."""
    return PuzzlePage(puzzle, Mode.PRACTICE, (("code", puzzle.code),))


def settled(kind: Kind, run_id: int) -> RunNow:
    """The player's run as it stands now, read afresh: dealt its next puzzle if none is being played,
    and settled if it is over. A 404 for a run that is not theirs."""
    db.close_session()  # the turn's actions write outside this request's read snapshot
    found = dealing.read(db.session(), dealing.find(db.session(), current_player_id(), kind, run_id))
    if found.run.ended is None and (found.state.over or not found.state.playing):
        dealing.deal_next(run_id)
        found = dealing.read(db.session(), db.session().get_one(Run, run_id))
    return found


def act(kind: Kind, run_id: int, action: TurnAction) -> tuple[RunNow, Turn | None]:
    """Do `action` to the puzzle being played, unless the run is over; then the run as it stands, and
    the turn the action left (its board built, for the page to draw rather than build again)."""
    found = settled(kind, run_id)
    current = found.current
    turn = action(page_of(current.puzzle)) if current is not None else None
    return settled(kind, run_id), turn


def _as_left(turn: Turn | None, current: PlayerAttempt) -> bool:
    """Whether the puzzle being played stands as `turn`'s action left it: then its view is the page's."""
    left = turn.attempt if turn is not None else None
    return left is not None and (left.id, left.melds, left.history, left.hint_log, left.status) == (
        current.id,
        current.melds,
        current.history,
        current.hint_log,
        current.status,
    )


@dataclass(frozen=True, slots=True)
class Played:
    """A puzzle of a finished run, as the end screen lists it."""

    attempt: PlayerAttempt
    replay: str
    """The analyser's play view of the puzzle: to play it again, nothing stored."""


def replay_url(puzzle: PoolPuzzle) -> str:
    return url_for(
        "analyser.play",
        rules=puzzle.rules,
        table=" / ".join(" ".join(meld) for meld in puzzle.table),
        hand=" ".join(puzzle.hand),
    )


def share_text(kind: Kind, score: int, best: int) -> str:
    """`Tavolo Rush 14 · best 17`: spoiler-free, as the daily's share text is."""
    if kind.seconds is not None:
        return gettext("Tavolo Rush %(score)s · best %(best)s", score=score, best=best)
    return gettext("Tavolo Streak %(score)s · best %(best)s", score=score, best=best)


def context(kind: Kind, found: RunNow, turn: Turn | None = None) -> dict[str, Any]:
    """What `_run_board.html` draws: the puzzle being played, or the end screen. `turn` is the one an
    action just left, drawn as it is while the puzzle stands so: a move builds the board once."""
    run, state = found.run, found.state
    current = found.current
    values: dict[str, Any] = {
        "kind": kind,
        "run": run,
        "state": state,
        "last": found.last_finished,
        "seconds_left": state.seconds_left(now()),
        "url": lambda view: url_for(f"{kind.name}.{view}", run_id=run.id),
        "verdict_shown": verdict_shown(),
    }
    if current is not None:
        if turn is None or not _as_left(turn, current):
            turn = turn_of(current.puzzle, current)
        return values | {"attempt": current, "turn": turn.view, "puzzle": current.puzzle}
    before = bests.run_bests(db.session(), run.player_id, before=run.id).get(kind.name, 0)
    best = max(before, state.solved)
    return values | {
        "over": True,
        "best": best,
        "new_best": state.solved > before,
        "played": [Played(attempt, replay_url(attempt.puzzle)) for attempt in found.attempts],
        "share": share_text(kind, state.solved, best),
    }

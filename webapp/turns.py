"""A player's turn at a puzzle, stored as an attempt: moves, undo, reset, end of turn, giving up.

The views call these; the rules themselves are the engine's and the board's.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache

from sqlalchemy import select
from sqlalchemy.orm import Session

from puzzles import Card, Position, step_check
from webapp import models
from webapp.board import Board, MeldState, MoveError
from webapp.clock import now


class TurnError(ValueError):
    """A request the turn cannot take now: the move is illegal, or the turn is over."""

    status = 422


class TurnOver(TurnError):
    status = 409


class Track(enum.Enum):
    ON = "on-track"
    OFF = "off-track"
    DEAD_END = "dead-end"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Progress:
    """What the step check says about the cards laid so far."""

    track: Track
    reachable: int | None
    maximum: int

    @property
    def words(self) -> str:
        if self.track is Track.ON:
            return "on track"
        if self.track is Track.OFF:
            return f"off track: at most {self.reachable} now"
        if self.track is Track.DEAD_END:
            return "dead end: no valid table holds these cards"
        return "no verdict in time: keep going"


def progress(position: Position, laid: tuple[Card, ...], maximum: int, time_limit: float) -> Progress:
    """Whether the maximum is still reachable while the hand cards laid so far stay on the table."""
    tokens = tuple(sorted(str(card) for card in laid))
    return _progress(str(position), tokens, maximum, time_limit)


@lru_cache(maxsize=4096)
def _progress(position_text: str, laid: tuple[str, ...], maximum: int, time_limit: float) -> Progress:
    position = Position.parse(position_text)
    check = step_check(position, [Card.parse(token) for token in laid], time_limit)
    if check.dead_end:
        return Progress(Track.DEAD_END, None, maximum)
    if check.reachable is None:
        return Progress(Track.UNKNOWN, None, maximum)
    if check.reachable >= maximum:
        return Progress(Track.ON, check.reachable, maximum)
    if not check.proven:  # a lower bound only: the maximum may still be reachable
        return Progress(Track.UNKNOWN, check.reachable, maximum)
    return Progress(Track.OFF, check.reachable, maximum)


def find(session: Session, player: str | None, puzzle: models.Puzzle) -> models.Attempt | None:
    if player is None:
        return None
    return session.scalar(
        select(models.Attempt).where(
            models.Attempt.player_id == player, models.Attempt.puzzle_id == puzzle.id
        )
    )


def board_of(puzzle: models.Puzzle, attempt: models.Attempt | None) -> Board:
    position = puzzle.position()
    if attempt is None:
        return Board.start(position)
    return Board.load(position, attempt.melds)


def locked(session: Session, player: str, puzzle_id: int) -> models.Attempt | None:
    """The player's attempt, locked until this transaction ends."""
    return session.scalar(
        select(models.Attempt)
        .where(models.Attempt.player_id == player, models.Attempt.puzzle_id == puzzle_id)
        .with_for_update(of=models.Attempt)
    )


def start(session: Session, player: str, puzzle: models.Puzzle, number: int | None) -> models.Attempt:
    """The player's first move on this puzzle starts their attempt."""
    attempt = models.Attempt(
        player_id=player,
        puzzle_id=puzzle.id,
        puzzle=puzzle,
        number=number,
        melds=Board.start(puzzle.position()).to_json(),
        history=[],
        moves=0,
        hints=0,
        status="playing",
        placed=0,
        started=now(),
    )
    session.add(attempt)
    session.flush()
    return attempt


def _playing(attempt: models.Attempt) -> Board:
    if attempt.done:
        raise TurnOver("this puzzle is finished: the table cannot change any more")
    return board_of(attempt.puzzle, attempt)


UNDO_DEPTH = 100
"""Tables kept for undo; Reset goes back to the start from anywhere."""


def _save(attempt: models.Attempt, before: Board, after: Board) -> None:
    attempt.history = [*attempt.history[-UNDO_DEPTH + 1 :], before.to_json()]
    attempt.melds = after.to_json()


def move(attempt: models.Attempt, card_id: str, target: str, seen_at: str | None) -> None:
    board = _playing(attempt)
    try:
        moved = board.move(card_id, target, seen_at)
    except MoveError as error:
        raise TurnError(str(error)) from None
    _save(attempt, board, moved)
    attempt.moves += 1


def undo(attempt: models.Attempt) -> None:
    _playing(attempt)
    if not attempt.history:
        raise TurnError("nothing to undo")
    attempt.melds = attempt.history[-1]
    attempt.history = attempt.history[:-1]


def reset(attempt: models.Attempt) -> None:
    board = _playing(attempt)
    start = Board.start(board.position)
    if board.melds == start.melds:
        raise TurnError("the table is already as it was")
    _save(attempt, board, start)


def end_turn(attempt: models.Attempt) -> None:
    """End the turn if every meld is valid: solved when it placed the maximum, missed otherwise."""
    board = _playing(attempt)
    invalid = [view for view in board.views() if view.state is not MeldState.VALID]
    if invalid:
        first = invalid[0]
        raise TurnError(f"meld {first.index + 1} is not valid yet: {first.reason}")
    problems = board.problems()
    if problems:
        raise TurnError(problems[0])
    attempt.placed = len(board.laid())
    attempt.status = "solved" if attempt.placed >= attempt.puzzle.max_played else "missed"
    attempt.finished = now()


def give_up(attempt: models.Attempt) -> None:
    """Put the table back as it was, as the rules' penalty does, and show the solution."""
    board = _playing(attempt)
    attempt.melds = Board.start(board.position).to_json()
    attempt.placed = 0
    attempt.status = "gave-up"
    attempt.finished = now()


SHARE_MARKS = {"solved": "✅", "missed": "❌", "gave-up": "🏳️"}


def share_text(number: int, attempt: models.Attempt) -> str:
    """`Tavolo #42 ⛓3 ✅ 5/5 · 9 moves · 0 hints`: spoiler-free."""
    puzzle = attempt.puzzle
    moves = f"{attempt.moves} move{'s' if attempt.moves != 1 else ''}"
    hints = f"{attempt.hints} hint{'s' if attempt.hints != 1 else ''}"
    mark = SHARE_MARKS.get(attempt.status, "")
    return f"Tavolo #{number} ⛓{puzzle.depth} {mark} {attempt.placed}/{puzzle.max_played} · {moves} · {hints}"

"""A player's best runs: the most puzzles solved in one rush, and in one streak.

Runs keep their own scores, apart from the rating and the daily streak (as Lichess keeps Puzzle Storm
apart from the puzzle rating); the stats page shows them, and a run's end screen the best it had to beat.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from webapp import models
from webapp.models import Status


def run_bests(session: Session, player: str | None, before: int | None = None) -> dict[str, int]:
    """The player's best score per kind of run (`rush`, `streak`): the most puzzles solved in one run;
    with `before`, among the runs started before run `before` only (the best that run had to beat)."""
    if player is None:
        return {}
    solved = (
        select(models.Run.kind, func.count(models.PlayerAttempt.id).label("score"))
        .join(models.PlayerAttempt, models.PlayerAttempt.run_id == models.Run.id)
        .where(models.Run.player_id == player, models.PlayerAttempt.status == Status.SOLVED)
        .group_by(models.Run.id, models.Run.kind)
    )
    if before is not None:
        solved = solved.where(models.Run.id < before)
    scores = solved.subquery()
    rows = session.execute(select(scores.c.kind, func.max(scores.c.score)).group_by(scores.c.kind))
    return {kind: int(best) for kind, best in rows}

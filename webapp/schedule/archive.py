"""The archive: every past daily puzzle, playable once it has closed, marked with how this player did.

An archive play starts after its puzzle closed everywhere, so it never touches the streak; an attempt
begun while the puzzle was open carries on here, and counts no more than if it had been left.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from flask import Blueprint, abort, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from webapp import db, models
from webapp.client_input import small_number
from webapp.models import Status
from webapp.players.identity import current_player_id
from webapp.schedule import daily
from webapp.schedule.clock import calendar, now
from webapp.turn.views import PuzzlePage, add_turn_views, render_turn

bp = Blueprint("archive", __name__)

PER_PAGE = 60


@dataclass(frozen=True, slots=True)
class Entry:
    """One daily puzzle in the archive list, as this player left it."""

    number: int
    day: date
    tier: str
    depth: int
    mark: str
    """clean, solved, gave-up, missed, timed-out, playing, unplayed; or open while still the daily."""
    is_open: bool

    @property
    def words(self) -> str:
        return MARK_WORDS[self.mark]


MARK_WORDS = {
    "clean": "clean",
    "solved": "solved",
    "gave-up": "given up",
    "missed": "missed",
    "timed-out": "timed out",
    "playing": "in progress",
    "unplayed": "unplayed",
    "open": "today's",
}


def mark(attempt: tuple[Status, int] | None, is_open: bool) -> str:
    """The mark of a puzzle from the player's attempt at it (status, hints), if any."""
    if attempt is not None:
        status, hints = attempt
        if status == Status.SOLVED:
            return "clean" if hints == 0 else "solved"
        return str(status)
    return "open" if is_open else "unplayed"


def archive_page(number: int) -> PuzzlePage:
    """A daily puzzle that has closed, to play from the archive; 404 if it never was, 409 while open."""
    dates, moment = calendar(), now()
    if dates.is_future(number, moment):
        abort(404, description=f"Puzzle #{number} is not out yet.")
    if dates.is_open(number, moment):
        abort(409, description=f"Puzzle #{number} is still open: play it as the daily puzzle.")
    row = daily.find(db.session(), number)
    if row is None:
        abort(404, description=f"Puzzle #{number} was never published.")
    return PuzzlePage(row.puzzle, "archive", (("number", number),), number, row.day)


@bp.get("/archive")
def archive_list() -> str:
    dates, moment = calendar(), now()
    newest = dates.open_numbers(moment).stop - 1
    before = small_number(request.args.get("before", ""), 6)
    last = newest if before is None else min(before, newest)
    reader = db.session()
    rows = reader.execute(
        select(
            models.Daily.number,
            models.Daily.day,
            models.PoolPuzzle.tier,
            models.PoolPuzzle.depth,
            models.PoolPuzzle.id,
        )
        .join(models.PoolPuzzle, models.Daily.puzzle_id == models.PoolPuzzle.id)
        .where(models.Daily.number <= last)
        .order_by(models.Daily.number.desc())
        .limit(PER_PAGE + 1)
    ).all()
    player = current_player_id()
    attempts: dict[int, tuple[Status, int]] = {}
    if player is not None and rows:
        found = reader.execute(
            select(
                models.PlayerAttempt.puzzle_id, models.PlayerAttempt.status, models.PlayerAttempt.hints
            ).where(
                models.PlayerAttempt.player_id == player,
                models.PlayerAttempt.puzzle_id.in_([row.id for row in rows]),
            )
        )
        attempts = {puzzle_id: (status, hints) for puzzle_id, status, hints in found}
    entries = [
        Entry(row.number, row.day, row.tier, row.depth, mark(attempts.get(row.id), is_open), is_open)
        for row in rows[:PER_PAGE]
        for is_open in [dates.is_open(row.number, moment)]
    ]
    older = rows[PER_PAGE].number if len(rows) > PER_PAGE else None
    return render_template("archive.html", entries=entries, older=older)


@bp.get("/archive/<int:number>")
def puzzle(number: int) -> Response | tuple[str, int]:
    if calendar().is_open(number, now()):
        return redirect(url_for("play.puzzle", number=number), 303)
    return render_turn(archive_page(number))


add_turn_views(bp, "/archive/<int:number>", archive_page)

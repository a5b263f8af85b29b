"""Where a puzzle is played: as the daily puzzle, from the archive, or in practice.

Each `Mode` is one registration of the turn blueprint, under the mode's name: `daily.move`,
`archive.move` and `practice.move` are the same view. `find_page` turns the URL values of a
registration (`number`, or a practice `code`) into the `PuzzlePage` its views work on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import StrEnum
from typing import Any

from flask import request, url_for
from sqlalchemy import select

from puzzles import words
from webapp import db
from webapp.caching import AppCache
from webapp.errors import Moved, Refusal
from webapp.models import PoolPuzzle
from webapp.players.identity import current_player_id
from webapp.review import queue
from webapp.schedule import daily
from webapp.schedule.clock import calendar, now, player_zone_name
from webapp.schedule.days import zone
from webapp.wording import gettext, tier_name


class Mode(StrEnum):
    """Where a puzzle is played; also the name its turn blueprint is registered under."""

    DAILY = "daily"
    """Today's puzzle, or another still open: it counts for the streak."""
    ARCHIVE = "archive"
    """A daily puzzle that has closed, played again: it never touches the streak."""
    PRACTICE = "practice"
    """A puzzle made for practice, never a daily one."""
    REVIEW = "review"
    """A puzzle the player got wrong, back for review: counts as practice, never for the streak."""


@dataclass(frozen=True, slots=True)
class PuzzlePage:
    """One puzzle where it is played: the turn views' subject, and what the page says of it."""

    puzzle: PoolPuzzle
    mode: Mode
    key: tuple[tuple[str, int | str], ...]
    """The URL values that name it: `(("number", 7),)` or `(("code", "cm2"),)`."""
    number: int | None = None
    """The daily number, for a daily or archive puzzle."""
    day: date | None = None
    is_today: bool = False
    review: int = 0
    """The review round played here (`PlayerAttempt.review`); 0 outside review."""
    run: int | None = None
    """The rush or streak run playing the puzzle here: a run's attempt is played on its run's pages
    only, where its clock and its rules are checked (`turn.actions` refuses it anywhere else)."""

    def url(self, view: str, **values: Any) -> str:
        """The URL of one of the turn views (`puzzle`, `move`, `end_turn`, ...) for this puzzle."""
        arguments: dict[str, Any] = {**dict(self.key), **values}
        return url_for(f"{self.mode}.{view}", **arguments)

    @property
    def title(self) -> str:
        """How the share text names the puzzle."""
        if self.mode is Mode.PRACTICE:
            # the code means nothing to a reader of the share text; the challenge link carries it
            return gettext("Tavolo practice (%(tier)s)", tier=tier_name(self.puzzle.tier))
        if self.mode is Mode.ARCHIVE:
            return gettext("Tavolo #%(number)s (archive)", number=self.number)
        if self.mode is Mode.REVIEW:
            return gettext("Tavolo review (%(tier)s)", tier=tier_name(self.puzzle.tier))
        return f"Tavolo #{self.number}"

    @property
    def counts_for_streak(self) -> bool:
        return self.mode is Mode.DAILY

    def preview_url(self) -> str | None:
        """The link preview image of this puzzle; none for a review round, which is the player's own
        (and whose puzzle may be a daily one, which the practice image does not show)."""
        if self.mode is Mode.REVIEW:
            return None
        if self.mode is Mode.PRACTICE:
            return url_for("preview.practice_image", code=self.puzzle.code, _external=True)
        return url_for("preview.daily_image", number=self.number, _external=True)


OPEN_DAILIES: AppCache[int, tuple[PoolPuzzle, date, datetime]] = AppCache(
    "open dailies",
    16,
    serves="a step POST on PostgreSQL: 2.9 ms of CPU with it, 4.7 ms reading the day's row and its "
    "puzzle's again, and 0.8 against 1.3 ms of PostgreSQL's a request (bench/move_cpu.py, the "
    "rush's players); read again a minute later at most",
)
DAILY_KEPT = timedelta(minutes=1)
"""How long a day's puzzle row is kept: a published day's puzzle never changes, but a restored
backup may bring other rows."""


def daily_page(number: int, is_today: bool = False) -> PuzzlePage:
    """The daily puzzle `number` while it is open; 404 before its day, 410 after. Its row is read
    once a minute per process: a step POST read it each time, a third of the move's database work.
    The puzzle kept is the one read then, detached: its rating may be a minute old (the result card
    reads it again)."""
    kept, moment = OPEN_DAILIES().get(number), now()
    if kept is not None and moment < kept[2] and calendar().is_open(number, moment):
        puzzle, day, _ = kept
    else:
        row = daily.open_daily(number)
        puzzle, day = row.puzzle, row.day
        OPEN_DAILIES().put(number, (puzzle, day, moment + DAILY_KEPT))
    return PuzzlePage(puzzle, Mode.DAILY, (("number", number),), number, day, is_today)


def archive_page(number: int) -> PuzzlePage:
    """A daily puzzle that has closed, to play from the archive; 404 if it never was. While it is open,
    its archive address shows the daily page (GET) and takes no move (409)."""
    dates, moment = calendar(), now()
    if dates.is_open(number, moment):
        if request.method == "GET":
            raise Moved(url_for("daily.puzzle", number=number))
        still_open = words("Puzzle #%(number)s is still open: play it as the daily puzzle.", number=number)
        raise Refusal(still_open, 409)
    if dates.is_future(number, moment):
        raise Refusal(words("Puzzle #%(number)s is not out yet.", number=number), 404)
    row = daily.find(db.session(), number)
    if row is None:
        raise Refusal(words("Puzzle #%(number)s was never published.", number=number), 404)
    return PuzzlePage(row.puzzle, Mode.ARCHIVE, (("number", number),), number, row.day)


def practice_page(code: str) -> PuzzlePage:
    """A practice puzzle by its code; 404 if there is none."""
    row = practice_puzzle(code)
    if row is None:
        raise Refusal(words("There is no practice puzzle %(code)s.", code=repr(code[:16])), 404)
    return PuzzlePage(row, Mode.PRACTICE, (("code", row.code),))


def practice_puzzle(code: str) -> PoolPuzzle | None:
    return db.session().scalar(
        select(PoolPuzzle).where(PoolPuzzle.code == code[:16], PoolPuzzle.practice.is_(True))
    )


def review_page(code: str) -> PuzzlePage:
    """A puzzle back for this player's review, at the round due (or the latest one played); 404 for a
    puzzle that is not in their review."""
    row = db.session().scalar(select(PoolPuzzle).where(PoolPuzzle.code == code[:16]))
    dates_zone = zone(player_zone_name())
    found = (
        None if row is None else queue.round_of(db.session(), current_player_id(), row.id, now(), dates_zone)
    )
    if row is None or found is None:
        raise Refusal(words("Puzzle %(code)s is not waiting for your review.", code=repr(code[:16])), 404)
    return PuzzlePage(row, Mode.REVIEW, (("code", row.code),), review=found)


def find_page(mode: Mode, values: Mapping[str, Any]) -> PuzzlePage:
    """The page a turn view's URL values name, for the mode it is registered as."""
    if mode is Mode.REVIEW:
        return review_page(str(values["code"]))
    if mode is Mode.PRACTICE:
        return practice_page(str(values["code"]))
    if mode is Mode.ARCHIVE:
        return archive_page(int(values["number"]))
    return daily_page(int(values["number"]))

"""The page a turn is played on, or only its board for htmx: the turn as a `TurnView`, the result
card once it is over, the turn clock, and today's pointer to an earlier puzzle still open. It only
draws: the turn comes from `actions` (which has ended an overdue timed turn and run the step check),
what the page shows around the board from `result.around`, both read by the view before it asks for
the page.

A puzzle nobody has moved a card of looks the same to everyone in a time zone, minute by minute, so
each process renders it once (`untouched_page`) and fills in only the visitor's CSRF token, or no
token at all (`tokenless`: today's page, `GET /`, for a visitor without a session, as that view
decides): that page is then the same for every such visitor in a language, and can be kept whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app, render_template, request

from puzzles import HINT_RUNGS
from webapp.caching import AppCache
from webapp.client_input import small_number
from webapp.languages import letters, page_language
from webapp.models import PlayerAttempt
from webapp.players.identity import current_player_id
from webapp.schedule.clock import now, player_zone_name
from webapp.templating import deck, drawn_for_keeping, token_filled, verdict_shown
from webapp.turn import attempts
from webapp.turn.actions import Turn
from webapp.turn.modes import Mode, PuzzlePage
from webapp.turn.result import Around, Result, StillOpen
from webapp.turn.turn_view import TurnView

UNTOUCHED_PAGES: AppCache[tuple[object, ...], str] = AppCache(
    "untouched pages",
    256,
    serves="a newcomer's GET / through Flask (no kept answer in front: another worker, a language "
    "cookie, htmx), asked before the daily is read: 0.42 ms of CPU with it, 3.48 ms drawing the page "
    "again (bench/web_caches.py)",
)


@dataclass(frozen=True, slots=True)
class TurnClock:
    """A timed turn's clock, and the time a timed turn would have."""

    deadline: datetime | None
    time_left: str | None
    seconds: int


def render_turn(page: PuzzlePage, turn: Turn, around: Around, tokenless: bool = False) -> tuple[str, int]:
    """The play page, or only its board for htmx; with no CSRF token at all when `tokenless`."""
    template = "_board.html" if request.headers.get("HX-Request") else "play.html"
    tz_name = player_zone_name()
    if turn.attempt is None:
        return untouched_page(page, turn.view, template, tz_name, around.still_open, tokenless), 200
    context = _context(page, turn.attempt, turn.view, tz_name, around.still_open, around.result)
    return render_template(template, **context), 200


def untouched_page(
    page: PuzzlePage,
    view: TurnView,
    template: str,
    tz_name: str,
    behind: tuple[StillOpen, ...] = (),
    tokenless: bool = False,
) -> str:
    """The page of a puzzle nobody has moved a card of, from this process's cache."""
    pages = UNTOUCHED_PAGES()
    key = _untouched_key(page.mode, page.key, page.is_today, template, tz_name, behind)
    rendered = pages.get(key)
    if rendered is None:
        context = _context(page, None, view, tz_name, behind, None)
        with drawn_for_keeping():
            rendered = render_template(template, **context)
        pages.put(key, rendered)
    return token_filled(rendered, tokenless)


def kept_newcomer_page(number: int, tokenless: bool) -> str | None:
    """Today's page (`number`) for a visitor who is no player yet, when this process has drawn it
    this minute: served before the daily's row or its board are read, which cost a new visitor's
    `GET /` three quarters of its time (bench/flood.py)."""
    if current_player_id() is not None:
        return None
    template = "_board.html" if request.headers.get("HX-Request") else "play.html"
    # as `daily_page(number, is_today=True)` names it, and a visitor with no player has nothing open
    key = _untouched_key(Mode.DAILY, (("number", number),), True, template, player_zone_name(), ())
    rendered = UNTOUCHED_PAGES().get(key)
    return None if rendered is None else token_filled(rendered, tokenless)


def _untouched_key(
    mode: Mode,
    names: tuple[tuple[str, int | str], ...],
    is_today: bool,
    template: str,
    tz_name: str,
    behind: tuple[StillOpen, ...],
) -> tuple[object, ...]:
    return (
        request.host,  # the page's link preview names the site by its host
        mode,
        names,
        _beat(),  # parsed: random text in the link must not fill the cache with copies
        template,
        is_today,
        tz_name,
        behind,
        deck(),  # the page opens with the visitor's deck colours
        page_language(),
        letters(),
        now().replace(second=0, microsecond=0),
    )


def _context(
    page: PuzzlePage,
    attempt: PlayerAttempt | None,
    view: TurnView,
    tz_name: str,
    behind: tuple[StillOpen, ...],
    result: Result | None,
) -> dict[str, Any]:
    """What play.html and _board.html draw."""
    moment = now()
    ends = attempt.deadline if attempt is not None and not attempt.done else None
    return {
        "page": page,
        "puzzle": page.puzzle,
        "attempt": attempt,
        "turn": view,
        "result": result,
        "clock": TurnClock(
            ends,
            attempts.clock_face(ends - moment) if ends else None,
            int(current_app.config["TURN_SECONDS"]),
        ),
        "hints_left": HINT_RUNGS - (attempt.hints if attempt else 0),
        "verdict_shown": verdict_shown(),
        "beat": _beat(),
        "tz_name": tz_name,
        "still_open": behind,
    }


def _beat() -> int | None:
    """The moves a friend's challenge link asks to beat (`?beat=9`), if any."""
    return small_number(request.args.get("beat", ""), 3)

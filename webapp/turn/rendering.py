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

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app, render_template, request
from markupsafe import Markup

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
from webapp.turn.attempts import undo_entry
from webapp.turn.modes import Mode, PuzzlePage
from webapp.turn.result import WARM_UP_TIERS, Around, Result, StillOpen
from webapp.turn.turn_view import TurnView

VERSION_SLOT = "\x00version\x00"
"""Where a kept board's `data-version` goes (`kept_board`)."""
KEPT_BOARDS: AppCache[tuple[object, ...], str] = AppCache(
    "kept boards",
    1024,
    serves="a step POST's board, for htmx: 2.6 ms of CPU with it, 4.4 ms drawing the board again "
    "(bench/move_cpu.py, the rush's players, SQLite): every player of a daily walks the same few tables",
)
UNTOUCHED_PAGES: AppCache[tuple[object, ...], str] = AppCache(
    "untouched pages",
    256,
    serves="a newcomer's GET / through Flask (no kept answer in front: another worker, a language "
    "cookie, htmx), asked before the daily is read: 0.42 ms of CPU with it, 3.48 ms drawing the page "
    "again (bench/web_caches.py)",
)
FINISHED_DRAWINGS: AppCache[tuple[object, ...], Markup] = AppCache(
    "finished turns' drawings",
    512,
    serves="a finished turn's board: its final table (an end of turn: 7.8 against 8.9 ms of CPU, "
    "the tests' known puzzle, SQLite) and the solution's steps (a give-up: 8.0 against 11.1 ms), "
    "each drawn card by card; those who finish a daily end on the same few tables",
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
    attempt = turn.attempt
    if attempt is None:
        return untouched_page(
            page, turn, template, tz_name, around.still_open, tokenless, around.newcomer
        ), 200
    if template == "_board.html" and around.result is None and keepable(attempt):
        return kept_board(page, turn, attempt, tz_name), 200
    context = _context(page, attempt, turn.view, tz_name, around.still_open, around.result)
    return render_template(template, **context), 200


def keepable(attempt: PlayerAttempt) -> bool:
    """Whether the attempt's board is drawn alike for every player at the same table: a turn going on
    without a clock (a clock's board shows the time left, a finished one the player's result)."""
    return not attempt.done and not attempt.time_limit


def kept_board(page: PuzzlePage, turn: Turn, attempt: PlayerAttempt, tz_name: str) -> str:
    """The board of an attempt going on (`keepable`), for htmx: drawn once per process for every
    player who reaches the same table of the same puzzle on the same page, in the same language and
    settings, with their CSRF token and the attempt's version filled in. What is kept is what that
    table's player is shown anyway: the table, its melds' marks and the step check's verdict on it."""
    key = (
        request.script_root,  # the board's action addresses
        page.puzzle.id,
        page.mode,
        page.key,
        page.day,
        page.is_today,
        tz_name,
        undo_entry(attempt.melds),
        bool(attempt.history),  # Undo
        attempt.hints,
        json.dumps(attempt.hint_log[-1], sort_keys=True) if attempt.hint_log else None,
        _beat(),
        verdict_shown(),
        page_language(),
        letters(),
    )
    boards = KEPT_BOARDS()
    drawn = boards.get(key)
    if drawn is None:
        context = _context(page, attempt, turn.view, tz_name, (), None)
        context["version"] = VERSION_SLOT
        with drawn_for_keeping():
            drawn = render_template("_board.html", **context)
        boards.put(key, drawn)
    return token_filled(drawn, False).replace(VERSION_SLOT, board_version(attempt, None), 1)


def board_version(attempt: PlayerAttempt | None, deadline: datetime | None) -> str:
    """The board's `data-version`: it changes with every move, undo, hint and end, and with a clock."""
    if attempt is None:
        version = "0"
    else:
        version = f"{attempt.moves + len(attempt.history) + attempt.hints}-{attempt.status}"
    return version + ("-timed" if deadline else "")


def untouched_page(
    page: PuzzlePage,
    turn: Turn,
    template: str,
    tz_name: str,
    behind: tuple[StillOpen, ...] = (),
    tokenless: bool = False,
    newcomer: bool = False,
) -> str:
    """The page of a puzzle nobody has moved a card of, from this process's cache; `newcomer`: the
    visitor is new (`result.is_newcomer`), offered a warm-up on a hard day. The turn's view (the
    board and its step check) is built only when the page is drawn."""
    pages = UNTOUCHED_PAGES()
    key = _untouched_key(page.mode, page.key, page.is_today, template, tz_name, behind, newcomer)
    rendered = pages.get(key)
    if rendered is None:
        context = _context(page, None, turn.view, tz_name, behind, None)
        context["warm_up"] = newcomer and page.puzzle.tier in WARM_UP_TIERS
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
    # and is a newcomer (the warm-up's offer shows on a hard day only, whatever the key says)
    key = _untouched_key(Mode.DAILY, (("number", number),), True, template, player_zone_name(), (), True)
    rendered = UNTOUCHED_PAGES().get(key)
    return None if rendered is None else token_filled(rendered, tokenless)


def _untouched_key(
    mode: Mode,
    names: tuple[tuple[str, int | str], ...],
    is_today: bool,
    template: str,
    tz_name: str,
    behind: tuple[StillOpen, ...],
    newcomer: bool,
) -> tuple[object, ...]:
    return (
        request.host,  # the page's link preview names the site by its host
        newcomer,
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
        "version": board_version(attempt, ends),
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
        "warm_up": False,
        "finished_table": lambda: finished_table(page, attempt, view),
        "solution_drawn": lambda: solution_drawn(page, result),
    }


def finished_table(page: PuzzlePage, attempt: PlayerAttempt | None, view: TurnView) -> Markup:
    """The table a finished turn ended on, as its board draws it (no card moves, no hint), kept per
    process for every player who ends on the same table of the same puzzle, in the same language
    and letters: what is kept is that table and nothing else, shown only to a player who ended on it."""
    if attempt is None or not view.done:
        raise ValueError("only a finished turn's table is kept")
    key = ("table", page.puzzle.id, undo_entry(attempt.melds), page_language(), letters())
    drawings = FINISHED_DRAWINGS()
    drawn = drawings.get(key)
    if drawn is None:
        drawn = Markup(render_template("_finished_table.html", turn=view))
        drawings.put(key, drawn)
    return drawn


def solution_drawn(page: PuzzlePage, result: Result | None) -> Markup:
    """The solution's steps and final table of a finished turn's result card (`result`), kept per
    puzzle, language and letters. The result card asks for it only once the turn is over and was
    not solved, so a kept copy goes nowhere a player could not already see it."""
    if result is None:
        raise ValueError("the solution is drawn only on a finished turn's result card")
    key = ("solution", page.puzzle.id, page_language(), letters())
    drawings = FINISHED_DRAWINGS()
    drawn = drawings.get(key)
    if drawn is None:
        drawn = Markup(render_template("_solution_drawn.html", result=result))
        drawings.put(key, drawn)
    return drawn


def _beat() -> int | None:
    """The moves a friend's challenge link asks to beat (`?beat=9`), if any."""
    return small_number(request.args.get("beat", ""), 3)

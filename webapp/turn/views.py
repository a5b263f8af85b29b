"""The turn blueprint: a puzzle's page and the POSTs that play it, written once for every mode.

`create_app` registers `bp` once under each `Mode`'s name: `daily` at `/puzzles/<number>`,
`archive` at `/archive/<number>`, `practice` at `/practice/<code>` and `review` at `/review/<code>`,
so `/puzzles/7/end` is `daily.end_turn` and `/practice/cm2/end` is `practice.end_turn`. The URL
value preprocessor takes the number or code out of the view's arguments; each view asks
`this_page()` for the puzzle, which is looked up after the CSRF and rate-limit checks. A POST
answers htmx with the board, a plain form with a redirect to the page.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, g, redirect, request
from werkzeug.wrappers import Response

from generator import THEMES
from webapp.models import Status
from webapp.security import hint_rate_limit, limiter, step_rate_limit
from webapp.turn import actions, attempts
from webapp.turn.actions import Turn
from webapp.turn.modes import Mode, PuzzlePage, find_page
from webapp.turn.rendering import render_turn
from webapp.turn.result import around
from webapp.wording import gettext

bp = Blueprint("turn", __name__)
bp.add_app_template_global(Mode, "Mode")
bp.add_app_template_global(Status, "Status")
bp.record_once(lambda state: state.app.jinja_env.globals.update(THEMES=THEMES))

Answer = Response | tuple[str, int]


@bp.url_value_preprocessor
def take_place(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Keep the registration's mode and its URL values (`number`, `code`) for `this_page`."""
    g.turn_place = (Mode(request.blueprint or ""), dict(values or {}))
    if values is not None:
        values.clear()


def this_page() -> PuzzlePage:
    """The puzzle this request's URL names, where it is played; 404 (or 409, 410) if it cannot be."""
    if "turn_page" not in g:
        mode, values = g.turn_place
        g.turn_page = find_page(mode, values)
    page: PuzzlePage = g.turn_page
    return page


def answer(page: PuzzlePage, turn: Turn) -> Answer:
    """The board for htmx; for a plain form, back to the page."""
    if request.headers.get("HX-Request"):
        return drawn(page, turn)
    return redirect(page.url("puzzle"), 303)


def drawn(page: PuzzlePage, turn: Turn) -> tuple[str, int]:
    """The page of `turn` (or its board for htmx), with what it shows around the board read first."""
    return render_turn(page, turn, around(page, turn))


def turn_post(path: str, *limits: Any) -> Callable[[Callable[[PuzzlePage], Turn]], Callable[[], Answer]]:
    """Register `act` as the POST at `path`: under the step rate limit (and `limits`), it does its
    action to this page's puzzle and answers with the board. The view keeps `act`'s name, which is
    its endpoint (`daily.undo`) and the key of its rate limits."""

    def register(act: Callable[[PuzzlePage], Turn]) -> Callable[[], Answer]:
        @functools.wraps(act)
        def view() -> Answer:
            page = this_page()
            return answer(page, act(page))

        limited: Callable[[], Answer] = view
        for limit in reversed((step_rate_limit, *limits)):
            limited = limiter.limit(limit)(limited)
        bp.post(path)(limited)
        return limited

    return register


@bp.get("")
def puzzle() -> Answer:
    page = this_page()
    return drawn(page, actions.look(page))


@bp.post("/move")
@limiter.limit(step_rate_limit)
def move() -> Answer:
    card = request.form.get("card", "")
    target = request.form.get("to", "")
    seen_at = request.form.get("from") or None
    if not card or not target:
        abort(
            400, description=gettext("a move needs a card and where it goes (to: a meld number, new or hand)")
        )
    if any(len(request.form.getlist(field)) > 1 for field in ("card", "to", "from")):
        abort(400, description=gettext("a move takes one card to one place: the form sent a field twice"))
    page = this_page()
    return answer(page, actions.move(page, card, target, seen_at))


@turn_post("/undo")
def undo(page: PuzzlePage) -> Turn:
    return actions.act(page, attempts.undo)


@turn_post("/reset")
def reset(page: PuzzlePage) -> Turn:
    return actions.act(page, attempts.reset)


@turn_post("/end")
def end_turn(page: PuzzlePage) -> Turn:
    return actions.act(page, attempts.end_turn)


@turn_post("/give-up")
def give_up(page: PuzzlePage) -> Turn:
    return actions.act(page, attempts.give_up)


@turn_post("/hint", hint_rate_limit)
def hint(page: PuzzlePage) -> Turn:
    return actions.ask_hint(page)


@turn_post("/timed")
def timed(page: PuzzlePage) -> Turn:
    return actions.start_timed(page)


@bp.post("/time-up")
@limiter.limit(step_rate_limit)
def time_up() -> Answer:
    """The page's clock reached zero: end the turn if the server's clock agrees, else show the board."""
    page = this_page()
    turn = actions.time_up(page)
    return drawn(page, turn) if turn.attempt is None else answer(page, turn)

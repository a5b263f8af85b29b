"""The run blueprint: a run's landing page, its start, its page and the POSTs that play it.

`create_app` registers `bp` twice, under each kind's name: `rush` at `/rush` and `streak` at `/streak`,
so `/rush/3/move` is `rush.move`. The kind is the registration's (`request.blueprint`). A POST answers
htmx with the run's board (the next puzzle, or the end screen), a plain form with a redirect to the page.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from webapp import db
from webapp.players import bests
from webapp.players.identity import current_player_id
from webapp.schedule.clock import now
from webapp.security import limiter, run_rate_limit, step_rate_limit
from webapp.training import dealing, playing
from webapp.training.dealing import RunNow
from webapp.training.runs import KINDS, Kind
from webapp.turn import actions, attempts
from webapp.turn.actions import Turn
from webapp.wording import gettext

bp = Blueprint("training", __name__)

Answer = Response | tuple[str, int]


def this_kind() -> Kind:
    return KINDS[request.blueprint or ""]


def answer(kind: Kind, found: RunNow, turn: Turn | None = None) -> Answer:
    """The run's board for htmx (drawing `turn`, the one an action left); for a plain form, back to the
    run's page."""
    if request.headers.get("HX-Request"):
        return render_template("_run_board.html", **playing.context(kind, found, turn)), 200
    return redirect(url_for(f"{kind.name}.run_page", run_id=found.run.id), 303)


@bp.get("")
def landing() -> str:
    kind = this_kind()
    reader = db.session()
    player = current_player_id()
    latest = dealing.latest(reader, player, kind)
    going = dealing.read(reader, latest) if latest is not None and latest.ended is None else None
    return render_template(
        "run_start.html",
        kind=kind,
        best=bests.run_bests(reader, player).get(kind.name, 0),
        going=going if going is not None and not going.state.over else None,
        seconds_left=going.state.seconds_left(now()) if going is not None else None,
    )


@bp.post("/start")
@limiter.limit(run_rate_limit)
def start() -> Response:
    kind = this_kind()
    return redirect(url_for(f"{kind.name}.run_page", run_id=dealing.start(kind)), 303)


@bp.get("/<int:run_id>")
def run_page(run_id: int) -> tuple[str, int]:
    kind = this_kind()
    found = playing.run_now(kind, run_id)
    template = "_run_board.html" if request.headers.get("HX-Request") else "run.html"
    return render_template(template, **playing.context(kind, found)), 200


@bp.post("/<int:run_id>/move")
@limiter.limit(step_rate_limit)
def move(run_id: int) -> Answer:
    card, target = request.form.get("card", ""), request.form.get("to", "")
    if not card or not target:
        abort(
            400, description=gettext("a move needs a card and where it goes (to: a meld number, new or hand)")
        )
    if any(len(request.form.getlist(field)) > 1 for field in ("card", "to", "from")):
        abort(400, description=gettext("a move takes one card to one place: the form sent a field twice"))
    seen_at = request.form.get("from") or None
    kind = this_kind()
    return answer(kind, *playing.act(kind, run_id, lambda page: actions.move(page, card, target, seen_at)))


def step(run_id: int, action: attempts.Action) -> Answer:
    kind = this_kind()
    return answer(kind, *playing.act(kind, run_id, lambda page: actions.act(page, action)))


@bp.post("/<int:run_id>/undo")
@limiter.limit(step_rate_limit)
def undo(run_id: int) -> Answer:
    return step(run_id, attempts.undo)


@bp.post("/<int:run_id>/reset")
@limiter.limit(step_rate_limit)
def reset(run_id: int) -> Answer:
    return step(run_id, attempts.reset)


@bp.post("/<int:run_id>/end")
@limiter.limit(step_rate_limit)
def end_turn(run_id: int) -> Answer:
    return step(run_id, attempts.end_turn)


@bp.post("/<int:run_id>/skip")
@limiter.limit(step_rate_limit)
def skip(run_id: int) -> Answer:
    """Skip the puzzle: a rush loses seconds for it; a streak has one skip, and then a give-up ends it."""
    return step(run_id, attempts.give_up)


@bp.post("/<int:run_id>/time-up")
@limiter.limit(step_rate_limit)
def time_up(run_id: int) -> Answer:
    """The page's clock reached zero: the run as the server's clock has it (over, or not quite yet)."""
    kind = this_kind()
    return answer(kind, playing.run_now(kind, run_id))

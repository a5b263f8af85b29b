"""The analyser's pages: `/analyse` (a typed position and its best play), `/analyse/chain` (its chain
length, which the page asks for once it shows the rest), `/analyse/play` (playing it with every step
checked) and `POST /api/solve` (the answer of `python -m puzzles solve`).

The position lives in the URL, and so do the moves of a position played: nothing is stored, so undo
and reset are links and a link shares a half-played table. Every solve runs under `SOLVE_TIME_LIMIT`
through the solver gate (`webapp.solver_gate`), charged to the client's `SOLVE_SECONDS_LIMIT`.
"""

from __future__ import annotations

import math

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from puzzles import (
    Board,
    Entry,
    MoveError,
    Objective,
    Position,
    PositionError,
    answer_json,
    progress,
)
from webapp import solver_gate
from webapp.analyser import rendering, solving
from webapp.analyser.answer import position_args
from webapp.analyser.guard import refuse_spoilers
from webapp.analyser.solving import best_of, solve_time_limit
from webapp.errors import Refusal, json_body
from webapp.security import analyse_rate_limit, csrf, limiter, step_rate_limit
from webapp.turn.turn_view import turn_view
from webapp.wording import gettext, say

bp = Blueprint("analyser", __name__)

MAX_MOVES = 300
"""A turn longer than this is not a person playing: the URL that holds it stops growing."""

ANALYSES = limiter.shared_limit(analyse_rate_limit, scope="analyse")
"""The page and the API share one count per address: each answer, kept or not, costs its rendering."""
CHAINS = limiter.shared_limit(analyse_rate_limit, scope="analyse-chain")
"""The chain length a page asks for after it has its own count, as many: a page and its chain
length together cost one of each."""


@bp.get("/analyse")
@ANALYSES
def analyse_page() -> Response:
    entry = rendering.entry_of(request.args)
    htmx = bool(request.headers.get("HX-Request"))
    if entry.position is not None:
        refuse_spoilers(entry.position)
        page = _answer_page(entry, entry.position, htmx, chain_now=False)
        status = 200
    else:
        page = rendering.render_analysis(entry, None, htmx)
        status = 422 if entry.problems and not entry.blank else 200
    response = current_app.make_response((page, status))
    if htmx:  # the address bar shows the position in its tidy form: the link to share
        response.headers["HX-Push-Url"] = url_for(
            "analyser.analyse_page", **position_args(entry), objective=entry.objective_name
        )
    return response


@bp.get("/analyse/chain")
@CHAINS
def chain() -> str:
    """The chain length's cell for htmx, asked by the page once it shows the rest; without htmx
    (a browser without JavaScript follows the cell's link) the whole page with it."""
    entry = rendering.entry_of(request.args)
    position = entry.position
    if position is None:
        problem = say(entry.problems[0].message) if entry.problems else gettext("no position")
        abort(400, description=gettext("This position cannot be analysed: %(problem)s.", problem=problem))
    # only once the whole request is known good, as the page does: the same guard, the same answer
    refuse_spoilers(position)
    if request.headers.get("HX-Request"):
        analysis, stamp = solving.whole(position, entry.objective, solve_time_limit())
        return rendering.chain_cell(entry, position, analysis, stamp)
    return _answer_page(entry, position, htmx=False, chain_now=True)


def _answer_page(entry: Entry, position: Position, htmx: bool, chain_now: bool) -> str:
    """The page of a position's answer: as it was drawn when both its phases are kept, else drawn
    from the answer solved now (the chain length too when `chain_now`)."""
    page = rendering.kept_page(entry, position, htmx)
    if page is None:
        found = solving.answered(position, entry.objective, solve_time_limit(), chain_now)
        page = rendering.answer_page(entry, position, htmx, found)
    return page


# -- playing a position, the moves in the URL


def replay(position: Position, moves_text: str) -> tuple[Board, list[str]]:
    """The board after the moves `card-target` (`h0-1.t3-new.h0-hand`), each checked as it is made."""
    board = Board.start(position)
    moves = [move for move in moves_text.split(".") if move]
    if len(moves) > MAX_MOVES:
        raise Refusal(gettext("too many moves: at most %(most)s", most=MAX_MOVES))
    for number, move in enumerate(moves, start=1):
        card, _, target = move.partition("-")
        try:
            board = board.move(card, target)
        except MoveError as error:
            raise Refusal(
                gettext(
                    "move %(number)s (%(move)s): %(problem)s",
                    number=number,
                    move=move[:20],
                    problem=say(error.words),
                )
            ) from None
    return board, moves


def _play_position() -> tuple[Entry, Position]:
    entry = rendering.entry_of(request.args)
    if entry.position is None:
        problem = say(entry.problems[0].message) if entry.problems else gettext("no position")
        raise Refusal(gettext("This position cannot be played: %(problem)s.", problem=problem))
    return entry, entry.position


def _play_url(entry: Entry, moves: list[str], ending: bool = False) -> str:
    query = position_args(entry)
    if moves:
        query["moves"] = ".".join(moves)
    if ending:
        query["end"] = "1"
    return url_for("analyser.play", **query)


@bp.get("/analyse/play")
@limiter.limit(step_rate_limit)
def play() -> tuple[str, int]:
    entry, position = _play_position()
    board, moves = replay(position, request.args.get("moves", ""))
    # only once the whole request is known good: a refusal must not tell a guarded position from a
    # bad request that a solve would refuse too (a free oracle)
    refuse_spoilers(position)
    return _render_play(entry, position, board, moves, ending=request.args.get("end") == "1"), 200


@bp.post("/analyse/play/move")
@limiter.limit(step_rate_limit)
def move() -> Response | tuple[str, int]:
    entry, position = _play_position()
    board, moves = replay(position, request.args.get("moves", ""))
    card, target = request.form.get("card", ""), request.form.get("to", "")
    if not card or not target:
        abort(
            400, description=gettext("a move needs a card and where it goes (to: a meld number, new or hand)")
        )
    if len(moves) >= MAX_MOVES:
        abort(
            422, description=gettext("that is %(most)s moves: reset the table to start again", most=MAX_MOVES)
        )
    try:
        board = board.move(card, target, request.form.get("from") or None)
    except MoveError as error:
        abort(422, description=say(error.words))
    refuse_spoilers(position)
    moves = [*moves, f"{card}-{target}"]
    if not request.headers.get("HX-Request"):
        return redirect(_play_url(entry, moves), 303)
    response = current_app.make_response((_render_play(entry, position, board, moves, ending=False), 200))
    response.headers["HX-Push-Url"] = _play_url(entry, moves)
    return response


def _render_play(entry: Entry, position: Position, board: Board, moves: list[str], ending: bool) -> str:
    best = best_of(position)
    limit = float(current_app.config["STEP_TIME_LIMIT"])
    turn = turn_view(
        board,
        best.value,
        lambda laid: solver_gate.run(lambda: progress(position, laid, best.value, limit)),
        can_undo=bool(moves),
        ending=ending,
    )
    template = "_analyser_board.html" if request.headers.get("HX-Request") else "analyser_play.html"
    return render_template(
        template,
        position=position,
        best=best,
        turn=turn,
        moves=moves,
        move_url=url_for("analyser.move", **position_args(entry), moves=".".join(moves)),
        undo_url=_play_url(entry, moves[:-1]) if moves else None,
        reset_url=_play_url(entry, []),
        end_url=_play_url(entry, moves, ending=True),
        analysis_url=url_for("analyser.analyse_page", **position_args(entry)),
    )


# -- the JSON API


@bp.post("/api/solve")
@ANALYSES
def solve_api() -> Response:
    """`python -m puzzles solve` over HTTP: one position as JSON in, its answer as JSON out."""
    document = json_body(request.get_data(cache=False), "one JSON position")
    # the CLI reads these as options, here they are query parameters: in the body they would be
    # ignored with the position's other unknown fields, and the caller get an answer it did not ask for
    fields = set(document) if isinstance(document, dict) else set()
    misplaced = sorted(fields & {"objective", "time_limit", "time-limit"})
    if misplaced:
        name = misplaced[0].replace("-", "_")
        abort(400, description=f"{misplaced[0]} goes in the query (?{name}=...), not in the body")
    try:
        position = Position.from_json(document)
    except PositionError as error:
        abort(400, description=str(error))
    objective = _objective(request.args.get("objective", Objective.CARDS.value))
    time_limit = _time_limit(request.args.get("time_limit"))
    refuse_spoilers(position)  # last: the request is known good
    analysis, stamp = solving.whole(position, objective, time_limit)
    answer = solving.rendered(
        (str(position), objective.value, time_limit, "api"), stamp, lambda: answer_json(analysis)
    )
    if isinstance(document, dict) and "id" in document:
        answer = {"id": document["id"], **answer}
    return jsonify(answer)


# the answer depends on the body alone and changes nothing: no cookie, so no CSRF token either
csrf.exempt(solve_api)


def _objective(text: str) -> Objective:
    try:
        return Objective(text)
    except ValueError:
        raise Refusal(f"objective {text[:20]!r} is not cards or points") from None


def _time_limit(text: str | None) -> float:
    """The request's own limit, up to the site's (which is also the default)."""
    most = solve_time_limit()
    if text is None:
        return most
    try:
        value = float(text)
    except ValueError:
        raise Refusal(f"time_limit {text[:20]!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0 < value <= most):
        raise Refusal(f"time_limit must be more than 0 and at most {most:g} seconds")
    return value

"""The position analyser: a player's own table and hand, the best play and how to lay it out.

`/analyse` reads a position typed in card notation (or tapped on the palette), the position living in
the URL; `/analyse/play` plays it with every step checked, its moves kept in the URL too, so nothing
is stored; `POST /api/solve` answers the JSON of `python -m puzzles solve`. Every solve runs under
`SOLVE_TIME_LIMIT` and counts against the client's `SOLVE_RATE_LIMIT`, shared by the page and the API.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from puzzles import (
    JOKER,
    PRESETS,
    SUITS,
    Analysis,
    Best,
    Card,
    Meld,
    Objective,
    Play,
    Position,
    PositionError,
    Step,
    StepKind,
    analyse,
    answer_json,
    apply_steps,
    argtypes,
    maximum,
    plan_steps,
)
from webapp import models
from webapp.analyser.entry import MAX_PROBLEMS, Entry, read_entry
from webapp.caching import AppCache
from webapp.db import session as read_session
from webapp.players import records
from webapp.players.identity import current_player_id
from webapp.schedule.clock import calendar, now
from webapp.security import csrf, limiter, solve_rate_limit, step_rate_limit
from webapp.turn import store as turns
from webapp.turn.board import Board, MeldState, MoveError

bp = Blueprint("analyser", __name__)

MAX_MOVES = 300
"""A turn longer than this is not a person playing: the URL that holds it stops growing."""
ANALYSES: AppCache[tuple[str, str, float], Analysis] = AppCache(
    "analyses",
    256,
    serves="an analysis asked again (a shared link, the other objective's switch, the API): 7.4 ms, "
    "15 ms solving a small position again, up to SOLVE_TIME_LIMIT for a hard one",
)
MAXIMA: AppCache[tuple[str, float], Best] = AppCache(
    "maxima",
    256,
    serves="every move of /analyse/play: 6.3 ms, 9.6 ms solving the position's maximum again "
    "(and the goal of a turn must not change between moves)",
)
PALETTE = tuple(tuple(Card(rank, suit) for rank in range(1, 14)) for suit in SUITS)
"""The cards to tap, a row per suit; the joker comes after them."""


def solve_time_limit() -> float:
    return float(current_app.config["SOLVE_TIME_LIMIT"])


def solve(position: Position, objective: Objective, time_limit: float) -> Analysis:
    """The analysis, from this process's cache when it was proven before under the same limit."""
    key = (str(position), objective.value, time_limit)
    cached = ANALYSES().get(key)
    if cached is not None:
        return cached
    analysis = analyse(position, objective, time_limit)
    if analysis.proven:  # an unproven answer may do better with a less busy machine: never keep it
        ANALYSES().put(key, analysis)
    return analysis


def unfinished_daily(position: Position) -> int | None:
    """The number of a daily puzzle still open somewhere whose whole table this position holds, on
    its table or in its hand (whatever else was added), and that this caller has not finished: its
    answer must not reach them before they solve it or give up."""
    numbers = list(calendar().open_numbers(now()))
    reader = read_session()
    rows = reader.execute(
        select(models.Daily.number, models.PoolPuzzle.table)
        .join(models.PoolPuzzle, models.Daily.puzzle_id == models.PoolPuzzle.id)
        .where(models.PoolPuzzle.rules == position.rules.name, models.Daily.number.in_(numbers))
    )
    cards = Counter(str(card) for meld in position.table for card in meld.cards)
    cards.update(str(card) for card in position.hand)
    matching = [number for number, daily in rows if not Counter(c for meld in daily for c in meld) - cards]
    if not matching:
        return None
    finished = records.finished_numbers(reader, current_player_id(), matching)
    return next((number for number in matching if number not in finished), None)


def _refuse_open_daily(position: Position) -> None:
    number = unfinished_daily(position)
    if number is not None:
        abort(
            403,
            description=f"This is daily puzzle #{number}, still open: "
            "it can be analysed once you have solved it or given up.",
        )


def best_of(position: Position) -> Best:
    """The most cards the position can place, for the play view: kept even unproven, so the goal of
    a turn does not change from one move to the next."""
    key = (str(position), solve_time_limit())
    best = MAXIMA().get(key)
    if best is None:
        best = maximum(position, Objective.CARDS, solve_time_limit())
        MAXIMA().put(key, best)
    return best


def _is_cached(position: Position, objective: Objective) -> bool:
    return (str(position), objective.value, solve_time_limit()) in ANALYSES()


# -- the answer as the page shows it


@dataclass(frozen=True, slots=True)
class NumberedMeld:
    """A meld of the final table under the number the steps gave it, and which cards came from the hand."""

    index: int
    cards: tuple[Card, ...]
    from_hand: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Answer:
    analysis: Analysis
    play: Play
    hand_after: tuple[Card, ...]
    points_left: int
    steps: tuple[Step, ...]
    final: tuple[NumberedMeld, ...]
    witness: Play | None

    @property
    def best(self) -> Best:
        return self.analysis.best

    @property
    def points_words(self) -> str:
        """The preset's hand points: `A 1, 2-9 face value, 10 J Q K 10`."""
        points = self.analysis.position.rules.points
        tens = (
            f"10 J Q K {points.face}"
            if points.ten == points.face
            else f"10 {points.ten}, J Q K {points.face}"
        )
        words = f"A {points.ace}, 2-9 face value, {tens}"
        return words + (f", joker {points.joker}" if self.analysis.position.rules.jokers else "")

    @property
    def broken_names(self) -> str:
        """The numbers of the melds the steps break, as words: `1, 2 and 4`.

        The same melds as the chain depth's, except that of two identical melds the steps may name
        the other: the page names the one the steps break."""
        numbers = [
            str(step.source + 1)
            for step in self.steps
            if step.kind is StepKind.BREAK and step.source is not None
        ]
        return " and ".join([", ".join(numbers[:-1]), numbers[-1]] if len(numbers) > 1 else numbers)


def answer_of(analysis: Analysis) -> Answer:
    position = analysis.position
    play = analysis.shown
    steps = plan_steps(position, play)
    return Answer(
        analysis=analysis,
        play=play,
        hand_after=play.hand_after(position),
        points_left=sum(position.rules.points.of(card) for card in play.hand_after(position)),
        steps=steps,
        final=_numbered(position, steps),
        witness=analysis.other_play,
    )


def _numbered(position: Position, steps: tuple[Step, ...]) -> tuple[NumberedMeld, ...]:
    laid: dict[int, Counter[Card]] = {}
    for step in steps:
        if step.source is None and step.target is not None:
            laid.setdefault(step.target, Counter()).update(step.cards)
    melds = []
    for index, cards in enumerate(apply_steps([meld.cards for meld in position.table], steps)):
        if not cards:
            continue
        # in table order: a plan ends on the play's own melds, all valid
        cards = Meld.of(cards, position.rules).cards
        marks = Counter(laid.get(index, Counter()))
        flags = []
        for card in cards:
            flags.append(marks[card] > 0)
            marks[card] -= 1
        melds.append(NumberedMeld(index, cards, tuple(flags)))
    return tuple(melds)


def position_args(entry: Entry) -> dict[str, Any]:
    """The query that reproduces an entry: canonical when it is a valid position, else as typed."""
    position = entry.position
    if position is None:
        return {"rules": entry.rules_name, "table": entry.table_text, "hand": entry.hand_text}
    return {
        "rules": position.rules.name,
        "table": " / ".join(str(meld) for meld in position.table),
        "hand": " ".join(str(card) for card in position.hand),
    }


def _entry(args: Mapping[str, str]) -> Entry:
    return read_entry(
        args.get("rules", "classic"),
        args.get("table", ""),
        args.get("hand", ""),
        args.get("objective", "cards"),
    )


def _solve_is_free() -> bool:
    """No solve for the rate limit to count: nothing to solve, or the answer is cached."""
    entry = _entry(request.args)
    return entry.position is None or _is_cached(entry.position, entry.objective)


@bp.get("/analyse")
@limiter.shared_limit(solve_rate_limit, scope="solve", exempt_when=_solve_is_free)
def analyse_page() -> Response:
    entry = _entry(request.args)
    answer = None
    if entry.position is not None:
        _refuse_open_daily(entry.position)
        answer = answer_of(solve(entry.position, entry.objective, solve_time_limit()))
    htmx = bool(request.headers.get("HX-Request"))
    status = 422 if entry.problems and not entry.blank else 200
    page = render_template(
        "_analyser.html" if htmx else "analyser.html",
        entry=entry,
        answer=answer,
        presets=PRESETS.values(),
        palette=PALETTE,
        joker=JOKER,
        query=position_args(entry),
        max_problems=MAX_PROBLEMS,
        time_limit=solve_time_limit(),
    )
    response = current_app.make_response((page, status))
    if htmx:  # the address bar shows the position in its tidy form: the link to share
        response.headers["HX-Push-Url"] = url_for(
            "analyser.analyse_page", **position_args(entry), objective=entry.objective_name
        )
    return response


# -- playing a position, the moves in the URL


def replay(position: Position, moves_text: str) -> tuple[Board, list[str]]:
    """The board after the moves `card-target` (`h0-1.t3-new.h0-hand`), each checked as it is made."""
    board = Board.start(position)
    moves = [move for move in moves_text.split(".") if move]
    if len(moves) > MAX_MOVES:
        abort(400, description=f"too many moves: at most {MAX_MOVES}")
    for number, move in enumerate(moves, start=1):
        card, _, target = move.partition("-")
        try:
            board = board.move(card, target)
        except MoveError as error:
            abort(400, description=f"move {number} ({move[:20]}): {error}")
    return board, moves


def _play_position() -> tuple[Entry, Position]:
    entry = _entry(request.args)
    if entry.position is None:
        problem = entry.problems[0].message if entry.problems else "no position"
        abort(400, description=f"This position cannot be played: {problem}.")
    _refuse_open_daily(entry.position)
    return entry, entry.position


def _play_url(entry: Entry, moves: list[str], ending: bool = False) -> str:
    query = position_args(entry)
    if moves:
        query["moves"] = ".".join(moves)
    if ending:
        query["end"] = "1"
    return url_for("analyser.play", **query)


def _play_is_free() -> bool:
    entry = _entry(request.args)
    position = entry.position
    return position is None or (str(position), solve_time_limit()) in MAXIMA()


@bp.get("/analyse/play")
@limiter.limit(step_rate_limit)
@limiter.shared_limit(solve_rate_limit, scope="solve", exempt_when=_play_is_free)
def play() -> tuple[str, int]:
    entry, position = _play_position()
    board, moves = replay(position, request.args.get("moves", ""))
    return _render_play(entry, position, board, moves, ending=request.args.get("end") == "1"), 200


@bp.post("/analyse/play/move")
@limiter.limit(step_rate_limit)
def move() -> Response | tuple[str, int]:
    entry, position = _play_position()
    board, moves = replay(position, request.args.get("moves", ""))
    card, target = request.form.get("card", ""), request.form.get("to", "")
    if not card or not target:
        abort(400, description="a move needs a card and where it goes (to: a meld number, new or hand)")
    if len(moves) >= MAX_MOVES:
        abort(422, description=f"that is {MAX_MOVES} moves: reset the table to start again")
    try:
        board = board.move(card, target, request.form.get("from") or None)
    except MoveError as error:
        abort(422, description=str(error))
    moves = [*moves, f"{card}-{target}"]
    if not request.headers.get("HX-Request"):
        return redirect(_play_url(entry, moves), 303)
    response = current_app.make_response((_render_play(entry, position, board, moves, ending=False), 200))
    response.headers["HX-Push-Url"] = _play_url(entry, moves)
    return response


def _render_play(entry: Entry, position: Position, board: Board, moves: list[str], ending: bool) -> str:
    best = best_of(position)
    views = board.views()
    laid = board.laid()
    can_end = bool(laid) and all(view.state is MeldState.VALID for view in views)
    # every meld valid is not yet a legal play: a joker taken back needs its real card in its place
    problems = board.problems() if ending and can_end else []
    done = ending and can_end and not problems
    progress = None
    if not done:
        step_limit = float(current_app.config["STEP_TIME_LIMIT"])
        progress = turns.progress(position, laid, best.value, step_limit)
    analysis_query = position_args(entry)
    template = "_analyser_board.html" if request.headers.get("HX-Request") else "analyser_play.html"
    return render_template(
        template,
        position=position,
        best=best,
        cards=board.cards(),
        melds=views,
        hand=board.hand_ids(),
        jokers_to_hand=board.jokers_to_hand,
        progress=progress,
        placed=made.count if (made := board.play()) is not None else 0,
        can_end=can_end,
        notice=problems[0] if problems else None,
        done=done,
        moves=moves,
        move_url=url_for("analyser.move", **position_args(entry), moves=".".join(moves)),
        undo_url=_play_url(entry, moves[:-1]) if moves else None,
        reset_url=_play_url(entry, []),
        end_url=_play_url(entry, moves, ending=True),
        analysis_url=url_for("analyser.analyse_page", **analysis_query),
    )


# -- the JSON API


@bp.post("/api/solve")
@limiter.shared_limit(solve_rate_limit, scope="solve")
def solve_api() -> Response:
    """`python -m puzzles solve` over HTTP: one position as JSON in, its answer as JSON out."""
    document = _read_json(request.get_data(cache=False))
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
    _refuse_open_daily(position)
    answer = answer_json(solve(position, objective, time_limit))
    if isinstance(document, dict) and "id" in document:
        answer = {"id": document["id"], **answer}
    return jsonify(answer)


# the answer depends on the body alone and changes nothing: no cookie, so no CSRF token either
csrf.exempt("webapp.analyser.views.solve_api")


def _read_json(body: bytes) -> Any:
    try:
        return argtypes.load_json(body.decode("utf-8"))
    except UnicodeDecodeError:
        abort(400, description="the body is not UTF-8")
    except argtypes.NotJSON as error:
        abort(400, description=f"the body is not one JSON position: {error}")


def _objective(text: str) -> Objective:
    try:
        return Objective(text)
    except ValueError:
        abort(400, description=f"objective {text[:20]!r} is not cards or points")


def _time_limit(text: str | None) -> float:
    """The request's own limit, up to the site's (which is also the default)."""
    most = solve_time_limit()
    if text is None:
        return most
    try:
        value = float(text)
    except ValueError:
        abort(400, description=f"time_limit {text[:20]!r} is not a number of seconds")
    if not (math.isfinite(value) and 0 < value <= most):
        abort(400, description=f"time_limit must be more than 0 and at most {most:g} seconds")
    return value

"""The JSON API of the daily puzzles: today's, one by number, and checking a final table.

No answer ever holds the solution. A puzzle's real forks, which its key ideas judge, are said only
once its caller may read those: the day has closed everywhere, or the browser's cookie names a player
who has finished it (`finished_by`, which the players' area gives: the schedule imports no other
area). The check stores nothing, so it needs no cookie and no CSRF token.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, abort, current_app, jsonify, request, url_for
from werkzeug.wrappers import Response

from puzzles import Card, CardError, Meld, MeldError, Problem, ProblemCode, play_of, play_problems
from webapp import models
from webapp.errors import Refusal, json_body
from webapp.schedule import daily
from webapp.schedule.clock import calendar, now
from webapp.schedule.days import DayError, zone
from webapp.security import check_rate_limit, csrf, limiter

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_MELDS = 60
MAX_MELD_CARDS = 30
FINISHED = "tavolo.daily_finished"
"""Where the app keeps `finished_by`'s answer: whether this request's player has finished a daily."""


def finished_by(app: Flask, finished: Callable[[int], bool]) -> None:
    """Tell the API how to know that this request's player has finished daily puzzle `number`."""
    app.extensions[FINISHED] = finished


def may_judge(number: int) -> bool:
    """Whether the caller may read what the key ideas say of daily `number`: after its day has
    closed everywhere (as the spoiler guard, `analyser.guard`, lets it be analysed), or once the
    caller has finished it."""
    if not calendar().is_open(number, now()):
        return True
    finished: Callable[[int], bool] | None = current_app.extensions.get(FINISHED)
    return finished is not None and finished(number)


def puzzle_json(row: models.Daily) -> dict[str, Any]:
    """What a player may know before solving: everything but the solution; and, once the caller may
    read the key ideas (`may_judge`), how many of the forks are real."""
    puzzle = row.puzzle
    dates = calendar()
    judged = {"real_forks": puzzle.real_forks} if may_judge(row.number) else {}
    return {
        "number": row.number,
        "date": row.day.isoformat(),
        "rules": puzzle.rules,
        "tier": puzzle.tier,
        "depth": puzzle.depth,
        "chain": puzzle.shown_chain,
        "decisions": puzzle.decisions,
        "decisions_at_least": puzzle.decisions_at_least,
        "forks": puzzle.forks,
        "forks_at_least": puzzle.forks_at_least,
        **judged,
        "max": puzzle.max_placed,
        "table": puzzle.table,
        "hand": puzzle.hand,
        "opens": dates.opens(row.number).isoformat(),
        "closes": dates.closes(row.number).isoformat(),
        "url": url_for("daily.puzzle", number=row.number, _external=True),
    }


@bp.get("/daily")
def today() -> Response:
    try:
        tz = zone(request.args.get("tz"))
    except DayError as error:
        abort(400, description=str(error))
    number = calendar().today(now(), tz)
    if number < 1:
        abort(404, description=f"Tavolo starts on {calendar().launch.isoformat()}.")
    return jsonify(puzzle_json(daily.open_daily(number)))


@bp.get("/puzzles/<int:number>")
def puzzle(number: int) -> Response:
    return jsonify(puzzle_json(daily.opened_daily(number)))


@bp.post("/puzzles/<int:number>/check")
@limiter.limit(check_rate_limit)
def check(number: int) -> Response:
    table = read_table(request.get_data(cache=False))
    row = daily.opened_daily(number)
    position = row.puzzle.position()
    problems = play_problems(position, table)
    try:
        play = play_of(position, [Meld.of(meld, position.rules) for meld in table])
    except MeldError:  # a meld is not valid (play_problems says which): the table is no play
        play = None
    # a freed joker cancels a card placed (german-jokers), but the card was laid all the same
    if play is not None and not play.laid and not problems:
        problems.append(Problem(ProblemCode.NOTHING_LAID))
    placed = max(play.placed, 0) if play is not None else 0
    valid = not problems
    return jsonify(
        valid=valid,
        placed=placed,
        max=row.puzzle.max_placed,
        solved=valid and placed >= row.puzzle.max_placed,
        errors=[str(problem) for problem in problems],
        codes=[problem.code.value for problem in problems],
    )


# the check changes nothing and other programs call it: no cookie, so no CSRF token either
csrf.exempt(check)


def read_table(body: bytes) -> list[list[Card]]:
    """`{"table": [["3S", "4S", "5S"], ...]}` as cards; 400 with the reason for anything else."""
    document = json_body(body, "JSON")
    if not isinstance(document, dict) or "table" not in document:
        raise Refusal('the body must be a JSON object like {"table": [["3S", "4S", "5S"]]}')
    unknown = sorted(set(document) - {"table"})
    if unknown:
        raise Refusal(f"unknown field {unknown[0][:40]!r}: only table is read")
    melds = document["table"]
    if not isinstance(melds, list) or not all(isinstance(meld, list) for meld in melds):
        raise Refusal("table must be a list of melds, each a list of cards")
    if len(melds) > MAX_MELDS or any(len(meld) > MAX_MELD_CARDS for meld in melds):
        raise Refusal(f"table is too large (at most {MAX_MELDS} melds of {MAX_MELD_CARDS} cards)")
    table = []
    for number, meld in enumerate(melds, start=1):
        try:
            table.append([Card.parse(token) for token in meld])
        except CardError as error:
            raise Refusal(f"meld {number}: {error}") from None
    return table

"""Link previews: an Open Graph image for each puzzle, drawn by the server as SVG.

Spoiler-free: the number, the date, the tier and the goal, over a fan of card backs; never a card of
the puzzle itself.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template

from webapp import db
from webapp.schedule import daily
from webapp.schedule.clock import calendar, now
from webapp.turn.modes import practice_puzzle
from webapp.wording import day_words, gettext, rules_title

bp = Blueprint("preview", __name__)

MAX_AGE = 24 * 3600
"""A puzzle's preview never changes once it is out."""


def _svg(text: str) -> Response:
    response = Response(text, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = f"public, max-age={MAX_AGE}"
    return response


@bp.get("/puzzles/<int:number>/preview.svg")
def daily_image(number: int) -> Response:
    if calendar().is_future(number, now()):
        abort(404, description=gettext("Puzzle #%(number)s is not out yet.", number=number))
    row = daily.find(db.session(), number)
    if row is None:
        abort(404, description=gettext("Puzzle #%(number)s was never published.", number=number))
    title = f"#{number}"
    subtitle = day_words(row.day, "full")
    return _svg(render_template("preview.svg", puzzle=row.puzzle, title=title, subtitle=subtitle))


@bp.get("/practice/<code>/preview.svg")
def practice_image(code: str) -> Response:
    puzzle = practice_puzzle(code)
    if puzzle is None:
        abort(404, description=gettext("There is no practice puzzle %(code)s.", code=repr(code[:16])))
    return _svg(
        render_template(
            "preview.svg",
            puzzle=puzzle,
            title=gettext("Practice"),
            subtitle=gettext("Rules: %(rules)s", rules=rules_title(puzzle.rules)),
        )
    )

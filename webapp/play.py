"""The play pages: today's puzzle, a puzzle by number, and the moves that htmx (or a form) posts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from puzzles import Card, parse_cards
from webapp import daily, db, models, turns
from webapp.board import Board, MeldState
from webapp.clock import calendar, now
from webapp.days import DayError, zone
from webapp.players import current_player_id, ensure_player
from webapp.security import limiter, step_rate_limit

bp = Blueprint("play", __name__)

TZ_COOKIE = "tz"


def player_zone_name() -> str:
    """The player's time zone: `?tz=`, else the cookie the page's script sets, else UTC."""
    asked = request.args.get("tz")
    if asked:
        try:
            zone(asked)
        except DayError as error:
            abort(400, description=str(error))
        return asked
    cookie = request.cookies.get(TZ_COOKIE, "")
    try:
        zone(cookie)
    except DayError:  # a stale or forged cookie is not worth an error page
        return "UTC"
    return cookie or "UTC"


def open_daily(number: int) -> models.Daily:
    """The daily puzzle `number` if it is open now; 404 before its day, 410 after."""
    dates, moment = calendar(), now()
    if dates.is_future(number, moment):
        abort(404, description=f"Puzzle #{number} is not out yet.")
    if not dates.is_open(number, moment):
        abort(410, description=f"Puzzle #{number} has closed: its day has ended everywhere.")
    try:
        return daily.daily(number)
    except daily.ScheduleError as error:
        abort(503, description=str(error))


def render_turn(
    row: models.Daily, is_today: bool = False, attempt: models.Attempt | None = None
) -> tuple[str, int]:
    """The play page, or only its board for htmx; `attempt` when the request has just written it."""
    puzzle = row.puzzle
    player = current_player_id()
    if attempt is None and player is not None:
        attempt = turns.find(db.session(), player, puzzle)
    template = "_board.html" if request.headers.get("HX-Request") else "play.html"
    tz_name = player_zone_name()
    if attempt is None:
        return untouched_page(row, template, is_today, tz_name), 200
    context = turn_context(row, turns.board_of(puzzle, attempt), attempt, tz_name)
    return render_template(template, is_today=is_today, **context), 200


CSRF_SLOT = "__csrf_token_slot__"
UNTOUCHED_PAGES = 256


def untouched_page(row: models.Daily, template: str, is_today: bool, tz_name: str) -> str:
    """A puzzle nobody has moved a card of looks the same to everyone in a time zone, minute by
    minute: each process renders it once and fills in only the visitor's CSRF token."""
    pages: dict[tuple[object, ...], str] = current_app.extensions.setdefault("tavolo.untouched", {})
    key = (row.number, template, is_today, tz_name, now().replace(second=0, microsecond=0))
    page = pages.get(key)
    if page is None:
        context = turn_context(row, turns.board_of(row.puzzle, None), None, tz_name)
        page = render_template(template, is_today=is_today, csrf_token=lambda: CSRF_SLOT, **context)
        if len(pages) >= UNTOUCHED_PAGES:
            pages.clear()
        pages[key] = page
    return page.replace(CSRF_SLOT, generate_csrf())


def turn_context(
    row: models.Daily, board: Board, attempt: models.Attempt | None, tz_name: str
) -> dict[str, Any]:
    puzzle = row.puzzle
    views = board.views()
    done = attempt is not None and attempt.done
    progress = None
    if not done:
        progress = turns.progress(board.position, board.laid(), puzzle.max_played, _step_time_limit())
    cards = board.cards()
    next_at = calendar().next_day_starts(now(), zone(tz_name))
    return {
        "number": row.number,
        "day": row.day,
        "puzzle": puzzle,
        "attempt": attempt,
        "cards": cards,
        "melds": views,
        "hand": board.hand_ids(),
        "progress": progress,
        "can_end": bool(board.laid()) and all(view.state is MeldState.VALID for view in views),
        "can_undo": attempt is not None and bool(attempt.history) and not done,
        "done": done,
        "share": turns.share_text(row.number, attempt) if done and attempt is not None else None,
        "solution": _solution(puzzle) if done else None,
        "next_at": next_at,
        "next_in": _duration(next_at - now()),
        "elapsed": _duration(attempt.finished - attempt.started) if attempt and attempt.finished else None,
        "tz_name": tz_name,
    }


def _duration(span: timedelta) -> str:
    minutes = max(int(span.total_seconds()) // 60, 0)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


@dataclass(frozen=True, slots=True)
class CardFace:
    """What a drawn card shows: its corner, its colour and suit classes, and its spoken name."""

    rank: str
    symbol: str
    classes: str
    label: str


@bp.app_template_filter("face")
@lru_cache(maxsize=64)
def card_face(card: Card) -> CardFace:
    if card.suit is None:
        return CardFace("★", "🃏", "joker", "joker")
    colour = "red" if card.suit.is_red else "black"
    return CardFace(card.pretty()[:-1], card.suit.symbol, f"{colour} {card.suit.name.lower()}", card.pretty())


def _solution(puzzle: models.Puzzle) -> list[list[Card]]:
    return [[Card.parse(token) for token in meld] for meld in puzzle.solution]


def _step_time_limit() -> float:
    return float(current_app.config["STEP_TIME_LIMIT"])


@bp.get("/")
def today() -> tuple[str, int]:
    tz_name = player_zone_name()
    number = calendar().today(now(), zone(tz_name))
    if number < 1:
        return render_template("soon.html", launch=calendar().launch), 200
    return render_turn(open_daily(number), is_today=True)


@bp.get("/puzzles/<int:number>")
def puzzle(number: int) -> tuple[str, int]:
    return render_turn(open_daily(number))


RACE_TRIES = 3


def _act(number: int, action: Callable[[models.Attempt], None]) -> Response | tuple[str, int]:
    row = open_daily(number)
    player = current_player_id()
    attempt = _act_on_stored(row, player, action) if player else None
    if attempt is None:
        attempt = _act_on_new(row, action)
    if request.headers.get("HX-Request"):
        return render_turn(row, attempt=attempt)
    return redirect(url_for("play.puzzle", number=number), 303)


def _act_on_stored(
    row: models.Daily, player: str, action: Callable[[models.Attempt], None]
) -> models.Attempt | None:
    """The action on the player's attempt, if they have one, written with compare and swap: no
    transaction is open while Python works, and SQLite's lock is held for one UPDATE only."""
    with db.database().autocommit() as connection:
        for _ in range(RACE_TRIES):
            stored = turns.read(connection, player, row.puzzle)
            if stored is None:
                return None
            action(stored.attempt)
            if turns.write(connection, stored):
                return stored.attempt
    raise turns.TurnRace("the table changed in another window meanwhile: reload the page")


def _act_on_new(row: models.Daily, action: Callable[[models.Attempt], None]) -> models.Attempt:
    """A player's first action on the puzzle: their row (and cookie) if new, and the attempt."""
    with db.write() as session:
        player = current_player_id()
        attempt = turns.locked(session, player, row.puzzle_id) if player else None
        if attempt is None:
            player = ensure_player(session)
            attempt = turns.start(session, player, session.get_one(models.Puzzle, row.puzzle_id), row.number)
        action(attempt)
    return attempt


@bp.post("/puzzles/<int:number>/move")
@limiter.limit(step_rate_limit)
def move(number: int) -> Response | tuple[str, int]:
    card = request.form.get("card", "")
    target = request.form.get("to", "")
    seen_at = request.form.get("from") or None
    if not card or not target:
        abort(400, description="a move needs a card and where it goes (to: a meld number, new or hand)")
    return _act(number, lambda attempt: turns.move(attempt, card, target, seen_at))


@bp.post("/puzzles/<int:number>/undo")
@limiter.limit(step_rate_limit)
def undo(number: int) -> Response | tuple[str, int]:
    return _act(number, turns.undo)


@bp.post("/puzzles/<int:number>/reset")
@limiter.limit(step_rate_limit)
def reset(number: int) -> Response | tuple[str, int]:
    return _act(number, turns.reset)


@bp.post("/puzzles/<int:number>/end")
@limiter.limit(step_rate_limit)
def end_turn(number: int) -> Response | tuple[str, int]:
    return _act(number, turns.end_turn)


@bp.post("/puzzles/<int:number>/give-up")
@limiter.limit(step_rate_limit)
def give_up(number: int) -> Response | tuple[str, int]:
    return _act(number, turns.give_up)


HELP_EXAMPLES = (
    (
        "A lonely Q♣ finds a set",
        "10H 10D 10S / JH JD JS / QH QD QC",
        "9S QD QS",
        "10H JH QH / 10D JD QD / 9S 10S JS / QC QD QS",
    ),
    ("Cut a long run to free its middle", "3C 4C 5C 6C 7C 8C 9C", "6H 6D", "3C 4C 5C / 7C 8C 9C / 6C 6H 6D"),
)
"""Worked examples of the rules, drawn on the help page: title, table, hand and best final table."""


def _melds(text: str) -> list[tuple[Card, ...]]:
    return [parse_cards(meld) for meld in text.split("/")]


@bp.get("/help")
def help_page() -> str:
    examples = [
        (title, _melds(table), parse_cards(hand), _melds(answer))
        for title, table, hand, answer in HELP_EXAMPLES
    ]
    return render_template("help.html", examples=examples)

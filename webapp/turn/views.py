"""The play pages: today's puzzle, a puzzle by number, and the moves that htmx (or a form) posts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_wtf.csrf import generate_csrf
from jinja2 import Environment
from markupsafe import Markup
from werkzeug.wrappers import Response

from puzzles import Card, parse_cards
from webapp import db, models
from webapp import pages as prefs
from webapp.caching import AppCache, memoised
from webapp.client_input import small_number
from webapp.models import Status
from webapp.players import records
from webapp.players.identity import current_player_id, ensure_player
from webapp.schedule import daily
from webapp.schedule.clock import calendar, now
from webapp.schedule.days import DayError, zone
from webapp.security import limiter, step_rate_limit
from webapp.turn import hints
from webapp.turn import store as turns
from webapp.turn.board import Board, MeldState
from webapp.turn.hints import RUNGS, Hint

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


@dataclass(frozen=True, slots=True)
class PuzzlePage:
    """Where a puzzle is played: as the daily puzzle, from the archive, or in practice.

    Each of those blueprints has the same turn views (`puzzle`, `move`, `undo`, `reset`, `end_turn`,
    `give_up`, `hint`, `timed`, `time_up`), whose URLs take `key`."""

    puzzle: models.PoolPuzzle
    blueprint: str
    key: tuple[tuple[str, int | str], ...]
    number: int | None = None
    """The daily number, for a daily or archive puzzle."""
    day: date | None = None
    is_today: bool = False

    def url(self, view: str, **values: Any) -> str:
        arguments: dict[str, Any] = {**dict(self.key), **values}
        return url_for(f"{self.blueprint}.{view}", **arguments)

    @property
    def title(self) -> str:
        """How the share text names the puzzle."""
        if self.blueprint == "practice":
            return f"Tavolo practice {self.puzzle.code}"
        suffix = " (archive)" if self.blueprint == "archive" else ""
        return f"Tavolo #{self.number}{suffix}"

    @property
    def counts_for_streak(self) -> bool:
        return self.blueprint == "play"


def daily_page(number: int, is_today: bool = False) -> PuzzlePage:
    row = open_daily(number)
    return PuzzlePage(row.puzzle, "play", (("number", row.number),), row.number, row.day, is_today)


def render_turn(page: PuzzlePage, attempt: models.PlayerAttempt | None = None) -> tuple[str, int]:
    """The play page, or only its board for htmx; `attempt` when the request has just written it."""
    player = current_player_id()
    if attempt is None and player is not None:
        attempt = turns.find(db.session(), player, page.puzzle)
    if attempt is not None and player is not None and turns.overdue(attempt, now()):
        # the clock ran out while nobody asked: settle it now, as any move would
        attempt = _finished(_act_on_stored(page, player, turns.on_time(_nothing)) or attempt)
    template = "_board.html" if request.headers.get("HX-Request") else "play.html"
    tz_name = player_zone_name()
    behind = earlier_open(page, player)
    if attempt is None:
        return untouched_page(page, template, tz_name, behind), 200
    context = turn_context(page, turns.board_of(page.puzzle, attempt), attempt, tz_name, behind)
    return render_template(template, **context), 200


CSRF_SLOT = "__csrf_token_slot__"
UNTOUCHED_PAGES: AppCache[tuple[object, ...], str] = AppCache(
    "untouched pages", 256, serves="GET / for a newcomer: 1.1 ms from this cache, 3.1 ms rendering the page"
)


@dataclass(frozen=True, slots=True)
class StillOpen:
    """An earlier daily puzzle the player has not finished that is still open somewhere."""

    number: int
    url: str
    left: str
    """How long it stays open, in words."""


def earlier_open(page: PuzzlePage, player: str | None) -> tuple[StillOpen, ...]:
    """On today's page, the earlier daily puzzles still open that this player has not finished: a
    traveller who flew east sees the next day's puzzle while the last one still counts for the streak."""
    if not page.is_today or page.number is None or player is None:
        return ()  # a first visit has no streak to keep, and asks the database nothing
    moment, dates = now(), calendar()
    numbers = [number for number in dates.open_numbers(moment) if 1 <= number < page.number]
    if not numbers:
        return ()
    # every open day is published (by the clock a week ahead, else by its first request): one query
    finished = records.finished_numbers(db.session(), player, numbers)
    return tuple(
        StillOpen(number, url_for("play.puzzle", number=number), _duration(dates.closes(number) - moment))
        for number in numbers
        if number not in finished
    )


def untouched_page(page: PuzzlePage, template: str, tz_name: str, behind: tuple[StillOpen, ...] = ()) -> str:
    """A puzzle nobody has moved a card of looks the same to everyone in a time zone, minute by
    minute: each process renders it once and fills in only the visitor's CSRF token."""
    pages = UNTOUCHED_PAGES()
    key = (
        request.host,  # the page's link preview names the site by its host
        page.blueprint,
        page.key,
        _beat(),  # parsed: random text in the link must not fill the cache with copies
        template,
        page.is_today,
        tz_name,
        behind,
        prefs.deck(),  # the page opens with the visitor's deck colours
        now().replace(second=0, microsecond=0),
    )
    rendered = pages.get(key)
    if rendered is None:
        context = turn_context(page, turns.board_of(page.puzzle, None), None, tz_name, behind)
        rendered = render_template(template, csrf_token=lambda: CSRF_SLOT, **context)
        pages.put(key, rendered)
    return rendered.replace(CSRF_SLOT, generate_csrf())


def turn_context(
    page: PuzzlePage,
    board: Board,
    attempt: models.PlayerAttempt | None,
    tz_name: str,
    behind: tuple[StillOpen, ...] = (),
) -> dict[str, Any]:
    puzzle = page.puzzle
    views = board.views()
    done = attempt is not None and attempt.done
    progress = None
    if not done:
        progress = turns.progress(board.position, board.laid(), puzzle.max_placed, _step_time_limit())
    cards = board.cards()
    moment = now()
    next_at = calendar().next_day_starts(moment, zone(tz_name))
    hint = turns.latest_hint(attempt) if not done else None
    ends = turns.deadline(attempt) if attempt is not None and not done else None
    streak = None
    if done and attempt is not None and page.counts_for_streak:
        streak = records.player_streak(db.session(), attempt.player_id, calendar(), moment)
    return {
        "page": page,
        "number": page.number,
        "day": page.day,
        "is_today": page.is_today,
        "puzzle": puzzle,
        "attempt": attempt,
        "cards": cards,
        "melds": views,
        "hand": board.hand_ids(),
        "jokers_to_hand": board.jokers_to_hand,
        "progress": progress,
        "can_end": bool(board.laid()) and all(view.state is MeldState.VALID for view in views),
        "can_undo": attempt is not None and bool(attempt.history) and not done,
        "done": done,
        "share": turns.share_text(page.title, attempt, streak.current if streak else None)
        if done and attempt is not None
        else None,
        "streak": streak,
        "rating_change": records.rating_change(db.session(), attempt)
        if done and attempt is not None
        else None,
        "solution": _solution(puzzle) if done else None,
        "hint": hint,
        "hinted": set(hint.card_ids) if hint else set(),
        "hints_used": [Hint.from_json(entry) for entry in attempt.hint_log] if attempt else [],
        "hints_left": RUNGS - (attempt.hints if attempt else 0),
        "deadline": ends,
        "time_left": turns.clock_face(ends - moment) if ends else None,
        "turn_seconds": _turn_seconds(),
        "challenge": _challenge(page, attempt) if done and attempt and page.blueprint != "play" else None,
        "beat": _beat(),
        "next_at": next_at,
        "next_in": _duration(next_at - moment),
        "elapsed": _elapsed(attempt),
        "tz_name": tz_name,
        "still_open": behind,
    }


def _challenge(page: PuzzlePage, attempt: models.PlayerAttempt) -> str:
    """A link that opens this puzzle for a friend, with the moves to beat when it was solved."""
    beat = attempt.moves if attempt.status == Status.SOLVED else None
    return page.url("puzzle", _external=True, beat=beat)


def _beat() -> int | None:
    """The moves a friend's challenge link asks to beat (`?beat=9`), if any."""
    return small_number(request.args.get("beat", ""), 3)


def _elapsed(attempt: models.PlayerAttempt | None) -> str | None:
    if attempt is None or attempt.finished is None:
        return None
    if attempt.time_limit:
        return turns.clock_face(attempt.finished - attempt.started)
    return _duration(attempt.finished - attempt.started)


def _duration(span: timedelta) -> str:
    minutes = max(int(span.total_seconds()) // 60, 0)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min" if minutes else "under 1 min"


@dataclass(frozen=True, slots=True)
class CardFace:
    """What a drawn card shows: its corner, its colour and suit classes, and its spoken name."""

    rank: str
    symbol: str
    classes: str
    label: str


@bp.app_template_filter("face")
@memoised(64, serves="pages that draw cards outside the board: /help takes 3.1 ms, 3.9 ms without")
def card_face(card: Card) -> CardFace:
    if card.suit is None:
        return CardFace("JOKER", "★", "joker", "joker")
    colour = "red" if card.suit.is_red else "black"
    return CardFace(card.pretty()[:-1], card.suit.symbol, f"{colour} {card.suit.name.lower()}", card.pretty())


@bp.app_template_global("drawn_card")
def drawn_card(
    card_id: str,
    card: Card,
    where: int | str,
    from_hand: bool = False,
    movable: bool = True,
    hinted: bool = False,
) -> Markup:
    """The `card` macro of `_cards.html`, rendered once per process for each card, place and state:
    the board draws every card after every move, and nearly all are drawn as they were."""
    return _drawn_card(current_app.jinja_env, card_id, card, where, from_hand, movable, hinted)


@memoised(
    8192,
    serves="the board drawn after every move: a player's page takes 5.5 ms, 6.3 ms rendering "
    "each card's button again",
)
def _drawn_card(
    env: Environment, card_id: str, card: Card, where: int | str, from_hand: bool, movable: bool, hinted: bool
) -> Markup:
    macro = env.get_template("_cards.html").module.card  # type: ignore[attr-defined]
    return Markup(macro(card_id, card, where, from_hand, movable, hinted))


def _solution(puzzle: models.PoolPuzzle) -> list[list[Card]]:
    return [[Card.parse(token) for token in meld] for meld in puzzle.solution]


def _step_time_limit() -> float:
    return float(current_app.config["STEP_TIME_LIMIT"])


def _turn_seconds() -> int:
    return int(current_app.config["TURN_SECONDS"])


@bp.get("/")
def today() -> tuple[str, int]:
    tz_name = player_zone_name()
    number = calendar().today(now(), zone(tz_name))
    if number < 1:
        return render_template("soon.html", launch=calendar().launch), 200
    return render_turn(daily_page(number, is_today=True))


@bp.get("/puzzles/<int:number>")
def puzzle(number: int) -> tuple[str, int]:
    return render_turn(daily_page(number))


RACE_TRIES = 3
Action = Callable[[models.PlayerAttempt], None]


def act(page: PuzzlePage, action: Action) -> Response | tuple[str, int]:
    """Do `action` to the player's attempt at the page's puzzle (started now if they have none),
    unless the turn's time has run out; rate the attempt if that finished it; answer with the board."""
    player = current_player_id()
    action = turns.on_time(action)
    attempt = _act_on_stored(page, player, action) if player else None
    if attempt is None:
        attempt = _act_on_new(page, action)
    attempt = _finished(attempt)
    if request.headers.get("HX-Request"):
        return render_turn(page, attempt=attempt)
    return redirect(page.url("puzzle"), 303)


def _nothing(attempt: models.PlayerAttempt) -> None:
    """An action that changes nothing: with `turns.on_time`, it only settles a turn whose time ran out."""


def _finished(attempt: models.PlayerAttempt) -> models.PlayerAttempt:
    """Rate an attempt that has just finished: a Glicko-2 game between player and puzzle."""
    if attempt.done and attempt.rating_after is None:
        with db.write() as session:
            rating = records.rate(session, attempt.id)
        if rating is not None:
            attempt.rating_after = rating
    return attempt


def _act_on_stored(page: PuzzlePage, player: str, action: Action) -> models.PlayerAttempt | None:
    """The action on the player's attempt, if they have one, written with compare and swap: no
    transaction is open while Python works, and SQLite's lock is held for one UPDATE only."""
    with db.database().autocommit() as connection:
        for _ in range(RACE_TRIES):
            stored = turns.read(connection, player, page.puzzle)
            if stored is None:
                return None
            action(stored.attempt)
            if turns.write(connection, stored):
                return stored.attempt
    raise turns.TurnRace("the table changed in another window meanwhile: reload the page")


def _act_on_new(page: PuzzlePage, action: Action) -> models.PlayerAttempt:
    """A player's first action on the puzzle: their row (and cookie) if new, and the attempt."""
    with db.write() as session:
        player = current_player_id()
        attempt = turns.locked(session, player, page.puzzle.id) if player else None
        if attempt is None:
            player = ensure_player(session)
            attempt = turns.start(
                session, player, session.get_one(models.PoolPuzzle, page.puzzle.id), page.number
            )
        action(attempt)
    return attempt


def hint(page: PuzzlePage) -> Response | tuple[str, int]:
    """The next rung of the hint ladder for the table as it stands. The engine works outside any
    transaction; the hint is stored only if the table is still the one it was worked out for."""
    player = current_player_id()
    attempt = turns.find(db.session(), player, page.puzzle) if player else None
    if attempt is not None and attempt.done:
        raise turns.TurnOver("this puzzle is finished: no more hints")
    if attempt is not None and turns.overdue(attempt, now()):
        return act(page, _nothing)
    used = attempt.hints if attempt else 0
    if used >= RUNGS:
        raise turns.TurnError(f"no hints left: {RUNGS} is the most")
    board = turns.board_of(page.puzzle, attempt)
    advice = hints.hint(board, used + 1, _solution(page.puzzle), float(current_app.config["HINT_TIME_LIMIT"]))

    def give(attempt: models.PlayerAttempt) -> None:
        if attempt.hints != used or attempt.melds != board.to_json():
            raise turns.TurnRace("the table changed while the hint was worked out: ask again")
        turns.add_hint(attempt, advice)

    return act(page, give)


def timed(page: PuzzlePage) -> Response | tuple[str, int]:
    """Start a timed turn: the clock runs from now."""
    seconds = _turn_seconds()
    return act(page, lambda attempt: turns.start_clock(attempt, seconds))


def time_up(page: PuzzlePage) -> Response | tuple[str, int]:
    """The page's clock reached zero: end the turn if the server's clock agrees, else show the board."""
    player = current_player_id()
    if player is None or turns.find(db.session(), player, page.puzzle) is None:
        return render_turn(page)
    return act(page, _nothing)


def add_turn_views(blueprint: Blueprint, rule: str, find: Callable[..., PuzzlePage]) -> None:
    """Register the POSTs of a turn on `blueprint` under `rule` (`/puzzles/<int:number>`), each
    finding its page with `find(**url values)`."""

    def move(page: PuzzlePage) -> Response | tuple[str, int]:
        card = request.form.get("card", "")
        target = request.form.get("to", "")
        seen_at = request.form.get("from") or None
        if not card or not target:
            abort(400, description="a move needs a card and where it goes (to: a meld number, new or hand)")
        if any(len(request.form.getlist(field)) > 1 for field in ("card", "to", "from")):
            abort(400, description="a move takes one card to one place: the form sent a field twice")
        return act(page, lambda attempt: turns.move(attempt, card, target, seen_at))

    views: dict[str, tuple[str, Callable[[PuzzlePage], Response | tuple[str, int]]]] = {
        "move": ("move", move),
        "undo": ("undo", lambda page: act(page, turns.undo)),
        "reset": ("reset", lambda page: act(page, turns.reset)),
        "end_turn": ("end", lambda page: act(page, turns.end_turn)),
        "give_up": ("give-up", lambda page: act(page, turns.give_up)),
        "hint": ("hint", hint),
        "timed": ("timed", timed),
        "time_up": ("time-up", time_up),
    }
    for endpoint, (path, view) in views.items():
        blueprint.add_url_rule(
            f"{rule}/{path}", endpoint, _turn_view(blueprint.name, endpoint, find, view), methods=["POST"]
        )


def _turn_view(
    blueprint: str,
    endpoint: str,
    find: Callable[..., PuzzlePage],
    view: Callable[[PuzzlePage], Response | tuple[str, int]],
) -> Callable[..., Response | tuple[str, int]]:
    def turn_view(**values: Any) -> Response | tuple[str, int]:
        return view(find(**values))

    # Flask-Limiter tells views apart by name
    turn_view.__name__ = turn_view.__qualname__ = f"{blueprint}_{endpoint}"
    return limiter.limit(step_rate_limit)(turn_view)


add_turn_views(bp, "/puzzles/<int:number>", daily_page)


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

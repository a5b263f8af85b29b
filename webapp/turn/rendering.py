"""The page a turn is played on, or only its board for htmx: the turn as a `TurnView`, the result
card once it is over, the turn clock, and today's pointer to an earlier puzzle still open. It only
draws: the turn comes from `actions` (which has ended an overdue timed turn and run the step check);
what it reads here is what the result card shows (the streak, the rating change, the crowd).

A puzzle nobody has moved a card of looks the same to everyone in a time zone, minute by minute, so
each process renders it once (`untouched_page`) and fills in only the visitor's CSRF token, or no
token at all for today's page (`GET /`) when the visitor has no session (`g.sessionless`, set by that
view): that page is then the same for every such visitor in a language, and can be kept whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import current_app, g, render_template, request, url_for

from puzzles import HINT_RUNGS, Card, Hint, Meld, Position, Step, Words, plan_steps, play_of
from webapp import db
from webapp.caching import AppCache
from webapp.client_input import small_number
from webapp.languages import letters, page_language
from webapp.models import PlayerAttempt, Status
from webapp.players import records
from webapp.players.crowd import Crowd, how_others_did
from webapp.players.identity import current_player_id
from webapp.players.streaks import Streak
from webapp.schedule.clock import calendar, now, player_zone_name
from webapp.schedule.days import zone
from webapp.templating import deck, drawn_for_keeping, token_left_out, token_put, verdict_shown
from webapp.turn import attempts
from webapp.turn.actions import Turn
from webapp.turn.pages import Mode, PuzzlePage
from webapp.turn.view import NumberedMeld, TurnView, numbered
from webapp.wording import say

UNTOUCHED_PAGES: AppCache[tuple[object, ...], str] = AppCache(
    "untouched pages",
    256,
    serves="a newcomer's GET / through Flask (no kept answer in front: another worker, a language "
    "cookie, htmx), asked before the daily is read: 0.42 ms of CPU with it, 3.48 ms drawing the page "
    "again (bench/web_caches.py)",
)


@dataclass(frozen=True, slots=True)
class StillOpen:
    """An earlier daily puzzle the player has not finished that is still open somewhere."""

    number: int
    url: str
    left: Words
    """How long it stays open, in words."""


@dataclass(frozen=True, slots=True)
class TurnClock:
    """A timed turn's clock, and the time a timed turn would have."""

    deadline: datetime | None
    time_left: str | None
    seconds: int


@dataclass(frozen=True, slots=True)
class Result:
    """A finished turn as its result card shows it."""

    share: tuple[str, ...]
    """The share text's parts, said: the page joins them with ` · `."""
    streak: Streak | None
    rating_change: tuple[float, float] | None
    provisional: bool
    """The player's rating is still provisional: shown with a "?" and without the jump."""
    steps: tuple[Step, ...]
    """The steps from the puzzle's table to its solution (plan_steps), shown once the turn is over."""
    final: tuple[NumberedMeld, ...]
    """The solution's table, meld by meld as the steps number them, the hand's cards marked."""
    elapsed: str | Words | None
    hints_used: list[Hint]
    challenge: str | None
    """A link that opens the puzzle for a friend (archive and practice)."""
    next_at: datetime
    next_in: Words
    crowd: CrowdView
    """How everyone else did on this puzzle (the player has finished it, or there is no result)."""


@dataclass(frozen=True, slots=True)
class CrowdView:
    """How everyone else did, as the result card words it."""

    crowd: Crowd
    median_time: Words | None
    faster_than: int | None
    """For a solve: the share of the other solves that took longer."""
    fewer_moves_than: int | None


WARM_UP_TIERS = frozenset({"expert", "master"})
"""Days whose puzzle is too hard for a first game: a newcomer is offered an Easy one first."""


def render_turn(page: PuzzlePage, turn: Turn) -> tuple[str, int]:
    """The play page, or only its board for htmx."""
    template = "_board.html" if request.headers.get("HX-Request") else "play.html"
    tz_name = player_zone_name()
    player = current_player_id()
    behind = earlier_open(page, player)
    if turn.attempt is None:
        return untouched_page(page, turn.view, template, tz_name, behind, newcomer(page, player)), 200
    return render_template(template, **_context(page, turn.attempt, turn.view, tz_name, behind)), 200


def newcomer(page: PuzzlePage, player: str | None) -> bool:
    """On today's page, whether the visitor is new: no cookie, or no puzzle finished yet. Only a hard
    day asks the database: on other days a player with a cookie is taken as no newcomer, which the
    page does not show."""
    if not page.is_today:
        return False
    if player is None:
        return True
    return page.puzzle.tier in WARM_UP_TIERS and not records.has_finished_any(db.session(), player)


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
        StillOpen(
            number,
            url_for("daily.puzzle", number=number),
            attempts.duration_words(dates.closes(number) - moment),
        )
        for number in numbers
        if number not in finished
    )


def untouched_page(
    page: PuzzlePage,
    view: TurnView,
    template: str,
    tz_name: str,
    behind: tuple[StillOpen, ...] = (),
    new: bool = False,
) -> str:
    """The page of a puzzle nobody has moved a card of, from this process's cache; `new`: the visitor
    is a newcomer (`newcomer`), offered a warm-up on a hard day."""
    pages = UNTOUCHED_PAGES()
    key = _untouched_key(page.mode, page.key, page.is_today, template, tz_name, behind, new)
    rendered = pages.get(key)
    if rendered is None:
        context = _context(page, None, view, tz_name, behind)
        context["warm_up"] = new and page.puzzle.tier in WARM_UP_TIERS
        with drawn_for_keeping():
            rendered = render_template(template, **context)
        pages.put(key, rendered)
    return _token_in(rendered)


def _token_in(rendered: str) -> str:
    return token_left_out(rendered) if g.get("sessionless") else token_put(rendered)


def kept_newcomer_page(number: int) -> str | None:
    """Today's page (`number`) for a visitor who is no player yet, when this process has drawn it
    this minute: served before the daily's row or its board are read, which cost a new visitor's
    `GET /` three quarters of its time (bench/flood.py)."""
    if current_player_id() is not None:
        return None
    template = "_board.html" if request.headers.get("HX-Request") else "play.html"
    # as `daily_page(number, is_today=True)` names it, and a visitor with no player has nothing open;
    # a newcomer on a hard day, else the warm-up's offer is left out of the page whatever the key says
    key = _untouched_key(Mode.DAILY, (("number", number),), True, template, player_zone_name(), (), True)
    rendered = UNTOUCHED_PAGES().get(key)
    return None if rendered is None else _token_in(rendered)


def _untouched_key(
    mode: Mode,
    names: tuple[tuple[str, int | str], ...],
    is_today: bool,
    template: str,
    tz_name: str,
    behind: tuple[StillOpen, ...],
    new: bool,
) -> tuple[object, ...]:
    return (
        request.host,  # the page's link preview names the site by its host
        new,
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
) -> dict[str, Any]:
    """What play.html and _board.html draw."""
    moment = now()
    ends = attempt.deadline if attempt is not None and not attempt.done else None
    return {
        "page": page,
        "puzzle": page.puzzle,
        "attempt": attempt,
        "turn": view,
        "result": _result(page, attempt, tz_name) if attempt is not None and attempt.done else None,
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
    }


def _result(page: PuzzlePage, attempt: PlayerAttempt, tz_name: str) -> Result:
    moment = now()
    streak = None
    if page.counts_for_streak:
        streak = records.player_streak(db.session(), attempt.player_id, calendar(), moment)
    next_at = calendar().next_day_starts(moment, zone(tz_name))
    return Result(
        share=tuple(
            say(part) for part in attempts.share_text(page.title, attempt, streak.current if streak else None)
        ),
        streak=streak,
        rating_change=records.rating_change(db.session(), attempt),
        provisional=records.current_rating(db.session(), attempt.player_id).provisional,
        **_solution(page.puzzle.position(), page.puzzle.solution_cards()),
        elapsed=_elapsed(attempt),
        hints_used=attempts.hints_used(attempt),
        challenge=_challenge(page, attempt) if page.mode in (Mode.ARCHIVE, Mode.PRACTICE) else None,
        next_at=next_at,
        next_in=attempts.duration_words(next_at - moment),
        crowd=_crowd(
            attempt, how_others_did(db.session(), attempt.puzzle_id, moment, attempt.finished or moment)
        ),
    )


def _solution(position: Position, solution: list[list[Card]]) -> dict[str, Any]:
    """The steps to the solution and its final table, as the analyser draws them."""
    steps = plan_steps(position, play_of(position, [Meld.of(meld, position.rules) for meld in solution]))
    return {"steps": steps, "final": numbered(position, steps)}


def _challenge(page: PuzzlePage, attempt: PlayerAttempt) -> str:
    """A link that opens this puzzle for a friend, with the moves to beat when it was solved."""
    beat = attempt.moves if attempt.status == Status.SOLVED else None
    return page.url("puzzle", _external=True, beat=beat)


def _beat() -> int | None:
    """The moves a friend's challenge link asks to beat (`?beat=9`), if any."""
    return small_number(request.args.get("beat", ""), 3)


def _crowd(attempt: PlayerAttempt, crowd: Crowd) -> CrowdView:
    median = crowd.median_seconds
    solve = attempt.status == Status.SOLVED and attempt.finished is not None
    spent = (attempt.finished - attempt.started).total_seconds() if solve and attempt.finished else None
    return CrowdView(
        crowd,
        attempts.duration_words(timedelta(seconds=median)) if median is not None else None,
        crowd.faster_than(spent) if spent is not None else None,
        crowd.fewer_moves_than(attempt.moves) if solve else None,
    )


def _elapsed(attempt: PlayerAttempt) -> str | Words | None:
    if attempt.finished is None:
        return None
    if attempt.time_limit:
        return attempts.clock_face(attempt.finished - attempt.started)
    return attempts.duration_words(attempt.finished - attempt.started)

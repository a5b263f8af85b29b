"""What a turn's page shows beside the board, read before the page is drawn: the result card once the
turn is over (the share text, the streak, the rating change, how everyone else did, the steps to the
solution) and, on today's page, the earlier daily puzzles still open. The views read it (`around`)
and pass it to `rendering`, which only draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import url_for
from sqlalchemy import select

from puzzles import Card, Hint, KeyIdea, Meld, Position, Step, Words, plan_steps, play_of, shown_ideas
from webapp import db
from webapp.caching import AppCache
from webapp.models import PlayerAttempt, PoolPuzzle, Status
from webapp.players import records
from webapp.players.crowd import FINISHED, Crowd, how_others_did
from webapp.players.glicko import Rating
from webapp.players.identity import current_player_id
from webapp.players.streaks import Streak
from webapp.schedule.clock import calendar, now, player_zone_name
from webapp.schedule.days import zone
from webapp.turn import attempts, store
from webapp.turn.actions import Turn, ideas_of, rated_now, rating_before_game
from webapp.turn.modes import Mode, PuzzlePage
from webapp.turn.turn_view import NumberedMeld, numbered
from webapp.wording import say


@dataclass(frozen=True, slots=True)
class StillOpen:
    """An earlier daily puzzle the player has not finished that is still open somewhere."""

    number: int
    url: str
    left: Words
    """How long it stays open, in words."""


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
    given: tuple[tuple[Card, ...], ...]
    """The table the puzzle gave, meld by meld: the steps' numbers are its melds' (drawn beside them,
    as the board the player saw draws none)."""
    key_ideas: tuple[Words, ...]
    """The puzzle's decisions in words, forks first (`puzzles.key_ideas`; a fork judged real said as
    "The key: ...", a weak one plainly and last, `puzzles.mark_weak`), and where none is a fork that
    names a choice, which melds break and where their cards go (`puzzles.shown_ideas`): shown solved
    or not."""
    elapsed: str | Words | None
    hints_used: list[Hint]
    challenge: str | None
    """A link that opens the puzzle for a friend (archive and practice)."""
    next_at: datetime
    next_in: Words
    crowd: CrowdView
    """How everyone else did on this puzzle (the player has finished it, or there is no result)."""
    share_url: str | None = None
    """The puzzle's own address, absolute, that the share text carries (none for a review round,
    whose page is the player's own)."""
    today_open: bool = False
    """This is another daily than the player's today's, which they have not finished: their streak can
    start (or go on) today, not only tomorrow."""


@dataclass(frozen=True, slots=True)
class CrowdView:
    """How everyone else did, as the result card words it."""

    crowd: Crowd
    median_time: Words | None
    faster_than: int | None
    """For a solve: the share of the other solves that took longer."""
    fewer_moves_than: int | None
    others: int = 0
    """The other players who finished it (their first turn), real play or not."""
    others_solved: int = 0
    """Those of `others` who solved it."""
    rating: int = 0
    """The puzzle's rating now: what the first to finish can be told of it."""


@dataclass(frozen=True, slots=True)
class Around:
    """What the page of a turn shows around its board."""

    still_open: tuple[StillOpen, ...]
    result: Result | None
    """The result card, once the turn is over."""
    newcomer: bool = False
    """On today's page, the visitor is new (`is_newcomer`): offered a warm-up on a hard day."""


WARM_UP_TIERS = frozenset({"expert", "master"})
"""Days whose puzzle is too hard for a first game: a newcomer is offered an Easy one first."""


def around(page: PuzzlePage, turn: Turn) -> Around:
    """What the page of `turn` shows beside its board, read now (none of it for an untouched puzzle's
    page but the earlier puzzles still open)."""
    player = current_player_id()
    behind = earlier_open(page, player)
    attempt = turn.attempt
    if attempt is None:
        return Around(behind, None, is_newcomer(page, player))
    if not attempt.done:
        return Around(behind, None)
    return Around(behind, result_of(page, attempt, player_zone_name()))


def is_newcomer(page: PuzzlePage, player: str | None) -> bool:
    """On today's page, whether the visitor is new: no cookie, or no puzzle finished yet. Only a hard
    day asks the database: on other days a player with a cookie is taken as no newcomer, which the
    page does not show."""
    if not page.is_today:
        return False
    if player is None:
        return True
    if page.puzzle.tier not in WARM_UP_TIERS:
        return False
    finished = select(PlayerAttempt.id).where(
        PlayerAttempt.player_id == player, PlayerAttempt.status != Status.PLAYING
    )
    return db.session().scalar(finished.limit(1)) is None


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


def result_of(page: PuzzlePage, attempt: PlayerAttempt, tz_name: str) -> Result:
    """The result card of a finished turn."""
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
        rating_change=_rating_change(attempt),
        provisional=_rating_after(attempt).provisional,
        **_solution_of(page.puzzle),
        elapsed=_elapsed(attempt),
        hints_used=attempts.hints_used(attempt),
        challenge=_challenge(page, attempt) if page.mode in (Mode.ARCHIVE, Mode.PRACTICE) else None,
        next_at=next_at,
        next_in=attempts.duration_words(next_at - moment),
        crowd=_crowd(
            attempt, how_others_did(db.session(), attempt.puzzle_id, moment, attempt.finished or moment)
        ),
        share_url=None if page.mode is Mode.REVIEW else page.url("puzzle", _external=True),
        today_open=streak is not None and _today_open(page, attempt, moment, tz_name),
    )


def _rating_change(attempt: PlayerAttempt) -> tuple[float, float] | None:
    """The rating after the attempt and how much it moved it: from the game this request rated,
    else read."""
    rated = rated_now(attempt.id)
    if rated is None:
        return records.rating_change(db.session(), attempt)
    return rated.player.rating, rated.player.rating - rated.player_before


def _rating_after(attempt: PlayerAttempt) -> Rating:
    rated = rated_now(attempt.id)
    return rated.player if rated is not None else records.current_rating(db.session(), attempt.player_id)


def _today_open(page: PuzzlePage, attempt: PlayerAttempt, moment: datetime, tz_name: str) -> bool:
    """The player's today's daily is another than this one, open, and not finished by them."""
    today = calendar().today(moment, zone(tz_name))
    if page.number == today or not calendar().is_open(today, moment):
        return False
    finished = db.session().scalar(
        select(PlayerAttempt.id).where(
            PlayerAttempt.player_id == attempt.player_id,
            PlayerAttempt.number == today,
            PlayerAttempt.status != Status.PLAYING,
        )
    )
    return finished is None


SOLUTIONS: AppCache[int, dict[str, Any]] = AppCache(
    "solutions shown",
    64,
    serves="a result card: the steps to the solution (1.6 ms of CPU each time, the known puzzle), its "
    "table and its key ideas, worked out once per puzzle rather than for every player ending a turn: "
    "issue 42's rush counts every ms of an end",
)


def _solution_of(puzzle: PoolPuzzle) -> dict[str, Any]:
    """`_solution` of the puzzle, kept: its cards never change, and its key ideas are words not yet
    said in any language. A puzzle stored without its key ideas is not kept: the page's wait for
    them may have run out (`actions.ideas_of`), and the next one may find them."""
    kept = SOLUTIONS().get(puzzle.id)
    if kept is None:
        kept = _solution(puzzle.position(), puzzle.solution_cards(), ideas_of(puzzle))
        if puzzle.key_ideas is not None:
            SOLUTIONS().put(puzzle.id, kept)
    return kept


def _solution(position: Position, solution: list[list[Card]], ideas: tuple[KeyIdea, ...]) -> dict[str, Any]:
    """The steps to the solution and its final table, as the analyser draws them, and its key ideas
    (stored with the puzzle: `actions.ideas_of`) in words."""
    steps = plan_steps(position, play_of(position, [Meld.of(meld, position.rules) for meld in solution]))
    return {
        "steps": steps,
        "final": numbered(position, steps),
        "given": tuple(meld.cards for meld in position.table),
        "key_ideas": shown_ideas(position, steps, ideas),
    }


def _challenge(page: PuzzlePage, attempt: PlayerAttempt) -> str:
    """A link that opens this puzzle for a friend, with the moves to beat when it was solved."""
    beat = attempt.moves if attempt.status == Status.SOLVED else None
    return page.url("puzzle", _external=True, beat=beat)


def _crowd(attempt: PlayerAttempt, crowd: Crowd) -> CrowdView:
    median = crowd.median_seconds
    solve = attempt.status == Status.SOLVED and attempt.finished is not None
    spent = (attempt.finished - attempt.started).total_seconds() if solve and attempt.finished else None
    # the crowd's counts hold the player's own first turn (counted after it finished): leave it out
    if attempt.review == 0:
        first: Status | None = attempt.status
    else:
        turn = store.find(db.session(), attempt.player_id, attempt.puzzle, 0)
        first = turn.status if turn is not None else None
    mine = first in FINISHED
    return CrowdView(
        crowd,
        attempts.duration_words(timedelta(seconds=median)) if median is not None else None,
        crowd.faster_than(spent) if spent is not None else None,
        crowd.fewer_moves_than(attempt.moves) if solve else None,
        others=max(crowd.everyone - mine, 0),
        others_solved=max(crowd.everyone_solved - (mine and first == Status.SOLVED), 0),
        rating=round(_rating_now(attempt.puzzle)),
    )


def _rating_now(puzzle: PoolPuzzle) -> float:
    """The puzzle's rating as the request found it: before the game it has just rated, else as stored
    now (the page's puzzle may have been read a minute ago)."""
    rating = rating_before_game(puzzle.id)
    if rating is None:
        rating = db.session().scalar(select(PoolPuzzle.rating).where(PoolPuzzle.id == puzzle.id))
    return puzzle.rating if rating is None else rating


def _elapsed(attempt: PlayerAttempt) -> str | Words | None:
    if attempt.finished is None:
        return None
    if attempt.time_limit:
        return attempts.clock_face(attempt.finished - attempt.started)
    return attempts.duration_words(attempt.finished - attempt.started)

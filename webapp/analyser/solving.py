"""The analyser's solves: the engine's analysis under the site's time limit, kept once proven, and the
guard that keeps a daily puzzle's answer back while it is open and unfinished.
"""

from __future__ import annotations

from collections import Counter

from flask import abort, current_app
from sqlalchemy import select

from puzzles import Analysis, Best, Objective, Position, analyse, maximum
from webapp import db
from webapp.caching import AppCache
from webapp.models import Daily, PoolPuzzle
from webapp.players import records
from webapp.players.identity import current_player_id
from webapp.schedule.clock import calendar, now
from webapp.wording import gettext

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
    reader = db.session()
    rows = reader.execute(
        select(Daily.number, PoolPuzzle.table)
        .join(PoolPuzzle, Daily.puzzle_id == PoolPuzzle.id)
        .where(PoolPuzzle.rules == position.rules.name, Daily.number.in_(numbers))
    )
    cards = Counter(str(card) for meld in position.table for card in meld.cards)
    cards.update(str(card) for card in position.hand)
    matching = [number for number, daily in rows if not Counter(c for meld in daily for c in meld) - cards]
    if not matching:
        return None
    finished = records.finished_numbers(reader, current_player_id(), matching)
    return next((number for number in matching if number not in finished), None)


def refuse_open_daily(position: Position) -> None:
    number = unfinished_daily(position)
    if number is not None:
        abort(
            403,
            description=gettext(
                "This is daily puzzle #%(number)s, still open: "
                "it can be analysed once you have solved it or given up.",
                number=number,
            ),
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


def is_cached(position: Position, objective: Objective) -> bool:
    """Whether the analysis under the site's limit is kept: asking for it costs no solve."""
    return (str(position), objective.value, solve_time_limit()) in ANALYSES()


def is_maximum_cached(position: Position) -> bool:
    """Whether `best_of` has the position's maximum already: playing it costs no solve."""
    return (str(position), solve_time_limit()) in MAXIMA()

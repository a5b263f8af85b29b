"""The analyser's solves: the engine's analysis under the site's time limit, kept once proven, and the
guard that keeps a daily puzzle's answer back while it is open and unfinished.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace

from flask import abort, current_app
from sqlalchemy import select

from puzzles import Analysis, Best, Objective, Position, analyse, maximum
from webapp import db, solver_gate
from webapp.caching import AppCache
from webapp.models import Daily, PoolPuzzle
from webapp.players import records
from webapp.players.identity import current_player_id
from webapp.schedule.clock import calendar, now

ANALYSES: AppCache[tuple[str, str, float], Kept] = AppCache(
    "analyses",
    256,
    serves="an analysis asked again (a shared link, the other objective's switch, the API, the same "
    "melds in another order): 7.4 ms, 15 ms solving a small position again, up to SOLVE_TIME_LIMIT for "
    "a hard one",
)
MAXIMA: AppCache[tuple[str, float], Best] = AppCache(
    "maxima",
    256,
    serves="every move of /analyse/play: 6.3 ms, 9.6 ms solving the position's maximum again "
    "(and the goal of a turn must not change between moves)",
)


@dataclass(frozen=True, slots=True)
class Kept:
    analysis: Analysis
    stored: float
    """`time.monotonic()` when it was solved."""


def solve_time_limit() -> float:
    return float(current_app.config["SOLVE_TIME_LIMIT"])


def canonical(position: Position) -> tuple[Position, tuple[int, ...]]:
    """The position with its melds in a fixed order (cards are already sorted in a meld and in the
    hand, and spelt one way), and where each of its melds is in the original table. Shuffled melds,
    `TH` for `10H`: one cache entry, one solve."""
    order = tuple(
        sorted(range(len(position.table)), key=lambda i: [card.index for card in position.table[i].cards])
    )
    return Position(position.rules, tuple(position.table[i] for i in order), position.hand), order


def in_order(analysis: Analysis, position: Position, order: tuple[int, ...]) -> Analysis:
    """An analysis of the canonical position told for `position`: meld numbers back in its order."""

    def back(melds: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(order[meld] for meld in melds))

    # the layout's candidates number melds the canonical way; nothing reads it after the analysis
    depth = replace(analysis.depth, broken=back(analysis.depth.broken), layout=Counter())
    groups = sorted(back(group) for group in analysis.chain.rearrangements)
    chain = replace(analysis.chain, rearrangements=tuple(groups))
    return replace(analysis, position=position, depth=depth, chain=chain)


def solve(position: Position, objective: Objective, time_limit: float) -> Analysis:
    """The analysis, through the solver gate unless this process kept it."""
    ordered, order = canonical(position)
    key = (str(ordered), objective.value, time_limit)
    analysis = _kept(key)
    if analysis is None:
        analysis = solver_gate.run(lambda: analyse(ordered, objective, time_limit))
        # an unproven answer is kept too, for a while: a repeat must not cost the solver again
        ANALYSES().put(key, Kept(analysis, time.monotonic()))
    return in_order(analysis, position, order)


def _kept(key: tuple[str, str, float]) -> Analysis | None:
    kept = ANALYSES().get(key)
    if kept is None:
        return None
    age = time.monotonic() - kept.stored
    if not kept.analysis.proven and age >= float(current_app.config["UNPROVEN_KEEP_SECONDS"]):
        return None
    return kept.analysis


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
            description=f"This is daily puzzle #{number}, still open: "
            "it can be analysed once you have solved it or given up.",
        )


def best_of(position: Position) -> Best:
    """The most cards the position can place, for the play view: kept even unproven, so the goal of
    a turn does not change from one move to the next."""
    ordered, _ = canonical(position)
    key = (str(ordered), solve_time_limit())
    best = MAXIMA().get(key)
    if best is None:
        limit = solve_time_limit()
        best = solver_gate.run(lambda: maximum(ordered, Objective.CARDS, limit))
        MAXIMA().put(key, best)
    return best

"""The analyser's solves: the engine's analysis under the site's time limit, through the solver gate,
kept under the engine's canonical position (`puzzles.canonical`): the same melds in another order
are one entry and one solve.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from flask import current_app

from puzzles import Analysis, Best, Objective, Position, analyse, canonical, maximum, told_for
from webapp import solver_gate
from webapp.caching import AppCache

ANALYSES: AppCache[tuple[Position, Objective, float], Kept] = AppCache(
    "analyses",
    256,
    serves="an analysis asked again (a shared link, the other objective's switch, the API, the same "
    "melds in another order): 7.4 ms, 15 ms solving a small position again, up to SOLVE_TIME_LIMIT for "
    "a hard one",
)
MAXIMA: AppCache[tuple[Position, float], Best] = AppCache(
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


def solve(position: Position, objective: Objective, time_limit: float) -> Analysis:
    """The analysis, through the solver gate unless this process kept it."""
    ordered, order = canonical(position)
    key = (ordered, objective, time_limit)
    analysis = _kept(key)
    if analysis is None:
        analysis = solver_gate.run(lambda: analyse(ordered, objective, time_limit))
        # an unproven answer is kept too, for a while: a repeat must not cost the solver again
        ANALYSES().put(key, Kept(analysis, time.monotonic()))
    return told_for(analysis, position, order)


def _kept(key: tuple[Position, Objective, float]) -> Analysis | None:
    kept = ANALYSES().get(key)
    if kept is None:
        return None
    age = time.monotonic() - kept.stored
    if not kept.analysis.proven and age >= float(current_app.config["UNPROVEN_KEEP_SECONDS"]):
        return None
    return kept.analysis


def best_of(position: Position) -> Best:
    """The most cards the position can place, for the play view: kept even unproven, so the goal of
    a turn does not change from one move to the next."""
    ordered, _ = canonical(position)
    key = (ordered, solve_time_limit())
    best = MAXIMA().get(key)
    if best is None:
        limit = solve_time_limit()
        best = solver_gate.run(lambda: maximum(ordered, Objective.CARDS, limit))
        MAXIMA().put(key, best)
    return best

"""The analyser's solves: the engine's analysis under the site's time limit, through the solver gate,
kept under the engine's canonical position (`puzzles.canonical`): in this process (`ANALYSES`), and
for every worker in Redis when it is configured (`SHARED`), so the same position asked of the other
worker costs no second solve.
What a view makes of a kept analysis (the API's JSON, the page's HTML) is kept beside it
(`rendered`): a kept answer costs no planning or rendering again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import current_app

from puzzles import Analysis, Best, Objective, Position, analyse, canonical, maximum, told_for
from webapp import solver_gate
from webapp.caching import AppCache, SharedCache

T = TypeVar("T")

ANALYSES: AppCache[tuple[str, str, float], Kept] = AppCache(
    "analyses",
    256,
    serves="an analysis asked again (a shared link, the other objective's switch, the API, the same "
    "melds in another order): 7.4 ms, 15 ms solving a small position again, up to SOLVE_TIME_LIMIT for "
    "a hard one",
)
SHARED = SharedCache(
    "analyses",
    serves="the same position asked of another worker: a second solve (15 ms for a small position, "
    "1.2 s for a hard one) saved for one Redis read; each entry expires, so Redis holds it bounded",
)
RENDERED: AppCache[Hashable, tuple[float, Any]] = AppCache(
    "rendered answers",
    512,
    serves="a kept answer served again: /api/solve 15-17 ms of step planning and JSON, /analyse 67 ms "
    "of rendering, each under 2 ms from here (bench/flood.py)",
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


def solve(position: Position, objective: Objective, time_limit: float) -> Analysis:
    """The analysis, through the solver gate unless this process or the shared cache kept it."""
    ordered, order = canonical(position)
    return told_for(_analysis(ordered, objective, time_limit).analysis, position, order)


def rendered(
    position: Position,
    objective: Objective,
    time_limit: float,
    how: Hashable,
    render: Callable[[Analysis], T],
) -> T:
    """`render(analysis)` of the position's analysis, kept beside the analysis it was made from (and
    dropped with it): `how` names what else it depends on (the view, the language, ...)."""
    ordered, order = canonical(position)
    kept = _analysis(ordered, objective, time_limit)
    key = (str(position), objective.value, time_limit, how)
    made = RENDERED().get(key)
    if made is not None and made[0] == kept.stored:
        return made[1]  # type: ignore[no-any-return]
    value = render(told_for(kept.analysis, position, order))
    RENDERED().put(key, (kept.stored, value))
    return value


def _analysis(ordered: Position, objective: Objective, time_limit: float) -> Kept:
    key = (str(ordered), objective.value, time_limit)
    kept = _kept(key)
    if kept is not None:
        return kept
    shared_key = "|".join((str(ordered), objective.value, repr(time_limit)))
    analysis = SHARED.get(shared_key)
    if not isinstance(analysis, Analysis):
        analysis = solver_gate.run(lambda: analyse(ordered, objective, time_limit))
        # an unproven answer is kept too, for a while: a repeat must not cost the solver again
        config = current_app.config
        keep = config["PROVEN_KEEP_SECONDS"] if analysis.proven else config["UNPROVEN_KEEP_SECONDS"]
        SHARED.put(shared_key, analysis, float(keep))
    kept = Kept(analysis, time.monotonic())
    ANALYSES().put(key, kept)
    return kept


def _kept(key: tuple[str, str, float]) -> Kept | None:
    kept = ANALYSES().get(key)
    if kept is None:
        return None
    age = time.monotonic() - kept.stored
    if not kept.analysis.proven and age >= float(current_app.config["UNPROVEN_KEEP_SECONDS"]):
        return None
    return kept


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

"""The analyser's solves, in the engine's two phases: first the settled part (maximum, uniqueness and
chain depth: `puzzles.settle`, typically tens of milliseconds), then the chain length
(`puzzles.with_chain`), which can take the rest of the time. Each phase runs through the solver gate
within its share of the site's time limit, so the page shows the settled part as soon as it is
proven and asks for the chain length after.

Both phases are kept under the engine's canonical position (`puzzles.canonical`): in this process
(`SETTLED`, `ANALYSES`), and for every worker in Redis when it is configured (`SHARED`), so the chain
length asked after the page, or the same position asked of the other worker, repeats no solve.
What a view makes of a kept answer (the API's JSON, the page's HTML) is kept beside it
(`rendered`): a kept answer costs no planning or rendering again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from flask import current_app

from puzzles import (
    CHAIN_SHARE,
    Analysis,
    Best,
    Chain,
    Objective,
    Position,
    Settled,
    canonical,
    maximum,
    settle,
    told_for,
    with_chain,
)
from webapp import solver_gate
from webapp.caching import AppCache, BoundedCache, SharedCache

T = TypeVar("T")
V = TypeVar("V", Settled, Analysis)
Key = tuple[str, str, float]
"""A canonical position, the objective and the time limit: what an answer depends on."""


@dataclass(frozen=True, slots=True)
class CachedSolve(Generic[V]):
    """One phase's answer (`Settled` or `Analysis`) as a cache holds it."""

    value: V
    """The answer for the canonical position."""
    stored: float
    """`time.monotonic()` when it was solved (or read from Redis)."""


SETTLED: AppCache[Key, CachedSolve[Settled]] = AppCache(
    "settled analyses",
    256,
    serves="the analysis page asked again before its chain length is known, and the chain length's "
    "cell after its page: the maximum, uniqueness and depth not solved again (bench/web_caches.py, "
    "GET /analyse of real-game tables: 15.8 ms of CPU with them, 25.2 ms solving them again; up to "
    "half of SOLVE_TIME_LIMIT for a hard one)",
)
ANALYSES: AppCache[Key, CachedSolve[Analysis]] = AppCache(
    "analyses",
    256,
    serves="an analysis asked again (a shared link, the other objective's switch, the API, the same "
    "melds in another order): POST /api/solve of real-game tables 4.8 ms of CPU with it, 11.9 ms "
    "solving the chain length again (bench/web_caches.py); up to SOLVE_TIME_LIMIT for a hard one",
)
SHARED = SharedCache(
    "analyses",
    serves="the same position asked of another worker: POST /api/solve of real-game tables 5.2 ms of "
    "CPU from Redis, 20.8 ms solving it again (bench/web_caches.py; a hard one up to "
    "SOLVE_TIME_LIMIT); each entry expires, so Redis holds it bounded",
)
RENDERED: AppCache[Hashable, tuple[Hashable, Any]] = AppCache(
    "rendered answers",
    512,
    serves="a kept answer served again: GET /analyse of real-game tables 3.0 ms of CPU with it, 18.6 "
    "ms drawing the page again (bench/web_caches.py)",
)
MAXIMA: AppCache[tuple[str, float], Best] = AppCache(
    "maxima",
    256,
    serves="every move of /analyse/play: real-game tables 7.7 ms of CPU with it, 11.0 ms solving the "
    "position's maximum again (bench/web_caches.py); and the goal of a turn must not change between "
    "moves",
)


def solve_time_limit() -> float:
    return float(current_app.config["SOLVE_TIME_LIMIT"])


def settled_time_limit(time_limit: float) -> float:
    """The settled part's share of an analysis's time limit; the rest is the chain length's."""
    return time_limit * (1 - CHAIN_SHARE)


def chain_time_limit(time_limit: float, settled: Settled) -> float:
    """The chain length's own share of the time limit, and whatever the settled part left of its
    share, as `puzzles.analyse` gives it in one call."""
    return time_limit - min(settled.ms / 1000, settled_time_limit(time_limit))


def settled(position: Position, objective: Objective, time_limit: float) -> tuple[Settled, Hashable]:
    """Maximum, uniqueness and depth told for the position, and a stamp that changes when they are
    solved again; solved now (through the gate) unless kept."""
    ordered, order = canonical(position)
    kept = _settled(ordered, objective, time_limit)
    if kept is None:
        found = solver_gate.run(lambda: settle(ordered, objective, settled_time_limit(time_limit)))
        kept = _keep(SETTLED(), _key(ordered, objective, time_limit), found)
    return kept.value.told(position, order), kept.stored


def whole(position: Position, objective: Objective, time_limit: float) -> tuple[Analysis, Hashable]:
    """The whole analysis told for the position, with its stamp: the chain length solved now unless
    kept, after the settled part unless that is kept too."""
    ordered, order = canonical(position)
    key = _key(ordered, objective, time_limit)
    kept = _kept(ANALYSES(), Analysis, key)
    if kept is None:
        first = _settled(ordered, objective, time_limit)
        if first is None:  # both phases in one pass through the gate: one wait, one charge
            found, analysis = solver_gate.run(lambda: _both(ordered, objective, time_limit))
            _keep(SETTLED(), key, found)
        elif first.value.chain_known:  # nothing to solve: no reason to wait at the gate
            analysis = with_chain(first.value, chain_time_limit(time_limit, first.value))
        else:
            # the settled part was solved (and paid the least charge) by its page: this is the same
            # answer's second phase, charged what it takes
            limit = chain_time_limit(time_limit, first.value)
            analysis = solver_gate.run(
                lambda: with_chain(first.value, limit), solver_gate.CHAIN_LANE, least=False
            )
        kept = _keep(ANALYSES(), key, analysis)
    return told_for(kept.value, position, order), kept.stored


@dataclass(frozen=True, slots=True)
class Answered:
    """What the analyser's page shows of a position: the settled part, the chain length when it is
    known, and the stamp of both (`rendered` keeps the page under it)."""

    settled: Settled
    chain: Chain | None
    stamp: Hashable


def answered(position: Position, objective: Objective, time_limit: float, chain_now: bool) -> Answered:
    """The page's answer: the settled part solved now unless kept, and the chain length when it is
    kept, needs no solve (a depth of 0 or 1 is its chain length), or `chain_now` asks for it."""
    if chain_now:
        whole(position, objective, time_limit)
    found, settled_stamp = settled(position, objective, time_limit)
    kept = kept_whole(position, objective, time_limit)
    if kept is None and found.chain_known:
        kept = whole(position, objective, time_limit)
    chain, chain_stamp = (kept[0].chain, kept[1]) if kept is not None else (None, None)
    return Answered(found, chain, (settled_stamp, chain_stamp))


def kept_whole(
    position: Position, objective: Objective, time_limit: float
) -> tuple[Analysis, Hashable] | None:
    """The whole analysis and its stamp if it is kept; nothing is solved."""
    ordered, order = canonical(position)
    kept = _kept(ANALYSES(), Analysis, _key(ordered, objective, time_limit))
    return None if kept is None else (told_for(kept.value, position, order), kept.stored)


def _both(ordered: Position, objective: Objective, time_limit: float) -> tuple[Settled, Analysis]:
    found = settle(ordered, objective, settled_time_limit(time_limit))
    return found, with_chain(found, chain_time_limit(time_limit, found))


def _settled(ordered: Position, objective: Objective, time_limit: float) -> CachedSolve[Settled] | None:
    """The settled part if kept, or else taken from a kept whole analysis (its depth play is one the
    chain length laid out by rearrangement: as few breaks, the same hand left)."""
    key = _key(ordered, objective, time_limit)
    kept = _kept(SETTLED(), Settled, key)
    if kept is None:
        known = _kept(ANALYSES(), Analysis, key)
        if known is not None:
            analysis = known.value
            part = Settled(ordered, analysis.best, analysis.uniqueness, analysis.depth, analysis.ms)
            kept = CachedSolve(part, known.stored)
    return kept


def kept_rendered(position: Position, objective: Objective, time_limit: float, how: Hashable) -> Any:
    """What `rendered` keeps for the page of this position's answer, when both its answers are kept
    as they were when it was drawn: found without telling the answers for the position (the way a
    kept page is served again). None when anything is missing or newer."""
    ordered, _ = canonical(position)
    key = _key(ordered, objective, time_limit)
    first = _settled(ordered, objective, time_limit)
    whole = _kept(ANALYSES(), Analysis, key)
    made = RENDERED().get((str(position), objective.value, time_limit, how))
    if first is None or whole is None or made is None:
        return None
    return made[1] if made[0] == (first.stored, whole.stored) else None


def rendered(key: Hashable, stamp: Hashable, render: Callable[[], T]) -> T:
    """`render()`, kept under `key` (what the answer depends on: the position, the view, the language,
    ...) for as long as the answers it was made from, named by their `stamp`, are the same."""
    made = RENDERED().get(key)
    if made is not None and made[0] == stamp:
        return made[1]  # type: ignore[no-any-return]
    value = render()
    RENDERED().put(key, (stamp, value))
    return value


def _key(ordered: Position, objective: Objective, time_limit: float) -> Key:
    return (str(ordered), objective.value, time_limit)


def _kept(cache: BoundedCache[Key, CachedSolve[V]], kind: type[V], key: Key) -> CachedSolve[V] | None:
    """A phase's answer kept in this process or, failing that, in Redis; an unproven one only for
    `UNPROVEN_KEEP_SECONDS`, since a quieter machine may prove it."""
    kept = cache.get(key)
    if kept is not None:
        age = time.monotonic() - kept.stored
        if kept.value.proven or age < float(current_app.config["UNPROVEN_KEEP_SECONDS"]):
            return kept
    value = SHARED.get(_shared_key(kind, key))
    if not isinstance(value, kind):
        return None
    kept = CachedSolve(value, time.monotonic())
    cache.put(key, kept)
    return kept


def _keep(cache: BoundedCache[Key, CachedSolve[V]], key: Key, value: V) -> CachedSolve[V]:
    # an unproven answer is kept too, for a while: a repeat must not cost the solver again
    config = current_app.config
    keep = config["PROVEN_KEEP_SECONDS"] if value.proven else config["UNPROVEN_KEEP_SECONDS"]
    SHARED.put(_shared_key(type(value), key), value, float(keep))
    kept = CachedSolve(value, time.monotonic())
    cache.put(key, kept)
    return kept


def _shared_key(kind: type, key: Key) -> str:
    text, objective, time_limit = key
    return "|".join((kind.__name__, text, objective, repr(time_limit)))


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

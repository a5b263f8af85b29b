"""The solver gate: every solve on a request path passes through it, so solves never starve pages.

A worst-case position holds the solver for the whole `SOLVE_TIME_LIMIT`; a few clients sending them
in parallel used to keep every worker thread busy while `GET /` waited. The gate meets a solve with
three checks, cheapest first:

1. **One solve at a time per client address** (per process): a second one while the first runs is a
   429 at once. A person waits for their answer; only a script sends the next before it comes. The
   analyser's chain length, which its page asks for after answering, solves in a lane of its own
   (`CHAIN_LANE`): a player who types the next position while the last one's chain length is still
   being solved is answered, and one address still holds at most two solves.
2. **A budget in solver seconds** per client address, `SOLVE_SECONDS_LIMIT` ("20 per minute"), kept
   by Flask-Limiter's storage (shared by every worker with `REDIS_URL`): each solve is charged the
   time it took, at least `SOLVE_LEAST_CHARGE`, so a hard position costs what it costs the machine and
   a small one almost nothing. A spent budget is a 429 with `Retry-After`.
3. **Slots** (`SOLVER_SLOTS` per process, fewer than the worker's threads) and a short queue
   (`SOLVER_QUEUE`): past them the solve is a 503 "busy" with `Retry-After`, at once, so a thread
   never waits behind a pile of solves. The slots are the gate's own threads, run at a lower CPU
   priority (`nice`), so on a busy machine the threads that serve pages come first.

Answers kept by the caches cost nothing and never reach the gate. The turn's step check is not a
gate solve: it checks the site's own puzzles under `STEP_TIME_LIMIT` (0.3 s), cached, and is bounded
by the step rate limit; a step must never be refused because someone else is solving.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import TypeVar, cast

import limits
from flask import Flask, current_app

from webapp.errors import Wait, refuse_when_spent
from webapp.security import client_key, counting, milliseconds
from webapp.wording import gettext, rate_limit_words

T = TypeVar("T")

SOLVER_NICENESS = 10
"""How much lower the solving threads' CPU priority is than the pages' (Linux nice values)."""


class SolverGate:
    """One process's solving threads, its queue, and the addresses solving right now."""

    def __init__(self, slots: int, queue: int) -> None:
        self.slots = slots
        self._executor = ThreadPoolExecutor(slots, thread_name_prefix="solver", initializer=_lower_priority)
        self._admitted = threading.BoundedSemaphore(slots + queue)
        self._lock = threading.Lock()
        self._solving: set[str] = set()

    def run(
        self, address: str, solve: Callable[[], T], busy_retry: int, clock: Callable[[], datetime]
    ) -> tuple[T, float]:
        """`solve()` on a solving thread, and the seconds it took there by `clock`; refused (a `Wait`, 429
        or 503) when the address is solving already or the gate is full."""
        with self._lock:
            if address in self._solving:
                raise Wait(
                    gettext("One solve at a time: wait for the answer you asked for before asking another."),
                    429,
                    busy_retry,
                )
            self._solving.add(address)
        try:
            if not self._admitted.acquire(blocking=False):
                raise Wait(
                    gettext("The solver is busy with other positions. Try again in a few seconds."),
                    503,
                    busy_retry,
                )
            try:
                return self._executor.submit(_timed, solve, clock).result()
            finally:
                self._admitted.release()
        finally:
            with self._lock:
                self._solving.discard(address)

    def solving(self, address: str) -> bool:
        with self._lock:
            return address in self._solving


def _timed(solve: Callable[[], T], clock: Callable[[], datetime]) -> tuple[T, float]:
    started = clock()
    answer = solve()
    return answer, (clock() - started).total_seconds()


def _lower_priority() -> None:
    # on Linux a nice value belongs to one thread; elsewhere this would renice the whole process
    if os.uname().sysname == "Linux":
        # where it is not allowed, the solves share the CPU evenly with the pages
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SOLVER_NICENESS)


def gate() -> SolverGate:
    return cast(SolverGate, current_app.extensions["tavolo.solver_gate"])


CHAIN_LANE = "chain"
"""The lane of the solves a page asks for after it has answered (the analyser's chain length)."""


def run(solve: Callable[[], T], lane: str = "", least: bool = True) -> T:
    """Run one solve of this request through the gate, charged to the client's solver seconds; one
    at a time per client address in each lane. `least=False` charges only the time it took: for the
    second phase of an answer whose first phase paid the least charge already (the analyser's chain
    length after its page), so that one answer pays it once."""
    address = client_key()
    config = current_app.config
    budget = _budget()
    refuse_when_spent(budget, "solver-seconds", address, _spent_words)
    # the site's clock (frozen in the tests) times the solve: what a solve is charged never depends on
    # how fast the machine is in a test
    in_lane = f"{address} {lane}" if lane else address
    answer, seconds = gate().run(in_lane, solve, _busy_retry(), config["NOW"])
    # never more than a solve may take: a clock set back or forward mid-solve charges no fortune
    most = float(config["SOLVE_TIME_LIMIT"]) + 1
    floor = float(config["SOLVE_LEAST_CHARGE"]) if least else 0.0
    cost = math.ceil(min(max(seconds, floor), most) * 1000)
    if cost > 0:
        counting(lambda counters: counters.hit(budget, "solver-seconds", address, cost=cost))
    return answer


def _budget() -> limits.RateLimitItem:
    """The solver-seconds limit, counted in milliseconds. It holds with the rate limits off too (a load
    test's `TAVOLO_RATE_LIMITS=off`): the solver is what a flood of analyses would exhaust."""
    return milliseconds(str(current_app.config["SOLVE_SECONDS_LIMIT"]), "solver")


def _spent_words(wait: int) -> str:
    spent = limits.parse(str(current_app.config["SOLVE_SECONDS_LIMIT"]))
    return gettext(
        "Too many requests: at most %(limit)s. Try again in %(seconds)s s.",
        limit=rate_limit_words(spent, solver=True),
        seconds=wait,
    )


def _busy_retry() -> int:
    return max(math.ceil(float(current_app.config["SOLVE_TIME_LIMIT"])), 1)


def init_app(app: Flask) -> None:
    slots = int(app.config["SOLVER_SLOTS"])
    queue = int(app.config["SOLVER_QUEUE"])
    app.extensions["tavolo.solver_gate"] = SolverGate(slots, queue)

"""Pages whose cost grows with a player's data (`/stats`, `/review`, `/me/export.json`, a friends'
table): limited by the app itself, not only by nginx's requests a second per address.

`costly` puts two limits on such a view, each counted per client address (an IPv6 one by its /64) and
per player (the cookie's), so that neither many cookies from one address nor one cookie from many
addresses escapes:

1. **Requests**: `PAGE_RATE_LIMIT` ("12 per minute; 300 per hour"), with Flask-Limiter; a 429 past it.
2. **CPU**: `PAGE_SECONDS_LIMIT` ("2 per minute"): each page is charged the CPU time its thread spent
   on it (`time.thread_time`, in milliseconds), measured, never guessed; a client whose seconds are
   spent is a 429 with `Retry-After` until the window frees some. It is kept in Flask-Limiter's
   storage, as the solver gate's budget is (Redis, shared by every worker, when `REDIS_URL` is set).

Once either refuses a client at a page, its further requests there are refused in front of Flask
until the window frees some (`webapp.refused_early`: by the address whatever the cookie, or by the
session cookie's value for a player's own counter). Each page's own cost is bounded whatever the
record: the stats counted in the database, the export in parts, the review's first 50 of each list.

Both are off with the rate limits (`RATELIMIT_ENABLED`), for load tests.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import limits
from flask import current_app

from webapp import refused_early
from webapp.errors import refuse_when_spent
from webapp.players.identity import current_player_id
from webapp.refused_early import COSTLY_VIEW, PLAYER_KEY
from webapp.security import client_key, counting, limiter, milliseconds
from webapp.wording import gettext, rate_limit_words

P = ParamSpec("P")
T = TypeVar("T")
NAMESPACE = "page-seconds"


def page_rate_limit() -> str:
    return str(current_app.config["PAGE_RATE_LIMIT"])


def export_rate_limit() -> str:
    return str(current_app.config["EXPORT_RATE_LIMIT"])


def player_key() -> str:
    """The cookie's player, or the client's address for a browser without one (a counter apart from
    the address's own, which counts every request once too)."""
    player = current_player_id()
    return f"{PLAYER_KEY}{player}" if player is not None else f"visitor {client_key()}"


def _budget() -> limits.RateLimitItem | None:
    """The page-seconds limit, counted in milliseconds; None when rate limits are off."""
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return None
    return milliseconds(str(current_app.config["PAGE_SECONDS_LIMIT"]), "page")


def _keys() -> tuple[str, ...]:
    player = current_player_id()
    return (client_key(),) if player is None else (client_key(), f"{PLAYER_KEY}{player}")


def _spent_words(wait: int) -> str:
    spent = _seconds_limit()
    return gettext(
        "Too many costly pages: at most %(limit)s of the server's time. Try again in %(seconds)s s.",
        limit=rate_limit_words(spent, seconds=True),
        seconds=wait,
    )


def _seconds_limit() -> limits.RateLimitItem:
    return limits.parse(str(current_app.config["PAGE_SECONDS_LIMIT"]))


def _noted(key: str) -> Callable[[int], None]:
    """Refused again in front of Flask until the wait is over, at this path (a GET: `costly` views
    are pages), for the address or for the player of `key`."""

    def note(wait: int) -> None:
        spent = _seconds_limit()
        app = current_app._get_current_object()  # type: ignore[attr-defined]
        description = f"{spent.amount} seconds per {spent.GRANULARITY.name}"
        refused_early.remember(
            app, int(time.time()) + wait, description, costly=True, player=key.startswith(PLAYER_KEY)
        )

    return note


def _charge(budget: limits.RateLimitItem, keys: tuple[str, ...], cost: int) -> None:
    for key in keys:
        counting(lambda counters: counters.hit(budget, NAMESPACE, key, cost=cost))  # noqa: B023


def costly(view: Callable[P, T]) -> Callable[P, T]:
    """The view, limited in requests and charged its CPU time (see the module's docstring)."""

    @functools.wraps(view)
    def charged(*args: P.args, **kwargs: P.kwargs) -> T:
        budget = _budget()
        if budget is None:
            return view(*args, **kwargs)
        keys = _keys()
        for key in keys:
            refuse_when_spent(budget, NAMESPACE, key, _spent_words, _noted(key))
        meter: Callable[[], float] = current_app.config["PAGE_COST_METER"]
        started = meter()
        try:
            return view(*args, **kwargs)
        finally:
            _charge(budget, keys, max(math.ceil((meter() - started) * 1000), 1))

    limited = limiter.limit(page_rate_limit, key_func=player_key)(charged)
    limited = limiter.limit(page_rate_limit)(limited)
    setattr(limited, COSTLY_VIEW, True)
    return limited

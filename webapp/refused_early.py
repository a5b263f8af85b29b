"""Refusals kept for a flood: once Flask-Limiter has refused a client address at a path, its further
requests there are refused in front of Flask until the limit's window resets.

A request a rate limit refuses still cost a whole Flask request: the session read, the limits
counted in their storage (Redis, or each process's memory), the error handler and the page drawn.
Under a flood of one kept `/analyse` from 2 addresses x 12 connections, those refusals are nearly
every request, and `GET /` waits behind them for gunicorn's threads. So when Flask-Limiter refuses
(`remember`, from the 429's handler), this process notes the address, method and path until the
limit resets (its window's end: counts only grow within it, whichever worker counted them, so the
request would be refused again), and keeps the refusal's bytes when they hold nothing of one
visitor's (no cookie set, no token: a visitor without a session cookie, the JSON API, htmx's
notice). Until then, such a request is answered with those bytes and a fresh `Retry-After`, with
no Flask work at all. A request carrying the session cookie, or one whose refusal has not been kept
yet, goes to Flask as before. Sits inside the ProxyFix, so the address is the client's.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask, request
from werkzeug.http import parse_cookie

from webapp.caching import CACHES, BoundedCache, CacheInfo
from webapp.kept_answers import through, whole
from webapp.languages import LANGUAGE_COOKIE, LETTERS_COOKIE, browser_language
from webapp.templating import DECK_COOKIE

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

ADDRESSES = 4096
"""Refused (address, method, path) noted at once: a flood from more addresses than this goes to
Flask-Limiter as before, for the least recent ones."""
PAGES = 256
"""Refusals kept as bytes: per path, language, deck, kind (page, htmx, API) and limit."""
CACHES.append(
    CacheInfo(
        "refusals kept for a flood",
        PAGES,
        serves="kept for a flood, not for one request (a refused GET /analyse costs 0.11 ms of CPU in "
        "front of Flask against 1.0 ms through it, bench/web_caches.py: under 2 ms): under "
        "bench/flood.py's kept /analyse flood (issue 23's; 15 s, 2 addresses x 12 connections, load "
        "6-9) GET / from other addresses has a p95 of 15.4 and "
        "12.8 ms with it against 30.2 and 27.2 ms without, in two runs alternating, and the flood's "
        "refusals answered rise from about 28,000 to 75,000",
    )
)
NOTED = "tavolo.refused_until"
"""The environ key the 429's handler sets: (when the limit resets, its description)."""
FRESH = ("retry-after", "x-ratelimit-reset", "x-ratelimit-remaining")
"""Headers that say how long is left: made again for each request."""


@dataclass(frozen=True, slots=True)
class CachedRefusal:
    """A rate limit's refusal as it went out, without the headers made again for each request (`FRESH`)."""

    status: str
    headers: tuple[tuple[str, str], ...]
    body: bytes


class RefusedEarly:
    """WSGI middleware around the app's own `wsgi_app`, inside the ProxyFix."""

    def __init__(self, inner: WSGIApplication, session_cookie: str) -> None:
        self.inner = inner
        self.session_cookie = session_cookie
        self.refused: BoundedCache[tuple[str, str, str, str], tuple[int, str]] = BoundedCache(ADDRESSES)
        self.pages: BoundedCache[tuple[str, ...], CachedRefusal] = BoundedCache(PAGES)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        noted = self.refused.get(_where(environ))
        if noted is None or time.time() >= noted[0]:
            return self._answer(environ, start_response)
        until, description = noted
        cookies = parse_cookie(environ)
        if self.session_cookie in cookies:
            return self.inner(environ, start_response)
        kept = self.pages.get(_variant(environ, cookies, description))
        if kept is None:
            return self._answer(environ, start_response)
        left = max(until - int(time.time()), 0)
        headers = [
            *kept.headers,
            ("Retry-After", str(left)),
            ("X-RateLimit-Remaining", "0"),
            ("X-RateLimit-Reset", str(until)),
        ]
        start_response(kept.status, headers)
        return [kept.body]

    def _answer(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Through Flask, keeping a rate limit's refusal as bytes when it holds nothing of the
        visitor's (no cookie set, and so no token)."""
        answer, said = through(self.inner, environ, start_response)
        noted = environ.get(NOTED)
        if noted is None or not said or not said[0].startswith("429 "):
            return answer
        cookies = parse_cookie(environ)
        if self.session_cookie in cookies or any(
            name.lower() in ("set-cookie", "content-encoding") for name, _ in said[1]
        ):
            return answer
        body = whole(answer)
        others = tuple((name, value) for name, value in said[1] if name.lower() not in FRESH)
        self.pages.put(_variant(environ, cookies, noted[1]), CachedRefusal(said[0], others, body))
        return [body]

    def remember(self, until: int, description: str) -> None:
        """The 429's handler: this request's address is refused here until `until` (epoch seconds)."""
        self.refused.put(_where(request.environ), (until, description))
        request.environ[NOTED] = (until, description)


def _where(environ: WSGIEnvironment) -> tuple[str, str, str, str]:
    return (
        environ.get("REMOTE_ADDR", ""),
        environ.get("REQUEST_METHOD", ""),
        environ.get("SCRIPT_NAME", ""),
        environ.get("PATH_INFO", ""),
    )


def _variant(environ: WSGIEnvironment, cookies: Any, description: str) -> tuple[str, ...]:
    """What a refusal's bytes depend on: the path, its kind (htmx's notice, a page; the API by its
    path), the language and deck, and the limit it names."""
    return (
        environ.get("REQUEST_METHOD", ""),
        environ.get("SCRIPT_NAME", ""),
        environ.get("PATH_INFO", ""),
        description,
        "htmx" if "HTTP_HX_REQUEST" in environ else "",
        cookies.get(LANGUAGE_COOKIE, "") or browser_language(environ.get("HTTP_ACCEPT_LANGUAGE")),
        cookies.get(LETTERS_COOKIE, ""),
        cookies.get(DECK_COOKIE, ""),
    )


def init_app(app: Flask) -> None:
    """Before the ProxyFix wraps the app (`security.init_app`), so that it sees the client's address."""
    early = RefusedEarly(app.wsgi_app, str(app.config["SESSION_COOKIE_NAME"]))
    app.wsgi_app = early  # type: ignore[method-assign]
    app.extensions["tavolo.refused_early"] = early


def remember(app: Flask, until: int, description: str) -> None:
    early = app.extensions.get("tavolo.refused_early")
    if isinstance(early, RefusedEarly):
        early.remember(until, description)

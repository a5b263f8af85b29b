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
no Flask work at all. Sits inside the ProxyFix, so the address is the client's.

A request carrying the session cookie goes to Flask as before, but on a costly page's GET
(`webapp.players.page_cost`: `/stats`, the export, `/review`, friends' tables), where a flood comes
with the cookie of the record it scrapes: there every limit counts the address or the player only,
so a refused address is refused whatever the cookie, and a refused player (their own counter, over
many addresses) is noted under the session cookie's exact value, which only that player's browser
holds. Such a refusal is drawn without a CSRF token for anyone (`errors._refusal_page`: the page's
script asks `/token` before a POST), so its bytes are one for every cookie, even made-up ones, and
are kept without the `Set-Cookie` that refreshed a session (the browser's cookie stays as good).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask, request
from werkzeug.http import parse_cookie

from webapp.addresses import client_network
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
        "refusals answered rise from about 28,000 to 75,000; a costly page refused to a player with "
        "their cookie costs 0.12 ms of CPU in front of Flask against 1.9 ms through it (bench/flood.py)",
    )
)
COSTLY_VIEW = "tavolo_costly"
"""The attribute `page_cost.costly` sets on a view: its GET's refusals hold whatever the cookie."""
PLAYER_KEY = "player "
"""How a limit's key counting a player (by the session's player id) begins (`page_cost.player_key`)."""
NOTED = "tavolo.refused_until"
"""The environ key the 429's handler sets: the `Note`."""
FRESH = ("retry-after", "x-ratelimit-reset", "x-ratelimit-remaining")
"""Headers that say how long is left: made again for each request."""


@dataclass(frozen=True, slots=True)
class Note:
    """A refusal noted: until when (epoch seconds), the limit it names, and whether it holds for a
    request with any session cookie (a costly page's GET, whose limits count no one else)."""

    until: int
    description: str
    costly: bool = False


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
        self.refused: BoundedCache[tuple[str, str, str, str], Note] = BoundedCache(ADDRESSES)
        self.players: BoundedCache[tuple[str, str, str, str], Note] = BoundedCache(ADDRESSES)
        """Players refused at a costly page, by their session cookie's value, method and path."""
        self.any_player = False
        """Some player was noted: till then a request's cookies are never read for one."""
        self.pages: BoundedCache[tuple[str, ...], CachedRefusal] = BoundedCache(PAGES)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        where = _where(environ)
        moment = time.time()
        noted = _live(self.refused.get(where), moment)
        if noted is None and not self._may_be_a_refused_players(environ):
            return self._answer(environ, start_response)
        cookies = parse_cookie(environ)
        session = cookies.get(self.session_cookie)
        if session is not None:
            mine = _live(self.players.get((session, *where[1:])), moment)
            noted = mine or (noted if noted is not None and noted.costly else None)
            if noted is None:
                return self._answer(environ, start_response)
        assert noted is not None
        kept = self.pages.get(_variant(environ, cookies, noted.description))
        if kept is None:
            return self._answer(environ, start_response)
        left = max(noted.until - int(moment), 0)
        headers = [
            *kept.headers,
            ("Retry-After", str(left)),
            ("X-RateLimit-Remaining", "0"),
            ("X-RateLimit-Reset", str(noted.until)),
        ]
        start_response(kept.status, headers)
        return [kept.body]

    def _answer(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Through Flask, keeping a rate limit's refusal as bytes when it holds nothing of the
        visitor's (no cookie set, and so no token; on a costly page, no token for anyone)."""
        answer, said = through(self.inner, environ, start_response)
        noted = environ.get(NOTED)
        if not isinstance(noted, Note) or not said or not said[0].startswith("429 "):
            return answer
        cookies = parse_cookie(environ)
        session = cookies.get(self.session_cookie)
        if session is not None and not noted.costly:
            return answer
        # a session's refusal is kept without the Set-Cookie that refreshed it: the cookie sent stays good
        refresh = "" if session is None else "set-cookie"
        headers = [(name, value) for name, value in said[1] if name.lower() != refresh]
        if any(name.lower() in ("set-cookie", "content-encoding") for name, _ in headers):
            return answer
        body = whole(answer)
        others = tuple((name, value) for name, value in headers if name.lower() not in FRESH)
        self.pages.put(_variant(environ, cookies, noted.description), CachedRefusal(said[0], others, body))
        return [body]

    def _may_be_a_refused_players(self, environ: WSGIEnvironment) -> bool:
        """Whether the request may carry a refused player's cookie (no cookie is parsed before one
        was ever noted)."""
        return self.any_player and self.session_cookie in environ.get("HTTP_COOKIE", "")

    def remember(self, note: Note, player: bool = False) -> None:
        """The 429's handler: this request's address (`player`: its player, by the session cookie's
        value, on a costly page) is refused here at this path until `note.until`."""
        where = _where(request.environ)
        if player:
            session = request.cookies.get(self.session_cookie)
            if session is None or not note.costly:
                return
            self.players.put((session, *where[1:]), note)
            self.any_player = True
        else:
            self.refused.put(where, note)
        request.environ[NOTED] = note


def _live(note: Note | None, moment: float) -> Note | None:
    return note if note is not None and moment < note.until else None


def _where(environ: WSGIEnvironment) -> tuple[str, str, str, str]:
    return (
        client_network(environ.get("REMOTE_ADDR", "")),
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


def remember(app: Flask, until: int, description: str, costly: bool = False, player: bool = False) -> None:
    """This request is refused until `until` at its path: for its address, or (`player`) for the
    player of its session cookie; `costly`: a costly page's GET, whose refusal holds whatever the
    cookie (see the module's docstring)."""
    early = app.extensions.get("tavolo.refused_early")
    if isinstance(early, RefusedEarly):
        early.remember(Note(until, description, costly), player)

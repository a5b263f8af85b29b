"""Whole answers kept as bytes for visitors without a cookie, served before Flask does any work.

What nginx's `proxy_cache` does at the front door (deploy/nginx.conf), each process does for itself
under `make run` or plain gunicorn: a cookieless `GET` with no query and no htmx whose answer was a 200
carrying `X-Accel-Expires` (today's page for a visitor without a session, `choosing.today`) is kept,
status, headers and body, and the next such request in the same language and for the same host is
answered with those bytes until the header's seconds are over, by the app's own clock (`NOW`, which
tests freeze). Nothing else is ever kept: an answer with a cookie, a compressed one, or any other
status goes out as Flask made it.

The key is the path, the host as the page would name it (`Host` and the `X-Forwarded-*` a proxy adds)
and the language the browser's `Accept-Language` negotiates to (four at most), so odd headers cannot
fill the cache with copies of one page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from flask import Flask

from webapp.caching import CACHES, BoundedCache, CacheInfo
from webapp.languages import browser_language

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

SIZE = 32
CACHES.append(
    CacheInfo(
        "kept answers (WSGI)",
        SIZE,
        serves="a new visitor's GET / without nginx: 0.08 against 0.33 ms of CPU through Flask "
        "(bench/web_caches.py). Under the 2 ms a request a cache must save (issue 22), it stays "
        "for the throughput it buys: four times the requests a second, which keeps `make run` above "
        "issue 23's 5% of nginx's static rate (5.6-6.0% with it, 2026-12-03)",
    )
)
EXPIRES = "X-Accel-Expires"
PASSED_ON = ("HTTP_HOST", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_PREFIX")
"""What a page's links and preview take the site's address from."""


@dataclass(frozen=True, slots=True)
class CachedResponse:
    """A whole answer as it went out, to serve again from `since` until `until`."""

    status: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    since: datetime
    until: datetime


class KeptAnswers:
    """WSGI middleware around the app's own `wsgi_app` (and its ProxyFix)."""

    def __init__(self, app: Flask, inner: WSGIApplication) -> None:
        self.app = app
        self.inner = inner
        self.kept: BoundedCache[tuple[str, ...], CachedResponse] = BoundedCache(SIZE)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if (
            environ.get("REQUEST_METHOD") != "GET"
            or environ.get("QUERY_STRING")
            or "HTTP_COOKIE" in environ
            or "HTTP_HX_REQUEST" in environ
        ):
            return self.inner(environ, start_response)
        key = (
            environ.get("SCRIPT_NAME", ""),
            environ.get("PATH_INFO", ""),
            environ.get("wsgi.url_scheme", ""),
            *(environ.get(name, "") for name in PASSED_ON),
            browser_language(environ.get("HTTP_ACCEPT_LANGUAGE")),
        )
        moment: datetime = self.app.config["NOW"]()
        kept = self.kept.get(key)
        if kept is not None and kept.since <= moment < kept.until:
            # nginx in front keeps it for what is left of its time, never past the page's midnight
            left = int((kept.until - moment).total_seconds())
            start_response(kept.status, [*kept.headers, (EXPIRES, str(left))] if left else list(kept.headers))
            return [kept.body]
        return self._answer(key, moment, environ, start_response)

    def _answer(
        self, key: tuple[str, ...], moment: datetime, environ: WSGIEnvironment, start_response: StartResponse
    ) -> Iterable[bytes]:
        answer, said = through(self.inner, environ, start_response)
        if not said:  # the body has to be read before the status is known: not one to keep
            return answer
        status, headers = said
        seconds = _seconds(headers)
        if not status.startswith("200 ") or seconds is None:
            return answer
        body = whole(answer)
        others = tuple((name, value) for name, value in headers if name.lower() != EXPIRES.lower())
        self.kept.put(key, CachedResponse(status, others, body, moment, moment + timedelta(seconds=seconds)))
        return [body]


def through(
    inner: WSGIApplication, environ: WSGIEnvironment, start_response: StartResponse
) -> tuple[Iterable[bytes], list[Any]]:
    """`inner`'s answer, and the status and headers it started with (empty when it starts only as its
    body is read), for a middleware that may keep the answer."""
    said: list[Any] = []

    def record(
        status: str, headers: list[tuple[str, str]], exc_info: Any = None
    ) -> Callable[[bytes], object]:
        said[:] = [status, headers]
        return start_response(status, headers, exc_info)

    return inner(environ, record), said


def whole(answer: Iterable[bytes]) -> bytes:
    """An answer's body read to its end, and the answer closed, as the server would have."""
    try:
        return b"".join(answer)
    finally:
        if hasattr(answer, "close"):
            answer.close()


def _seconds(headers: list[tuple[str, str]]) -> int | None:
    """How long an answer may be kept: its `X-Accel-Expires`, when it sets no cookie and is sent
    uncompressed (the key holds no `Accept-Encoding`)."""
    found = None
    for name, value in headers:
        lowered = name.lower()
        if lowered in ("set-cookie", "content-encoding"):
            return None
        if lowered == EXPIRES.lower() and value.isdigit():
            found = int(value)
    return found if found else None


def init_app(app: Flask) -> None:
    """Last of all, outside the ProxyFix: a kept answer costs no Flask work at all."""
    app.wsgi_app = KeptAnswers(app, app.wsgi_app)  # type: ignore[method-assign]

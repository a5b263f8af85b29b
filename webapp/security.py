"""CSRF, rate limits, security headers and the client address behind proxies.

Rate limits count in `RATELIMIT_STORAGE_URI`: Redis when `REDIS_URL` is set, shared by every worker.
When Redis cannot be reached, each process counts in its own memory until it is back (Flask-Limiter's
in-memory fallback, which this module also gives the solver gate's budget): play goes on, the limits
hold per process, and the log says so once, `rate limits: Redis unreachable, counting in memory`.
"""

from __future__ import annotations

import logging
import math
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

import limits
import limits.storage
import limits.strategies
from flask import Flask, current_app, g, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_wtf.csrf import CSRFProtect
from itsdangerous import BadSignature
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from webapp import refused_early
from webapp.addresses import client_network

csrf = CSRFProtect()


def client_key() -> str:
    """Who a limit counts: the client's address, an IPv6 one by its /64 (`webapp.addresses`)."""
    return client_network(get_remote_address())


limiter = Limiter(key_func=client_key, default_limits=[])
log = logging.getLogger("tavolo.security")
T = TypeVar("T")
OWN_COUNTERS = "tavolo.own_counters"


def counting(use: Callable[[limits.strategies.RateLimiter], T]) -> T:
    """`use(counters)` on the rate limits' counters, Flask-Limiter's own: on the in-memory fallback
    once Redis has failed, and switched to it when Redis fails now (the solver gate counts here).
    With the rate limits off (a load test) Flask-Limiter keeps no counters: this process's own then,
    so that the solver budget still holds."""
    if not limiter.enabled:
        return use(current_app.extensions[OWN_COUNTERS])
    try:
        return use(limiter.limiter)
    except Exception as error:  # redis-py's errors, and whatever else a storage raises
        if not limiter._in_memory_fallback_enabled:
            raise
        # another thread may have switched while this call to Redis was failing: count in memory too
        if not limiter._storage_dead:
            log.warning("rate limits: Redis unreachable, counting in memory (%s)", type(error).__name__)
            limiter._storage_dead = True  # the flag Flask-Limiter's own fallback sets
        return use(limiter.limiter)


def milliseconds(text: str, name: str) -> limits.RateLimitItem:
    """A limit of seconds ("2 per minute") counted in milliseconds, so a charge can be what a request
    took."""
    seconds = limits.parse(text)
    return type(seconds)(seconds.amount * 1000, seconds.multiples, name)


def wait_when_spent(budget: limits.RateLimitItem, namespace: str, key: str) -> int | None:
    """Whole seconds until `key` has some of `budget` again, None while it has some left."""
    if counting(lambda counters: counters.test(budget, namespace, key)):
        return None
    reset = counting(lambda counters: counters.get_window_stats(budget, namespace, key)).reset_time
    return max(math.ceil(reset - time.time()), 1)


class _FallbackLogged(logging.Filter):
    """Flask-Limiter's own line on falling back, said in ours (its logger has no handler)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if "falling back to in-memory" in record.getMessage():
            log.warning("rate limits: Redis unreachable, counting in memory")
            return False
        return True


def _log_to_stderr() -> None:
    """The site's own lines (`tavolo.*`: Redis lost, ...) to stderr, which gunicorn and systemd keep."""
    site = logging.getLogger("tavolo")
    if not site.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        site.addHandler(handler)
        site.setLevel(logging.INFO)
        logging.getLogger("flask-limiter").addFilter(_FallbackLogged())


CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


def step_rate_limit() -> str:
    return str(current_app.config["STEP_RATE_LIMIT"])


def check_rate_limit() -> str:
    return str(current_app.config["CHECK_RATE_LIMIT"])


def analyse_rate_limit() -> str:
    return str(current_app.config["ANALYSE_RATE_LIMIT"])


def hint_rate_limit() -> str:
    return str(current_app.config["HINT_RATE_LIMIT"])


def transfer_rate_limit() -> str:
    return str(current_app.config["TRANSFER_RATE_LIMIT"])


def run_rate_limit() -> str:
    return str(current_app.config["RUN_RATE_LIMIT"])


def friends_rate_limit() -> str:
    return str(current_app.config["FRIENDS_RATE_LIMIT"])


def add_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if current_app.config["SESSION_COOKIE_SECURE"]:
        response.headers.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
    return response


def retry_after_when_waiting(response: Response) -> Response:
    """`Retry-After` on a 429 and on a 503 only, with the wait the reply chose (`g.retry_after`).
    Flask-Limiter puts its window's reset on every answer of a limited view, 200s included, and
    raises a 503's 5 s to it; this runs after it."""
    wanted = g.get("retry_after")
    if wanted is not None:
        response.headers["Retry-After"] = str(wanted)
    elif response.status_code != 429:
        response.headers.remove("Retry-After")
    return response


def refuse_long_chunked_bodies() -> None:
    """A 413 for a chunked body over `MAX_CONTENT_LENGTH`, as for one that says its length. Werkzeug
    cuts a chunked body short at the limit without a word, so a long JSON body read as "Unterminated
    string" and a long form lost its end; here it is read once (and kept for the view) and the
    server's stream asked whether anything was left behind."""
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    if limit is None or not chunked or "wsgi.input_terminated" not in request.environ:
        return
    body = request.get_data(cache=True, parse_form_data=False)
    if len(body) >= limit and request.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge()


SESSION_REFRESHED_AFTER = timedelta(days=1)
"""A permanent session's cookie is sent again (its expiry moved on) once it is this old."""


class DailyRefreshedSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, whose unchanged cookie is signed and sent again at most once a
    day rather than with every answer: a player's cookie still lives `PERMANENT_SESSION_LIFETIME`
    from their last day of play, and a move no longer signs a cookie (a tenth of a step POST's CPU,
    bench/move_cpu.py) nor sends one."""

    def open_session(self, app: Flask, request: Any) -> SecureCookieSession | None:
        signer = self.get_signing_serializer(app)
        if signer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        try:
            data, signed = signer.loads(
                value, max_age=int(app.permanent_session_lifetime.total_seconds()), return_timestamp=True
            )
        except BadSignature:
            return self.session_class()
        opened = self.session_class(data)
        opened.signed_at = signed  # type: ignore[attr-defined]
        return opened

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified or not super().should_set_cookie(app, session):
            return session.modified
        signed = getattr(session, "signed_at", None)
        return signed is None or app.config["NOW"]() - signed >= SESSION_REFRESHED_AFTER


def init_app(app: Flask) -> None:
    app.session_interface = DailyRefreshedSessions()
    # first, before the CSRF check reads a form from the body
    app.before_request(refuse_long_chunked_bodies)
    csrf.init_app(app)
    # Flask runs after-request functions last registered first: this one sees the limiter's headers
    app.after_request(retry_after_when_waiting)
    _log_to_stderr()
    app.extensions[OWN_COUNTERS] = limits.strategies.FixedWindowRateLimiter(limits.storage.MemoryStorage())
    limiter.init_app(app)
    limiter._storage_dead = False  # a new app's storage is believed up until it fails
    app.after_request(add_headers)
    # inside the ProxyFix below, so that it sees the client's address as Flask-Limiter does
    refused_early.init_app(app)
    proxies = int(app.config["PROXIES"])
    if proxies:
        # trust exactly as many X-Forwarded-* hops as there are proxies, no more
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )

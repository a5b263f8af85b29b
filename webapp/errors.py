"""Every error as a readable 4xx (or a 503 when the database is away): JSON for the API, a notice for
htmx, a page otherwise. Never a traceback.

Code below the views raises a `Refusal` (or one of its kinds, such as the turn's `TurnError`) and never
calls `abort()`: one handler, `refused`, answers them all.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from flask import Flask, Response, current_app, g, jsonify, redirect, render_template, request, session
from flask_babel import LazyString, lazy_gettext
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from limits import RateLimitItem
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import (
    HTTPException,
    MethodNotAllowed,
    NotFound,
    RequestEntityTooLarge,
    SecurityError,
)
from werkzeug.wrappers import Response as WerkzeugResponse

from puzzles import Problem, Words, argtypes
from webapp import refused_early
from webapp.languages import LANGUAGES
from webapp.security import limiter, wait_when_spent
from webapp.templating import drawn_for_keeping, sessionless, token_filled
from webapp.wording import gettext, rate_limit_words, say

log = logging.getLogger(__name__)

PLAIN_WORDS: dict[type[HTTPException], LazyString] = {
    NotFound: lazy_gettext("That address was not found on Tavolo. Check the link, or go to today's puzzle."),
    MethodNotAllowed: lazy_gettext("That address does not take this kind of request."),
}
"""Tavolo's own words for Werkzeug's stock descriptions; a description given to abort() stays."""
CSRF_WORDS = {
    "The CSRF token is missing.": lazy_gettext("The CSRF token is missing."),
    "The CSRF token has expired.": lazy_gettext("The CSRF token has expired."),
    "The CSRF token is invalid.": lazy_gettext("The CSRF token is invalid."),
    "The CSRF tokens do not match.": lazy_gettext("The CSRF tokens do not match."),
    "The CSRF session token is missing.": lazy_gettext("The CSRF session token is missing."),
}
"""Flask-WTF's reasons for refusing a form, in the player's language."""
CSRF_FIELD = "csrf_token"
"""Flask-WTF's name for the token, in a form and in the session."""
DATABASE_RETRY_SECONDS = 5
"""A 503's `Retry-After` while the database is away: the pool's pre-ping reconnects within that."""


class Refusal(Exception):
    """A request the site turns down, with its status and the reason in the player's words."""

    status = 400

    def __init__(self, why: Words | Problem | str, status: int | None = None) -> None:
        super().__init__(str(why))
        self.why = why
        if status is not None:
            self.status = status


class Moved(Refusal):
    """What was asked is answered at another address: a 303 there."""

    status = 303

    def __init__(self, location: str) -> None:
        super().__init__(location)
        self.location = location


class Wait(Refusal):
    """Not now: a 429 or a 503 whose `Retry-After` says how many seconds to wait."""

    def __init__(self, why: Words | Problem | str, status: int, retry_after: int) -> None:
        super().__init__(why, status)
        self.retry_after = retry_after


def refuse_when_spent(
    budget: RateLimitItem,
    namespace: str,
    key: str,
    words: Callable[[int], str],
    noted: Callable[[int], None] | None = None,
) -> None:
    """A `Wait` (429, `Retry-After`) while `key` has spent `budget` (the solver seconds, the costly
    pages' CPU seconds): `words(wait)` says why in the player's words, and `noted(wait)` hears of it
    first (the costly pages refuse again in front of Flask)."""
    wait = wait_when_spent(budget, namespace, key)
    if wait is None:
        return
    if noted is not None:
        noted(wait)
    raise Wait(words(wait), 429, wait)


def json_body(body: bytes, expected: str) -> Any:
    """A request's body read as JSON, or a `Refusal` that names the problem (`expected` says what the
    body should have been: "JSON", "one JSON position")."""
    try:
        return argtypes.load_json(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise Refusal("the body is not UTF-8") from None
    except argtypes.NotJSON as error:
        raise Refusal(f"the body is not {expected}: {error}") from None


def refused(error: Refusal) -> Response | WerkzeugResponse:
    """The one answer to every `Refusal`: the notice (the board stays), the page, or the JSON error."""
    if isinstance(error, Moved):
        return redirect(error.location, 303)
    if isinstance(error, Wait):
        g.retry_after = error.retry_after  # `security.retry_after_when_waiting` puts it in the header
    return reply(error.status, str(say(error.why)))


def reply(status: int, message: str) -> Response:
    if request.path.startswith("/api/"):
        response = jsonify(error=message, status=status)
    elif request.headers.get("HX-Request"):
        # the board stays as it was; only the notice line changes
        response = Response(render_template("_notice.html", message=message, error=True))
        response.headers["HX-Retarget"] = "#notice"
        response.headers["HX-Reswap"] = "innerHTML"
    elif status in FLOOD_STATUSES:
        response = Response(_refusal_page(status, message))
    else:
        response = Response(render_template("error.html", status=status, message=message))
    response.status_code = status
    return response


FLOOD_STATUSES = (429, 503)
"""The answers a flood gets, mostly: drawn without a token for a visitor with no session, so that
`webapp.refused_early` may keep their bytes and serve them again in front of Flask. (Drawn again on
each request through Flask: `bench/web_caches.py` timed a cache of these pages saving 0.5 ms of a
refused `GET /analyse` through Flask, 0.6 against 1.1 ms of CPU, under the 2 ms a cache must save;
refused early answers the flood's repeats before Flask.)"""


def _refusal_page(status: int, message: str) -> str:
    with drawn_for_keeping():
        page = render_template("error.html", status=status, message=message)
    # a visitor without a session gets none for a refusal (the page's script asks for a token before
    # any POST): no session to start and sign, and the same bytes for every such visitor; nor does
    # anyone refused a costly page, whose flood comes with a cookie (any cookie: the same bytes)
    return token_filled(page, sessionless() or _costly_get())


def _costly_get() -> bool:
    """A GET of a costly page (`players.page_cost.costly`): its refusals are kept for any cookie."""
    view = current_app.view_functions.get(request.endpoint or "")
    return request.method in ("GET", "HEAD") and bool(getattr(view, refused_early.COSTLY_VIEW, False))


def http_error(error: HTTPException) -> Response:
    if isinstance(error, SecurityError):
        # a Host outside TRUSTED_HOSTS: no URL can be built for it, so no page either, only the reason
        return Response(
            f"{error.description} This site answers at its own address only.\n", 400, mimetype="text/plain"
        )
    if isinstance(error, CSRFError):
        why = CSRF_WORDS.get(str(error.description), str(error.description))
        if _first_form():
            return _send_again(why)
        return reply(400, gettext("%(why)s Reload the page and try again.", why=why))
    if isinstance(error, RequestEntityTooLarge):
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        return reply(413, gettext("The request is too large: at most %(size)s KiB.", size=limit // 1024))
    if isinstance(error, RateLimitExceeded):
        _refused_until_reset(str(error.description))
        return reply(
            429,
            gettext(
                "Too many requests: at most %(limit)s. Wait a little and try again.",
                limit=rate_limit_words(error.limit.limit),
            ),
        )
    retry_after = getattr(error, "retry_after", None)  # werkzeug's 429 and 503 carry one
    if isinstance(retry_after, int):
        g.retry_after = retry_after
    description = error.description
    for kind, words in PLAIN_WORDS.items():
        if isinstance(error, kind) and description == kind.description:
            description = str(words)
    return reply(error.code or 500, description or error.name)


def _refused_until_reset(description: str) -> None:
    """This address is refused here until the limit resets: its next requests are answered in front
    of Flask (`webapp.refused_early`)."""
    breached = limiter.current_limit
    if breached is None:
        return
    try:
        until = breached.reset_at  # a read of the limit's window in its storage
    except Exception:  # the storage failed since it refused: the next request asks it again
        return
    g.retry_after = max(int(until - time.time()), 0)  # as Flask-Limiter words it
    player = str(breached.request_args[0]).startswith(refused_early.PLAYER_KEY)
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    refused_early.remember(app, until, description, costly=_costly_get(), player=player)


def _first_form() -> bool:
    """A plain form (no script) sent by a browser that has no session yet: today's page for a
    newcomer carries no token (so that one copy serves them all), and its forms send none."""
    return (
        request.method == "POST"
        and not request.path.startswith("/api/")
        and not request.headers.get("HX-Request")
        and CSRF_FIELD not in session
    )


def _send_again(why: str) -> Response:
    """Nothing was done; the same form again, now with a token (and the session cookie it belongs to),
    to send with one press. The CSRF check stands: only a press on this page, on the site itself,
    sends it, and a forged form from elsewhere gets no further than this page."""
    fields = [(name, value) for name, value in request.form.items(multi=True) if name != CSRF_FIELD]
    page = render_template("send_again.html", why=why, action=request.path, fields=fields)
    return Response(page, 400)


def database_away(error: OperationalError | PoolTimeout) -> Response:
    """The database refused or dropped a connection, or every pooled connection stayed busy."""
    log.warning("database unavailable: %s", error.__class__.__name__)
    g.retry_after = DATABASE_RETRY_SECONDS
    return reply(503, gettext("The database is unavailable for a moment. Try again in a few seconds."))


FRONT_DOOR_PATH = "/stats"
"""A costly page: the front door's refusal is drawn as the app draws a refusal of one."""


def front_door_refusals(app: Flask) -> dict[str, str]:
    """The pages nginx answers a costly page's flood with, by file name (`en.html`, ...): the app's 429
    page in each language, cut to what a refused player reads (nginx sends one to every request of a
    flood: 0.6 KB, against 3.9 KB with the whole bar), with no token and no script (deploy/nginx.conf's
    `@tavolo_refused` picks one by the language cookie, else the browser's first language, else
    English)."""
    pages = {}
    for language in LANGUAGES:
        # an app context of its own: the language chosen is kept in it (`g`) for its lifetime
        with (
            app.app_context(),
            app.test_request_context(FRONT_DOOR_PATH, headers={"Accept-Language": language}),
        ):
            why = gettext("Too many requests for this page. Wait a few seconds and try again.")
            pages[f"{language}.html"] = render_template("front_door_refusal.html", message=why)
    return pages


@click.command("refusal-pages", help="Write the pages nginx refuses a costly page's flood with into FOLDER.")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
def refusal_pages_command(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    for name, page in front_door_refusals(app).items():
        # whole or not at all: nginx may be serving the old one meanwhile
        written = folder / f".{name}.tmp"
        written.write_text(page, encoding="utf-8")
        written.replace(folder / name)


def init_app(app: Flask) -> None:
    app.cli.add_command(refusal_pages_command)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Refusal, refused)
    app.register_error_handler(OperationalError, database_away)
    app.register_error_handler(PoolTimeout, database_away)

"""Every error as a readable 4xx (or a 503 when the database is away): JSON for the API, a notice for
htmx, a page otherwise. Never a traceback."""

from __future__ import annotations

import logging

from flask import Flask, Response, current_app, g, jsonify, render_template, request
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import (
    HTTPException,
    MethodNotAllowed,
    NotFound,
    RequestEntityTooLarge,
    SecurityError,
)

log = logging.getLogger(__name__)

PLAIN_WORDS: dict[type[HTTPException], str] = {
    NotFound: "That address was not found on Tavolo. Check the link, or go to today's puzzle.",
    MethodNotAllowed: "That address does not take this kind of request.",
}
"""Tavolo's own words for Werkzeug's stock descriptions; a description given to abort() stays."""
DATABASE_RETRY_SECONDS = 5
"""A 503's `Retry-After` while the database is away: the pool's pre-ping reconnects within that."""


def reply(status: int, message: str) -> Response:
    if request.path.startswith("/api/"):
        response = jsonify(error=message, status=status)
    elif request.headers.get("HX-Request"):
        # the board stays as it was; only the notice line changes
        response = Response(render_template("_notice.html", message=message, error=True))
        response.headers["HX-Retarget"] = "#notice"
        response.headers["HX-Reswap"] = "innerHTML"
    else:
        response = Response(render_template("error.html", status=status, message=message))
    response.status_code = status
    return response


def http_error(error: HTTPException) -> Response:
    if isinstance(error, SecurityError):
        # a Host outside TRUSTED_HOSTS: no URL can be built for it, so no page either, only the reason
        return Response(
            f"{error.description} This site answers at its own address only.\n", 400, mimetype="text/plain"
        )
    if isinstance(error, CSRFError):
        return reply(400, f"{error.description} Reload the page and try again.")
    if isinstance(error, RequestEntityTooLarge):
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        return reply(413, f"The request is too large: at most {limit // 1024} KiB.")
    if isinstance(error, RateLimitExceeded):
        return reply(429, f"Too many requests: at most {error.description}. Wait a little and try again.")
    retry_after = getattr(error, "retry_after", None)  # werkzeug's 429 and 503 carry one
    if isinstance(retry_after, int):
        g.retry_after = retry_after
    description = error.description
    for kind, words in PLAIN_WORDS.items():
        if isinstance(error, kind) and description == kind.description:
            description = words
    return reply(error.code or 500, description or error.name)


def database_away(error: OperationalError | PoolTimeout) -> Response:
    """The database refused or dropped a connection, or every pooled connection stayed busy."""
    log.warning("database unavailable: %s", error.__class__.__name__)
    g.retry_after = DATABASE_RETRY_SECONDS
    return reply(503, "The database is unavailable for a moment. Try again in a few seconds.")


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(OperationalError, database_away)
    app.register_error_handler(PoolTimeout, database_away)

"""A turn's POST sent twice is applied once: the same request, sent again, is answered as it stands.

The page's script gives every POST it sends an id of its own (`REQUEST_HEADER`, 128 random bits).
The attempt keeps the id of the last request applied to it (`PlayerAttempt.last_request`), written
in the same guarded UPDATE as the action itself (`turn.store.write`), so the two never part: a
request whose id is the attempt's last is one that was applied already, and is answered with the
turn as it stands, which is the answer it had. That lets nginx send a move or an end of turn again
to another app host when the first died with it in flight (deploy/nginx.conf, `proxy_next_upstream
... non_idempotent` for requests that carry an id). A POST without an id (a plain form, a script of
the player's own) is applied as it comes, as before.
"""

from __future__ import annotations

import re

from flask import request

from puzzles import words
from webapp.errors import Refusal
from webapp.models import PlayerAttempt

REQUEST_HEADER = "X-Tavolo-Request"
_REQUEST_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def request_id() -> str | None:
    """The id this request carries, if any; a 400 for one that is not 16 to 64 letters, digits, `-`
    or `_`."""
    sent = request.headers.get(REQUEST_HEADER)
    if sent is None:
        return None
    if not _REQUEST_ID.fullmatch(sent):
        raise Refusal(words("the request's id must be 16 to 64 letters, digits, - or _"), 400)
    return sent


def replayed(attempt: PlayerAttempt | None) -> bool:
    """This request was applied to `attempt` already: it is the same request sent again."""
    sent = request_id()
    return attempt is not None and sent is not None and attempt.last_request == sent


def mark(attempt: PlayerAttempt) -> None:
    """Keep this request's id on the attempt its action changed, for the same write to store."""
    sent = request_id()
    if sent is not None:
        attempt.last_request = sent

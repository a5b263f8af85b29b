"""A turn's POST sent twice is applied once: the same request, sent again, is answered as it stands.

The page's script gives every POST it sends an id of its own (`REQUEST_HEADER`, 128 random bits).
The attempt keeps the id of the last request applied to it (`PlayerAttempt.last_request`), written
in the same guarded UPDATE as the action itself (`turn.store.write`), so the two never part: a
request whose id is the attempt's last is one that was applied already, and is answered with the
turn as it stands, which is the answer it had. That lets nginx send a move or an end of turn again
to another app host when the first died with it in flight (deploy/nginx.conf, `proxy_next_upstream
... non_idempotent` for requests that carry an id). A POST without an id (a plain form, a script of
the player's own) is applied as it comes, as before.

A first move starts the player, whose cookie comes with its answer: if that answer was lost with
its host, the same request comes again without the cookie. So a player started by a request with an
id gets an id derived from it (`player_for`, keyed with the app's secret), and the request sent again
finds that player by it (`started_player`) and is answered as the first was, cookie and all.
"""

from __future__ import annotations

import hashlib
import hmac
import re

from flask import current_app, request
from sqlalchemy import select
from sqlalchemy.orm import Session

from puzzles import words
from webapp.errors import Refusal
from webapp.models import PlayerAttempt
from webapp.players.identity import remember

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


def player_for(sent: str) -> str:
    """The id of the player a first move with request id `sent` starts: the same for the same request
    sent again, and out of reach of whoever does not have the request's id."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, b"tavolo-player:" + sent.encode(), hashlib.sha256).hexdigest()[:32]


def new_player_id() -> str | None:
    """The id a player started by this request gets (`player_for`), if it carries an id."""
    sent = request_id()
    return None if sent is None else player_for(sent)


def started_player(db_session: Session) -> str | None:
    """The player this request started already, if it is a first move sent again without the cookie
    its first answer set: named in this answer's cookie again."""
    sent = request_id()
    if sent is None:
        return None
    player = player_for(sent)
    started = select(PlayerAttempt.id).where(
        PlayerAttempt.player_id == player, PlayerAttempt.last_request == sent
    )
    if db_session.scalar(started.limit(1)) is None:
        return None
    remember(player)
    return player

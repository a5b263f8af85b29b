"""Anonymous players: an id in the signed, long-lived, HttpOnly session cookie, and its row."""

from __future__ import annotations

import secrets

from flask import session
from sqlalchemy.orm import Session

from webapp import models
from webapp.schedule.clock import now

PLAYER_KEY = "player"


def current_player_id() -> str | None:
    """The player of this request, if their cookie names one; a tampered cookie names nobody."""
    player = session.get(PLAYER_KEY)
    return player if isinstance(player, str) and len(player) == 32 else None


def ensure_player(db_session: Session) -> str:
    """This request's player, created (row and cookie) on their first move."""
    player = current_player_id()
    if player is None:
        player = secrets.token_hex(16)
        session[PLAYER_KEY] = player
        session.permanent = True
    if db_session.get(models.Player, player) is None:
        db_session.add(models.Player(id=player, created=now()))
        db_session.flush()
    return player

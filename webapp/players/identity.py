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


def remember(player: str) -> None:
    """This browser's cookie names `player` from this answer on."""
    session[PLAYER_KEY] = player
    session.permanent = True


def ensure_player(db_session: Session, new_id: str | None = None) -> str:
    """This request's player, created (row and cookie) on their first move, inside the move's write
    transaction.

    A cookie whose player has no row is an erased player's (or one whose first write never
    committed): it starts a new player under a new id, never the old one again, so a move in flight
    or an old cookie kept aside cannot bring an erased record back. The row is locked, and erasing
    locks it first too (`privacy.forget`): on PostgreSQL a move racing an erasure either lands before
    it (and is erased with the rest) or sees the row gone. `new_id`: the new player's id, when the
    request names it (`turn.replays.player_for`), else a random one."""
    player = current_player_id()
    if player is not None and db_session.get(models.Player, player, with_for_update=True) is not None:
        return player
    player = new_id or secrets.token_hex(16)
    remember(player)
    db_session.add(models.Player(id=player, created=now()))
    db_session.flush()
    return player

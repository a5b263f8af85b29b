"""Transfer codes: how a player moves to another browser without losing their streak.

A player asks for a code on the stats page and types it into the other browser, which then adopts that
player: the other browser's cookie names them from then on, with their streak, history and rating. A
code works once, and for `TRANSFER_DAYS` (30) days after it was issued: a code written on a note or
left in a chat does not open the record for ever. The adopting browser's own record, if it has one, is
never merged: it stays on the server as it was, and the adoption hands out a code for it, so that the
browser (or any other) can go back to it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from puzzles import Words, words
from webapp import models

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""No 0, O, 1 or I: nobody has to guess which one they read."""
LENGTH = 8


class TransferError(ValueError):
    def __init__(self, why: Words) -> None:
        super().__init__(str(why))
        self.why = why

    """A code that cannot be used: the message says why."""


def shown(code: str) -> str:
    """The code as people read it: `ABCD-EF23`."""
    return f"{code[:4]}-{code[4:]}"


def normalise(text: str) -> str:
    """The code a person typed, without spaces or dashes and in capitals; TransferError if it cannot
    be a code at all."""
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != LENGTH or any(char not in ALPHABET for char in code):
        sample = shown("ABCD2345")
        raise TransferError(
            words(
                "%(text)s is not a transfer code: they have 8 letters and digits, like %(sample)s",
                text=repr(text[:20]),
                sample=sample,
            )
        )
    return code


def lifetime() -> timedelta:
    """How long a code works once issued."""
    return timedelta(days=int(current_app.config["TRANSFER_DAYS"]))


def active(session: Session, player: str, now: datetime) -> models.TransferCode | None:
    """The player's code that has not been used yet and has not expired, if they have one."""
    return session.scalar(
        select(models.TransferCode)
        .where(
            models.TransferCode.player_id == player,
            models.TransferCode.used.is_(None),
            models.TransferCode.created > now - lifetime(),
        )
        .order_by(models.TransferCode.created.desc())
        .limit(1)
    )


def issue(session: Session, player: str, now: datetime) -> str:
    """The player's unused code, made now if they have none."""
    row = active(session, player, now)
    if row is not None:
        return row.code
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        if session.get(models.TransferCode, code) is None:
            break
    session.add(models.TransferCode(code=code, player_id=player, created=now))
    session.flush()
    return code


@dataclass(frozen=True, slots=True)
class Adoption:
    """What adopting a code did: the player this browser is now, and where its own record went."""

    player: str
    left_behind: str | None
    """The code of the record this browser had before, kept apart; None if it had none."""


def has_record(session: Session, player: str | None) -> bool:
    """Whether a player has played anything: a record worth keeping."""
    if player is None:
        return False
    count = session.scalar(
        select(func.count()).select_from(models.PlayerAttempt).where(models.PlayerAttempt.player_id == player)
    )
    return bool(count)


def check(session: Session, code: str, current: str | None, now: datetime) -> models.TransferCode:
    """The unused code `code`; TransferError if no player has it, it was used, it has expired, or it
    is this browser's own."""
    row = session.get(models.TransferCode, code)
    if row is None:
        raise TransferError(
            words("No player has the code %(code)s: check it on the other device.", code=shown(code))
        )
    if row.player_id == current:
        raise TransferError(
            words(
                "%(code)s is this browser's own code: this browser already is that player.", code=shown(code)
            )
        )
    if row.used is not None:
        raise TransferError(
            words(
                "The code %(code)s was already used, on %(day)s: ask the other device for a new one.",
                code=shown(code),
                day=row.used.date(),
            )
        )
    if row.created <= now - lifetime():
        raise TransferError(
            words(
                "The code %(code)s expired on %(day)s: ask the other device for a new one.",
                code=shown(code),
                day=(row.created + lifetime()).date(),
            )
        )
    return row


def adopt(session: Session, code: str, current: str | None, now: datetime) -> Adoption:
    """Use the code: the player it names becomes this browser's. The browser's own record, if any,
    is left as it is, under a code of its own. Nothing is merged."""
    row = check(session, code, current, now)
    # the guard makes two browsers racing with the same code: one wins, the other is refused
    used = session.execute(
        update(models.TransferCode)
        .where(models.TransferCode.code == code, models.TransferCode.used.is_(None))
        .values(used=now, used_by=current)
        .execution_options(synchronize_session=False)
    )
    if used.rowcount != 1:  # type: ignore[attr-defined]
        raise TransferError(
            words(
                "The code %(code)s was used a moment ago: ask the other device for a new one.",
                code=shown(code),
            )
        )
    left_behind = issue(session, current, now) if current and has_record(session, current) else None
    return Adoption(row.player_id, left_behind)

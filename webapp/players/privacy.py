"""A player's own data: all of it as one JSON document, and erasing it, as players in Italy, Germany
and Poland are entitled to (GDPR articles 15, 17 and 20).

The record is the player row (rating), their attempts (daily, archive, practice, review rounds and in
runs: how each ended, its moves, hints and the rating after it), their rush and streak runs, their
transfer codes and their places at friends' tables (the table's name, the name they picked, when they
joined). Erasing deletes all of those, and a friends' table left with nobody at it; the puzzles' own
ratings, which every game moved a little, stay: they are the puzzles', not the player's, and name
nobody.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, exists, select, update
from sqlalchemy.orm import Session

from webapp import models
from webapp.players import records
from webapp.schedule.days import Calendar


def export(session: Session, player: str, dates: Calendar, now: datetime) -> dict[str, Any]:
    """Everything the site keeps about the player, in words a person can read."""
    row = session.get(models.Player, player)
    attempts = list(
        session.scalars(
            select(models.PlayerAttempt)
            .where(models.PlayerAttempt.player_id == player)
            .order_by(models.PlayerAttempt.started, models.PlayerAttempt.id)
        )
    )
    codes = _transfer_codes(session, player)
    streak = records.player_streak(session, player, dates, now)
    return {
        "exported": now.isoformat(),
        "player": _player(player, row),
        "streak": {"current": streak.current, "best": streak.best},
        "attempts": [_attempt(attempt) for attempt in attempts],
        "rating_history": _rating_history(attempts),
        "runs": _runs(session, player),
        "transfer_codes": codes,
        "friends_tables": _friends_tables(session, player),
    }


def _player(player: str, row: models.Player | None) -> dict[str, Any]:
    return {
        "id": player,
        "created": row.created.isoformat() if row else None,
        "rating": round(row.rating, 1) if row else None,
        "deviation": round(row.deviation, 1) if row else None,
    }


def _rating_history(attempts: list[models.PlayerAttempt]) -> list[dict[str, Any]]:
    return [
        {"finished": _moment(attempt.finished), "puzzle": attempt.puzzle.code, "rating": round(rating, 1)}
        for attempt in attempts
        if (rating := attempt.rating_after) is not None
    ]


def _runs(session: Session, player: str) -> list[dict[str, Any]]:
    return [
        {
            "id": run.id,
            "kind": run.kind,
            "rules": run.rules,
            "started": _moment(run.started),
            "ended": _moment(run.ended),
        }
        for run in session.scalars(
            select(models.Run).where(models.Run.player_id == player).order_by(models.Run.id)
        )
    ]


def _transfer_codes(session: Session, player: str) -> list[dict[str, Any]]:
    return [
        {"code": code.code, "created": _moment(code.created), "used": _moment(code.used)}
        for code in session.scalars(
            select(models.TransferCode).where(models.TransferCode.player_id == player)
        )
    ]


def _friends_tables(session: Session, player: str) -> list[dict[str, Any]]:
    return [
        {"table": group.name, "name": member.name, "joined": _moment(member.joined)}
        for group, member in session.execute(
            select(models.FriendGroup, models.FriendMember)
            .join(models.FriendMember, models.FriendMember.group_id == models.FriendGroup.id)
            .where(models.FriendMember.player_id == player)
            .order_by(models.FriendMember.id)
        )
    ]


def _attempt(attempt: models.PlayerAttempt) -> dict[str, Any]:
    puzzle = attempt.puzzle
    return {
        "puzzle": puzzle.code,
        "daily_number": attempt.number,
        "review_round": attempt.review,
        "practice": puzzle.practice,
        "rules": puzzle.rules,
        "tier": puzzle.tier,
        "status": attempt.status.value,
        "placed": attempt.placed,
        "of": puzzle.max_placed,
        "moves": attempt.moves,
        "hints": attempt.hints,
        "slips": attempt.slips,
        "timed_seconds": attempt.time_limit,
        "started": _moment(attempt.started),
        "finished": _moment(attempt.finished),
        "rating_after": None if attempt.rating_after is None else round(attempt.rating_after, 1),
        "run": attempt.run_id,
    }


def _moment(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def forget(session: Session, player: str) -> int:
    """Erase the player's record; returns how many attempts went with it. The player row is locked
    first, so a first move racing the erasure waits and then starts a new player (`ensure_player`)."""
    session.scalar(select(models.Player.id).where(models.Player.id == player).with_for_update())
    attempts = session.execute(delete(models.PlayerAttempt).where(models.PlayerAttempt.player_id == player))
    session.execute(delete(models.Run).where(models.Run.player_id == player))
    session.execute(delete(models.TransferCode).where(models.TransferCode.player_id == player))
    # another record's used code remembers this player as the browser that adopted it
    session.execute(
        update(models.TransferCode).where(models.TransferCode.used_by == player).values(used_by=None)
    )
    session.execute(delete(models.FriendMember).where(models.FriendMember.player_id == player))
    empty = select(models.FriendGroup.id).where(
        ~exists().where(models.FriendMember.group_id == models.FriendGroup.id)
    )
    session.execute(delete(models.FriendLink).where(models.FriendLink.group_id.in_(empty)))
    session.execute(delete(models.FriendGroup).where(models.FriendGroup.id.in_(empty)))
    session.execute(delete(models.Player).where(models.Player.id == player))
    return int(getattr(attempts, "rowcount", 0) or 0)

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

from sqlalchemy import bindparam, delete, exists, func, select, update
from sqlalchemy.orm import Session

from webapp import models
from webapp.players import records
from webapp.schedule.days import Calendar


def export(
    session: Session, player: str, dates: Calendar, now: datetime, part: int = 1, size: int = 1000
) -> dict[str, Any]:
    """Everything the site keeps about the player, in words a person can read, in parts of at most
    `size` attempts and `size` runs each (`parts` says how many), so that no request costs more than
    one part however long the record: the first part also holds the player, streak, transfer codes
    and friends' tables. The attempts are read as the columns the file shows, never whole rows: a
    row's undo history and its puzzle's table and solution cost 3,000 attempts' export 265 ms of CPU."""
    row = session.get(models.Player, player)
    window = {"player": player, "skip": (part - 1) * size, "size": size}
    attempts = [_attempt(found) for found in session.execute(ATTEMPTS, window)]
    record: dict[str, Any] = {"exported": now.isoformat(), "player": _player(player, row)}
    if part == 1:
        streak = records.player_streak(session, player, dates, now)
        record["streak"] = {"current": streak.current, "best": streak.best}
    record |= {
        "attempts": attempts,
        "rating_history": _rating_history(attempts),
        "runs": _runs(session, player, part, size),
    }
    if part == 1:
        record["transfer_codes"] = _transfer_codes(session, player)
        record["friends_tables"] = _friends_tables(session, player)
    return record


def parts(session: Session, player: str, size: int) -> int:
    """How many parts the player's export has (`export`): one at least."""
    counted = [
        session.scalar(select(func.count()).select_from(model).where(model.player_id == player)) or 0
        for model in (models.PlayerAttempt, models.Run)
    ]
    return max(1, -(-max(counted) // size))


ATTEMPTS = (
    select(
        models.PoolPuzzle.code,
        models.PoolPuzzle.practice,
        models.PoolPuzzle.rules,
        models.PoolPuzzle.tier,
        models.PoolPuzzle.max_placed,
        models.PlayerAttempt.number,
        models.PlayerAttempt.review,
        models.PlayerAttempt.status,
        models.PlayerAttempt.placed,
        models.PlayerAttempt.moves,
        models.PlayerAttempt.hints,
        models.PlayerAttempt.slips,
        models.PlayerAttempt.time_limit,
        models.PlayerAttempt.started,
        models.PlayerAttempt.finished,
        models.PlayerAttempt.rating_after,
        models.PlayerAttempt.run_id,
    )
    .join(models.PoolPuzzle, models.PoolPuzzle.id == models.PlayerAttempt.puzzle_id)
    .where(models.PlayerAttempt.player_id == bindparam("player"))
    .order_by(models.PlayerAttempt.started, models.PlayerAttempt.id)
    .offset(bindparam("skip"))
    .limit(bindparam("size"))
)


def _player(player: str, row: models.Player | None) -> dict[str, Any]:
    return {
        "id": player,
        "created": row.created.isoformat() if row else None,
        "rating": round(row.rating, 1) if row else None,
        "deviation": round(row.deviation, 1) if row else None,
    }


def _rating_history(attempts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"finished": attempt["finished"], "puzzle": attempt["puzzle"], "rating": attempt["rating_after"]}
        for attempt in attempts
        if attempt["rating_after"] is not None
    ]


def _runs(session: Session, player: str, part: int, size: int) -> list[dict[str, Any]]:
    return [
        {
            "id": run.id,
            "kind": run.kind,
            "rules": run.rules,
            "started": _moment(run.started),
            "ended": _moment(run.ended),
        }
        for run in session.scalars(
            select(models.Run)
            .where(models.Run.player_id == player)
            .order_by(models.Run.id)
            .offset((part - 1) * size)
            .limit(size)
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


def _attempt(found: Any) -> dict[str, Any]:
    return {
        "puzzle": found.code,
        "daily_number": found.number,
        "review_round": found.review,
        "practice": found.practice,
        "rules": found.rules,
        "tier": found.tier,
        "status": found.status.value,
        "placed": found.placed,
        "of": found.max_placed,
        "moves": found.moves,
        "hints": found.hints,
        "slips": found.slips,
        "timed_seconds": found.time_limit,
        "started": _moment(found.started),
        "finished": _moment(found.finished),
        "rating_after": None if found.rating_after is None else round(found.rating_after, 1),
        "run": found.run_id,
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

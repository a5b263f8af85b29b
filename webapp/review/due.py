"""`PlayerAttempt.comes_back` kept by every write of a turn, so that what waits for review is counted
and listed from an index (player, comes back) rather than found among all of a player's turns.

Only the latest turn at a puzzle outside runs can be in review, and only it holds a moment
(`spacing.comes_back`); every earlier one holds None. Three writes keep that:

- a new turn (the ORM's INSERT): its own value, and a review round clears the rounds before it;
- a turn ending (PLAYING to anything else): its value from how it ended. The ORM's UPDATE does it
  here; a move's guarded UPDATE (`turn.store.write`) calls `ended` itself, being Core. A turn that
  was being played is the latest at its puzzle (a round begins only once the one before ended), so
  neither asks the database anything;
- any other change through the ORM of what the value is made of (a test moving a turn's end, a
  restore): its value again, None if a later round follows it.

`refill` sets them all anew for a player from their turns, for rows written around these (a bulk
INSERT) and to check the kept ones against.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, event, exists, inspect, select, update
from sqlalchemy.orm import Mapper, Session

from webapp.models import PlayerAttempt, Status
from webapp.review.spacing import comes_back

ATTEMPT = cast(Table, PlayerAttempt.__table__)
INPUTS = ("review", "status", "hints", "slips", "finished", "run_id")
"""The columns the value is made of."""


def of(attempt: PlayerAttempt) -> Any:
    """The attempt's value, were it the latest turn at its puzzle (a column left to its default on
    a new attempt is still None before the INSERT: the defaults read here)."""
    return comes_back(
        attempt.review or 0,
        attempt.status or Status.PLAYING,
        attempt.hints or 0,
        attempt.slips or 0,
        attempt.finished,
        attempt.run_id,
    )


def ended(attempt: PlayerAttempt) -> None:
    """The turn just ended (it was being played): its value from how it ended."""
    attempt.comes_back = of(attempt)


def _followed(connection: Connection, attempt: PlayerAttempt) -> bool:
    table = ATTEMPT
    return bool(
        connection.scalar(
            select(
                exists().where(
                    table.c.player_id == attempt.player_id,
                    table.c.puzzle_id == attempt.puzzle_id,
                    table.c.run_id.is_(None),
                    table.c.review > (attempt.review or 0),
                )
            )
        )
    )


@event.listens_for(PlayerAttempt, "before_insert")
def _inserted(mapper: Mapper[Any], connection: Connection, attempt: PlayerAttempt) -> None:
    value = of(attempt)
    # a turn is inserted being played (or, by a test or a restore, in any order): only a finished one
    # can have a later round already
    if value is not None and attempt.status not in (None, Status.PLAYING) and _followed(connection, attempt):
        value = None
    attempt.comes_back = value
    if (attempt.review or 0) > 0 and attempt.run_id is None:
        table = ATTEMPT
        connection.execute(
            update(table)
            .where(
                table.c.player_id == attempt.player_id,
                table.c.puzzle_id == attempt.puzzle_id,
                table.c.run_id.is_(None),
                table.c.review < attempt.review,
                table.c.comes_back.is_not(None),
            )
            .values(comes_back=None)
        )


@event.listens_for(PlayerAttempt, "before_update")
def _updated(mapper: Mapper[Any], connection: Connection, attempt: PlayerAttempt) -> None:
    state = inspect(attempt)
    if not any(state.attrs[name].history.has_changes() for name in INPUTS):
        return
    was = state.attrs.status.history.deleted
    if was and was[0] == Status.PLAYING and attempt.status != Status.PLAYING:
        ended(attempt)
        return
    value = of(attempt)
    attempt.comes_back = None if value is not None and _followed(connection, attempt) else value


def refill(session: Session, player: str) -> None:
    """Every one of the player's turns given its value anew from their turns."""
    table = ATTEMPT
    rows = list(
        session.execute(
            select(
                table.c.id,
                table.c.puzzle_id,
                table.c.review,
                table.c.status,
                table.c.hints,
                table.c.slips,
                table.c.finished,
                table.c.run_id,
            ).where(table.c.player_id == player)
        )
    )
    latest: dict[int, Any] = {}
    for row in rows:
        if row.run_id is None and (row.puzzle_id not in latest or row.review > latest[row.puzzle_id].review):
            latest[row.puzzle_id] = row
    values = [
        {
            "key": row.id,
            "value": comes_back(row.review, row.status, row.hints, row.slips, row.finished, row.run_id)
            if latest.get(row.puzzle_id) is row
            else None,
        }
        for row in rows
    ]
    if values:
        session.connection().execute(
            update(table).where(table.c.id == bindparam("key")).values(comes_back=bindparam("value")),
            values,
        )

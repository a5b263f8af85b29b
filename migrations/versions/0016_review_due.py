"""When a turn's puzzle comes back for review, kept on the turn

`attempt.comes_back`: on the latest turn at a puzzle outside runs that is in review, the moment its
puzzle comes back (a round being played: 1970-01-01, before any other); None elsewhere. Kept by the
turns' writes (`webapp.review.due`), with an index (player, comes back), so that the stats and review
pages count and list what waits by an index read instead of finding each puzzle's latest turn among
all of a player's turns (issue 39). Filled here from the turns, by the rule of the time: 1, 3 and 7
days after a turn that was not a clean solve, then every 7.

Revision ID: 0016_review_due
Revises: 0015_attempt_last_request
Create Date: 2026-12-06 13:40:00
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from alembic import op

from webapp.columns import UtcDateTime

revision = "0016_review_due"
down_revision = "0015_attempt_last_request"
branch_labels = None
depends_on = None

INTERVALS = (1, 3, 7)
IN_PROGRESS = datetime(1970, 1, 1, tzinfo=UTC)
attempt = sa.table(
    "attempt",
    sa.column("id", sa.Integer),
    sa.column("player_id", sa.String),
    sa.column("puzzle_id", sa.Integer),
    sa.column("review", sa.Integer),
    sa.column("status", sa.String),
    sa.column("hints", sa.Integer),
    sa.column("slips", sa.Integer),
    sa.column("finished", UtcDateTime()),
    sa.column("run_id", sa.Integer),
    sa.column("comes_back", UtcDateTime()),
)


def comes_back(row: Any) -> datetime | None:
    if row.status == "playing":
        return IN_PROGRESS if row.review > 0 else None
    if row.finished is None or (row.status == "solved" and row.hints == 0 and row.slips == 0):
        return None
    return row.finished + timedelta(days=INTERVALS[min(row.review + 1, len(INTERVALS)) - 1])


def upgrade() -> None:
    with op.batch_alter_table("attempt") as batch:
        batch.add_column(sa.Column("comes_back", UtcDateTime(), nullable=True))
    op.create_index("ix_attempt_player_comes_back", "attempt", ["player_id", "comes_back"])
    connection = op.get_bind()
    latest: dict[tuple[str, int], Any] = {}
    columns = [attempt.c[name] for name in ("id", "player_id", "puzzle_id", "review", "status")]
    columns += [attempt.c[name] for name in ("hints", "slips", "finished")]
    for row in connection.execute(sa.select(*columns).where(attempt.c.run_id.is_(None))):
        key = (row.player_id, row.puzzle_id)
        if key not in latest or row.review > latest[key].review:
            latest[key] = row
    values = [{"key": row.id, "value": moment} for row in latest.values() if (moment := comes_back(row))]
    for start in range(0, len(values), 1000):
        connection.execute(
            sa.update(attempt)
            .where(attempt.c.id == sa.bindparam("key"))
            .values(comes_back=sa.bindparam("value")),
            values[start : start + 1000],
        )


def downgrade() -> None:
    op.drop_index("ix_attempt_player_comes_back", table_name="attempt")
    with op.batch_alter_table("attempt") as batch:
        batch.drop_column("comes_back")

"""Initial schema: puzzle pool, daily schedule, players, attempts

Revision ID: 0001
Revises: -
Create Date: 2026-11-29 19:48:39.524782
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
    )
    op.create_table(
        "puzzle",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("canonical", sa.String(length=2000), nullable=False),
        sa.Column("rules", sa.String(length=20), nullable=False),
        sa.Column("tier", sa.String(length=10), nullable=False),
        sa.Column("depth", sa.Integer(), nullable=False),
        sa.Column("max_played", sa.Integer(), nullable=False),
        sa.Column("table", sa.JSON(), nullable=False),
        sa.Column("hand", sa.JSON(), nullable=False),
        sa.Column("solution", sa.JSON(), nullable=False),
        sa.Column("added", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzle")),
        sa.UniqueConstraint("canonical", name=op.f("uq_puzzle_canonical")),
        sa.UniqueConstraint("code", name=op.f("uq_puzzle_code")),
    )
    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_puzzle_tier"), ["tier"], unique=False)

    op.create_table(
        "attempt",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("puzzle_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=True),
        sa.Column("melds", sa.JSON(), nullable=False),
        sa.Column("history", sa.JSON(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("hints", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("placed", sa.Integer(), nullable=False),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_attempt_player_id_player")),
        sa.ForeignKeyConstraint(["puzzle_id"], ["puzzle.id"], name=op.f("fk_attempt_puzzle_id_puzzle")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_attempt")),
        sa.UniqueConstraint("player_id", "puzzle_id", name=op.f("uq_attempt_player_id_puzzle_id")),
    )
    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_attempt_player_id"), ["player_id"], unique=False)

    op.create_table(
        "daily",
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("puzzle_id", sa.Integer(), nullable=False),
        sa.Column("published", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["puzzle_id"], ["puzzle.id"], name=op.f("fk_daily_puzzle_id_puzzle")),
        sa.PrimaryKeyConstraint("number", name=op.f("pk_daily")),
        sa.UniqueConstraint("day", name=op.f("uq_daily_day")),
        sa.UniqueConstraint("puzzle_id", name=op.f("uq_daily_puzzle_id")),
    )


def downgrade() -> None:
    op.drop_table("daily")
    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_attempt_player_id"))

    op.drop_table("attempt")
    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_puzzle_tier"))

    op.drop_table("puzzle")
    op.drop_table("player")

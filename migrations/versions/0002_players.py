"""Players: ratings for players and puzzles, practice puzzles, hints, timed turns, transfer codes

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 20:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TIER_RATINGS = {"easy": 1100, "medium": 1300, "hard": 1500, "expert": 1700, "master": 1900}
"""As webapp.models has them when this revision was written: a migration never imports the app."""


def _rating_columns() -> list[sa.Column[float]]:
    return [
        sa.Column("rating", sa.Double(), server_default="1500.0", nullable=False),
        sa.Column("deviation", sa.Double(), server_default="350.0", nullable=False),
        sa.Column("volatility", sa.Double(), server_default="0.06", nullable=False),
    ]


def upgrade() -> None:
    with op.batch_alter_table("player", schema=None) as batch_op:
        for column in _rating_columns():
            batch_op.add_column(column)

    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.add_column(sa.Column("practice", sa.Boolean(), server_default=sa.false(), nullable=False))
        for column in _rating_columns():
            batch_op.add_column(column)
        batch_op.create_index("ix_puzzle_practice_rules_tier", ["practice", "rules", "tier"], unique=False)
    puzzle = sa.table("puzzle", sa.column("tier", sa.String()), sa.column("rating", sa.Double()))
    for tier, rating in TIER_RATINGS.items():
        op.execute(puzzle.update().where(puzzle.c.tier == tier).values(rating=rating))

    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hint_log", sa.JSON(), server_default="[]", nullable=False))
        batch_op.add_column(sa.Column("time_limit", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("rating_after", sa.Double(), nullable=True))

    op.create_table(
        "transfer_code",
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True), nullable=True),
        sa.Column("used_by", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_transfer_code_player_id_player")),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_transfer_code")),
    )
    with op.batch_alter_table("transfer_code", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_transfer_code_player_id"), ["player_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("transfer_code", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_transfer_code_player_id"))
    op.drop_table("transfer_code")

    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.drop_column("rating_after")
        batch_op.drop_column("time_limit")
        batch_op.drop_column("hint_log")

    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.drop_index("ix_puzzle_practice_rules_tier")
        for name in ("volatility", "deviation", "rating", "practice"):
            batch_op.drop_column(name)

    with op.batch_alter_table("player", schema=None) as batch_op:
        for name in ("volatility", "deviation", "rating"):
            batch_op.drop_column(name)

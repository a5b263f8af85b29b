"""Rush and streak runs: a run table, and each attempt may belong to one

Attempts begun before belong to none (NULL): they stay daily, archive and practice attempts.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03 07:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "run",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("rules", sa.String(length=20), nullable=False),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seconds", sa.Integer(), nullable=True),
        sa.Column("ended", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_run_player_id_player")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run")),
    )
    op.create_index(op.f("ix_run_player_id"), "run", ["player_id"], unique=False)
    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.add_column(sa.Column("run_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_attempt_run_id"), ["run_id"], unique=False)
        batch_op.create_foreign_key(batch_op.f("fk_attempt_run_id_run"), "run", ["run_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_attempt_run_id_run"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_attempt_run_id"))
        batch_op.drop_column("run_id")
    op.drop_index(op.f("ix_run_player_id"), table_name="run")
    op.drop_table("run")

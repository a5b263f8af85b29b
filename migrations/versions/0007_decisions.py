"""A stored puzzle keeps its decisions: the forcing player's fewest decisions to a maximal play

Puzzles stored before have none (NULL) until `flask puzzles rescore` counts them; a puzzle with
jokers keeps none, as the forcing player does not model jokers.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03 05:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.add_column(sa.Column("decisions", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.drop_column("decisions")

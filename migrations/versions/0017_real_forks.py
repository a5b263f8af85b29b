"""A stored puzzle keeps its real forks: how many of its forks are not weak

`real_forks` is `puzzles.weak_forks`' proved lower bound, as a generator line's `real_forks`, for the
JSON API to say once a puzzle is finished. It cannot be read off the stored key ideas: their forks are
those of the line that bears out the solution, which may hold more forks than the fewest (a Master of
2 forks said 3), and a line's real forks are the fewest among its lines of fewest decisions. NULL
until judged: `flask puzzles key-ideas`, or the clock, fills it.

Revision ID: 0017_real_forks
Revises: 0016_review_due
Create Date: 2026-12-07 01:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_real_forks"
down_revision = "0016_review_due"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("puzzle") as batch:
        batch.add_column(sa.Column("real_forks", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("puzzle") as batch:
        batch.drop_column("real_forks")

"""A stored puzzle keeps its key ideas and the whole forcing count: bounds and forks

`key_ideas` holds the decisions said against the solution (`puzzles.key_ideas`, as JSON), so that a
finished puzzle's result card and the first hint read them instead of running the forcing player on
the request path; NULL until found (`flask puzzles key-ideas`, or `flask puzzles rescore`).
`decisions_at_least`, `forks` and `forks_at_least` are the rest of the forcing player's count: a joker
puzzle's count is mostly a proved lower bound, which the tier read and the page says ("at least 3").

Revision ID: 0011
Revises: 0010_friend_name_keys
Create Date: 2026-12-06 07:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010_friend_name_keys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.add_column(sa.Column("decisions_at_least", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("forks", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("forks_at_least", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("key_ideas", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.drop_column("key_ideas")
        batch_op.drop_column("forks_at_least")
        batch_op.drop_column("forks")
        batch_op.drop_column("decisions_at_least")

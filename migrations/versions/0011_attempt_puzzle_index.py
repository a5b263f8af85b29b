"""An index on the attempts by puzzle and finishing time

How everyone did (`webapp.players.crowd`) reads a puzzle's attempts finished since it last counted
them; without an index on `puzzle_id` every count read the whole table (issue 42).

Revision ID: 0011_attempt_puzzle_index
Revises: 0010_friend_name_keys
Create Date: 2026-12-06 09:00:00
"""

from __future__ import annotations

from alembic import op

revision = "0011_attempt_puzzle_index"
down_revision = "0010_friend_name_keys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_attempt_puzzle_id_finished", "attempt", ["puzzle_id", "finished"])


def downgrade() -> None:
    op.drop_index("ix_attempt_puzzle_id_finished", table_name="attempt")

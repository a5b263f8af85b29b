"""An index on the attempts by puzzle and finishing time

How everyone did (`webapp.players.crowd`) reads a puzzle's attempts finished since it last counted
them; without an index on `puzzle_id` every count read the whole table (issue 42).

Revision ID: 0012_attempt_puzzle_index
Revises: 0011
Create Date: 2026-12-06 09:00:00
"""

from __future__ import annotations

from alembic import op

revision = "0012_attempt_puzzle_index"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_attempt_puzzle_id_finished", "attempt", ["puzzle_id", "finished"])


def downgrade() -> None:
    op.drop_index("ix_attempt_puzzle_id_finished", table_name="attempt")

"""An index on a player's turns by run, review round and end

The review page's lists (`webapp.review.queue`) read a player's turns outside runs of one review round,
in the order they ended, from a moment on, and show the first 50: without this index each list read
every turn of the player (issue 39: the page's work grew with the record).

Revision ID: 0014_review_rounds_index
Revises: 0013_readable_friend_names
Create Date: 2026-12-06 10:50:00
"""

from __future__ import annotations

from alembic import op

revision = "0014_review_rounds_index"
down_revision = "0013_readable_friend_names"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_attempt_player_run_review_finished", "attempt", ["player_id", "run_id", "review", "finished"]
    )


def downgrade() -> None:
    op.drop_index("ix_attempt_player_run_review_finished", table_name="attempt")

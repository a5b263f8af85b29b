"""The id of the last request applied to an attempt

A move, an undo or an end of turn carries a per-request id (the page's script writes it); the
attempt keeps the last one applied, so that the same request sent again (nginx retrying it on
another app host after the first died) is answered as the first was and never applied twice
(issue 42).

Revision ID: 0015_attempt_last_request
Revises: 0014_review_rounds_index
Create Date: 2026-12-06 11:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_attempt_last_request"
down_revision = "0014_review_rounds_index"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("attempt") as batch:
        batch.add_column(sa.Column("last_request", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("attempt") as batch:
        batch.drop_column("last_request")

"""An attempt counts its slips: moves after which the step check said the maximum was out of reach

Attempts begun before start from 0, as no slip was counted then.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03 04:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.add_column(sa.Column("slips", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.drop_column("slips")

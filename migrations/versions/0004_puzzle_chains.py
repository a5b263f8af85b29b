"""Chain length, themes and live decoys, stored with each puzzle as the generator gives them

Puzzles stored before this revision get no chain length (NULL) and no themes: `flask puzzles rescore`
analyses them and fills the three columns. Until then they are never chosen for a new day or for
practice, as their tier was read from the chain depth, not from the chain length.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.add_column(sa.Column("chain", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("themes", sa.JSON(), server_default="[]", nullable=False))
        batch_op.add_column(sa.Column("live_decoys", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.drop_column("live_decoys")
        batch_op.drop_column("themes")
        batch_op.drop_column("chain")

"""The puzzle's maximum is stored as `max_placed`, the word the code and the pages use

The column was named `max_played` after the generator's JSON; the model already called it
`max_placed`. Only the name changes: every value stays.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03 00:00:00
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.alter_column("max_played", new_column_name="max_placed")


def downgrade() -> None:
    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.alter_column("max_placed", new_column_name="max_played")

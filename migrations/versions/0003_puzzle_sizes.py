"""Puzzle sizes: the hand size and the number of decoys, stored with each puzzle as the generator gives them

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 23:30:00
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _cards(melds: Any) -> Counter[str]:
    if isinstance(melds, str):  # a JSON column some drivers hand back as text
        melds = json.loads(melds)
    return Counter(card for meld in melds for card in meld)


def upgrade() -> None:
    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hand_size", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("decoys", sa.Integer(), server_default="0", nullable=False))
    # the puzzles already stored: the hand cards their solution does not place are the decoys
    puzzle = sa.table(
        "puzzle",
        sa.column("id", sa.Integer()),
        sa.column("table", sa.JSON()),
        sa.column("hand", sa.JSON()),
        sa.column("solution", sa.JSON()),
        sa.column("hand_size", sa.Integer()),
        sa.column("decoys", sa.Integer()),
    )
    connection = op.get_bind()
    rows = connection.execute(sa.select(puzzle.c.id, puzzle.c.table, puzzle.c.hand, puzzle.c.solution)).all()
    for row in rows:
        hand = json.loads(row.hand) if isinstance(row.hand, str) else row.hand
        placed = _cards(row.solution) - _cards(row.table)
        decoys = sum((Counter(hand) - placed).values())
        connection.execute(
            puzzle.update().where(puzzle.c.id == row.id).values(hand_size=len(hand), decoys=decoys)
        )


def downgrade() -> None:
    with op.batch_alter_table("puzzle", schema=None) as batch_op:
        batch_op.drop_column("decoys")
        batch_op.drop_column("hand_size")

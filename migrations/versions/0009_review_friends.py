"""Friends' tables (groups, their invitation links and their members), and review rounds

An attempt gets `review`: 0 for the first turn at a puzzle, 1, 2, ... for the turns at it when it
comes back for review; one attempt per player, puzzle and round.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03 07:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.add_column(sa.Column("review", sa.Integer(), server_default="0", nullable=False))
        batch_op.drop_constraint("uq_attempt_player_id_puzzle_id", type_="unique")
        batch_op.create_unique_constraint(
            "uq_attempt_player_id_puzzle_id_review", ["player_id", "puzzle_id", "review"]
        )
    op.create_table(
        "friend_group",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_friend_group")),
    )
    op.create_table(
        "friend_link",
        sa.Column("token", sa.String(length=43), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["friend_group.id"],
            name=op.f("fk_friend_link_group_id_friend_group"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token", name=op.f("pk_friend_link")),
    )
    op.create_index(op.f("ix_friend_link_group_id"), "friend_link", ["group_id"], unique=False)
    op.create_table(
        "friend_member",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("name_key", sa.String(length=96), nullable=False),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["friend_group.id"],
            name=op.f("fk_friend_member_group_id_friend_group"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name=op.f("fk_friend_member_player_id_player")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_friend_member")),
        sa.UniqueConstraint("group_id", "name_key", name=op.f("uq_friend_member_group_id_name_key")),
        sa.UniqueConstraint("group_id", "player_id", name=op.f("uq_friend_member_group_id_player_id")),
    )
    op.create_index(op.f("ix_friend_member_player_id"), "friend_member", ["player_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_friend_member_player_id"), table_name="friend_member")
    op.drop_table("friend_member")
    op.drop_index(op.f("ix_friend_link_group_id"), table_name="friend_link")
    op.drop_table("friend_link")
    op.drop_table("friend_group")
    # the review rounds go: a player keeps their first turn at each puzzle
    op.execute(sa.text("DELETE FROM attempt WHERE review > 0"))
    with op.batch_alter_table("attempt", schema=None) as batch_op:
        batch_op.drop_constraint("uq_attempt_player_id_puzzle_id_review", type_="unique")
        batch_op.create_unique_constraint("uq_attempt_player_id_puzzle_id", ["player_id", "puzzle_id"])
        batch_op.drop_column("review")

"""Friends' names: every member's name key made again as the Latin letters it looks like

A member's `name_key` was the name case-folded; since issue 39 it takes each letter as the Latin letter
it looks like (Unicode's confusables), so that `Аnna` in Cyrillic cannot sit beside `Anna`. Rows
written before kept the old key, and a lookalike could still join beside them. This revision writes
every key again by the new rule. Where two members of a table already hold names that are one under
it, the earlier member takes the key and the later keeps theirs apart (`key#id`): both stay at the
table under the names they chose, and no third lookalike can join.

Revision ID: 0010_friend_name_keys
Revises: 0009
Create Date: 2026-12-06 07:40:00
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op
from confusable_homoglyphs import confusables

revision = "0010_friend_name_keys"
down_revision = "0009"
branch_labels = None
depends_on = None

KEY_LENGTH = 96


def name_key(name: str) -> str:
    """`webapp.friends.groups.name_key` as this revision was written (a migration never imports the
    app): case folded, each letter taken as the Latin letter it looks like."""
    return "".join(_latin_lookalike(character) for character in name).casefold()


def _latin_lookalike(character: str) -> str:
    if character.isascii():
        return character
    found = confusables.is_confusable(character, preferred_aliases=["latin"])
    for homoglyph in found[0]["homoglyphs"] if found else ():
        if homoglyph["n"].startswith("LATIN") and len(homoglyph["c"]) == 1:
            return str(homoglyph["c"])
    return character


def _rekey(key_of: Callable[[str], str]) -> None:
    connection = op.get_bind()
    members = list(connection.execute(sa.text("SELECT id, group_id, name FROM friend_member ORDER BY id")))
    update = sa.text("UPDATE friend_member SET name_key = :key WHERE id = :id")
    # first out of one another's way (the table's unique key holds at every row; a control character
    # is in no name, and PostgreSQL keeps no NUL), then the new keys
    for member_id, _, _ in members:
        connection.execute(update, {"key": f"\x01{member_id}", "id": member_id})
    taken: set[tuple[int, str]] = set()
    for member_id, group_id, name in members:
        key = key_of(name)
        if (group_id, key) in taken:
            key = f"{key[: KEY_LENGTH - 12]}#{member_id}"
        taken.add((group_id, key))
        connection.execute(update, {"key": key, "id": member_id})


def upgrade() -> None:
    _rekey(name_key)


def downgrade() -> None:
    _rekey(str.casefold)

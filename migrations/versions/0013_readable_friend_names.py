"""Friends' names that show nothing, renamed to ones that do

Since issue 39 a name that draws nothing (blank, Hangul fillers such as U+3164, the blank Braille
pattern U+2800, control and formatting characters) is refused when a member joins or a table is made,
but names written before stayed: a member listed as an empty row, or as `Anna` beside `Anna` with a
filler after it. This revision takes those characters out of every member's and table's name; what
is left stays the name when it shows (a letter, digit, punctuation or symbol) and no other member of
the table has it (by `name_key`); otherwise the member is called `#` and their place at the table
(`#2`: the second to join), the table `#` and its number. Those defaults hold no word, so they read
the same in every language and need no translation.

The downgrade leaves the names as they are: the old ones drew nothing, and nothing in the schema
changed.

Revision ID: 0013_readable_friend_names
Revises: 0012_attempt_puzzle_index
Create Date: 2026-12-06 10:30:00
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op
from confusable_homoglyphs import confusables

revision = "0013_readable_friend_names"
down_revision = "0012_attempt_puzzle_index"
branch_labels = None
depends_on = None

NAME_MOST = 24
GROUP_NAME_MOST = 40
KEY_LENGTH = 96
FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")
"""`webapp.friends.groups.FILLERS` as this revision was written (a migration never imports the app)."""


def shown(name: str) -> str:
    """The name without what draws nothing (control and formatting characters, fillers), spaces
    collapsed: '' when nothing that shows is left."""
    kept = "".join(
        " " if character.isspace() else character
        for character in unicodedata.normalize("NFC", name)
        if not unicodedata.category(character).startswith("C") and character not in FILLERS
    )
    tidy = " ".join(kept.split())
    return tidy if any(unicodedata.category(character)[0] in "LNPS" for character in tidy) else ""


def name_key(name: str) -> str:
    """`webapp.friends.groups.name_key` as this revision was written: case folded, each letter taken as
    the Latin letter it looks like."""
    return "".join(_latin_lookalike(character) for character in name).casefold()


def _latin_lookalike(character: str) -> str:
    if character.isascii():
        return character
    found = confusables.is_confusable(character, preferred_aliases=["latin"])
    for homoglyph in found[0]["homoglyphs"] if found else ():
        if homoglyph["n"].startswith("LATIN") and len(homoglyph["c"]) == 1:
            return str(homoglyph["c"])
    return character


def _rename_members(connection: sa.Connection) -> None:
    members = list(
        connection.execute(
            sa.text("SELECT id, group_id, name, name_key FROM friend_member ORDER BY joined, id")
        )
    )
    keys = {(group_id, key) for _, group_id, _, key in members}
    places: dict[int, int] = {}
    update = sa.text("UPDATE friend_member SET name = :name, name_key = :key WHERE id = :id")
    for member_id, group_id, name, key in members:
        places[group_id] = places.get(group_id, 0) + 1
        readable = shown(name)[:NAME_MOST]
        if readable and readable == name:
            continue
        keys.discard((group_id, key))
        candidates = [readable] if readable else []
        candidates += [f"#{places[group_id]}", f"#{places[group_id]}-{member_id}"]
        chosen = next(
            candidate for candidate in candidates if (group_id, name_key(candidate)[:KEY_LENGTH]) not in keys
        )
        new_key = name_key(chosen)[:KEY_LENGTH]
        keys.add((group_id, new_key))
        connection.execute(update, {"name": chosen, "key": new_key, "id": member_id})


def _rename_groups(connection: sa.Connection) -> None:
    update = sa.text("UPDATE friend_group SET name = :name WHERE id = :id")
    for group_id, name in list(connection.execute(sa.text("SELECT id, name FROM friend_group ORDER BY id"))):
        readable = shown(name)[:GROUP_NAME_MOST]
        if not readable or readable != name:
            connection.execute(update, {"name": readable or f"#{group_id}", "id": group_id})


def upgrade() -> None:
    connection = op.get_bind()
    _rename_members(connection)
    _rename_groups(connection)


def downgrade() -> None:
    """Nothing to undo: the names that drew nothing are not worth drawing nothing again."""

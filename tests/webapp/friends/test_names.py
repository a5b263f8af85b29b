"""Friends' names that render as nothing, or that look like another member's, are refused with a
readable message; names in one script of any language are welcome."""

from __future__ import annotations

import html

import pytest
from flask import Flask

from tests.webapp.conftest import Player
from tests.webapp.friends.test_friends import join_path, make, newcomer

BLANK = "Type a name that shows"
INVISIBLE = "invisible characters"
MIXED = "may not mix Latin, Greek and Cyrillic letters"
TAKEN = "pick another name"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u3164", INVISIBLE),  # Hangul filler
        ("\u2800\u2800", INVISIBLE),  # the blank Braille pattern
        ("Anna\u3164", INVISIBLE),
        ("\u200b\u2060", INVISIBLE),  # format characters
        ("\u0301\u0301", BLANK),  # combining marks on nothing
        ("\u0410nna", MIXED),  # "Аnna": a Cyrillic А before Latin letters
        ("P\u0430ul", MIXED),  # a Cyrillic а
        ("\u039flga", MIXED),  # a Greek Ο
        ("\u0420\u0430\u0440\u0430", TAKEN),  # "Рара", all Cyrillic, beside "Papa"
        ("ANNA", TAKEN),
    ],
)
def test_a_blank_or_lookalike_name_is_refused(app: Flask, player: Player, name: str, why: str) -> None:
    path = make(player, name="Anna")
    link = join_path(player, path)
    papa = newcomer(app)
    assert papa.post(link, htmx=False, name="Papa").status_code == 303
    friend = newcomer(app)
    refused = friend.post(link, htmx=False, name=name)
    assert refused.status_code in (409, 422) and why in html.unescape(refused.get_data(as_text=True))
    # renaming is checked the same way
    member = newcomer(app)
    assert member.post(link, htmx=False, name="Bruno").status_code == 303
    renamed = member.post(f"{path}/name", htmx=False, name=name)
    assert renamed.status_code in (409, 422) and why in html.unescape(renamed.get_data(as_text=True))


@pytest.mark.parametrize("name", ["Łukasz", "Zoë", "Jürgen", "Анна", "Ἀθηνᾶ", "李娜", "Anna 2"])
def test_names_in_one_script_are_welcome(app: Flask, player: Player, name: str) -> None:
    path = make(player, name="Anna")
    assert newcomer(app).post(join_path(player, path), htmx=False, name=name).status_code == 303


def test_the_refusal_is_in_the_players_language(app: Flask, player: Player) -> None:
    path = make(player, name="Anna")
    friend = newcomer(app)
    refused = friend.client.post(
        join_path(player, path),
        data={"name": "\u0410nna"},
        headers={"X-CSRFToken": friend.token, "Accept-Language": "de"},
    )
    assert refused.status_code == 422 and MIXED not in html.unescape(refused.get_data(as_text=True))

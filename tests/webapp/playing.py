"""Playing a puzzle through the pages, as a test's player does: where the page shows each card, and
laying out a whole solution move by move."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest

import generator
from puzzles import Board
from tests.webapp.conftest import Player

CARD = re.compile(r'data-card="(\w+)" data-from="(\w+)"')


def card_places(page: str) -> dict[str, str]:
    """Where the page shows each card: a meld index or `hand`."""
    return dict(CARD.findall(page))


def card_id(page: str, name: str) -> str:
    """The id of the first card the page labels `name` (`9♠`)."""
    match = re.search(rf'data-card="(\w+)" data-from="\w+" draggable="true"\s+aria-label="{name}', page)
    assert match, f"no {name} on the page"
    return match.group(1)


def share_text(page: str) -> str:
    """The result card's share text as its Copy button copies it: the text of its parts."""
    match = re.search(r'<output id="share-text" class="share-text">(.*?)</output>', page, re.S)
    assert match, "no share text on the page"
    return html.unescape(re.sub(r"<[^>]+>", "", match.group(1))).strip()


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def solve(player: Player, number: int | str, puzzle: generator.Puzzle, base: str = "/puzzles") -> int:
    """Lay out the solution table meld by meld, as a player would; returns the moves made.

    `base` is where the puzzle is played: `/puzzles` (daily), `/archive` or `/practice`."""
    page = player.client.get(f"{base}/{number}").get_data(as_text=True)
    ids_by_card: dict[str, list[str]] = {}
    for found in re.finditer(
        r'data-card="(\w+)" data-from="\w+" draggable="true"\s+aria-label="([^"(]+)', page
    ):
        ids_by_card.setdefault(found.group(2).strip(), []).append(found.group(1))
    moves = 0
    for meld in puzzle.solution:
        first = None
        for token in meld:
            # table copies first: every table card must end on the table
            choices = sorted(
                ids_by_card[token[:-1] + SUIT_SYMBOLS[token[-1]]], key=lambda i: (i[0] != "t", i)
            )
            chosen = choices[0]
            ids_by_card[token[:-1] + SUIT_SYMBOLS[token[-1]]].remove(chosen)
            target = "new" if first is None else card_places(page)[first]
            response = player.post(f"{base}/{number}/move", card=chosen, to=target)
            assert response.status_code == 200, response.get_data(as_text=True)
            page = response.get_data(as_text=True)
            first = first or chosen
            moves += 1
    return moves


def board_builds(monkeypatch: pytest.MonkeyPatch) -> Callable[[Any], list[str]]:
    """Count every board built from here on, `Board.start` and `Board.load`: the function returned takes
    a request's answer (a 200) and says which boards were built since the last one it was asked of."""
    built: list[str] = []
    for name in ("start", "load"):
        real = getattr(Board, name).__func__

        def counted(cls: type[Board], *args: Any, real: Any = real, name: str = name) -> Board:
            built.append(name)
            return real(cls, *args)  # type: ignore[no-any-return]

        monkeypatch.setattr(Board, name, classmethod(counted))

    def builds(response: Any) -> list[str]:
        assert response.status_code == 200, response.get_data(as_text=True)
        since = built.copy()
        built.clear()
        return since

    return builds


def save_verdict(player: Player, shown: bool) -> None:
    """Turn the step check's verdict on or off in the settings, as the settings form does."""
    form = {"deck": "two", "verdict-choice": "1", **({"verdict": "on"} if shown else {})}
    assert player.post("/settings", htmx=False, **form).status_code == 303

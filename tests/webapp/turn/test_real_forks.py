"""The key ideas of a puzzle with a weak and a real fork (`c9m1vndi4v`: 2♠ weak, J♠ real), through
the pages: the result card says "The key:" of the real one and the weak one plainly, last; the
first hint names J♠; `flask puzzles key-ideas` judges the forks of a row stored before, and counts
its real ones as a run does."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner

import generator
from generator._make import judged
from tests.generator.test_weak_forks import TWO_OF_SPADES, accepted
from tests.webapp.conftest import TODAY, Player, store
from tests.webapp.playing import card_id
from webapp import models
from webapp.db import database
from webapp.languages import LANGUAGE_COOKIE

SAID = {
    "en": (
        "The key: J♠ goes to the set J♠\u00a0J♥\u00a0J♦, not to a run.",
        "2♠ goes to 2♠\u00a03♠\u00a04♠, its only home: nothing else competes for it.",
        "J♠ is the key card: think about where it goes.",
    ),
    "it": (
        "La chiave: J♠ va nel tris J♠\u00a0J♥\u00a0J♦, non in una scala.",
        "2♠ va in 2♠\u00a03♠\u00a04♠, il suo unico posto: nessun'altra carta se lo contende.",
        "J♠ è la carta chiave: pensa a dove va.",
    ),
}


@pytest.fixture(scope="module")
def unjudged() -> generator.Puzzle:
    """The Master as `puzzle_of` grades it, its forks not judged (as a row stored before)."""
    puzzle = accepted(*TWO_OF_SPADES).puzzle
    assert puzzle is not None
    return puzzle


@pytest.fixture(scope="module")
def master() -> generator.Puzzle:
    weighed = judged(accepted(*TWO_OF_SPADES)).puzzle
    assert weighed is not None
    return weighed


def text(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


def ideas_said(page: str) -> list[str]:
    section = re.search(r'<div class="key-ideas" id="key-ideas">(.*?)</div>', page, re.S)
    assert section is not None
    return re.findall(r"<li>(.*?)</li>", section.group(1))


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_key_is_the_real_fork_and_the_hint_names_its_card(
    app: Flask, player: Player, master: generator.Puzzle, language: str
) -> None:
    key, weak, hint = SAID[language]
    store(app, master, TODAY)
    player.client.set_cookie(LANGUAGE_COOKIE, language)
    page = text(player.client.get("/"))
    jack = card_id(page, "J♠")
    board = text(player.post(f"/puzzles/{TODAY}/hint"))
    assert hint in board
    assert re.findall(r'class="card [^"]*\bhinted"\s+data-card="(\w+)"', board) == [jack]
    assert "hinted-meld" not in board, "the hint does not say where J♠ goes"
    said = ideas_said(text(player.post(f"/puzzles/{TODAY}/give-up")))
    assert said[0] == key and said[-1] == weak and len(said) == 3


def test_the_command_judges_the_forks_of_a_row_stored_before(
    app: Flask, runner: FlaskCliRunner, player: Player, unjudged: generator.Puzzle, master: generator.Puzzle
) -> None:
    store(app, unjudged, TODAY)
    before = ideas_said(text(player.post(f"/puzzles/{TODAY}/give-up")))
    # not judged: every fork reads as real, as the engine lists them, and none is called "The key"
    assert before[0].startswith("2♠ goes to the run") and not any("The key" in line for line in before)
    result = runner.invoke(args=["puzzles", "key-ideas"])
    assert result.exit_code == 0 and "found the key ideas of 1 puzzle" in result.output
    assert "judged the forks of 1" in result.output
    with app.app_context(), database().reader() as session:
        row = session.query(models.PoolPuzzle).one()
        assert row.key_ideas == [idea.to_json() for idea in master.key_ideas or ()]
        assert row.real_forks == master.real_forks == 1
    assert "found the key ideas of 0 puzzles" in runner.invoke(args=["puzzles", "key-ideas"]).output


def test_a_judged_line_imports_with_its_verdicts(
    app: Flask, runner: FlaskCliRunner, master: generator.Puzzle, tmp_path: Path
) -> None:
    path = tmp_path / "master.jsonl"
    path.write_text(json.dumps(master.to_json()) + "\n")
    result = runner.invoke(args=["puzzles", "import", str(path)])
    assert result.exit_code == 0 and "imported 1 puzzle" in result.output, result.output
    with app.app_context(), database().reader() as session:
        row = session.query(models.PoolPuzzle).one()
        assert [(idea["card"], idea.get("weak")) for idea in row.key_ideas or []] == [
            ("JS", False),
            ("3D", None),
            ("2S", True),
        ]
        assert row.real_forks == 1

"""The engine is pure: no web framework, database or site code beneath the board, hints and the
step check's verdict, and what a cache keys on is hashable."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import puzzles
from puzzles import Board, Card, Position, progress

ROOT = Path(puzzles.__file__).resolve().parent
FOREIGN = {"flask", "flask_babel", "sqlalchemy", "werkzeug", "webapp", "generator"}


@pytest.mark.parametrize("path", sorted(ROOT.glob("*.py")), ids=lambda path: path.name)
def test_no_engine_module_imports_the_site_or_a_database(path: Path) -> None:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    assert not names & FOREIGN


def test_a_board_and_its_position_are_hashable_values() -> None:
    position = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD")
    board = Board.start(position).move("h0", "0")
    again = Board.start(Position.parse(str(position))).move("h0", "0")
    assert board == again and hash(board) == hash(again)
    assert len({board, again, Board.start(position)}) == 2


def test_the_verdict_is_kept_per_position_and_cards_laid_in_any_order() -> None:
    position = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD")
    six, seven = Card.parse("6S"), Card.parse("7S")
    first = progress(position, (six, seven), 2, 10.0)
    assert progress(Position.parse(str(position)), (seven, six), 2, 10.0) is first

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


def imported(path: Path) -> set[str]:
    """The modules a file imports, by their full dotted names."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted(ROOT.glob("*.py")), ids=lambda path: path.name)
def test_no_engine_module_imports_the_site_or_a_database(path: Path) -> None:
    assert not {name.split(".")[0] for name in imported(path)} & FOREIGN


def test_or_tools_is_imported_by_the_model_alone() -> None:
    tops = {path.name: {name.split(".")[0] for name in imported(path)} for path in ROOT.glob("*.py")}
    assert {name for name, found in tops.items() if "ortools" in found} == {"_model.py"}


def test_the_candidates_are_combinatorics_without_a_solver() -> None:
    assert not imported(ROOT / "_candidates.py") & {"puzzles._model", "puzzles._solver", "puzzles._phases"}


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

"""`python -m puzzles`, run as other tools run it: a subprocess fed on stdin."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from puzzles import Position, parse_cards, play_problems

ROOT = Path(__file__).resolve().parents[2]
GOOD = {"rules": "classic", "table": [["3S", "4S", "5S"], ["7H", "7D", "7C"]], "hand": ["6S", "7S", "KD"]}


@dataclass(frozen=True)
class Run:
    status: int
    stdout: str
    stderr: str

    def answers(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stdout.splitlines()]

    def error_lines(self) -> list[str]:
        return self.stderr.splitlines()


def run(stdin: bytes | str, *args: str) -> Run:
    raw = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [sys.executable, "-m", "puzzles", *args],
        input=raw,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    return Run(done.returncode, done.stdout.decode(), done.stderr.decode())


def assert_one_error(result: Run, expected: str) -> None:
    assert result.status == 2
    assert result.stdout == ""
    assert result.error_lines() == [expected]


def test_good_input() -> None:
    result = run(json.dumps(GOOD), "solve", "--time-limit", "10")
    assert result.status == 0, result.stderr
    assert result.stderr == ""
    [answer] = result.answers()
    assert answer["rules"] == "classic" and answer["objective"] == "cards"
    assert answer["max_played"] == 2
    assert answer["played"] == ["6S", "7S"]
    assert answer["freed"] == []
    # 7S may extend the run or join the sevens; either final table is a legal best play
    position = Position.from_json(GOOD)
    table = [parse_cards(meld) for meld in answer["table"]]
    assert play_problems(position, table) == []
    assert sorted(card for meld in answer["table"] for card in meld) == sorted(
        ["3S", "4S", "5S", "6S", "7S", "7H", "7D", "7C"]
    )
    assert answer["points_left"] == 10
    assert (answer["optimal"], answer["unique"], answer["witness"]) == (True, True, None)
    assert (answer["depth"], answer["depth_optimal"], answer["broken"]) == (0, True, [])
    assert isinstance(answer["ms"], float)
    assert "line" not in answer and "id" not in answer


def test_points_objective() -> None:
    position = {"rules": "jokers", "table": "3S 3D JK / 6C 7C 8C / 4S JK 6S", "hand": "3S 3H AD"}
    [answer] = run(json.dumps(position), "solve", "--objective", "points").answers()
    assert answer["objective"] == "points"
    assert (answer["max_played"], answer["played"], answer["points_left"]) == (1, ["AD"], 6)


def test_json_lines_with_a_bad_line_in_the_middle() -> None:
    lines = [
        json.dumps({**GOOD, "id": "first"}),
        json.dumps({"table": [["3S", "4S"]], "hand": ["6S"]}),
        "",
        json.dumps({"rules": "italian", "table": "KH KD KC / QH QD QC / JH JD JC", "hand": "AC"}),
    ]
    result = run("\n".join(lines) + "\n", "solve")
    assert result.status == 2
    assert result.error_lines() == ["python -m puzzles: error: line 2: table meld 1 (3S 4S): only 2 cards"]
    first, fourth = result.answers()
    assert (first["id"], first["line"], first["max_played"]) == ("first", 1, 2)
    assert (fourth["line"], fourth["played"], fourth["depth"]) == (4, ["AC"], 3)
    assert "id" not in fourth


@pytest.mark.parametrize(
    ("stdin", "error"),
    [
        (b"not json at all", "line 1: not JSON (Expecting value at column 1)"),
        (b'{"table": [], "hand": ["\xff"]}', "line 1: not JSON (not UTF-8)"),
        (b'{"rules": "poker", "table": [], "hand": ["3S"]}', "position: unknown rules 'poker'"),
        (b'{"table": [["3S", "4S", "5S"]], "hand": ["3X"]}', "position: hand: '3X' is not a card"),
        (
            b'{"table": [["3S", "4S", "5S"], ["8H", "8H", "8C"]], "hand": ["6S"]}',
            "position: table meld 2 (8H 8H 8C): 8\u2665 twice in a set",
        ),
        (
            b'{"table": [["3S", "4S", "5S"], ["3S", "4S", "5S"]], "hand": ["3S"]}',
            "position: 3 copies of 3\u2660 on the table and in the hand, but the classic rules have 2",
        ),
        (b"[1, 2]", "position: a position must be a JSON object with table and hand"),
        (b"", "no position on stdin"),
        (b"\n  \n", "no position on stdin"),
    ],
    ids=[
        "not-json",
        "not-utf8",
        "unknown-preset",
        "bad-card",
        "invalid-meld",
        "too-many",
        "array",
        "empty",
        "blank",
    ],
)
def test_bad_input_is_one_line_and_status_2(stdin: bytes, error: str) -> None:
    result = run(stdin, "solve")
    assert result.status == 2
    assert result.stdout == ""
    [line] = result.error_lines()
    assert line.startswith(f"python -m puzzles: error: {error}")
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("value", "error"),
    [("abc", "'abc' is not a number of seconds"), ("0", "0 is not between 0 and 3600 seconds")],
)
def test_bad_time_limit(value: str, error: str) -> None:
    result = run(json.dumps(GOOD), "solve", "--time-limit", value)
    assert_one_error(result, f"python -m puzzles solve: error: argument --time-limit: {error}")


def test_help() -> None:
    result = run("", "--help")
    assert result.status == 0
    assert result.stdout.startswith("usage: python -m puzzles")
    assert "solve" in result.stdout and "demo" in result.stdout
    solve = run("", "solve", "--help")
    assert solve.status == 0
    for word in ("--objective", "--time-limit", "JSON Lines", "german-jokers", "max_played"):
        assert word in solve.stdout, word


def test_interrupt_keeps_whole_lines_and_prints_no_traceback(tmp_path: Path) -> None:
    line = json.dumps({"rules": "classic", "table": [["3S", "4S", "5S"]], "hand": ["6S", "KD"]})
    source = tmp_path / "many.jsonl"
    source.write_text((line + "\n") * 5000)
    with source.open() as stdin:
        process = subprocess.Popen(
            [sys.executable, "-m", "puzzles", "solve"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdout is not None
        first = process.stdout.readline()  # the solver is running: interrupt it mid-stream
        process.send_signal(signal.SIGINT)
        rest, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.decode().strip() == "python -m puzzles: interrupted"
    for answer in (first + rest).splitlines():
        assert json.loads(answer)["max_played"] == 1

"""`python -m puzzles`, run as other tools run it: a subprocess fed on stdin. The many kinds of bad
input call its `main` in this process instead (`run_main`): the same code, without starting Python
and importing the solver again for each; one of them also runs as a program."""

from __future__ import annotations

import ctypes
import io
import json
import os
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pytest

from puzzles import Position, argtypes, parse_cards, play_problems
from puzzles._cli import _waking_lines, main

slow = pytest.mark.slow  # runs python -m puzzles as a program

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


def run_main(stdin: bytes | str, *args: str, capsys: pytest.CaptureFixture[str]) -> Run:
    """What `run` answers, from `puzzles._cli.main` (all that `python -m puzzles` calls) in this
    process: stdin as bytes behind a text stream, as a program's is; argparse's exit caught."""
    raw = stdin.encode() if isinstance(stdin, str) else stdin
    capsys.readouterr()
    try:
        status = main(list(args), io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    except SystemExit as exit:
        status = exit.code if isinstance(exit.code, int) else 1
    out, err = capsys.readouterr()
    return Run(status, out, err)


def assert_one_error(result: Run, expected: str) -> None:
    assert result.status == 2
    assert result.stdout == ""
    assert result.error_lines() == [expected]


@slow
def test_good_input() -> None:
    result = run(json.dumps(GOOD), "solve", "--time-limit", "10")
    assert result.status == 0, result.stderr
    assert result.stderr == ""
    [answer] = result.answers()
    assert answer["rules"] == "classic" and answer["objective"] == "cards"
    assert answer["max_placed"] == 2
    assert answer["laid"] == ["6S", "7S"]
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
    assert answer["line"] == 1 and "id" not in answer


@pytest.mark.parametrize(
    ("text", "forks", "kinds"),
    [
        # a seven to the hearts or to the clubs: either wins, a free choice
        ("classic | 7S 7H 7D 7C / 4D 5D 6D | 5H 6H 5C 6C", 0, ["choice"]),
        ("classic | 7S 7H 7D / 4C 5C 6C 7C | 5S 6S 5H 6H 8H 8C", 1, ["decline", "fork"]),
    ],
)
def test_the_decision_line_says_its_kinds_and_agrees_with_the_table_shown(
    text: str, forks: int, kinds: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    position = Position.parse(text)
    [answer] = run_main(json.dumps(position.to_json()), "solve", capsys=capsys).answers()
    line = answer["decision_line"]
    assert answer["forks"] == answer["forks_at_least"] == sum(d["kind"] == "fork" for d in line) == forks
    assert [d["kind"] for d in line] == kinds
    assert len(line) == answer["decisions"]
    for decided in line:
        card = decided["card"]
        sets = sum(meld.count(card) for meld in answer["table"] if _is_set(meld))
        runs = sum(meld.count(card) for meld in answer["table"] if not _is_set(meld))
        assert (decided["sets"], decided["runs"]) == (sets, runs), decided


HARD = (
    "classic | 3S 3D 3C / 4S 4D 4C / 2S 3S 4S 5S 6S 7S 8S 9S / 6S 7S 8S / 2H 3H 4H / 2D 3D 4D 5D 6D 7D 8D 9D"
    " / 6D 7D 8D / 2C 3C 4C / 5C 6C 7C 8C / 5C 6C 7C 8C 9C | 5S 6H 6H 5D"
)
"""A generated classic Hard (co1vtm8zp, seed 3901): its stored solution, the graded play, breaks more
melds than the play the answer shows (6♠ 6♦ both in sets there, one in a run here), and every line
of its 3 decisions leads to the solution."""
HARD_SOLUTION = (
    "2S 2H 2D / 3S 3H 3D 3C / 4S 4H 4D 4C / 5S 5D 5C / 6S 6H 6D / 6S 6H 6D 6C / 7S 7D 7C / 8S 8D 8C"
    " / 3S 4S 5S / 7S 8S 9S / 3D 4D 5D / 7D 8D 9D / 2C 3C 4C / 5C 6C 7C 8C 9C"
)


def test_the_answers_line_agrees_with_its_own_table_where_the_graded_play_is_another(
    capsys: pytest.CaptureFixture[str],
) -> None:
    position = Position.parse(HARD)
    [answer] = run_main(json.dumps(position.to_json()), "solve", capsys=capsys).answers()
    solution = [meld.split() for meld in HARD_SOLUTION.split(" / ")]
    assert _ends(answer["table"], "6S") != _ends(solution, "6S"), "another play than the solution"
    line = answer["decision_line"]
    # no line of the fewest decisions reaches the play shown: the line that does is longer
    assert answer["decisions"] == 3 and len(line) > 3
    for decided in line:
        assert (decided["sets"], decided["runs"]) == _ends(answer["table"], decided["card"]), decided


def _ends(table: list[list[str]], card: str) -> tuple[int, int]:
    sets = sum(meld.count(card) for meld in table if _is_set(meld))
    return sets, sum(meld.count(card) for meld in table if not _is_set(meld))


def _is_set(meld: list[str]) -> bool:
    return len({token[:-1] for token in meld}) == 1


def test_points_objective(capsys: pytest.CaptureFixture[str]) -> None:
    position = {"rules": "jokers", "table": "3S 3D JK / 6C 7C 8C / 4S JK 6S", "hand": "3S 3H AD"}
    [answer] = run_main(json.dumps(position), "solve", "--objective", "points", capsys=capsys).answers()
    assert answer["objective"] == "points"
    assert (answer["max_placed"], answer["laid"], answer["points_left"]) == (1, ["AD"], 6)


@slow
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
    assert (first["id"], first["line"], first["max_placed"]) == ("first", 1, 2)
    assert (fourth["line"], fourth["laid"], fourth["depth"]) == (4, ["AC"], 3)
    assert "id" not in fourth


def test_a_line_python_cannot_read_is_a_bad_line_like_any_other(capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        json.dumps({**GOOD, "id": "before"}),
        "[" * 10_000 + "]" * 10_000,
        '{"table": [], "hand": ["6S"], "id": ' + "9" * 5000 + "}",
        json.dumps({**GOOD, "id": "after"}),
    ]
    result = run_main("\n".join(lines) + "\n", "solve", capsys=capsys)
    assert result.status == 2
    digits = sys.get_int_max_str_digits()
    assert result.error_lines() == [
        "python -m puzzles: error: line 2: not JSON (nested more than 100 deep)",
        f"python -m puzzles: error: line 3: not JSON (a number of more than {digits} digits)",
    ]
    assert [(answer["id"], answer["line"]) for answer in result.answers()] == [("before", 1), ("after", 4)]


@pytest.mark.parametrize(
    ("text", "readable"),
    [
        ("7", True),
        ('"[[["', True),
        ('{"a": [{}]}', True),
        ("[" * 100 + "]" * 100, True),
        ("[" * 101 + "]" * 101, False),
        ('{"a": ' + "[" * 100 + "]" * 100 + "}", False),
    ],
)
def test_json_input_may_nest_100_deep(text: str, readable: bool) -> None:
    assert argtypes.MAX_NESTING == 100
    if readable:
        assert argtypes.load_json(text) == json.loads(text)
    else:
        with pytest.raises(argtypes.NotJSON, match="nested more than 100 deep"):
            argtypes.load_json(text)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_json_input_has_no_nan_or_infinity(constant: str) -> None:
    with pytest.raises(argtypes.NotJSON, match=f"{constant} is not a JSON value"):
        argtypes.load_json('{"id": ' + constant + "}")


def test_other_fields_are_ignored(capsys: pytest.CaptureFixture[str]) -> None:
    line = {**GOOD, "id": 7, "tier": "easy", "solution": [["3S", "4S", "5S", "6S", "7S"]], "decoys": 1}
    result = run_main(json.dumps(line), "solve", capsys=capsys)
    assert result.status == 0, result.stderr
    [answer] = result.answers()
    assert (answer["id"], answer["line"], answer["max_placed"]) == (7, 1, 2)
    assert "tier" not in answer and "decoys" not in answer


@pytest.mark.parametrize("blank_lines", [0, 2])
def test_one_pretty_printed_object(blank_lines: int, capsys: pytest.CaptureFixture[str]) -> None:
    pretty = json.dumps({**GOOD, "id": "pretty"}, indent=2)
    result = run_main("\n" * blank_lines + pretty + "\n", "solve", capsys=capsys)
    assert result.status == 0, result.stderr
    [answer] = result.answers()
    assert (answer["id"], answer["line"], answer["max_placed"]) == ("pretty", 1 + blank_lines, 2)


def spawn() -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "puzzles", "solve"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


@slow
@pytest.mark.parametrize("first", [json.dumps(GOOD), "not json"], ids=["good-first", "bad-first"])
def test_each_line_is_answered_as_it_arrives(first: str) -> None:
    """A program writes a line and waits for its answer before it writes the next."""
    reader = ThreadPoolExecutor(max_workers=1)
    with spawn() as process:
        assert process.stdin and process.stdout and process.stderr
        stdin = process.stdin

        def send(line: str, answers: IO[bytes]) -> str:
            stdin.write(line.encode() + b"\n")
            stdin.flush()
            return reader.submit(answers.readline).result(timeout=60).decode()

        try:
            if first == "not json":
                error = send(first, process.stderr)
                assert error == "python -m puzzles: error: line 1: not JSON (Expecting value at column 1)\n"
            else:
                assert json.loads(send(first, process.stdout))["line"] == 1
            second = json.loads(send(json.dumps({**GOOD, "id": "second"}), process.stdout))
            assert (second["id"], second["line"], second["max_placed"]) == ("second", 2, 2)
            stdin.close()
            assert process.wait(timeout=60) == (2 if first == "not json" else 0)
        finally:
            process.kill()  # a reader still waiting for a line gets end of file
            reader.shutdown()


@slow
def test_a_reader_that_goes_away_stops_it_quietly() -> None:
    with spawn() as process:
        assert process.stdin and process.stdout and process.stderr
        process.stdin.write((json.dumps(GOOD) + "\n").encode())
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["line"] == 1
        process.stdout.close()  # like `| head -1`
        process.stdin.write((json.dumps(GOOD) + "\n").encode() * 3)
        process.stdin.close()
        assert process.wait(timeout=60) == 1
        assert process.stderr.read() == b""


@pytest.mark.parametrize(
    ("stdin", "error"),
    [
        (b"not json at all", "line 1: not JSON (Expecting value at column 1)"),
        (b'{"table": [], "hand": ["\xff"]}', "line 1: not JSON (not UTF-8)"),
        (b"[" * 10_000 + b"]" * 10_000, "line 1: not JSON (nested more than 100 deep)"),
        (
            b'{"table": [], "hand": [], "id": ' + b"[" * 100 + b"]" * 100 + b"}",
            "line 1: not JSON (nested more",
        ),
        (b'{"table": [], "hand": [], "n": ' + b"7" * 5000 + b"}", "line 1: not JSON (a number of more than"),
        (b'{"rules": "poker", "table": [], "hand": ["3S"]}', "line 1: unknown rules 'poker'"),
        (b'{"table": [["3S", "4S", "5S"]], "hand": ["3X"]}', "line 1: hand: '3X' is not a card"),
        (
            b'{"table": [["3S", "4S", "5S"], ["8H", "8H", "8C"]], "hand": ["6S"]}',
            "line 1: table meld 2 (8H 8H 8C): 8\u2665 twice in a set",
        ),
        (
            b'{"table": [["3S", "4S", "5S"], ["3S", "4S", "5S"]], "hand": ["3S"]}',
            "line 1: 3 copies of 3\u2660 on the table and in the hand, but the classic rules have 2",
        ),
        (
            b'{"table": [], "hand": ["JK"]}',
            "line 1: 1 joker on the table and in the hand, but the classic rules have none",
        ),
        (b'{"hand": ["6S"]}', "line 1: table is missing"),
        (b'\n  \n{"table": [], "hand": ["3X"]}', "line 3: hand: '3X' is not a card"),
        (b'\n\n{\n  "rules": "nope",\n  "table": [], "hand": []\n}\n', "line 3: unknown rules 'nope'"),
        (b"[1, 2]", "line 1: a position must be a JSON object with table and hand"),
        (b"", "no position on stdin"),
        (b"\n  \n", "no position on stdin"),
    ],
    ids=[
        "not-json",
        "not-utf8",
        "too-deep",
        "too-deep-an-id",
        "too-long-a-number",
        "unknown-preset",
        "bad-card",
        "invalid-meld",
        "too-many",
        "joker-in-classic",
        "no-table",
        "after-a-blank-line",
        "pretty-printed",
        "array",
        "empty",
        "blank",
    ],
)
def test_bad_input_is_one_line_and_status_2(
    stdin: bytes, error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_bad_input(run_main(stdin, "solve", capsys=capsys), error)


@slow
def test_bad_input_is_one_line_and_status_2_from_the_program() -> None:
    assert_bad_input(run(b'{"table": [], "hand": ["\xff"]}', "solve"), "line 1: not JSON (not UTF-8)")


def assert_bad_input(result: Run, error: str) -> None:
    assert result.status == 2
    assert result.stdout == ""
    [line] = result.error_lines()
    assert line.startswith(f"python -m puzzles: error: {error}")
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("value", "error"),
    [("abc", "'abc' is not a number of seconds"), ("0", "0 is not between 0 and 3600 seconds")],
)
def test_bad_time_limit(value: str, error: str, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_main(json.dumps(GOOD), "solve", "--time-limit", value, capsys=capsys)
    assert_one_error(result, f"python -m puzzles solve: error: argument --time-limit: {error}")


@slow
def test_help() -> None:
    result = run("", "--help")
    assert result.status == 0
    assert result.stdout.startswith("usage: python -m puzzles")
    assert "solve" in result.stdout and "demo" in result.stdout
    for word in ("JSON Lines", "pretty-printed", "max_placed", "Exit status", "130"):
        assert word in result.stdout, word  # the epilog sums up solve
    solve = run("", "solve", "--help")
    assert solve.status == 0
    for word in ("--objective", "--time-limit", "JSON Lines", "german-jokers", "max_placed"):
        assert word in solve.stdout, word


@slow
@pytest.mark.parametrize("target", ["process", "or-tools-thread"])
def test_interrupt_keeps_whole_lines_and_prints_no_traceback(target: str) -> None:
    # Waits on answers, never on the clock: each line is written once the one before is answered, and
    # Ctrl-C comes while the reader waits for the next, so the outcome is the same on any machine (a
    # file of 5000 lines raced the signal and, on a loaded machine, outran the test's timeout).
    # A SIGINT that Python's C handler takes on another thread than the waiting one (the kernel's
    # choice) is the same as one that lands just before the wait's read(): the wait must still end.
    line = json.dumps({"rules": "classic", "table": [["3S", "4S", "5S"]], "hand": ["6S", "KD"]}) + "\n"
    process = subprocess.Popen(
        [sys.executable, "-m", "puzzles", "solve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=ctrl_c_as_in_a_terminal,
    )
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    answers = []
    for _ in range(3):
        process.stdin.write(line.encode())
        process.stdin.flush()
        answers.append(process.stdout.readline())
    if target == "process":
        process.send_signal(signal.SIGINT)  # stdin stays open: only the signal can end it
    else:
        others = [int(t) for t in os.listdir(f"/proc/{process.pid}/task") if int(t) != process.pid]
        assert others, "OR-Tools started no thread of its own"
        assert ctypes.CDLL(None).tgkill(process.pid, others[0], signal.SIGINT) == 0
    # a guard, not a measure: a process that ignored the signal would otherwise keep the test forever
    assert process.wait(timeout=300) == 130
    rest, err = process.stdout.read(), process.stderr.read()
    process.stdin.close()
    assert err.decode().strip() == "python -m puzzles: interrupted"
    assert rest == b""
    for answer in answers:
        assert json.loads(answer)["max_placed"] == 1


def ctrl_c_as_in_a_terminal() -> None:
    """In the child: SIGINT to its default. A test run started in the background (`make test &`, a CI
    job) inherits SIGINT ignored, and Python then installs no handler: the signal would be lost."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_lines_are_whole_whatever_the_reads_bring() -> None:
    """Lines come out whole when reads cut them anywhere, the last one without its newline; a signal
    whose handler does not raise leaves the wait going on."""
    data = b'{"a": 1}\n\n' + b"x" * 40 + b"\n\xff\xfe broken\nlast"
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    caught: list[int] = []
    before = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(before)
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: caught.append(signum))
    try:
        lines = _waking_lines(read, chunk=7)
        got = [next(lines)]
        signal.raise_signal(signal.SIGUSR1)  # its byte waits in the wakeup pipe for the next select
        got.extend(lines)
    finally:
        signal.signal(signal.SIGUSR1, previous)
        os.close(read)
    assert got == data.splitlines(keepends=True)
    assert caught == [signal.SIGUSR1]
    assert signal.set_wakeup_fd(before) == before  # the generator put back the wakeup it found


@slow
def test_stdin_closed_is_no_position() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "puzzles", "solve"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        check=False,
        preexec_fn=lambda: os.close(0),
    )
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode().splitlines() == ["python -m puzzles: error: no position on stdin"]


TWO_OF_SPADES = (
    "classic | 4S 4H 4C / 5S 6S 7S / 7S 7D 7C / 9S 10S JS QS / KS KD KC / 7H 8H 9H / 9H 9D 9C / 10H 10D "
    "10C / JH QH KH / 4D 5D 6D / 5D 6D 7D / 8D 9D 10D / JD QD KD | 2S 3S JH KH 3D 3D 8D 6C 7C 10C KC"
)
"""`c9m1vndi4v` (docs/RULES.md, *Weak forks*): 2♠ a weak fork, J♠ a real one."""


@pytest.mark.parametrize(
    ("text", "real", "weak"),
    [
        (TWO_OF_SPADES, 1, {"2S": True, "JS": False}),
        ("classic | 7S 7H 7D / 4C 5C 6C 7C | 5S 6S 5H 6H 8H 8C", 1, {"5H": False}),
        ("classic | 7S 7H 7D 7C / 4D 5D 6D | 5H 6H 5C 6C", 0, {}),
    ],
)
def test_the_answer_says_which_forks_are_weak(
    text: str, real: int, weak: dict[str, bool], capsys: pytest.CaptureFixture[str]
) -> None:
    position = Position.parse(text)
    [answer] = run_main(json.dumps(position.to_json()), "solve", capsys=capsys).answers()
    assert answer["real_forks"] == answer["real_forks_at_least"] == real
    forks = {d["card"]: d["weak"] for d in answer["decision_line"] if d["kind"] == "fork"}
    assert forks == weak
    assert all("weak" not in d for d in answer["decision_line"] if d["kind"] != "fork")

"""`python -m generator`: make, show and check, bad arguments, interrupts."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from generator import Puzzle, puzzle_from_id
from generator._cli import main
from generator._make import MAX_SEED
from tests.puzzles.test_cli import ctrl_c_as_in_a_terminal
from tests.waiting import wait_until

pytestmark = pytest.mark.slow  # generates puzzles, some in worker processes and programs

ROOT = Path(__file__).resolve().parents[2]


def puzzles_in(path: Path) -> list[Puzzle]:
    return [Puzzle.from_json(json.loads(line)) for line in path.read_text().splitlines()]


def make(out: Path, *extra: str) -> int:
    # a generous limit: a loaded machine must not change which attempts the solver proves
    return main(
        ["make", "--count", "4", "--seed", "3", "--time-limit", "60", "--out", str(out), "--quiet", *extra]
    )


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("made") / "puzzles.jsonl"
    assert make(out) == 0
    return out


def test_make_writes_proven_puzzles_one_a_line(made: Path) -> None:
    puzzles = puzzles_in(made)
    assert len(puzzles) == 4
    assert len({puzzle.canonical for puzzle in puzzles}) == 4
    assert all(puzzle.rules == "classic" and puzzle.depth >= puzzle.chain >= 1 for puzzle in puzzles)


def test_make_reports_progress_and_a_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hard.jsonl"
    assert main(["make", "--count", "2", "--tier", "hard", "--seed", "1", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "2/2" in err and "acceptance" in err  # the progress bar
    assert "made 2 classic puzzles" in err and "tiers: hard 2" in err
    assert [puzzle.tier for puzzle in puzzles_in(out)] == ["hard", "hard"]


def test_make_writes_to_stdout_without_out(capsys: pytest.CaptureFixture[str], made: Path) -> None:
    assert main(["make", "--count", "4", "--seed", "3", "--time-limit", "60", "--quiet"]) == 0
    assert capsys.readouterr().out == made.read_text()


def test_the_same_seed_gives_the_same_file_with_one_or_two_workers(tmp_path: Path, made: Path) -> None:
    two = tmp_path / "two.jsonl"
    assert make(two, "--workers", "2") == 0
    assert two.read_text() == made.read_text()


def test_a_second_run_skips_puzzles_already_in_the_file(tmp_path: Path, made: Path) -> None:
    out = tmp_path / "grow.jsonl"
    out.write_text(made.read_text())
    assert make(out) == 0
    puzzles = puzzles_in(out)
    assert len(puzzles) == 8
    assert len({puzzle.canonical for puzzle in puzzles}) == 8
    assert out.read_text().startswith(made.read_text())


def test_a_run_that_gives_up_early_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "few.jsonl"
    assert main(["make", "--count", "50", "--tier", "master", "--max-attempts", "3", "--out", str(out)]) == 1
    made = len(puzzles_in(out))
    assert made < 50
    assert f"made {made} classic puzzles" in capsys.readouterr().err


def test_make_appends_after_a_last_line_without_newline(tmp_path: Path, made: Path) -> None:
    out = tmp_path / "edited.jsonl"
    out.write_text(made.read_text().rstrip("\n"))
    assert (
        main(["make", "--count", "1", "--seed", "4", "--time-limit", "60", "--out", str(out), "--quiet"]) == 0
    )
    assert len(puzzles_in(out)) == 5


def test_make_stops_quietly_when_the_reader_goes_away() -> None:
    command = f"{sys.executable} -m generator make --count 1000 --quiet | head -n 2"
    run = subprocess.run(command, shell=True, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert len(run.stdout.splitlines()) == 2
    assert run.stderr == ""


def test_show_prints_the_puzzle_of_an_id(made: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = made.read_text().splitlines()[0]
    puzzle_id = json.loads(first)["id"]
    assert main(["show", puzzle_id]) == 0
    assert capsys.readouterr().out == first + "\n"
    assert main(["show", puzzle_id, "--pretty"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{puzzle_id}: classic, ")
    assert "hand: " in text and any(symbol in text for symbol in "♠♥♦♣")


def test_check_passes_a_good_file(made: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(made)]) == 0
    assert f"checked 4 puzzles in {made}: 4 hold, 0 fail" in capsys.readouterr().out


def test_check_reports_tampered_puzzles(
    tmp_path: Path, made: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [json.loads(line) for line in made.read_text().splitlines()]
    deeper = puzzle_from_id("cl37").to_json() | {"depth": 7}  # still master, but not the chain depth
    lines[1]["hand"] = lines[1]["hand"][:-1]  # no longer matches its counts or canonical form
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(line) + "\n" for line in [*lines, deeper, lines[0]]))
    assert main(["check", str(tampered)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("line 2: ")
    assert out[1] == "line 5 (cl37): depth is 7, but the chain depth is 6"
    assert out[2].startswith("line 6 (") and out[2].endswith("the same puzzle as line 1")
    assert out[-1] == f"checked 6 puzzles in {tampered}: 3 hold, 3 fail"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["make", "--count", "0"], "argument --count: 0 is less than 1"),
        (["make", "--count", "many"], "argument --count: 'many' is not a whole number"),
        (["make", "--rules", "poker"], "unknown rules 'poker'"),
        (["make", "--tier", "legendary"], "argument --tier: invalid choice: 'legendary'"),
        (["make", "--workers", "0"], "argument --workers: 0 is less than 1"),
        (["make", "--workers", "1000"], "argument --workers: 1000 is more than 64"),
        (["make", "--seed", "-3"], "argument --seed: -3 is less than 0"),
        (["make", "--seed", str(MAX_SEED + 1)], f"argument --seed: {MAX_SEED + 1} is more than {MAX_SEED}"),
        (["make", "--time-limit", "-1"], "argument --time-limit: -1 is not between 0 and 600 seconds"),
        (["make", "--out", "/no/such/dir/x.jsonl"], "cannot write /no/such/dir/x.jsonl"),
        (["show", "xx1"], "unknown rules letter 'x'"),
        (["check", "/no/such/file.jsonl"], "cannot read /no/such/file.jsonl"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        status = main(argv)
        raise SystemExit(status)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert message in err and "Traceback" not in err


def test_bad_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": "cb1"}\n{"id": \n')
    assert main(["check", str(broken)]) == 2
    assert "line 2: not JSON" in capsys.readouterr().err
    assert main(["make", "--count", "1", "--out", str(broken), "--quiet"]) == 2
    assert "line 2: not JSON" in capsys.readouterr().err
    broken.write_text('{"id": "cb1"}\n')
    assert main(["make", "--count", "1", "--out", str(broken), "--quiet"]) == 2
    assert "broken.jsonl line 1: missing field 'rules'" in capsys.readouterr().err


def test_check_reports_every_line_that_is_not_json_and_checks_the_rest(
    tmp_path: Path, made: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = made.read_text().splitlines()
    bad = [
        "not json",
        "[" * 10_000 + "]" * 10_000,  # beyond Python's recursion limit
        '{"id": ' + "9" * 5000 + "}",
        '{"id": ' + "[" * 900 + "]" * 900 + "}",  # within it, but too deep to hand to a worker
    ]
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("\n".join([good[0], bad[0], good[1], bad[1], bad[2], good[2], bad[3], good[3]]) + "\n")
    assert main(["check", str(mixed)]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"python -m generator: error: {mixed} line 2: not JSON (Expecting value at column 1)",
        f"python -m generator: error: {mixed} line 4: not JSON (nested more than 100 deep)",
        f"python -m generator: error: {mixed} line 5: not JSON (a number of more than "
        f"{sys.get_int_max_str_digits()} digits)",
        f"python -m generator: error: {mixed} line 7: not JSON (nested more than 100 deep)",
    ]
    assert captured.out.splitlines() == [f"checked 4 puzzles in {mixed}: 4 hold, 0 fail; 4 lines not JSON"]


def test_make_refuses_an_out_file_python_cannot_read(
    tmp_path: Path, made: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text(made.read_text() + "[" * 10_000 + "]" * 10_000 + "\n")
    assert make(deep) == 2
    [error] = capsys.readouterr().err.splitlines()
    assert error == f"python -m generator: error: {deep} line 5: not JSON (nested more than 100 deep)"


def test_its_output_pipes_into_the_solver(made: Path) -> None:
    """`python -m generator make | python -m puzzles solve`: the puzzle's fields beyond the position
    are ignored, its id comes back, and the solver agrees with the generator."""
    done = subprocess.run(
        [sys.executable, "-m", "puzzles", "solve"],
        input=made.read_bytes(),
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    puzzles = puzzles_in(made)
    assert [answer["line"] for answer in answers] == [1, 2, 3, 4]
    assert [answer["id"] for answer in answers] == [puzzle.id for puzzle in puzzles]
    for answer, puzzle in zip(answers, puzzles, strict=True):
        assert (answer["max_placed"], answer["depth"]) == (puzzle.max_placed, puzzle.depth)
        assert (answer["chain"], answer["chain_optimal"]) == (puzzle.chain, True)
        assert sorted(answer["laid"]) == sorted(puzzle.laid)
        assert answer["optimal"] and answer["unique"]


def run_and_stop(out: Path, stop: signal.Signals, workers: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "generator", "make", "--count", "100000", "--out", str(out)]
    process = subprocess.Popen(
        [*command, "--workers", workers],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_as_in_a_terminal,
    )
    wait_until(lambda: out.exists() and out.read_text().count("\n") >= 3, "three puzzles were not written")
    process.send_signal(stop)
    _, err = process.communicate(timeout=60)
    return subprocess.CompletedProcess(process.args, process.returncode, "", err)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_keeps_whole_lines_and_prints_no_traceback(tmp_path: Path, workers: str) -> None:
    out = tmp_path / "stopped.jsonl"
    run = run_and_stop(out, signal.SIGINT, workers)
    assert run.returncode == 130
    assert "Traceback" not in run.stderr
    assert "interrupted: made" in run.stderr
    text = out.read_text()
    assert text.endswith("\n") and len(puzzles_in(out)) >= 3


def test_a_killed_run_leaves_only_whole_lines(tmp_path: Path) -> None:
    out = tmp_path / "killed.jsonl"
    run = run_and_stop(out, signal.SIGKILL, "1")
    assert run.returncode == -signal.SIGKILL
    assert out.read_text().endswith("\n")
    assert len(puzzles_in(out)) >= 3

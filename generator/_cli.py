"""`python -m generator`: make puzzles, show one by its ID, check a file of them."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType

from tqdm import tqdm

from generator._grading import TIERS
from generator._make import (
    DEFAULT_TIME_LIMIT,
    MAX_SEED,
    REPLAY_TIME_LIMIT,
    SEED_STRIDE,
    attempt,
    judged,
    recipe_for,
    verify,
)
from generator._methods import METHODS
from generator._puzzle import Puzzle, PuzzleError, PuzzleId
from generator._runs import Plan, Tally, generate, in_order
from puzzles import Card, Rules, RulesError, argtypes

PROG = "python -m generator"
MAX_TIME_LIMIT = 600.0
MAX_WORKERS = 64
INTERRUPTED = 130
"""The exit status of a run stopped by Ctrl-C, as shells report it."""


def _whole(least: int, most: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{text} is less than {least}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"{text} is more than {most}")
        return value

    return parse


def _rules(text: str) -> str:
    try:
        return Rules.named(text).name
    except RulesError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argtypes.Parser(prog=PROG, description="Tavolo's puzzle generator.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    make = commands.add_parser(
        "make",
        help="generate puzzles as JSON Lines",
        description=(
            "Generate proven puzzles and append them, one JSON object a line, to --out (or write "
            "them to stdout). The same seed gives the same puzzles, whatever --workers. Puzzles "
            "already in --out are not made again."
        ),
    )
    make.add_argument("--rules", type=_rules, default="classic", help="the preset (default classic)")
    make.add_argument("--count", type=_whole(1), default=10, help="how many puzzles (default 10)")
    make.add_argument("--tier", choices=TIERS, help="only puzzles of this tier (default any)")
    make.add_argument(
        "--seed", type=_whole(0, MAX_SEED), default=0, help="picks the stream of attempts (default 0)"
    )
    make.add_argument(
        "--workers", type=_whole(1, MAX_WORKERS), default=1, help="processes to use (default 1)"
    )
    make.add_argument("--out", metavar="FILE", help="append to this JSONL file (default stdout)")
    make.add_argument(
        "--time-limit",
        type=argtypes.seconds(MAX_TIME_LIMIT),
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=f"for the solver in one attempt (default {DEFAULT_TIME_LIMIT:g})",
    )
    make.add_argument(
        "--method", choices=sorted(METHODS), help="generation method (default: best for the tier)"
    )
    make.add_argument("--max-attempts", type=_whole(1), metavar="N", help="give up after N attempts")
    make.add_argument("--quiet", action="store_true", help="no progress bar and no summary")
    show = commands.add_parser("show", help="regenerate a puzzle from its ID and print it")
    show.add_argument("id", help="a puzzle ID such as cb2n9c")
    show.add_argument("--pretty", action="store_true", help="print it for people instead of as JSON")
    check = commands.add_parser(
        "check",
        help="re-verify every puzzle in a JSONL file with the solver",
        description=(
            "Exit status 0 when every puzzle holds, 1 when some fail, 2 for a file that cannot be "
            "read or has lines that are not JSON (each is reported on stderr, and the other lines "
            "are still checked)."
        ),
    )
    check.add_argument("file", help="a JSONL file of puzzles")
    check.add_argument(
        "--workers", type=_whole(1, MAX_WORKERS), default=1, help="processes to use (default 1)"
    )
    check.add_argument(
        "--time-limit",
        type=argtypes.seconds(MAX_TIME_LIMIT),
        default=REPLAY_TIME_LIMIT,
        metavar="SECONDS",
        help=f"for the solver on one puzzle (default {REPLAY_TIME_LIMIT:g})",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "make":
            return _make(args)
        if args.command == "show":
            return _show(args.id, args.pretty)
        return _check(args.file, args.time_limit, args.workers)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except _BadInput as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, as other command-line tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


class _BadInput(Exception):
    """Input the command cannot work with: exit status 2 with this message."""


# -- make


def _make(args: argparse.Namespace) -> int:
    recipe = (args.method,) if args.method else recipe_for(args.tier, args.rules)
    plan = Plan(args.rules, recipe, args.seed, args.tier, args.time_limit)
    stored = _puzzles_in(args.out) if args.out else []
    seen = {puzzle.canonical for puzzle in stored}
    tally = Tally()
    started = time.perf_counter()
    with _interruptible() as interrupted, _output(args.out) as write:
        bar = tqdm(
            total=args.count,
            unit="puzzle",
            file=sys.stderr,
            disable=args.quiet,
            mininterval=0.5,
            dynamic_ncols=True,
        )
        last_shown = [0.0]

        def progress(tally: Tally) -> None:
            now = time.perf_counter()
            if now - last_shown[0] >= 0.5:
                last_shown[0] = now
                bar.set_postfix_str(_postfix(tally), refresh=False)

        puzzles = generate(
            plan, args.count, args.workers, interrupted, seen, tally, _limit(args), progress, stored
        )
        for puzzle in puzzles:
            write(json.dumps(puzzle.to_json()))
            bar.set_postfix_str(_postfix(tally), refresh=False)
            bar.update(1)
        bar.close()
        stopped = interrupted()
    if not args.quiet:
        print(_summary(plan, tally, time.perf_counter() - started, args.out, stopped), file=sys.stderr)
    if stopped:
        return INTERRUPTED
    return 0 if tally.kept >= args.count else 1


def _limit(args: argparse.Namespace) -> int:
    return int(args.max_attempts) if args.max_attempts else SEED_STRIDE


def _postfix(tally: Tally) -> str:
    tiers = " ".join(f"{tier} {tally.tiers[tier]}" for tier in TIERS if tally.tiers[tier])
    return f"attempts {tally.attempts}, acceptance {tally.acceptance:.1%}" + (f", {tiers}" if tiers else "")


def _summary(plan: Plan, tally: Tally, seconds: float, out: str | None, stopped: bool) -> str:
    per_minute = tally.kept / seconds * 60 if seconds else 0.0
    tiers = ", ".join(f"{tier} {tally.tiers[tier]}" for tier in TIERS if tally.tiers[tier]) or "none"
    rejected = ", ".join(f"{why} {n}" for why, n in tally.outcomes.most_common() if why != "accepted")
    lines = [
        f"{'interrupted: ' if stopped else ''}made {tally.kept} {plan.rules} puzzles in {seconds:.1f} s "
        f"({per_minute:.1f} a minute) from {tally.attempts} attempts (acceptance {tally.acceptance:.1%})",
        f"tiers: {tiers}",
        f"rejected: {rejected or 'none'}; duplicates {tally.duplicates}; "
        f"near-duplicates {tally.near_duplicates}; motif over its share {tally.motif_refusals}; "
        f"figures over their share {tally.figure_refusals}; "
        f"template over its share {tally.template_refusals}; "
        f"too few decisions for their share {tally.decision_refusals}; "
        f"weak forks {tally.weak_forks}; "
        f"other tiers {tally.other_tier}",
    ]
    if out:
        lines.append(f"appended to {out}")
    return "\n".join(lines)


def _puzzles_in(path: str) -> list[Puzzle]:
    """The puzzles already in an output file (none if it does not exist)."""
    if not os.path.exists(path):
        return []
    lines, unreadable = _read_json_lines(path)
    if unreadable:
        raise _BadInput(unreadable[0])
    puzzles = []
    for number, data in lines:
        try:
            puzzles.append(Puzzle.from_json(data))
        except PuzzleError as error:
            raise _BadInput(f"{path} line {number}: {error}") from None
    return puzzles


@contextmanager
def _output(path: str | None) -> Iterator[Callable[[str], None]]:
    """A function that writes one whole line and flushes it.

    A file gets each line in one `write` call on a descriptor opened for appending, so a run that is
    stopped, even killed, never leaves half a line behind.
    """
    if path is None:

        def to_stdout(line: str) -> None:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

        yield to_stdout
        return
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        if not _ends_a_line(path):
            os.write(descriptor, b"\n")  # a file edited by hand may lack its last newline
    except OSError as error:
        raise _BadInput(f"cannot write {path}: {error.strerror}") from None

    def to_file(line: str) -> None:
        data = (line + "\n").encode()
        written = os.write(descriptor, data)
        if written != len(data):  # pragma: no cover - only on a full disk
            raise OSError(f"wrote {written} of {len(data)} bytes to {path}")

    try:
        yield to_file
    finally:
        os.close(descriptor)


def _ends_a_line(path: str) -> bool:
    with open(path, "rb") as file:
        if file.seek(0, os.SEEK_END) == 0:
            return True
        file.seek(-1, os.SEEK_END)
        return file.read(1) == b"\n"


@contextmanager
def _interruptible() -> Iterator[Callable[[], bool]]:
    """Turn Ctrl-C and SIGTERM into a flag the run checks between attempts, so the run ends
    cleanly: whole lines, a summary, no traceback."""
    caught: list[int] = []

    def record(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    previous = {signum: signal.signal(signum, record) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield lambda: bool(caught)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


# -- show


def _show(puzzle_id: str, pretty: bool) -> int:
    try:
        # judged as a run judges it (its real forks, its key ideas' weak forks): the line `make` wrote
        result = judged(attempt(PuzzleId.parse(puzzle_id), REPLAY_TIME_LIMIT))
    except PuzzleError as error:
        raise _BadInput(str(error)) from None
    puzzle = result.puzzle
    if puzzle is None:
        raise _BadInput(f"puzzle ID {puzzle_id!r} gives no puzzle ({result.outcome})")
    print(pretty_text(puzzle) if pretty else json.dumps(puzzle.to_json()))
    return 0


def pretty_text(puzzle: Puzzle) -> str:
    """A puzzle for people: the table, the hand and the answer, with suit symbols."""

    def cards(tokens: Sequence[str]) -> str:
        return " ".join(Card.parse(token).pretty() for token in tokens)

    def melds(table: Sequence[Sequence[str]]) -> str:
        return "\n".join(f"  {cards(meld)}" for meld in table)

    return "\n".join(
        [
            f"{puzzle.id}: {puzzle.rules}, {puzzle.tier} (chain depth {puzzle.depth})",
            "table:",
            melds(puzzle.table),
            f"hand: {cards(puzzle.hand)}",
            f"answer: place {puzzle.max_placed} ({cards(puzzle.laid)}); "
            f"{puzzle.decoys} decoy{'s' if puzzle.decoys != 1 else ''}",
            "a final table:",
            melds(puzzle.solution),
        ]
    )


# -- check


def _check(path: str, time_limit: float, workers: int) -> int:
    lines, unreadable = _read_json_lines(path)
    for message in unreadable:  # reported, and the other lines are still checked
        print(f"{PROG}: error: {message}", file=sys.stderr)
    failed: list[str] = []
    seen: dict[str, int] = {}
    jobs = [(number, data, time_limit) for number, data in lines]
    with _interruptible() as interrupted:
        results = in_order(_check_line, jobs, workers, interrupted)
        for number, puzzle_id, canonical, problems in tqdm(
            results, total=len(jobs), unit="puzzle", file=sys.stderr, disable=None, leave=False
        ):
            first = seen.setdefault(canonical, number) if canonical else number
            if first != number:
                problems.append(f"the same puzzle as line {first}")
            if problems:
                label = f"line {number} ({puzzle_id})" if puzzle_id else f"line {number}"
                failed.append(f"{label}: {'; '.join(problems)}")
        if interrupted():
            print(f"{PROG}: interrupted", file=sys.stderr)
            return INTERRUPTED
    for failure in failed:
        print(failure)
    summary = f"checked {len(lines)} puzzles in {path}: {len(lines) - len(failed)} hold, {len(failed)} fail"
    if unreadable:
        summary += f"; {len(unreadable)} line{'s' if len(unreadable) != 1 else ''} not JSON"
    print(summary)
    if unreadable:
        return 2
    return 1 if failed else 0


def _check_line(job: tuple[int, object, float]) -> list[tuple[int, str | None, str | None, list[str]]]:
    """Line number, puzzle ID, canonical form and problems of one puzzle line (in a worker)."""
    number, data, time_limit = job
    try:
        puzzle = Puzzle.from_json(data)
    except PuzzleError as error:
        return [(number, None, None, [str(error)])]
    return [(number, puzzle.id, puzzle.canonical, verify(puzzle, time_limit))]


def _read_json_lines(path: str) -> tuple[list[tuple[int, object]], list[str]]:
    """The JSON value of each non-blank line, numbered from 1, and a message for each line that is
    not JSON (`PATH line N: not JSON (why)`); _BadInput for a file that cannot be read."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as error:
        raise _BadInput(f"cannot read {path}: {error.strerror}") from None
    values: list[tuple[int, object]] = []
    unreadable: list[str] = []
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            values.append((number, argtypes.load_json(line)))
        except argtypes.NotJSON as error:
            unreadable.append(f"{path} line {number}: not JSON ({error})")
    return values, unreadable

"""`python -m puzzles`: solve positions given as JSON on stdin."""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TextIO

from puzzles import argtypes
from puzzles._answer import answer_json
from puzzles._forcing import Forcing, decisions_of
from puzzles._model import Objective
from puzzles._position import Position, PositionError
from puzzles._solver import DEFAULT_TIME_LIMIT, Analysis, analyse
from puzzles._weak import WeakForks, weak_forks

EXAMPLE = '{"rules": "classic", "table": [["3S","4S","5S"],["7H","7D","7C"]], "hand": ["6S","7S","KD"]}'
MAX_TIME_LIMIT = 3600.0


SOLVE_HELP = f"""\
Read one position as a JSON object (on one line, or pretty-printed over many), or many as
JSON Lines, from stdin; each line is answered as soon as it arrives:

  {EXAMPLE}

rules is a preset (classic, italian, jokers, german-jokers, three-decks; default classic);
table and hand are required; cards read 10H, TH, 10♥, A♠ or JK. The other fields of a
generator line are read past (id is echoed), so the generator's own lines can be piped in;
any other field is refused.

For each position one JSON object is written to stdout: line (where the position starts),
id (when given), rules, objective, max_placed, laid, freed, points_left, table (a best
play that breaks the fewest melds, then leaves the fewest points), optimal, unique, witness,
depth, depth_optimal, broken, chain, chain_optimal, rearrangements (the broken melds grouped),
steps (from the table to that play), decisions (the forcing player's fewest decisions to a
maximal play; null unless proved, or for --objective points), decisions_at_least (proved),
forks (the fewest forks among those lines; null unless proved), forks_at_least (proved),
real_forks (those forks that are not weak: null unless proved), real_forks_at_least (proved),
decision_line (those decisions: card, sets, runs, kept, kind "decline", "fork" or "choice",
weak for a fork, text), ms. The time limit is the solver's; the forcing player stops after a fixed number of
decisions tried.

A bad position (not JSON, unknown preset, bad card, invalid meld, more copies than the
decks hold) is one line on stderr naming its line; the others are still answered.
Exit status: 0 all answered, 2 some input was bad (or none given), 130 interrupted."""


def build_parser() -> argparse.ArgumentParser:
    parser = argtypes.Parser(
        prog="python -m puzzles",
        description="Tavolo's Machiavelli engine.",
        epilog=f"python -m puzzles solve:\n{SOLVE_HELP}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    solve = commands.add_parser(
        "solve",
        help="solve positions read as JSON from stdin",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=SOLVE_HELP,
    )
    solve.add_argument(
        "--objective",
        choices=[o.value for o in Objective],
        default=Objective.CARDS.value,
        help="place the most cards (default) or leave the fewest hand points",
    )
    solve.add_argument(
        "--time-limit",
        type=argtypes.seconds(MAX_TIME_LIMIT),
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=f"for the whole analysis of one position (default {DEFAULT_TIME_LIMIT:g})",
    )
    commands.add_parser("demo", help="solve the worked examples of the rules and print them")
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "demo":
            return _demo()
        return _solve(stdin or sys.stdin, Objective(args.objective), args.time_limit)
    except KeyboardInterrupt:
        # every answer already written is a whole line; say where we stopped, no traceback
        print("python -m puzzles: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, as other command-line tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _solve(stdin: TextIO | None, objective: Objective, time_limit: float) -> int:
    failed = False
    answered = False
    for number, data in _documents(_lines(stdin)):
        answered = True
        label = f"line {number}"
        if isinstance(data, argtypes.NotJSON):
            failed |= _fail(label, f"not JSON ({data})")
            continue
        try:
            position = Position.from_json(data)
        except PositionError as error:
            failed |= _fail(label, str(error))
            continue
        analysis = analyse(position, objective, time_limit)
        forcing = _forcing(analysis)
        answer = {"line": number, **answer_json(analysis, forcing, _weak(analysis, forcing))}
        if isinstance(data, dict) and "id" in data:
            answer = {"id": data["id"], **answer}
        print(json.dumps(answer), flush=True)
    if not answered:
        print("python -m puzzles: error: no position on stdin", file=sys.stderr)
        return 2
    return 2 if failed else 0


def _forcing(analysis: Analysis) -> Forcing | None:
    """The forcing player on a proved maximum of cards (it counts cards, not points), with the node
    limit the generator's lines use (`decisions_of`), so an answer and a line agree; its line agrees
    with the play the answer shows where a line of as few decisions and forks does."""
    best = analysis.best
    if best.objective is not Objective.CARDS or not best.proven:
        return None
    return decisions_of(analysis.position, best.placed, shown=analysis.shown.table)


def _weak(analysis: Analysis, forcing: Forcing | None) -> WeakForks | None:
    """Which forks of the play shown are weak (`weak_forks`, with the limits of work the generator's
    runs judge them with); None where the line has no fork to judge."""
    if forcing is None or not (forcing.forks or forcing.forks_at_least):
        return None
    return weak_forks(analysis.position, analysis.best.placed, analysis.shown.laid, forcing)


def _lines(stdin: TextIO | None) -> Iterator[bytes]:
    """The lines of stdin as they arrive, undecoded: a line that is not UTF-8 is that line's error."""
    if stdin is None:  # started with stdin closed (`<&-`): no lines, as from an empty file
        return
    if not hasattr(stdin, "buffer"):
        yield from (line.encode() for line in stdin)
        return
    try:
        descriptor = stdin.fileno()
    except (OSError, ValueError):  # a stream in memory: no wait to wake
        descriptor = -1
    if descriptor < 0 or threading.current_thread() is not threading.main_thread():
        yield from stdin.buffer  # Python's signals reach the main thread alone
    else:
        yield from _waking_lines(descriptor)


def _waking_lines(descriptor: int, chunk: int = 1 << 16) -> Iterator[bytes]:
    """The lines read from a file descriptor, in a wait that Ctrl-C always ends.

    A SIGINT that lands after Python last looked for signals but before read() begins (a loaded
    machine stretches that window), or on OR-Tools' thread, runs Python's C handler and no more:
    the KeyboardInterrupt waits for read() to return, which on a terminal or a pipe left open is
    never. select() also watches the pipe that the C handler writes to (`signal.set_wakeup_fd`),
    so it returns, and Python raises, whenever the signal came."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    previous = signal.set_wakeup_fd(wake_write)
    try:
        parts: list[bytes] = []
        while True:
            ready, _, _ = select.select([descriptor, wake_read], [], [])
            if wake_read in ready:
                os.read(wake_read, 4096)  # a signal whose handler did not raise: wait on
            if descriptor not in ready:
                continue
            data = os.read(descriptor, chunk)
            if not data:
                break
            start = 0
            while (end := data.find(b"\n", start)) >= 0:
                parts.append(data[start : end + 1])
                yield b"".join(parts)
                parts, start = [], end + 1
            if start < len(data):
                parts.append(data[start:])
        if parts:
            yield b"".join(parts)
    finally:
        signal.set_wakeup_fd(previous)
        os.close(wake_read)
        os.close(wake_write)


def _documents(lines: Iterable[bytes]) -> Iterator[tuple[int, Any]]:
    """Each position's first line number and its JSON value, or the NotJSON error saying why not.

    JSON Lines are read and answered one by one as they arrive, so a program can write a line and
    wait for its answer. Only when the first line breaks off mid-value is the rest read, as one
    document over many lines; if that is not JSON either, every line stands for itself. Blank lines
    are skipped.
    """
    numbered: Iterator[tuple[int, bytes]] = (
        (number, line) for number, line in enumerate(lines, start=1) if line.strip()
    )
    first = next(numbered, None)
    if first is None:
        return
    value = _load_line(first[1])
    if isinstance(value, argtypes.NotJSON) and value.unfinished:
        rest = [first, *numbered]
        whole = _load(b"".join(line for _, line in rest))
        if not isinstance(whole, argtypes.NotJSON):
            yield first[0], whole
            return
        numbered = iter(rest[1:])
    yield first[0], value
    yield from ((number, _load_line(line)) for number, line in numbered)


def _load_line(line: bytes) -> Any:
    """The JSON value of one line, or the NotJSON error saying why it has none. The line break is
    left out so that errors count columns on the line itself."""
    return _load(line.rstrip(b"\r\n"))


def _load(raw: bytes) -> Any:
    try:
        return argtypes.load_json(raw)
    except argtypes.NotJSON as error:
        return error


def _fail(label: str, message: str) -> bool:
    print(f"python -m puzzles: error: {label}: {message}", file=sys.stderr)
    return True


DEMOS = (
    ("italian | KH KD KC / QH QD QC / JH JD JC | AC", "sets become runs, the ace goes high"),
    ("classic | KH KD KC / QH QD QC / JH JD JC | AC", "the ace is low only: nothing to play"),
    ("classic | 10H 10D 10S / JH JD JS / QH QD QC | 9S QD QS", "a lonely Q♣ finds a set"),
    ("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D", "cut a long run to free its middle"),
)


def _demo() -> int:
    for text, note in DEMOS:
        position = Position.parse(text)
        analysis = analyse(position)
        print(f"{position.rules.name}: {note}")
        print("  table:", " / ".join(meld.pretty() for meld in position.table))
        print("  hand: ", " ".join(card.pretty() for card in position.hand))
        best = analysis.depth.play or analysis.best.play
        # an unproven chain length is only a bound: never a bare number that changes with the load
        bound = "" if analysis.chain.proven else "at most "
        print(
            f"  best play places {best.placed}, breaks {analysis.depth.depth} melds"
            f" (chain length {bound}{analysis.chain.length}):"
        )
        print("   ", " / ".join(meld.pretty() for meld in best.table))
        print(f"  ({analysis.ms:.1f} ms)\n")
    return 0

"""`python -m puzzles`: solve positions given as JSON on stdin."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from puzzles import argtypes
from puzzles._answer import answer_json
from puzzles._position import Position, PositionError
from puzzles._solver import DEFAULT_TIME_LIMIT, Objective, analyse

EXAMPLE = '{"rules": "classic", "table": [["3S","4S","5S"],["7H","7D","7C"]], "hand": ["6S","7S","KD"]}'
MAX_TIME_LIMIT = 3600.0


def build_parser() -> argparse.ArgumentParser:
    parser = argtypes.Parser(
        prog="python -m puzzles",
        description="Tavolo's Machiavelli engine.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    solve = commands.add_parser(
        "solve",
        help="solve positions read as JSON from stdin",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Read one position as a JSON object, or many as JSON Lines, from stdin:\n\n"
            f"  {EXAMPLE}\n\n"
            "rules is a preset (classic, italian, jokers, german-jokers, three-decks; default\n"
            "classic); cards read 10H, TH, 10♥, A♠ or JK. For each position one JSON object is\n"
            "written to stdout: max_played, played, freed, points_left, table (a best play that\n"
            "breaks the fewest melds), optimal, unique, witness, depth, depth_optimal, broken,\n"
            "steps (from the table to that play), ms,\n"
            "and line (its line number in JSON Lines mode). A bad position is reported on stderr\n"
            "with its line number; the others are still answered, and the exit status is 2."
        ),
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


def _solve(stdin: TextIO, objective: Objective, time_limit: float) -> int:
    raw = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode()
    documents = _documents(raw)
    if not documents:
        print("python -m puzzles: error: no position on stdin", file=sys.stderr)
        return 2
    failed = False
    lines_mode = len(documents) > 1 or documents[0][0] is not None
    for number, text in documents:
        label = f"line {number}" if number is not None else "position"
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            failed |= _fail(label, f"not JSON ({_json_reason(error)})")
            continue
        try:
            position = Position.from_json(data)
        except PositionError as error:
            failed |= _fail(label, str(error))
            continue
        answer = answer_json(analyse(position, objective, time_limit))
        if lines_mode:
            answer = {"line": number, **answer}
        if isinstance(data, dict) and "id" in data:
            answer = {"id": data["id"], **answer}
        print(json.dumps(answer), flush=True)
    return 2 if failed else 0


def _documents(raw: bytes) -> list[tuple[int | None, bytes]]:
    """One whole JSON document, or else numbered JSON Lines (blank lines skipped)."""
    try:
        json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return [(n, line) for n, line in enumerate(raw.splitlines(), start=1) if line.strip()]
    return [(None, raw)] if raw.strip() else []


def _json_reason(error: ValueError) -> str:
    if isinstance(error, UnicodeDecodeError):
        return "not UTF-8"
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at column {error.colno}"
    return str(error)


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
        print(f"  best play places {best.count}, breaks {analysis.depth.depth} melds:")
        print("   ", " / ".join(meld.pretty() for meld in best.table))
        print(f"  ({analysis.ms:.1f} ms)\n")
    return 0

"""What the command lines of `puzzles` and `generator` share: one-line errors, argument types and
reading JSON input without a traceback."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2, as everywhere in
    Tavolo (argparse's default also prints the whole usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def seconds(most: float) -> Callable[[str], float]:
    """An argument type: a time limit above 0 and at most `most` seconds."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not 0 < value <= most:
            raise argparse.ArgumentTypeError(f"{text} is not between 0 and {most:g} seconds")
        return value

    return parse


class NotJSON(ValueError):
    """Input that does not read as one JSON value; the message says why in a few words."""

    def __init__(self, reason: str, unfinished: bool = False) -> None:
        super().__init__(reason)
        self.unfinished = unfinished
        """It broke off at its end in the middle of a value: it may be the first line of a value
        written over many lines."""


MAX_NESTING = 100
"""How deep arrays and objects may nest in JSON input (a position needs 3): deeper values are
refused whole, so nothing downstream (copying to a worker process, writing an `id` back, an error
message) runs into Python's recursion limit."""
_TOO_DEEP = f"nested more than {MAX_NESTING} deep"


def load_json(raw: bytes | str) -> Any:
    """`json.loads`, with every way it fails raised as NotJSON: bad syntax (NaN and Infinity too,
    which Python reads but JSON has not), bytes that are not
    UTF-8, arrays and objects nested more than MAX_NESTING deep (RecursionError, at around a
    thousand) and an integer too long for Python to convert (ValueError past
    `sys.get_int_max_str_digits()`)."""
    try:
        value = json.loads(raw, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise NotJSON("not UTF-8") from None
    except json.JSONDecodeError as error:
        unfinished = error.pos >= len(error.doc.rstrip())
        raise NotJSON(f"{error.msg} at column {error.colno}", unfinished) from None
    except RecursionError:
        raise NotJSON(_TOO_DEEP) from None
    except NotJSON:
        raise
    except ValueError:  # the one other way json.loads fails
        raise NotJSON(f"a number of more than {sys.get_int_max_str_digits()} digits") from None
    if _nesting(value) > MAX_NESTING:
        raise NotJSON(_TOO_DEEP)
    return value


def _no_constant(name: str) -> Any:
    # Python reads NaN and Infinity, which JSON has not: echoed back in an `id`, they would make
    # the answer itself not JSON
    raise NotJSON(f"{name} is not a JSON value")


def _nesting(value: Any) -> int:
    """How deep arrays and objects nest in a JSON value (0 for a string or a number), without
    recursion; stops counting past MAX_NESTING."""
    deepest = 0
    pending = [(value, 1)]
    while pending and deepest <= MAX_NESTING:
        item, depth = pending.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth)
            pending.extend((child, depth + 1) for child in item)
    return deepest

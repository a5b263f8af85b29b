"""What the command lines of `puzzles` and `generator` share: one-line errors and argument types."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn


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

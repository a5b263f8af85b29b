"""Waiting for another program: on a condition, never on a guess at how long it takes."""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Callable

BACKSTOP = 300.0
"""Seconds before a wait gives up: only a hung program takes this long, however loaded the machine."""


def wait_until(ready: Callable[[], bool], what: str, backstop: float = BACKSTOP) -> None:
    """Return as soon as `ready()` holds; fail naming `what` if it never does.

    `ready` may raise AssertionError to fail at once (say, the program it waits on has exited)."""
    deadline = time.monotonic() + backstop
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {backstop:.0f} s")
        time.sleep(0.05)


def answers(url: str, **headers: str) -> Callable[[], bool]:
    """A condition: an HTTP GET of `url` gets an answer."""

    def ready() -> bool:
        try:
            urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30).read()
        except OSError:
            return False
        return True

    return ready

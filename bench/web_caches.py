"""The web app's own caches, each timed on a request through the app's test client, with and without.

    .venv/bin/python bench/web_caches.py [--rounds 200]

One process, one thread, SQLite, the tests' known puzzle as today's (tests/webapp/conftest.py). Each
round sends the request once with the cache as the site runs it and once without, alternating, and
the figure is the mean CPU milliseconds (`time.process_time`) of each: CPU, not wall time, because
the machine is shared. Printed, never asserted. A cache stays only where it saves 2 ms or more on a
request (issue 22), or buys a figure another issue asks for (the kept answers: `make run`'s throughput,
issue 23); the figures stand beside each cache in its module. A cache found wanting is gone:
to time it again, run this script on an older checkout (`PYTHONPATH=<checkout>`).

- kept answers (WSGI): a new visitor's `GET /` (no cookie), answered by `webapp.kept_answers`,
  against the same request through Flask (its own caches behind it left as they are).
- `templating._drawn_card`: the step POST (a hand card to a new meld, then back: the board drawn),
  with the cache warm, against it cleared before each request.
- `templating.CompiledTemplates`: a fresh app drawing three pages (what each test does), with the
  process's compiled templates, against them emptied first.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402

import generator  # noqa: E402
from puzzles import Position  # noqa: E402
from tests.webapp.conftest import KNOWN, NOON, TODAY, FrozenClock, Player, make_app, store  # noqa: E402
from webapp import templating  # noqa: E402


def cpu_ms(call: Callable[[], object]) -> float:
    started = time.process_time()
    call()
    return (time.process_time() - started) * 1000


def alternating(
    with_cache: Callable[[], object], without: Callable[[], object], rounds: int
) -> tuple[float, float]:
    """Mean CPU ms of each, the two run in turn, after one of each to warm up."""
    with_cache(), without()
    kept = bare = 0.0
    for _ in range(rounds):
        kept += cpu_ms(with_cache)
        bare += cpu_ms(without)
    return kept / rounds, bare / rounds


def new_app(folder: str, number: int, puzzle: generator.Puzzle) -> Flask:
    app = make_app(f"sqlite:///{folder}/site{number}.db", FrozenClock(NOON))
    store(app, puzzle, TODAY)
    return app


def kept_answers_figure(app: Flask, rounds: int) -> str:
    front = app.wsgi_app
    if type(front).__name__ != "KeptAnswers":
        return "kept answers (WSGI): gone (issue 22)"
    inner = front.inner  # type: ignore[attr-defined]
    client = app.test_client()

    def through_flask() -> object:
        app.wsgi_app = inner  # type: ignore[method-assign]
        try:
            return client.get("/").status_code
        finally:
            app.wsgi_app = front  # type: ignore[method-assign]

    kept, bare = alternating(lambda: client.get("/").status_code, through_flask, rounds)
    return f"kept answers (WSGI), new visitor's GET /: {kept:.2f} ms kept, {bare:.2f} ms through Flask"


def drawn_card_figure(app: Flask, rounds: int) -> str:
    drawn: Any = getattr(templating, "_drawn_card", None)
    if drawn is None:
        return "templating._drawn_card: gone (issue 22)"
    player = Player(app.test_client())

    def there_and_back() -> object:
        # a hand card to a new meld and back: two step POSTs, each drawing the board
        return player.move(TODAY, "h0", "new").status_code, player.move(TODAY, "h0", "hand").status_code

    def cleared() -> object:
        drawn.cache_clear()
        player.move(TODAY, "h0", "new")
        drawn.cache_clear()
        return player.move(TODAY, "h0", "hand").status_code

    warm, cold = alternating(there_and_back, cleared, rounds)
    return f"_drawn_card, a step POST (board drawn): {warm / 2:.2f} ms warm, {cold / 2:.2f} ms cleared"


def compiled_figure(folder: str, puzzle: generator.Puzzle, rounds: int) -> str:
    compiled = templating.JINJA_OPTIONS["bytecode_cache"]
    numbers = itertools.count(1)

    def three_pages() -> object:
        fresh = new_app(folder, next(numbers), puzzle).test_client()
        return [fresh.get(path).status_code for path in ("/", "/help", "/settings")]

    def emptied() -> object:
        compiled.clear()
        return three_pages()

    warm, cold = alternating(three_pages, emptied, rounds)
    return (
        f"CompiledTemplates, a fresh app's 3 pages ({rounds} rounds): {warm:.2f} ms kept, "
        f"{cold:.2f} ms emptied"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    rounds = parser.parse_args().rounds
    puzzle = generator.puzzle_of("cz1", Position.parse(KNOWN), time_limit=20)
    with tempfile.TemporaryDirectory() as folder:
        app = new_app(folder, 0, puzzle)
        print(kept_answers_figure(app, rounds))
        print(drawn_card_figure(app, rounds))
        print(compiled_figure(folder, puzzle, max(rounds // 10, 5)))


if __name__ == "__main__":
    main()

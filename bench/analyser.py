"""The analyser's request path: how soon a player sees the answer, and how soon the chain length.

    .venv/bin/python bench/analyser.py [--classic 60] [--jokers 30]

Positions from bench/corpus.py (real-game tables), each asked of three fresh apps (the Flask test
client, one thread, SQLite, rate limits off, the site's SOLVE_TIME_LIMIT), so nothing is kept:

- **all at once**: `GET /analyse/chain` without htmx, the whole answer before the first byte, which is
  what `GET /analyse` did before the page asked for the chain length on its own (and what a browser
  without JavaScript still gets from the cell's link);
- **first response**: `GET /analyse`, maximum, uniqueness and depth; then **chain cell**: the htmx
  `GET /analyse/chain` the page sends once shown, with the rest kept (only where the page asks for
  it: a depth of 0 or 1 is its own chain length, in the page already);
- **chain cell alone**: the same cell asked of an app that kept nothing (both phases in one solve):
  what the kept settled part saves the cell.

The order of the three alternates from one position to the next, so that load drifting during the run
falls on each alike. The solving threads run at the pages' priority here (the site runs them at nice
10): on a shared machine a lowered priority would time the neighbours' load, not the request path.
Printed: p50, p95 and max milliseconds of each, the engine's own time for each phase (`settle`, and
`with_chain` after it, as `Settled.ms` and `Chain.ms` say), how many pages held the chain length
from the start (a depth of 0 or 1 needs no solve), and how many chain lengths were proven. Figures
are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

from corpus import corpus

from puzzles import PRESETS, Objective, Position, canonical, settle, with_chain
from webapp import create_app, solver_gate
from webapp.db import database
from webapp.models import Base

NOON = datetime(2026, 11, 29, 12, tzinfo=UTC)


def query(position: Position) -> dict[str, str]:
    return {
        "rules": position.rules.name,
        "table": " / ".join(" ".join(str(card) for card in meld.cards) for meld in position.table),
        "hand": " ".join(str(card) for card in position.hand),
    }


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    answer = call()
    return (time.perf_counter() - started) * 1000, answer


def figures(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return f"  {name:<34} p50 {statistics.median(ordered):7.1f}  p95 {p95:7.1f}  max {ordered[-1]:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classic", type=int, default=60)
    parser.add_argument("--jokers", type=int, default=30)
    args = parser.parse_args()
    solver_gate.SOLVER_NICENESS = 0
    with tempfile.TemporaryDirectory() as folder:
        config = {
            "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3",
            "SECRET_KEY": "bench",
            "DAILY_SECRET": "bench",
            "NOW": lambda: NOON,
            "LAUNCH_DATE": date(2026, 11, 23),
            "RATELIMIT_ENABLED": False,
        }
        apps = {kind: create_app(dict(config)) for kind in ("whole", "split", "cold")}
        with apps["whole"].app_context():
            Base.metadata.create_all(database().engine)
        for preset, count in (("classic", args.classic), ("jokers", args.jokers)):
            if count > 0:
                run(preset, [sample.position for sample in corpus(PRESETS[preset], count)], apps)


HTMX = {"HX-Request": "true"}
PENDING = "no smaller one was ruled out"
"""The words of a chain length not proven in time."""


def run(preset: str, positions: list[Position], apps: dict[str, Any]) -> None:
    times: dict[str, list[float]] = {"whole": [], "first": [], "chain": [], "split": [], "cold": []}
    proven = {"whole": 0, "split": 0, "inline": 0}
    engine: dict[str, list[float]] = {"settle": [], "with_chain": []}
    for number, position in enumerate(positions):
        asked = query(position)
        steps = [("whole", apps["whole"]), ("split", apps["split"]), ("cold", apps["cold"])]
        for kind, app in steps[number % 3 :] + steps[: number % 3]:
            ask(kind, app.test_client(), asked, times, proven)
        ordered, _ = canonical(position)
        settled = settle(ordered, Objective.CARDS, 1.0)  # the site's 2 s, as the analyser shares it
        engine["settle"].append(settled.ms)
        engine["with_chain"].append(with_chain(settled, 2.0 - min(settled.ms / 1000, 1.0)).chain.ms)
    print(f"{preset}: {len(positions)} positions")
    print(figures("engine: settle", engine["settle"]))
    print(figures("engine: with_chain after it", engine["with_chain"]))
    print(figures("all at once (before: GET /analyse)", times["whole"]))
    print(figures("first response (GET /analyse)", times["first"]))
    print(figures("chain cell, the rest kept", times["chain"] or [0.0]))
    print(figures("first response + chain cell", times["split"]))
    print(figures("chain cell alone, nothing kept", times["cold"]))
    print(f"  pages that held the chain length from the start: {proven['inline']} of {len(positions)}")
    print(f"  chain proven: all at once {proven['whole']}, split {proven['split']} of {len(positions)}")


def ask(
    kind: str, client: Any, asked: dict[str, str], times: dict[str, list[float]], proven: dict[str, int]
) -> None:
    if kind == "whole":
        ms, page = timed(lambda: client.get("/analyse/chain", query_string=asked))
        times["whole"].append(ms)
        proven["whole"] += PENDING not in page.get_data(as_text=True)
    elif kind == "split":
        first_ms, page = timed(lambda: client.get("/analyse", query_string=asked))
        times["first"].append(first_ms)
        if 'hx-trigger="load"' not in page.get_data(as_text=True):  # the page holds it: no request
            proven["inline"] += 1
            proven["split"] += PENDING not in page.get_data(as_text=True)
            times["split"].append(first_ms)
            return
        chain_ms, cell = timed(lambda: client.get("/analyse/chain", query_string=asked, headers=HTMX))
        times["chain"].append(chain_ms)
        times["split"].append(first_ms + chain_ms)
        proven["split"] += PENDING not in cell.get_data(as_text=True)
    else:
        ms, _ = timed(lambda: client.get("/analyse/chain", query_string=asked, headers=HTMX))
        times["cold"].append(ms)


if __name__ == "__main__":
    main()

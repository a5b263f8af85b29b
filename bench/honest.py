"""Honest-player benchmark: how many requests a quick, honest player makes a minute on each limited
endpoint, beside the limit configured for it.

    .venv/bin/python bench/honest.py [--move-seconds 1.0] [--submit-seconds 3.0]

A player is scripted through the real app (the Flask test client on a throw-away SQLite database,
today's puzzle the tests' known one) doing what the pages let a person do, as quickly as a person
does it: every card moved, undone or taken back is an action of `--move-seconds` (1 s: drag and
drop, sustained); every position typed or corrected in the analyser and sent is one of
`--submit-seconds` (3 s: a card changed and the button pressed); reading an answer takes no time at
all. The sessions:

- **daily**: today's puzzle solved with a false start (three cards out and back, an undo, a reset),
  every hint asked first, the turn ended; then the check API asked once, as an app beside the page
  would;
- **analyser**: eight positions sent (the same one again after the objective's switch, a typo and
  its correction), then the last one played on `/analyse/play` (its moves, an undo, the end).

Printed per limited endpoint: the requests of each session, their rate a minute at that pace (the
session's requests over its actions' time), the limit configured, and its headroom: for a limit per
minute, the limit over the most requests any minute of the session sees (all of them, when the
session is shorter than a minute); for a longer window (the analyser's hourly one), how many minutes
of it a person could keep that pace up. The solver seconds an analyser session spends are printed beside
`SOLVE_SECONDS_LIMIT` (each first solve's time, as the gate would charge it, at least
`SOLVE_LEAST_CHARGE`). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import flood  # bench/flood.py: the pool's one puzzle

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import limits  # noqa: E402

from webapp import create_app  # noqa: E402

LIMITED = {
    # the view's endpoint: the setting of its limit
    "daily.move": "STEP_RATE_LIMIT",
    "daily.undo": "STEP_RATE_LIMIT",
    "daily.reset": "STEP_RATE_LIMIT",
    "daily.end_turn": "STEP_RATE_LIMIT",
    "daily.hint": "HINT_RATE_LIMIT",
    "api.check": "CHECK_RATE_LIMIT",
    "analyser.analyse_page + api solve": "ANALYSE_RATE_LIMIT",
    "analyser.play": "STEP_RATE_LIMIT",
    "analyser.move": "STEP_RATE_LIMIT",
}
POSITIONS = [
    ("classic", "3S 4S 5S / 7H 7D 7C", "6S 7S KD"),
    ("classic", "3S 4S 5S / 7H 7D 7C", "6S 7S KD"),  # the other objective: same position
    ("classic", "3S 4S 5S / 7H 7D 7X", "6S 7S KD"),  # a typo, refused without a solve
    ("classic", "3S 4S 5S / 7H 7D 7C / 9C 10C JC", "6S 7S KD"),
    ("classic", "3S 4S 5S / 7H 7D 7C / 9C 10C JC", "6S 7S KD QC"),
    ("classic", "3S 4S 5S / 7H 7D 7C / 9C 10C JC / 2H 2D 2C", "6S 7S KD QC 2S"),
    ("classic", "3S 4S 5S / 7H 7D 7C / 9C 10C JC / 2H 2D 2C", "6S 7S KD QC 2S 8S"),
    ("classic", "3S 4S 5S / 7H 7D 7C / 9C 10C JC / 2H 2D 2C / 5H 6H 7H", "6S 7S KD QC 2S 8S 8H"),
]
OBJECTIVES = ["cards", "points", "cards", "cards", "cards", "cards", "cards", "cards"]


class Session:
    """One player's requests through the test client: each counted under its endpoint, each timed."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.requests: Counter[str] = Counter()
        self.statuses: Counter[int] = Counter()
        self.actions = 0.0
        """The session's time at a person's pace, in seconds."""
        self.solver_seconds = 0.0

    def send(self, name: str, method: str, path: str, **kwargs: Any) -> Any:
        started = time.perf_counter()
        response = self.client.open(path, method=method, **kwargs)
        if name.startswith("analyser.analyse_page"):
            self.solver_seconds += time.perf_counter() - started
        self.requests[name] += 1
        self.statuses[response.status_code] += 1
        return response


def token_of(page: str) -> str:
    found = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
    return found.group(1) if found else ""


def daily_session(app: Any, solution: list[list[str]], number: int, pace: float) -> Session:
    session = Session(app.test_client())
    page = session.send("daily.puzzle", "GET", f"/puzzles/{number}").get_data(as_text=True)
    headers = {"X-CSRFToken": token_of(page), "HX-Request": "true"}
    base = f"/puzzles/{number}"
    for _ in range(3):  # every hint, first
        page = session.send("daily.hint", "POST", base + "/hint", headers=headers).get_data(as_text=True)
        session.actions += pace
    ids = cards_by_label(page)
    # a false start: three cards out and back one by one, an undo, a reset
    hand = [
        card for card, where in re.findall(r'data-card="(\w+)" data-from="(\w+)"', page) if where == "hand"
    ]
    for card in hand[:3]:
        session.send("daily.move", "POST", base + "/move", data={"card": card, "to": "new"}, headers=headers)
        session.send("daily.move", "POST", base + "/move", data={"card": card, "to": "hand"}, headers=headers)
        session.actions += 2 * pace
    session.send("daily.move", "POST", base + "/move", data={"card": hand[0], "to": "new"}, headers=headers)
    session.send("daily.undo", "POST", base + "/undo", headers=headers)
    session.send("daily.move", "POST", base + "/move", data={"card": hand[0], "to": "new"}, headers=headers)
    session.send("daily.reset", "POST", base + "/reset", headers=headers)
    session.actions += 4 * pace
    page = session.send("daily.puzzle", "GET", base, headers=headers).get_data(as_text=True)
    ids = cards_by_label(page)
    for meld in solution:
        first = None
        for text in meld:
            label = text[:-1] + flood_suit(text[-1])
            choices = sorted(ids.get(label, []), key=lambda i: (i[0] != "t", i))
            chosen = choices[0]
            ids[label].remove(chosen)
            target = (
                "new"
                if first is None
                else dict(re.findall(r'data-card="(\w+)" data-from="(\w+)"', page)).get(first, "new")
            )
            page = session.send(
                "daily.move", "POST", base + "/move", data={"card": chosen, "to": target}, headers=headers
            ).get_data(as_text=True)
            session.actions += pace
            first = first or chosen
    session.send("daily.end_turn", "POST", base + "/end", headers=headers)
    session.actions += pace
    table = {"table": solution}
    session.send("api.check", "POST", f"/api/puzzles/{number}/check", data=json.dumps(table))
    return session


def flood_suit(letter: str) -> str:
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[letter]


def cards_by_label(page: str) -> dict[str, list[str]]:
    ids: dict[str, list[str]] = {}
    pattern = r'data-card="(\w+)" data-from="(\w+)" draggable="true"\s+aria-label="([^"(]+)'
    for card, _, label in re.findall(pattern, page):
        ids.setdefault(label.strip(), []).append(card)
    return ids


def analyser_session(app: Any, pace: float, submit: float) -> Session:
    session = Session(app.test_client())
    session.send("analyser.page", "GET", "/analyse")
    for (rules, table, hand), objective in zip(POSITIONS, OBJECTIVES, strict=True):
        query = urllib.parse.urlencode({"rules": rules, "table": table, "hand": hand, "objective": objective})
        session.send(
            "analyser.analyse_page + api solve", "GET", "/analyse?" + query, headers={"HX-Request": "1"}
        )
        session.actions += submit
    rules, table, hand = POSITIONS[-1]
    query = {"rules": rules, "table": table, "hand": hand}
    page = session.send("analyser.play", "GET", "/analyse/play?" + urllib.parse.urlencode(query))
    text = page.get_data(as_text=True)
    headers = {"X-CSRFToken": token_of(text), "HX-Request": "true"}
    moves: list[str] = []
    for card in re.findall(r'data-card="(h\d+)" data-from="hand"', text)[:4]:
        move_query = urllib.parse.urlencode({**query, "moves": ".".join(moves)})
        session.send(
            "analyser.move",
            "POST",
            "/analyse/play/move?" + move_query,
            data={"card": card, "to": "new"},
            headers=headers,
        )
        moves.append(f"{card}-new")
        session.actions += pace
    undo = urllib.parse.urlencode({**query, "moves": ".".join(moves[:-1])})
    session.send("analyser.play", "GET", "/analyse/play?" + undo, headers=headers)
    end = urllib.parse.urlencode({**query, "moves": ".".join(moves[:-1]), "end": "1"})
    session.send("analyser.play", "GET", "/analyse/play?" + end, headers=headers)
    session.actions += 2 * pace
    return session


def windows(limit_text: str) -> list[tuple[int, float]]:
    """A limit's windows: (requests allowed, the window in minutes) for each of its rates."""
    return [(item.amount, item.get_expiry() / 60) for item in limits.parse_many(limit_text)]


def figures(session: Session, config: Any) -> dict[str, Any]:
    minutes = max(session.actions / 60, 1e-9)
    rows = {}
    for name, setting in LIMITED.items():
        count = session.requests.get(name, 0)
        if not count:
            continue
        rate = count / minutes
        row: dict[str, Any] = {
            "requests": count,
            "per_minute_at_pace": round(rate, 1),
            "limit": str(config[setting]),
        }
        for allowed, window in windows(str(config[setting])):
            if window <= 1:
                # the most one minute can hold: the whole session when it is shorter than a minute
                most = count if minutes <= 1 else math.ceil(rate)
                row["headroom_per_minute"] = round(allowed / window / most, 1)
            else:
                # a longer window: how long a person could keep this pace up within it
                row[f"minutes_at_pace_per_{window:g}_minutes"] = round(min(allowed / rate, window), 1)
        rows[name] = row
    return {
        "actions_seconds": round(session.actions, 1),
        "statuses": {str(k): v for k, v in sorted(session.statuses.items())},
        "endpoints": rows,
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="tavolo-honest-"))
    database = f"sqlite:///{folder / 'honest.sqlite3'}"
    env = {
        "PATH": "/usr/bin:/bin",
        "DATABASE_URL": database,
        "SECRET_KEY": "bench",
        "TAVOLO_LAUNCH_DATE": datetime.now(UTC).date().isoformat(),
        "PYTHONPATH": str(ROOT),
    }
    flask = [str(ROOT / ".venv/bin/flask"), "--app", "webapp"]
    try:
        puzzle = flood.seed_pool(flask, env, ROOT, folder)
        config = {
            "DATABASE_URL": database,
            "SECRET_KEY": "bench",
            "LAUNCH_DATE": datetime.now(UTC).date(),
            # counted here, compared with the limits below: a session sent at machine speed would
            # meet limits a person at the pace never does
            "RATELIMIT_ENABLED": False,
        }
        app = create_app(config)
        solution = [list(meld) for meld in puzzle.solution]
        daily = daily_session(app, solution, 1, args.move_seconds)
        analyser = analyser_session(app, args.move_seconds, args.submit_seconds)
        least = float(app.config["SOLVE_LEAST_CHARGE"])
        charged = max(analyser.solver_seconds, least * analyser.requests["analyser.analyse_page + api solve"])
        return {
            "move_seconds": args.move_seconds,
            "submit_seconds": args.submit_seconds,
            "daily": figures(daily, app.config),
            "analyser": figures(analyser, app.config),
            "analyser_solver_seconds": {
                "spent": round(charged, 2),
                "per_minute_at_pace": round(charged / max(analyser.actions / 60, 1e-9), 2),
                "limit": str(app.config["SOLVE_SECONDS_LIMIT"]),
            },
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--move-seconds", type=float, default=1.0, help="a person's move (1.0)")
    parser.add_argument(
        "--submit-seconds", type=float, default=3.0, help="a position corrected and sent (3.0)"
    )
    args = parser.parse_args()
    if args.move_seconds <= 0 or args.submit_seconds <= 0:
        parser.error("--move-seconds and --submit-seconds must be positive")
    print(json.dumps(run(args), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

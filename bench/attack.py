"""Attack benchmark: worst-case solves from several addresses while pages are sampled.

    .venv/bin/python bench/attack.py [--seconds 60] [--addresses 4] [--parallel 8] [--json FILE]

gunicorn (2 gthread workers of 4 threads, rate limits on, SQLite) on loopback. Each attacking address
(127.0.0.2, 127.0.0.3, ...) keeps `--parallel` connections posting `german-jokers` positions with
40-card hands to `/api/solve?objective=points` (the corpus positions that take the whole 2 s), each
with a different card left out, so no answer is ever kept. A refused solve is sent again once its
`Retry-After` has passed, as a client that keeps inside the limits does (`--ignore-retry-after`: at
once, a flood). Meanwhile `GET /` and the step POST (a card out and back) are sampled ten times a
second each, from ten other addresses in turn, so that the samples keep inside the step rate limit.

Printed: for a quiet stretch (`--quiet` seconds, 10 by default) and for the attack, each sample's
p50, p99, max and non-2xx count, and what the attackers got (answers by status). Figures are printed,
never asserted; the load average is printed with them, since the machine may be shared.
`--app-root DIR` serves another checkout of the app (before/after a change) with this .venv.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import corpus  # bench/corpus.py: the seeded positions
import web  # bench/web.py: a player's cookie and token, free ports

from puzzles import Objective, Position, Rules, analyse

ROOT = Path(__file__).resolve().parent.parent
WORKERS = 2
THREADS = 4
SAMPLES_PER_SECOND = 10
WORST_RULES = "german-jokers"
WORST_SAMPLES = (20, 24, 25, 28, 36, 37)
"""Corpus numbers whose position with a 40-card hand the solver cannot prove in 2 s (points)."""
HAND_CARDS = 40


def worst_positions() -> list[dict[str, Any]]:
    """The attack's positions: corpus tables with the hand filled up to 40 cards from the deck."""
    rules = Rules.named(WORST_RULES)
    positions = []
    for number in WORST_SAMPLES:
        position = corpus.sample(rules, number).position
        deck = corpus._deck(rules)
        deck.subtract(card for meld in position.table for card in meld.cards)
        deck.subtract(position.hand)
        left = sorted(deck.elements(), key=lambda card: card.sort_key())
        random.Random(number).shuffle(left)
        hand = [*position.hand, *left[: HAND_CARDS - len(position.hand)]]
        positions.append(
            {
                "rules": WORST_RULES,
                "table": [meld.tokens() for meld in position.table],
                "hand": [str(card) for card in hand],
            }
        )
    return positions


def unguarded(port: int, positions: list[dict[str, Any]]) -> list[int]:
    """Which positions the analyser solves: with 40-card hands some hold most of the deck, and so
    the open daily's table too, and the spoiler guard refuses them at once (no solve to measure)."""
    kept = []
    for number, body in enumerate(positions):
        link = _link(port, "127.0.2.1")
        if _post_solve(link, body, "time_limit=0.01").status != 403:
            kept.append(number)
        link.close()
    return kept


def attacker(
    address: str, port: int, parallel: int, stop_at: float, patient: bool, chosen: list[int], out: Any
) -> None:
    """One address's connections, each posting a new worst-case position as soon as it has an answer
    (`patient`: after a refusal, once its Retry-After has passed, as a client inside the limits does)."""
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    positions = [worst_positions()[number] for number in chosen]

    def connection(number: int) -> None:
        rng = random.Random(f"{address}-{number}")
        link = _link(port, address)
        while time.monotonic() < stop_at:
            body = dict(rng.choice(positions))
            hand = list(body["hand"])
            hand.pop(rng.randrange(len(hand)))  # a position never asked before: nothing kept helps
            body["hand"] = hand
            for _ in range(2):  # the server closes a connection left idle through a Retry-After
                try:
                    response = _post_solve(link, body)
                    break
                except OSError:
                    link.close()
                    link = _link(port, address)
            else:
                with lock:
                    statuses[0] += 1
                continue
            with lock:
                statuses[response.status] += 1
            wait = response.getheader("Retry-After", "")
            if patient and response.status in (429, 503) and wait.isdigit():
                time.sleep(min(float(wait), max(stop_at - time.monotonic(), 0)))

    threads = [threading.Thread(target=connection, args=(n,)) for n in range(parallel)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put(dict(statuses))


def sampler(port: int, request: Any, stop_at: float, found: list[tuple[float, int]]) -> None:
    """`request(link)` ten times a second until `stop_at`: (milliseconds, status) of each. The samples
    come from SAMPLES_PER_SECOND addresses (127.0.1.x) in turn, each inside the step rate limit."""
    addresses = [f"127.0.1.{n + 1}" for n in range(SAMPLES_PER_SECOND)]
    links = [_link(port, address) for address in addresses]
    next_at = time.monotonic()
    turn = 0
    while next_at < stop_at:
        turn = (turn + 1) % len(links)
        started = time.perf_counter()
        status = 0
        for _ in range(2):  # a keep-alive connection the server closed meanwhile is opened again,
            try:  # as browsers do; a timeout or a refused connection counts as no answer (0)
                status = request(links[turn])
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                links[turn].close()
                links[turn] = _link(port, addresses[turn])
            except OSError:
                links[turn].close()
                links[turn] = _link(port, addresses[turn])
                break
        found.append(((time.perf_counter() - started) * 1000, status))
        next_at += 1 / SAMPLES_PER_SECOND
        time.sleep(max(next_at - time.monotonic(), 0))


def _post_solve(
    link: http.client.HTTPConnection, body: dict[str, Any], query: str = ""
) -> http.client.HTTPResponse:
    headers = {"Content-Type": "application/json"}
    link.request("POST", f"/api/solve?objective=points&{query}".rstrip("&"), json.dumps(body), headers)
    response = link.getresponse()
    response.read()
    return response


def _link(port: int, address: str) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(address, 0))


def get_home(link: http.client.HTTPConnection) -> int:
    link.request("GET", "/")
    response = link.getresponse()
    response.read()
    return response.status


def stepper(player: dict[str, str], number: int) -> Any:
    """The step POST, a card out to a new meld and back, in turn."""
    out = [True]

    def step(link: http.client.HTTPConnection) -> int:
        body = "card=h0&to=new&from=hand" if out[0] else "card=h0&to=hand"
        headers = {
            "Cookie": player["cookie"],
            "X-CSRFToken": player["token"],
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        link.request("POST", f"/puzzles/{number}/move", body, headers)
        response = link.getresponse()
        response.read()
        if response.status == 200:
            out[0] = not out[0]
        return response.status

    return step


def figures(found: list[tuple[float, int]]) -> dict[str, Any]:
    times = sorted(ms for ms, _ in found)
    if not times:
        return {"samples": 0}
    return {
        "samples": len(times),
        "p50_ms": round(statistics.median(times), 1),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 1),
        "max_ms": round(times[-1], 1),
        "non_2xx": dict(Counter(str(status) for _, status in found if not 200 <= status < 300)),
    }


def sample_pages(port: int, number: int, player: dict[str, str], seconds: float) -> dict[str, Any]:
    stop_at = time.monotonic() + seconds
    gets: list[tuple[float, int]] = []
    steps: list[tuple[float, int]] = []
    threads = [
        threading.Thread(target=sampler, args=(port, get_home, stop_at, gets)),
        threading.Thread(target=sampler, args=(port, stepper(player, number), stop_at, steps)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"get_home": figures(gets), "step_post": figures(steps)}


def attack(port: int, number: int, player: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    chosen = unguarded(port, worst_positions())
    if not chosen:
        raise OSError("the spoiler guard refuses every attack position: nothing to measure")
    stop_at = time.monotonic() + args.seconds
    out: Any = multiprocessing.Queue()
    addresses = [f"127.0.0.{2 + n}" for n in range(args.addresses)]
    processes = [
        multiprocessing.Process(
            target=attacker,
            args=(address, port, args.parallel, stop_at, not args.ignore_retry_after, chosen, out),
        )
        for address in addresses
    ]
    for process in processes:
        process.start()
    pages = sample_pages(port, number, player, args.seconds)
    statuses: Counter[int] = Counter()
    for _ in processes:
        statuses.update(out.get(timeout=120))
    for process in processes:
        process.join(timeout=120)
    return {
        **pages,
        "attack": {
            "addresses": args.addresses,
            "parallel_each": args.parallel,
            "patient": not args.ignore_retry_after,
            "positions": len(chosen),
            "solves_by_status": {str(status): count for status, count in sorted(statuses.items())},
        },
    }


def solve_seconds() -> float:
    """How long one attack position takes the solver alone here: the attack's unit of work."""
    body = worst_positions()[0]
    started = time.perf_counter()
    analyse(Position.build(body["rules"], body["table"], body["hand"]), Objective.POINTS, 2.0)
    return round(time.perf_counter() - started, 2)


def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="tavolo-attack-"))
    app_root = args.app_root.resolve()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'attack.sqlite3'}",
        "SECRET_KEY": "bench",
        "TAVOLO_LAUNCH_DATE": datetime.now(UTC).date().isoformat(),  # today is #1
        "PYTHONPATH": str(app_root),
    }
    env.pop("TAVOLO_RATE_LIMITS", None)  # the point is the limits as they are
    flask = [str(ROOT / ".venv/bin/flask"), "--app", "webapp"]
    for command in (["db", "upgrade"], ["puzzles", "ensure", "--days", "0"]):
        subprocess.run([*flask, *command], env=env, cwd=app_root, check=True, capture_output=True)
    port = web.free_port()
    gunicorn = [str(ROOT / ".venv/bin/gunicorn"), "--bind", f"127.0.0.1:{port}", "--worker-class", "gthread"]
    gunicorn += ["--workers", str(WORKERS), "--threads", str(THREADS), "--log-level", "warning"]
    server = subprocess.Popen([*gunicorn, "webapp:create_app()"], env=env, cwd=app_root)
    results: dict[str, Any] = {
        "app_root": str(app_root),
        "workers": WORKERS,
        "threads": THREADS,
        "cores": os.cpu_count(),
        "one_attack_solve_alone_s": solve_seconds(),
        "load_average_at_start": round(os.getloadavg()[0], 2),
    }
    try:
        base = f"http://127.0.0.1:{port}"
        web.wait_for(base + "/help")
        number = json.loads(urllib.request.urlopen(base + "/api/daily").read())["number"]
        player = web.player(base, number)
        results["quiet"] = sample_pages(port, number, player, args.quiet)
        results["under_attack"] = attack(port, number, player, args)
        results["load_average_at_end"] = round(os.getloadavg()[0], 2)
    finally:
        web.stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="the attack (default 60)")
    parser.add_argument("--quiet", type=float, default=10, help="sampling before it (default 10)")
    parser.add_argument("--addresses", type=int, default=4, help="attacking addresses (default 4)")
    parser.add_argument("--parallel", type=int, default=8, help="connections per address (default 8)")
    parser.add_argument(
        "--ignore-retry-after", action="store_true", help="send again at once after a refusal (a flood)"
    )
    parser.add_argument("--app-root", type=Path, default=ROOT, help="the checkout to serve (default this)")
    parser.add_argument("--json", type=Path, default=None, help="also append the figures to this file")
    args = parser.parse_args()
    if args.seconds <= 0 or args.quiet <= 0 or not 1 <= args.addresses <= 200 or args.parallel < 1:
        parser.error("--seconds and --quiet must be positive, --addresses 1 to 200, --parallel at least 1")
    if not (args.app_root / "webapp" / "__init__.py").exists():
        parser.error(f"--app-root {args.app_root} holds no webapp/")
    return web.report("attack.py", lambda: run(args), args.json)


if __name__ == "__main__":
    sys.exit(main())

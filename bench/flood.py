"""Flood benchmark: kept answers asked again and again while `GET /` is sampled.

    .venv/bin/python bench/flood.py [--seconds 30] [--addresses 2] [--parallel 12] [--rate-seconds 10]
                                    [--attempts 3000] [--only analyse,solve,stats,...] [--app-root DIR]

gunicorn as `make run` serves it (2 gthread workers of 4 threads, rate limits on, SQLite) on loopback.
Each flooding address (127.0.0.2, ...) keeps `--parallel` connections repeating one request whose
answer the site keeps: first a cached `/analyse` page, then a cached `POST /api/solve`; then one of the
pages whose cost grows with a player's data, as one player with `--attempts` attempts and a friends'
table of 50 (`/stats`, `/me/export.json`, `/review`, `/friends/1`; the cookie the same from every
address, as a scraper of its own record would send it); a refusal is sent again at once (a flood, never
waiting for `Retry-After`). `GET /` is sampled ten times a second from other addresses throughout.
Printed: `GET /` p50, p95, p99 and max when quiet and under each flood, what the flood got (by status),
and what a kept answer costs to serve in one process (the Flask test client, limits off: the mean of
200, wall clock and CPU), and what a refusal costs (an address past the analyser's limit, asking
again). Then a new visitor's `GET /` (no cookie; wrk, 32 connections, `--rate-seconds`) beside nginx
serving the same page as a file in the same run, and our share of nginx's rate. Figures are printed,
never asserted. `--app-root DIR` serves another checkout (before/after a change) with this .venv.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attack  # bench/attack.py: connections from an address, the page sampler
import load  # bench/load.py: nginx serving the same page as a file
import web  # bench/web.py: free ports, wrk

import generator
from puzzles import Position

ROOT = Path(__file__).resolve().parent.parent
POSITION = {"rules": "classic", "table": [["3S", "4S", "5S"], ["7H", "7D", "7C"]], "hand": ["6S", "7S", "KD"]}
ANALYSE = "/analyse?" + urllib.parse.urlencode({"table": "3S 4S 5S / 7H 7D 7C", "hand": "6S 7S KD"})
COSTLY = {"stats": "/stats", "export": "/me/export.json", "review": "/review", "friends": "/friends/1"}
"""The pages whose cost grows with a player's data, flooded as the seeded player."""
KINDS = ("analyse", "solve", *COSTLY)
COOKIE: dict[str, str] = {}
"""The seeded player's `Cookie` header, once made (`seed_player`)."""


def ask(link: Any, kind: str) -> int:
    if kind in COSTLY:
        link.request("GET", COSTLY[kind], headers={"Cookie": COOKIE.get("header", "")})
    elif kind == "analyse":
        link.request("GET", ANALYSE)
    else:
        link.request("POST", "/api/solve", json.dumps(POSITION), {"Content-Type": "application/json"})
    response = link.getresponse()
    response.read()
    return int(response.status)


def flooder(
    address: str, port: int, parallel: int, kind: str, stop_at: float, out: Any, cookie: str = ""
) -> None:
    COOKIE["header"] = cookie  # a process of its own: the parent's module state is not inherited
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def connection() -> None:
        link = attack._link(port, address)
        while time.monotonic() < stop_at:
            try:
                status = ask(link, kind)
            except OSError:
                link.close()
                link = attack._link(port, address)
                status = 0
            with lock:
                statuses[status] += 1

    threads = [threading.Thread(target=connection) for _ in range(parallel)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put(dict(statuses))


def home_figures(found: list[tuple[float, int]]) -> dict[str, Any]:
    times = sorted(ms for ms, _ in found)
    figures = attack.figures(found)
    if times:
        figures["p95_ms"] = round(times[min(len(times) - 1, int(len(times) * 0.95))], 1)
    return figures


def sample_home(port: int, seconds: float) -> dict[str, Any]:
    found: list[tuple[float, int]] = []
    attack.sampler(port, attack.get_home, time.monotonic() + seconds, found)
    return home_figures(found)


def flood(port: int, kind: str, args: argparse.Namespace) -> dict[str, Any]:
    # the answer is solved (and kept) before the flood begins, from an address of its own
    link = attack._link(port, "127.0.3.1")
    ask(link, kind)
    link.close()
    stop_at = time.monotonic() + args.seconds
    out: Any = multiprocessing.Queue()
    processes = [
        multiprocessing.Process(
            target=flooder,
            args=(f"127.0.0.{2 + n}", port, args.parallel, kind, stop_at, out, COOKIE.get("header", "")),
        )
        for n in range(args.addresses)
    ]
    for process in processes:
        process.start()
    home = sample_home(port, args.seconds)
    statuses: Counter[int] = Counter()
    for _ in processes:
        statuses.update(out.get(timeout=120))
    for process in processes:
        process.join(timeout=120)
    return {"get_home": home, "flood_by_status": {str(k): v for k, v in sorted(statuses.items())}}


def kept_answer_ms(app_root: Path, database: str) -> dict[str, dict[str, float]]:
    """A kept answer's cost in one process: the mean of 200 after the first."""
    code = f"""
import json, sys, time
from datetime import UTC, datetime
sys.path.insert(0, {str(app_root)!r})
from webapp import create_app
# today is #1, as for the server: the days the spoiler guard keeps back are published
app = create_app({{"DATABASE_URL": {database!r}, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                  "LAUNCH_DATE": datetime.now(UTC).date()}})
client = app.test_client()
position = {json.dumps(POSITION)!r}
def timed(send):
    send()
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(200):
        send()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {{"wall": round(wall / 200 * 1000, 2), "cpu": round(cpu / 200 * 1000, 2)}}
costs = {{
    "analyse_page": timed(lambda: client.get({ANALYSE!r})),
    "api_solve": timed(lambda: client.post("/api/solve", data=position, content_type="application/json")),
}}
# then a refusal: an address past the analyser's limit asks again (limits on, one an hour; an app of
# its own, made after the other's timing, as the limiter is one for the process)
limited = create_app({{"DATABASE_URL": {database!r}, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": True,
                      "ANALYSE_RATE_LIMIT": "1 per hour", "LAUNCH_DATE": datetime.now(UTC).date()}})
flood = limited.test_client()
flood.get({ANALYSE!r})
costs["analyse_refused"] = timed(lambda: flood.get({ANALYSE!r}))
print(json.dumps(costs))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=app_root, capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


SEED_PLAYER = """
import json, sys
from datetime import UTC, datetime, timedelta
sys.path.insert(0, {root!r})
from sqlalchemy import insert, select
from webapp import create_app, models
from webapp.db import database
app = create_app({{"DATABASE_URL": {database!r}, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                  "LAUNCH_DATE": datetime.now(UTC).date()}})
client = app.test_client()
token = client.get("/token").get_json()["token"]
headers = {{"X-CSRFToken": token, "HX-Request": "true"}}
assert client.post("/puzzles/1/give-up", headers=headers).status_code == 200
made = client.post("/friends", data={{"table": "Family", "name": "Anna"}}, headers=headers)
assert made.status_code in (200, 303)
now = datetime.now(UTC)
with app.app_context(), database().write() as session:
    first = session.scalars(select(models.PlayerAttempt)).one()
    rows = [
        dict(player_id=first.player_id, puzzle_id=first.puzzle_id, number=None, review=n, melds=first.melds,
             history=[], moves=7 + n % 9, hints=n % 2, hint_log=[], slips=n % 3,
             status=models.Status.GAVE_UP if n % 3 else models.Status.SOLVED, time_limit=None,
             rating_after=1400.0 + n % 50, placed=0, started=now - timedelta(hours=3 * n),
             finished=now - timedelta(hours=3 * n) + timedelta(minutes=2), run_id=None)
        for n in range(1, {attempts})
    ]
    session.execute(insert(models.PlayerAttempt), rows)
    for m in range(49):
        member = f"m{{m:031d}}"
        session.add(models.Player(id=member, created=now))
        session.flush()
        session.add(
            models.FriendMember(group_id=1, player_id=member, name=f"M{{m}}", name_key=f"m{{m}}", joined=now)
        )
cookie = client.get_cookie("tavolo")
print(json.dumps({{"header": f"tavolo={{cookie.value}}"}}))
"""
"""Makes the flooded player: a give-up of today's puzzle (the cookie), `attempts` attempts in all (review
rounds of it, as a long record has them), and a friends' table (#1) of 50."""


def seed_player(app_root: Path, database: str, attempts: int) -> str:
    code = SEED_PLAYER.format(root=str(app_root), database=database, attempts=attempts)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=app_root, capture_output=True, text=True, check=True
    )
    return str(json.loads(done.stdout.strip().splitlines()[-1])["header"])


def new_visitor_rate(port: int, folder: Path, seconds: float) -> dict[str, Any]:
    """A new visitor's `GET /` (no cookie) with wrk, then nginx serving the same page as a file."""
    script = folder / "get.lua"
    script.write_text(web.GET_LUA)
    base = f"http://127.0.0.1:{port}"
    ours = web.wrk(base + "/", script, seconds, threads=2)
    static = load.nginx_ceiling(base, folder, script, seconds)
    share = round(ours["requests_per_s"] / max(static["requests_per_s"], 1), 4)
    return {"get_home": ours, "nginx_static_same_page": static, "share_of_nginx": share}


KNOWN = "classic | 10H 10D 10S / JH JD JS / QH QD QC / 4C 5C 6C 7C | 9S QD QS 8C KH 2D"
"""The tests' known puzzle (5 cards to place, depth 3): a pool of one, so no run waits on the generator."""
TOMORROW = "classic | 10S 10C 10D / JS JC JD / QS QC QH / 3H 4H 5H 6H 7H | 9D QC QD 8H KS 2C"
"""The known puzzle in other suits with a longer run, for tomorrow (three melds in common: the pool
leaves out a near-duplicate, the known puzzle merely relabelled): by late morning UTC it is open in
the easternmost zones, and the site publishes a week ahead; left unpublished, every analysis would
look for it."""


PUBLISH = """
import sys
from webapp import create_app
from webapp.schedule import daily
with create_app().app_context():
    daily.publish(int(sys.argv[1]), generate=False)
"""
"""Publishes day `sys.argv[1]` from the pool as a request would, without generating."""


def seed_pool(flask: list[str], env: dict[str, str], cwd: Path, folder: Path) -> generator.Puzzle:
    """Migrate, put the known puzzle in the pool and publish today's puzzle from it (returned), then
    tomorrow's from TOMORROW.

    Each day is published as a request publishes it (`daily.publish` without generating: the pool's
    puzzle of the nearest tier), not by `flask puzzles ensure`: the day's tier follows its weekday,
    and on any other weekday than the known puzzle's tier the command would generate one of that
    tier instead (the rush then met a puzzle its plan did not fit)."""
    puzzle = generator.puzzle_of("cz1", Position.parse(KNOWN), time_limit=20)
    tomorrow = generator.puzzle_of("cz2", Position.parse(TOMORROW), time_limit=20)
    (folder / "pool.jsonl").write_text(json.dumps(puzzle.to_json()) + "\n")
    (folder / "tomorrow.jsonl").write_text(json.dumps(tomorrow.to_json()) + "\n")
    python = [str(ROOT / ".venv/bin/python"), "-c", PUBLISH]
    for command in (
        [*flask, "db", "upgrade"],
        [*flask, "puzzles", "import", str(folder / "pool.jsonl")],
        [*python, "1"],
        [*flask, "puzzles", "import", str(folder / "tomorrow.jsonl")],
        [*python, "2"],
    ):
        subprocess.run(command, env=env, cwd=cwd, check=True, capture_output=True)
    return puzzle


def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="tavolo-flood-"))
    app_root = args.app_root.resolve()
    database = f"sqlite:///{folder / 'flood.sqlite3'}"
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "SECRET_KEY": "bench",
        "TAVOLO_LAUNCH_DATE": datetime.now(UTC).date().isoformat(),
        "PYTHONPATH": str(app_root),
    }
    env.pop("TAVOLO_RATE_LIMITS", None)
    flask = [str(ROOT / ".venv/bin/flask"), "--app", "webapp"]
    seed_pool(flask, env, app_root, folder)
    port = web.free_port()
    gunicorn = [str(ROOT / ".venv/bin/gunicorn"), "--bind", f"127.0.0.1:{port}", "--worker-class", "gthread"]
    gunicorn += ["--workers", str(attack.WORKERS), "--threads", str(attack.THREADS), "--log-level", "error"]
    # an access log, as `make run` keeps one (there on stdout)
    gunicorn += ["--access-logfile", str(folder / "access.log")]
    server = subprocess.Popen([*gunicorn, "webapp:create_app()"], env=env, cwd=app_root)
    results: dict[str, Any] = {
        "app_root": str(app_root),
        "load_average_at_start": round(os.getloadavg()[0], 2),
    }
    try:
        web.wait_for(f"http://127.0.0.1:{port}/help")
        results["kept_answer_ms"] = kept_answer_ms(app_root, database)
        if set(args.only) & set(COSTLY):
            COOKIE["header"] = seed_player(app_root, database, args.attempts)
        results["quiet"] = sample_home(port, args.quiet)
        for kind in args.only:
            name = {"analyse": "cached_analyse_flood", "solve": "cached_solve_flood"}.get(kind)
            results[name or f"{kind}_flood"] = flood(port, kind, args)
        results["quiet_after"] = sample_home(port, args.quiet)
        if args.rate_seconds > 0:
            results["new_visitor"] = new_visitor_rate(port, folder, args.rate_seconds)
        results["load_average_at_end"] = round(os.getloadavg()[0], 2)
    finally:
        web.stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30, help="each flood (default 30)")
    parser.add_argument("--quiet", type=float, default=10, help="sampling before them (default 10)")
    parser.add_argument(
        "--rate-seconds", type=float, default=10, help="new visitor's GET / and nginx's, each (10; 0: none)"
    )
    parser.add_argument("--addresses", type=int, default=2, help="flooding addresses (default 2)")
    parser.add_argument("--parallel", type=int, default=12, help="connections per address (default 12)")
    parser.add_argument("--attempts", type=int, default=3000, help="the flooded player's (default 3000)")
    parser.add_argument(
        "--only", default=",".join(KINDS), help=f"the floods, in order (default {','.join(KINDS)})"
    )
    parser.add_argument("--app-root", type=Path, default=ROOT, help="the checkout to serve (default this)")
    args = parser.parse_args()
    args.only = [kind.strip() for kind in args.only.split(",") if kind.strip()]
    if not args.only or set(args.only) - set(KINDS) or args.attempts < 1:
        parser.error(f"--only takes some of {', '.join(KINDS)}; --attempts at least 1")
    if (
        args.seconds <= 0
        or args.quiet <= 0
        or args.rate_seconds < 0
        or not 1 <= args.addresses <= 200
        or args.parallel < 1
    ):
        parser.error(
            "--seconds and --quiet must be positive, --rate-seconds not negative, "
            "--addresses 1 to 200, --parallel at least 1"
        )
    if not (args.app_root / "webapp" / "__init__.py").exists():
        parser.error(f"--app-root {args.app_root} holds no webapp/")
    return web.report("flood.py", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())

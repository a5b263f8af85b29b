"""Flood benchmark: kept answers and costly pages asked again and again while `GET /` is sampled.

    .venv/bin/python bench/flood.py [--seconds 30] [--addresses 2] [--parallel 12] [--rate-seconds 10]
                                    [--attempts 3000] [--only analyse,solve,stats,...] [--app-root DIR]
    scripts/with-postgres.sh .venv/bin/python bench/flood.py --stack production [...]

`--stack direct` (the default): gunicorn as `make run` serves it (2 gthread workers of 4 threads, rate
limits on, SQLite) on loopback, nothing in front: the worst case, every request reaching the app.
`--stack production`: the stack as deployed and as issue 39 attacked it, as bench/rush.py runs it:
deploy/nginx.conf in front (its per-address limits included), gunicorn as the Procfile (3 x 3,
`TAVOLO_PROXIES=1`), the PostgreSQL of `DATABASE_URL` and a Redis of its own.

Each flooding address (127.0.20.2, ...) keeps `--parallel` connections repeating one request: first a
cached `/analyse` page, then a cached `POST /api/solve`; then one of the pages whose cost grows with a
player's data, as one player with `--attempts` attempts and a friends' table of 50 (`/stats`,
`/me/export.json`, `/review`, `/friends/1`; the cookie the same from every address, as a scraper of its
own record would send it). Each flood comes from addresses of its own (127.0.21.x for the second) with a
cookie of its own (the player's, signed again), so that none meets a limit an earlier one spent (nginx's
bursts per address and per cookie: else the first flood alone met them full); a refusal is sent again at
once (a flood, never waiting for `Retry-After`), from processes at `--flood-nice` (19: the attacker's
CPU stands for their own machine's, not the server's; 0 for the figures before issue 39's last round).
`GET /` is sampled ten times a second from other addresses throughout, twice: as a new visitor (no
cookie: under `--stack production`, nginx's kept copy) and as another player (their cookie: always the
app's own answer). Printed: each sample's p50, p95, p99 and max when quiet and under each flood, and the
flood's p95 over the quiet one (`x_quiet`) and when the slowest twentieth of samples were sent
(`slowest_at_s`, seconds into the flood: a burst at its start, or all along), what the flood got (by
status; ` nginx`: answered by nginx itself, not the app), the CPU seconds each server process group used
meanwhile (`cpu_s`: gunicorn; nginx, PostgreSQL and Redis in production; `machine`, every process's, the
flooders' and other people's too), the CPU a costly page took in one process for the seeded player (the
mean of 20, limits off), what a kept answer costs to serve in one process (the Flask test client, limits
off: the mean of 200, wall clock and CPU), and what a refusal costs (an address past the analyser's
limit, asking again; a player past the stats page's, with their cookie). Then (direct only) a new
visitor's `GET /` (wrk, 32 connections, `--rate-seconds`) beside nginx serving the same page as a file
in the same run, and our share of nginx's rate. Figures are printed, never asserted. `--app-root DIR`
serves another checkout (before/after a change) with this .venv.
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
import nginx_conf  # bench/nginx_conf.py: nginx in front, as deploy/nginx.conf has it
import rush  # bench/rush.py: CPU seconds by process group (it imports this module: no cycle at load)
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
"""The seeded players' `Cookie` headers, once made (`seed_player`): `header`, the flooded player's;
`sampled`, the player whose `GET /` is sampled."""
GROUPS: dict[str, int | None] = {}
"""The server's process groups whose CPU seconds each flood prints (bench/rush.py's `cpu_seconds`):
gunicorn, and nginx, PostgreSQL and Redis under `--stack production`; `machine` is every process's,
the flooders' and other people's work too."""
HOST = "tavolo.example"
"""The site's host in deploy/nginx.conf: sent with every request (the app takes any host here)."""


def ask(link: Any, kind: str, cookie: str | None = None) -> str:
    """The answer's status, with ` nginx` when nginx answered it itself (a refusal of its own: the
    app's answers, its refusals kept in front of Flask too, carry its security headers)."""
    headers = {"Host": HOST}
    if kind in COSTLY:
        sent = COOKIE.get("header", "") if cookie is None else cookie
        link.request("GET", COSTLY[kind], headers={**headers, "Cookie": sent})
    elif kind == "analyse":
        link.request("GET", ANALYSE, headers=headers)
    else:
        link.request(
            "POST", "/api/solve", json.dumps(POSITION), {**headers, "Content-Type": "application/json"}
        )
    response = link.getresponse()
    response.read()
    return f"{response.status}{'' if response.getheader('Permissions-Policy') else ' nginx'}"


def get_home(link: Any, cookie: str = "") -> int:
    link.request("GET", "/", headers={"Host": HOST, **({"Cookie": cookie} if cookie else {})})
    response = link.getresponse()
    response.read()
    return int(response.status)


def flooder(
    address: str, port: int, parallel: int, kind: str, stop_at: float, out: Any, cookie: str, nice: int
) -> None:
    COOKIE["header"] = cookie  # a process of its own: the parent's module state is not inherited
    os.nice(nice)
    statuses: Counter[str] = Counter()
    lock = threading.Lock()

    def connection() -> None:
        link = attack._link(port, address)
        while time.monotonic() < stop_at:
            try:
                status = ask(link, kind, cookie)
            except OSError:
                link.close()
                link = attack._link(port, address)
                status = "0"
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
    """`GET /` as a new visitor and as a player, each ten times a second, at once."""
    began = time.monotonic()
    stop_at = began + seconds
    found: dict[str, list[tuple[float, int]]] = {"get_home": [], "player_get_home": []}
    sent: dict[str, list[float]] = {name: [] for name in found}
    player = COOKIE.get("sampled", "")

    def timed(name: str, cookie: str) -> Any:
        def request(link: Any) -> int:
            sent[name].append(time.monotonic() - began)
            return get_home(link, cookie)

        return request

    threads = [
        threading.Thread(target=attack.sampler, args=(port, timed(name, cookie), stop_at, found[name]))
        for name, cookie in (("get_home", ""), ("player_get_home", player))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    figures = {name: home_figures(samples) for name, samples in found.items()}
    for name, samples in found.items():
        # where the slowest twentieth fell: a flood's first seconds (its burst through nginx) or all along
        slowest = sorted(zip(samples, sent[name], strict=False), key=lambda pair: -pair[0][0])
        slow = [round(at, 1) for _, at in slowest[: max(1, len(samples) // 20)]]
        figures[name]["slowest_at_s"] = sorted(slow)
    return figures


def flood(
    port: int, kind: str, args: argparse.Namespace, quiet: dict[str, Any], number: int = 0
) -> dict[str, Any]:
    """One flood, the `number`th: from addresses of its own (127.0.`20 + number`.x) and, for a costly
    page, a cookie of its own (the same player's, signed again), so that no flood meets limits another
    spent, nginx's per address and per cookie above all (a burst a flood takes is the next one's
    otherwise, and only the first flood would meet a full one)."""
    cookie = COOKIE.get("header", "")
    if kind in COSTLY and COOKIE.get("fresh"):
        cookie = COOKIE["fresh"].split("\n")[number % len(COOKIE["fresh"].split("\n"))]
    # the answer is solved (and kept) before the flood begins, from an address of its own
    link = attack._link(port, "127.0.3.1")
    ask(link, kind, cookie)
    link.close()
    stop_at = time.monotonic() + args.seconds
    out: Any = multiprocessing.Queue()
    processes = [
        multiprocessing.Process(
            target=flooder,
            args=(
                f"127.0.{20 + number}.{2 + n}",
                port,
                args.parallel,
                kind,
                stop_at,
                out,
                cookie,
                args.flood_nice,
            ),
        )
        for n in range(args.addresses)
    ]
    for process in processes:
        process.start()
    cpu_before = rush.cpu_seconds(GROUPS)
    home = sample_home(port, args.seconds)
    cpu_after = rush.cpu_seconds(GROUPS)
    statuses: Counter[str] = Counter()
    for _ in processes:
        statuses.update(out.get(timeout=120))
    for process in processes:
        process.join(timeout=120)
    for name, figures in home.items():
        before = quiet.get(name, {}).get("p95_ms")
        if before and figures.get("p95_ms") is not None:
            figures["x_quiet"] = round(figures["p95_ms"] / before, 1)
    cpu = {name: round(cpu_after[name] - cpu_before[name], 1) for name in cpu_before}
    return {**home, "flood_by_status": dict(sorted(statuses.items())), "cpu_s": cpu}


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
                      "ANALYSE_RATE_LIMIT": "1 per hour", "PAGE_RATE_LIMIT": "1 per hour",
                      "LAUNCH_DATE": datetime.now(UTC).date()}})
flood = limited.test_client()
flood.get({ANALYSE!r})
costs["analyse_refused"] = timed(lambda: flood.get({ANALYSE!r}))
# and a costly page's refusal for a player with a cookie (of their own, a give-up of today's puzzle)
token = flood.get("/token").get_json()["token"]
flood.post("/puzzles/1/give-up", headers={{"X-CSRFToken": token, "HX-Request": "true"}})
flood.get("/stats")
costs["stats_refused_with_cookie"] = timed(lambda: flood.get("/stats"))
print(json.dumps(costs))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=app_root, capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


SEED_PLAYER = """
import json, sys, time
from datetime import UTC, datetime, timedelta
sys.path.insert(0, {root!r})
from sqlalchemy import insert, select
from webapp import create_app, models
from webapp.db import database
app = create_app({{"DATABASE_URL": {database!r}, "SECRET_KEY": {secret!r}, "RATELIMIT_ENABLED": False,
                  "LAUNCH_DATE": datetime.now(UTC).date()}})
client = app.test_client()
token = client.get("/token").get_json()["token"]
headers = {{"X-CSRFToken": token, "HX-Request": "true"}}
assert client.post("/puzzles/1/give-up", headers=headers).status_code == 200
made = client.post("/friends", data={{"table": "Family", "name": "Anna"}}, headers=headers)
assert made.status_code in (200, 303)
now = datetime.now(UTC)
with app.app_context(), database().write() as session:
    # the latest: kept_answer_ms's refused player gave up today's puzzle before
    first = session.scalars(select(models.PlayerAttempt).order_by(models.PlayerAttempt.id.desc())).first()
    rows = [
        dict(player_id=first.player_id, puzzle_id=first.puzzle_id, number=None, review=n, melds=first.melds,
             history=[], moves=7 + n % 9, hints=n % 2, hint_log=[], slips=n % 3,
             status=models.Status.GAVE_UP if n % 3 else models.Status.SOLVED, time_limit=None,
             rating_after=1400.0 + n % 50, placed=0, started=now - timedelta(hours=3 * n),
             finished=now - timedelta(hours=3 * n) + timedelta(minutes=2), run_id=None)
        for n in range(1, {attempts})
    ]
    session.execute(insert(models.PlayerAttempt), rows)
    try:  # when each comes back for review, kept by the turns' own writes, which a bulk INSERT passes by
        from webapp.review import due
    except ImportError:  # a checkout from before it was kept (--app-root)
        due = None
    if due is not None:
        due.refill(session, first.player_id)
    for m in range(49):
        member = f"m{{m:031d}}"
        session.add(models.Player(id=member, created=now))
        session.flush()
        session.add(
            models.FriendMember(group_id=1, player_id=member, name=f"M{{m}}", name_key=f"m{{m}}", joined=now)
        )
if {database!r}.startswith("postgresql"):
    # settled as a long-lived database is: else autovacuum analyses the rows just inserted during the
    # first flood, and that flood alone pays for it
    from sqlalchemy import create_engine, text
    with create_engine({database!r}, isolation_level="AUTOCOMMIT").connect() as connection:
        connection.execute(text("VACUUM ANALYZE"))
cookie = client.get_cookie("tavolo")
other = app.test_client()
other.get("/token")
assert other.post("/puzzles/1/give-up", headers={{"X-CSRFToken": other.get("/token").get_json()["token"],
                                                "HX-Request": "true"}}).status_code == 200
costs = {{}}
for path in {costly!r}:
    client.get(path)
    cpu = time.thread_time()
    for _ in range(20):
        assert client.get(path).status_code == 200, path
    costs[path] = round((time.thread_time() - cpu) / 20 * 1000, 1)
sampled = other.get_cookie("tavolo").value
# the flooded player's cookie signed again, one value a flood (a key of no meaning added): nginx counts
# each value apart, the app the one player
signer = app.session_interface.get_signing_serializer(app)
data = signer.loads(cookie.value)
fresh = [f"tavolo={{signer.dumps({{**data, 'flood': n}})}}" for n in range({floods})]
found = {{"header": f"tavolo={{cookie.value}}", "sampled": f"tavolo={{sampled}}", "page_cpu_ms": costs,
         "fresh": "\\n".join(fresh)}}
print(json.dumps(found))
"""
"""Makes the flooded player: a give-up of today's puzzle (the cookie), `attempts` attempts in all (review
rounds of it, as a long record has them), and a friends' table (#1) of 50, the database then vacuumed
and analysed (PostgreSQL); then another player (a give-up of today's puzzle), whose `GET /` is
sampled. Prints both cookies and the CPU each costly page takes for the flooded player (the mean of 20,
in this process, limits off)."""


def seed_player(app_root: Path, database: str, attempts: int, secret: str) -> dict[str, Any]:
    """The seeded players (see SEED_PLAYER), their cookies signed with the server's `secret`."""
    code = SEED_PLAYER.format(
        root=str(app_root),
        database=database,
        attempts=attempts,
        costly=list(COSTLY.values()),
        secret=secret,
        floods=len(KINDS),
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=app_root, capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


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
"""The known puzzle in other suits with a longer run, for tomorrow: by late morning UTC it is open in
the easternmost zones, and the site publishes a week ahead; left unpublished, every analysis would look
for it. Not the known puzzle merely relabelled: the pool leaves that out as a near-duplicate (4 melds
in common up to relabelling), and tomorrow then had no puzzle."""


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


SECRETS = {
    "SECRET_KEY": "9f2c71d4e8a05b3f6c19e2d7a4b8f05c3e61d9a27b4c8e0f5a13d6b92e7c4f08",
    "TAVOLO_DAILY_SECRET": "e41b7c0a9d35f826c7e04a1b9f3d62c85a7e0f49b13c6d28e5f7a0b4c91d36e2",
}
"""The production stack's secrets, bench/rush.py's and bench/move_cpu.py's too."""


def start_redis(folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = web.free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(folder)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL), port


def start_front(folder: Path, app_port: int) -> tuple[subprocess.Popen[bytes], int]:
    """deploy/nginx.conf in front of gunicorn, its limits included."""
    port = web.free_port()
    site = nginx_conf.deploy_site(app_port, port, folder / "cache")
    return nginx_conf.start(folder, site, connections=4096), port


def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="tavolo-flood-"))
    app_root = args.app_root.resolve()
    production = args.stack == "production"
    processes: list[subprocess.Popen[bytes]] = []
    env = {
        **os.environ,
        "SECRET_KEY": "bench",
        "TAVOLO_LAUNCH_DATE": datetime.now(UTC).date().isoformat(),
        "PYTHONPATH": str(app_root),
    }
    env.pop("TAVOLO_RATE_LIMITS", None)
    workers, threads = attack.WORKERS, attack.THREADS
    if production:
        database = os.environ.get("DATABASE_URL", "")
        if not database.startswith("postgres"):
            raise OSError(
                "--stack production needs DATABASE_URL naming a PostgreSQL: "
                "run under scripts/with-postgres.sh"
            )
        redis, redis_port = start_redis(folder)
        processes.append(redis)
        env |= SECRETS | {"REDIS_URL": f"redis://127.0.0.1:{redis_port}/0", "TAVOLO_PROXIES": "1"}
        workers, threads = 3, 3  # the Procfile's
    else:
        database = f"sqlite:///{folder / 'flood.sqlite3'}"
    env["DATABASE_URL"] = database
    results: dict[str, Any] = {
        "app_root": str(app_root),
        "stack": args.stack,
        "gunicorn": f"{workers} gthread workers x {threads} threads",
        "load_average_at_start": round(os.getloadavg()[0], 2),
    }
    try:
        flask = [str(ROOT / ".venv/bin/flask"), "--app", "webapp"]
        seed_pool(flask, env, app_root, folder)
        app_port = web.free_port()
        gunicorn = [str(ROOT / ".venv/bin/gunicorn"), "--bind", f"127.0.0.1:{app_port}"]
        gunicorn += ["--worker-class", "gthread", "--workers", str(workers), "--threads", str(threads)]
        # an access log, as `make run` keeps one (there on stdout)
        gunicorn += ["--log-level", "error", "--access-logfile", str(folder / "access.log")]
        if production:  # idle connections kept longer than nginx keeps them, as the service has it
            gunicorn += nginx_conf.keep_alive()
        app = subprocess.Popen([*gunicorn, "webapp:create_app()"], env=env, cwd=app_root)
        processes.append(app)
        GROUPS["app"] = app.pid
        port = app_port
        if production:
            nginx, port = start_front(folder, app_port)
            processes.append(nginx)
            GROUPS["nginx"] = nginx.pid
            GROUPS["redis"] = processes[0].pid
            GROUPS["postgresql"] = rush.postmaster(database.rsplit(":", 1)[1].split("/")[0])
        web.wait_for(f"http://127.0.0.1:{port}/help", {"Host": HOST})
        results["kept_answer_ms"] = kept_answer_ms(app_root, database)
        seeded = seed_player(app_root, database, args.attempts, env["SECRET_KEY"])
        COOKIE["header"], COOKIE["sampled"] = seeded["header"], seeded["sampled"]
        COOKIE["fresh"] = seeded["fresh"]
        results["page_cpu_ms"] = {"attempts": args.attempts, **seeded["page_cpu_ms"]}
        quiet = results["quiet"] = sample_home(port, args.quiet)
        for number, kind in enumerate(args.only):
            name = {"analyse": "cached_analyse_flood", "solve": "cached_solve_flood"}.get(kind)
            results[name or f"{kind}_flood"] = flood(port, kind, args, quiet, number)
        results["quiet_after"] = sample_home(port, args.quiet)
        if args.rate_seconds > 0 and not production:
            results["new_visitor"] = new_visitor_rate(port, folder, args.rate_seconds)
        results["load_average_at_end"] = round(os.getloadavg()[0], 2)
    finally:
        web.stop(*reversed(processes))
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
    parser.add_argument(
        "--flood-nice",
        type=int,
        default=19,
        help="the flooding clients' nice (19: an attacker's CPU is their own machine's; 0: ours)",
    )
    parser.add_argument(
        "--stack",
        choices=("direct", "production"),
        default="direct",
        help="gunicorn alone on SQLite (default), or nginx, gunicorn 3 x 3, PostgreSQL and Redis",
    )
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

"""The CPU of a rush player's requests inside the app, by kind, and where it goes (a profile).

    [scripts/with-postgres.sh] .venv/bin/python bench/move_cpu.py [--players 60] [--profile N]
        [--profile-kind KIND] [--sample KIND] [--drop CACHE ...] [--statements] [--dump FILE]
        [--no-redis] [--app-root DIR]

One process, one thread, Flask's test client: what bench/rush.py's players send (bench/morning.py:
the puzzle's page, the solution's steps as step POSTs with their step checks, the end of the turn;
each player from an address of their own through one proxy hop, as nginx sends them), on the known
puzzle of bench/flood.py as puzzle #1, against the database of `DATABASE_URL` (SQLite in a temporary
folder without one) and a Redis of its own for the limits and kept answers (`--no-redis`: none).
The first tenth of the players warm the process up, untimed. Printed: the mean CPU milliseconds
(`time.process_time`) of each kind of request and of all, the SQL statements each sends (pings
included), PostgreSQL's CPU a request, and with `--profile N` the N costliest functions by their
own time and by cumulative time (cProfile on the CPU clock, over the timed players, `--profile-kind`
only those of one kind); `--sample KIND` prints pyinstrument's tree of one kind (wall clock; when it
is installed); `--drop` empties app caches before every request, to time what each saves. Gunicorn's
HTTP parsing and nginx are not in it: bench/rush.py measures the whole stack.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import re
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import flood  # noqa: E402  (bench/flood.py)
import morning  # noqa: E402  (bench/morning.py)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions")
    parser.add_argument("--no-redis", dest="redis", action="store_false")
    parser.add_argument("--app-root", type=Path, default=ROOT)
    parser.add_argument(
        "--drop", nargs="*", default=[], help="app caches (their names) emptied before every request"
    )
    parser.add_argument("--sample", help="pyinstrument (if installed) on the requests of this kind")
    parser.add_argument("--profile-kind", help="profile only the requests of this kind (page, move, end)")
    parser.add_argument("--statements", action="store_true", help="print one player's SQL")
    parser.add_argument("--dump", type=Path, help="write the profile's stats to this file")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tavolo-move-cpu-"))
    app_root = args.app_root.resolve()
    sys.path.insert(0, str(app_root))
    redis_server = None
    try:
        env = {
            "DATABASE_URL": os.environ.get("DATABASE_URL") or f"sqlite:///{folder / 'move.sqlite3'}",
            **flood.SECRETS,
            "TAVOLO_PROXIES": "1",
            "TAVOLO_LAUNCH_DATE": datetime.now(UTC).date().isoformat(),
            "PYTHONPATH": str(app_root),
        }
        if args.redis:
            redis_server, port = flood.start_redis(folder)
            env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
        os.environ.update(env)
        os.environ.pop("TAVOLO_RATE_LIMITS", None)
        pooled = flood.seed_pool(
            [str(ROOT / ".venv/bin/flask"), "--app", "webapp"], {**os.environ}, app_root, folder
        )
        if redis_server is not None:
            wait_for_redis(env["REDIS_URL"])
        results = measure(args, [list(meld) for meld in pooled.solution], pooled.position().rules)
    finally:
        if redis_server is not None:
            redis_server.terminate()
            redis_server.wait()
        shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(results, indent=1))
    return 0


def wait_for_redis(url: str) -> None:
    import redis

    for _ in range(100):
        try:
            redis.Redis.from_url(url).ping()
            return
        except redis.RedisError:
            time.sleep(0.05)
    raise OSError(f"no Redis at {url}")


def measure(args: argparse.Namespace, solution: list[list[str]], rules: Any) -> dict[str, Any]:
    import rush  # bench/rush.py, here: it imports webapp, which must come from --app-root
    from sqlalchemy import event

    from webapp import create_app
    from webapp.db import database

    app = create_app()
    statements: list[str] = []
    with app.app_context():
        engine = database().engine
        event.listen(engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        ping = engine.dialect.do_ping
        engine.dialect.do_ping = lambda connection: statements.append("ping") or ping(connection)  # type: ignore[method-assign]
    first = app.test_client().get("/puzzles/1", headers={"Host": morning.HOST}).get_data(as_text=True)
    moves = morning.steps_plan(first, solution, rules)
    spent: dict[str, list[float]] = defaultdict(list)
    said: dict[str, list[int]] = defaultdict(list)
    samples: list[Any] = []
    profile = cProfile.Profile(time.process_time) if args.profile or args.dump else None
    warm = max(args.players // 10, 1)
    database = os.environ["DATABASE_URL"]
    postgres = (
        rush.postmaster(database.rsplit(":", 1)[1].split("/")[0]) if database.startswith("postgres") else None
    )
    cpu_before = 0.0
    for number in range(args.players + warm):
        timed = number >= warm
        if number == warm and postgres is not None:
            cpu_before = rush.cpu_seconds({"postgresql": postgres})["postgresql"]
        # cookies as the rush's players keep them (`Player.took`), not the test client's jar
        client = app.test_client(use_cookies=False)
        headers = {
            "Host": morning.HOST,
            "X-Forwarded-For": morning.address(number + 1),
            "X-Forwarded-Proto": "http",
        }
        headers["X-Forwarded-Host"] = morning.HOST
        player = morning.Player(moves)
        script = player.script()
        method, path, body = next(script)
        try:
            while True:
                kind = "page" if method == "GET" else path.rsplit("/", 1)[1]
                sent = {**headers, **{k: v for k, v in player.headers.items() if k != "Host"}}
                sampler = None
                if args.sample == kind and timed:
                    import pyinstrument

                    sampler = pyinstrument.Profiler(interval=0.0002)
                    sampler.start()
                profiled = profile is not None and timed and args.profile_kind in (None, kind)
                if profiled:
                    profile.enable()
                for name in args.drop:
                    app.extensions.get(f"tavolo.cache.{name}", {}).clear()  # type: ignore[attr-defined]
                statements.clear()
                started = time.process_time()
                response = client.open(path, method=method, data=body, headers=sent)
                text = response.get_data(as_text=True)
                took = time.process_time() - started
                if sampler is not None:
                    sampler.stop()
                    samples.append(sampler.last_session)
                if profiled:
                    profile.disable()
                player.took(response.headers.getlist("Set-Cookie"))
                if response.status_code != 200:
                    raise SystemExit(f"{method} {path}: {response.status_code} {text[:300]}")
                if timed:
                    spent[kind].append(took * 1000)
                    said[kind].append(len(statements))
                    if args.statements and number == warm:
                        print(
                            kind,
                            *(" ".join(s.split())[:150] for s in statements),
                            sep="\n  ",
                            file=sys.stderr,
                        )
                method, path, body = script.send(text)
        except StopIteration:
            pass
    every = [t for times in spent.values() for t in times]
    results: dict[str, Any] = {
        "database": os.environ["DATABASE_URL"].split(":", 1)[0],
        "redis": args.redis,
        "players": args.players,
        "requests_per_player": round(len(every) / args.players, 1),
        "cpu_ms_a_request": round(sum(every) / len(every), 3),
    }
    results |= {f"cpu_ms_{kind}": round(sum(t) / len(t), 3) for kind, t in spent.items()}
    if postgres is not None:
        spent_pg = rush.cpu_seconds({"postgresql": postgres})["postgresql"] - cpu_before
        results["postgresql_cpu_ms_a_request"] = round(spent_pg * 1000 / len(every), 3)
    results |= {f"statements_{kind}": round(sum(n) / len(n), 2) for kind, n in said.items()}
    if samples:
        import pyinstrument.session

        merged = samples[0]
        for one in samples[1:]:
            merged = pyinstrument.session.Session.combine(merged, one)
        from pyinstrument.renderers import ConsoleRenderer

        print(ConsoleRenderer(unicode=False, color=False, show_all=False).render(merged), file=sys.stderr)
    if profile is not None:
        if args.dump:
            profile.dump_stats(str(args.dump))
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            stats = pstats.Stats(profile, stream=out)
            stats.sort_stats(order).print_stats(args.profile)
            text = re.sub(r"/[^ ]*/site-packages/", "", out.getvalue())
            print(text.replace(str(ROOT) + "/", ""), file=sys.stderr)
    return results


if __name__ == "__main__":
    sys.exit(main())

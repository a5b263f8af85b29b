"""Midnight rush: the start of a new day played through the real stack.

    scripts/with-postgres.sh .venv/bin/python bench/rush.py [--players 500 2000] [--seconds 60]
                                                            [--app-root DIR]

deploy/nginx.conf (its host, checkout and port changed, as test_front_door does) in front of
gunicorn (2 gthread workers of 4 threads, `TAVOLO_PROXIES=1`), the PostgreSQL of `DATABASE_URL`
(durable, as with-postgres.sh starts it without --fast), and a Redis of its own for the limits and
kept answers. Today is puzzle #1. Each of N players arrives at a moment spread evenly over
`--seconds`, from an address of their own (127.x.y.z), loads the puzzle page, plays the moves of the
solution (each a step POST with its step check) and ends the turn. Printed per N: p50, p99 and max
of every request, errors (non-2xx or no answer), the players done, and the app's own CPU seconds
(gunicorn's processes, which other work on a shared machine hardly moves, unlike the times). Then
`GET /` for a new visitor through the front door (wrk, 32 connections, 10 s) beside nginx serving
the same page as a file: wrk has one address, so that measurement runs with the per-address
`limit_req` lines taken out of the site file. Figures are printed, never asserted. `--app-root DIR`
serves another checkout (before/after a change) with this .venv, as bench/flood.py does.
"""

from __future__ import annotations

import argparse
import grp
import http.client
import json
import multiprocessing
import os
import pwd
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import flood  # bench/flood.py: the pool's one puzzle
import web  # bench/web.py: free ports, wrk

ROOT = Path(__file__).resolve().parent.parent
HOST = "tavolo.example"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
MAIN_CONF = """
user {user} {group};
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    include {folder}/tavolo.conf;
}}
"""
CARD = re.compile(r'data-card="(\w+)" data-from="(\w+)" draggable="true"\s+aria-label="([^"(]+)')
PLACE = re.compile(r'data-card="(\w+)" data-from="(\w+)"')
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
THREADS_PER_PROCESS = 96


def address(number: int) -> str:
    return f"127.{10 + number // 60000}.{number // 250 % 240 + 1}.{number % 250 + 1}"


def play(port: int, number: int, solution: list[list[str]]) -> tuple[list[float], int]:
    """One player's morning: the page, the solution's moves, the end of the turn. The time of each
    request (ms) and the errors."""
    times: list[float] = []
    errors = 0
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(address(number), 0))
    headers = {"Host": HOST}

    def send(method: str, path: str, body: str | None = None) -> str | None:
        nonlocal errors
        started = time.perf_counter()
        try:
            link.request(method, path, body, headers)
            response = link.getresponse()
            text = response.read().decode()
        except OSError:
            errors += 1
            return None
        times.append((time.perf_counter() - started) * 1000)
        for value in response.headers.get_all("Set-Cookie") or []:
            headers["Cookie"] = value.split(";", 1)[0]
        if not 200 <= response.status < 300:
            errors += 1
            return None
        return text

    page = send("GET", "/puzzles/1")
    if page is None:
        return times, errors
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
    headers |= {"X-CSRFToken": token.group(1) if token else "", "HX-Request": "true"}
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    ids: dict[str, list[str]] = {}
    for card, _, label in CARD.findall(page):
        ids.setdefault(label.strip(), []).append(card)
    for meld in solution:
        first = None
        for token_text in meld:
            label = token_text[:-1] + SUITS[token_text[-1]]
            choices = sorted(ids.get(label, []), key=lambda i: (i[0] != "t", i))
            if not choices:
                return times, errors + 1
            chosen = choices[0]
            ids[label].remove(chosen)
            target = "new" if first is None else dict(PLACE.findall(page)).get(first, "new")
            answer = send("POST", "/puzzles/1/move", f"card={chosen}&to={target}")
            if answer is None:
                return times, errors
            page = answer
            first = first or chosen
    send("POST", "/puzzles/1/end")
    link.close()
    return times, errors


def rush_process(port: int, players: list[int], starts: list[float], solution: Any, out: Any) -> None:
    lock = threading.Lock()
    times: list[float] = []
    errors = [0, 0]

    def one(number: int, start: float) -> None:
        time.sleep(max(start - time.time(), 0))
        found, failed = play(port, number, solution)
        with lock:
            times.extend(found)
            errors[0] += failed
            errors[1] += 1

    with ThreadPoolExecutor(THREADS_PER_PROCESS) as pool:
        for number, start in zip(players, starts, strict=True):
            pool.submit(one, number, start)
    out.put((times, errors[0], errors[1]))


def rush(port: int, players: int, seconds: float, solution: Any, offset: int) -> dict[str, Any]:
    begin = time.time() + 2
    starts = [begin + seconds * n / players for n in range(players)]
    numbers = list(range(offset, offset + players))
    out: Any = multiprocessing.Queue()
    processes = [
        multiprocessing.Process(target=rush_process, args=(port, numbers[n::2], starts[n::2], solution, out))
        for n in range(2)
    ]
    for process in processes:
        process.start()
    times: list[float] = []
    errors = done = 0
    for _ in processes:
        found, failed, finished = out.get(timeout=3600)
        times += found
        errors += failed
        done += finished
    for process in processes:
        process.join()
    times.sort()
    return {
        "players": players,
        "within_s": seconds,
        "wall_s": round(time.time() - begin, 1),
        "requests": len(times),
        "p50_ms": round(statistics.median(times), 1) if times else None,
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 1) if times else None,
        "max_ms": round(times[-1], 1) if times else None,
        "errors": errors,
        "players_done": done,
    }


def start_nginx(folder: Path, app_port: int, limits: bool) -> tuple[subprocess.Popen[bytes], int]:
    for temporary in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / temporary).mkdir(exist_ok=True)
    site = (ROOT / "deploy/nginx.conf").read_text()
    site = site.replace("127.0.0.1:8000", f"127.0.0.1:{app_port}").replace("/srv/tavolo", str(ROOT))
    site = site.replace("/var/cache/tavolo-nginx", str(folder / "cache"))
    if not limits:
        site = "\n".join(
            line for line in site.splitlines() if "limit_req " not in line and "limit_conn " not in line
        )
    port = web.free_port()
    site = site.replace("listen 80", f"listen 127.0.0.1:{port}")
    # the page as a file, for nginx's own rate beside ours
    site = site.replace(
        "    location / {", f"    location = /page.html {{ root {folder}; }}\n    location / {{", 1
    )
    (folder / "tavolo.conf").write_text(site)
    user, group = pwd.getpwuid(os.geteuid()).pw_name, grp.getgrgid(os.getegid()).gr_name
    (folder / "nginx.conf").write_text(MAIN_CONF.format(folder=folder, user=user, group=group))
    nginx = subprocess.Popen([NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder)])
    return nginx, port


def app_cpu_seconds(master: int) -> float:
    """CPU seconds (user and system) used so far by gunicorn's master and its workers (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    pids = [master]
    try:
        pids += [int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()]
    except OSError:
        return 0.0
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def wrk_rate(url: str, seconds: int) -> dict[str, float]:
    done = subprocess.run(
        ["wrk", "-t2", "-c32", f"-d{seconds}s", "-H", f"Host: {HOST}", "--latency", url],
        capture_output=True,
        text=True,
        check=True,
    )
    rate = re.search(r"Requests/sec:\s+([\d.]+)", done.stdout)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", done.stdout)
    return {
        "requests_per_s": float(rate.group(1)) if rate else 0.0,
        "non_2xx": int(non2xx.group(1)) if non2xx else 0,
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith("postgres"):
        raise OSError("DATABASE_URL must name a PostgreSQL: run under scripts/with-postgres.sh")
    folder = Path(tempfile.mkdtemp(prefix="tavolo-rush-"))
    app_root = args.app_root.resolve()
    redis_port = web.free_port()
    redis = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(redis_port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
    )
    env = {
        **os.environ,
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "SECRET_KEY": "a rush benchmark's secret of 32 characters or more",
        "TAVOLO_DAILY_SECRET": "a rush benchmark's daily secret, 32 characters or more",
        "TAVOLO_PROXIES": "1",
        "TAVOLO_LAUNCH_DATE": datetime.now(UTC).date().isoformat(),
        "PYTHONPATH": str(app_root),
    }
    env.pop("TAVOLO_RATE_LIMITS", None)
    flask = [str(ROOT / ".venv/bin/flask"), "--app", "webapp"]
    # the pool's one puzzle is today's: its solution is the moves every player makes
    solution = [list(meld) for meld in flood.seed_pool(flask, env, app_root, folder).solution]
    app_port = web.free_port()
    gunicorn = [
        str(ROOT / ".venv/bin/gunicorn"),
        "--bind",
        f"127.0.0.1:{app_port}",
        "--worker-class",
        "gthread",
    ]
    gunicorn += ["--workers", "2", "--threads", "4", "--log-level", "error", "webapp:create_app()"]
    app = subprocess.Popen(gunicorn, env=env, cwd=app_root)
    nginx, port = start_nginx(folder, app_port, limits=True)
    results: dict[str, Any] = {
        "app_root": str(app_root),
        "cores": os.cpu_count(),
        "load_average_at_start": round(os.getloadavg()[0], 2),
    }
    try:
        web.wait_for(f"http://127.0.0.1:{port}/help", {"Host": HOST})
        results["rushes"] = []
        offset = 0
        for players in args.players:
            cpu = app_cpu_seconds(app.pid)
            results["rushes"].append(rush(port, players, args.seconds, solution, offset))
            # the app's own CPU (gunicorn's workers), which other work on the machine hardly moves
            results["rushes"][-1]["app_cpu_s"] = round(app_cpu_seconds(app.pid) - cpu, 1)
            print(json.dumps(results["rushes"][-1]), file=sys.stderr, flush=True)  # each as it ends
            offset += players
        nginx.terminate()
        nginx.wait(timeout=30)
        nginx, port = start_nginx(folder, app_port, limits=False)
        web.wait_for(f"http://127.0.0.1:{port}/help", {"Host": HOST})
        page = urllib.request.urlopen(
            urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"Host": HOST})
        )
        (folder / "page.html").write_bytes(page.read())
        ours = wrk_rate(f"http://127.0.0.1:{port}/", 10)
        static = wrk_rate(f"http://127.0.0.1:{port}/page.html", 10)
        results["get_home_new_visitor"] = ours
        results["nginx_static_same_page"] = static
        results["ours_share_of_static"] = round(ours["requests_per_s"] / max(static["requests_per_s"], 1), 4)
        results["load_average_at_end"] = round(os.getloadavg()[0], 2)
    finally:
        web.stop(nginx, app, redis)
        shutil.rmtree(folder, ignore_errors=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[500, 2000], help="rush sizes (500 2000)")
    parser.add_argument("--seconds", type=float, default=60, help="players arrive within this (60)")
    parser.add_argument("--app-root", type=Path, default=ROOT, help="the checkout to serve (this one)")
    args = parser.parse_args()
    if args.seconds <= 0 or any(not 1 <= players <= 100_000 for players in args.players):
        parser.error("--seconds must be positive and --players 1 to 100000")
    if not (args.app_root / "webapp" / "__init__.py").is_file():
        parser.error(f"--app-root {args.app_root} holds no webapp/")
    return web.report("rush.py", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())

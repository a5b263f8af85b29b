"""Load benchmark of the production setup, on loopback: gunicorn (gthread) under wrk, beside nginx.

    .venv/bin/python bench/load.py --database-url URL [--seconds 60] [--minutes 10] [--json FILE]

Usually run through `bench/load.sh`, which makes the databases (SQLite, and a throw-away PostgreSQL).
For one database it measures, with 32 connections:

1. `GET /` from gunicorn: requests/s and p99.
2. The step POST (a card to a new meld and back, each with the step check): requests/s and p99.
3. The same page as a static file from nginx (Debian's), the ceiling: requests/s, p99, our ratio.
4. A soak: `GET /` and step POSTs together for `--minutes`, with each worker's memory (RSS) before
   and after; the growth should stay under 10%.

Every run is bounded by its duration; the figures are printed, never asserted: the machine may be
shared, so the load average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import nginx_conf  # bench/nginx_conf.py: nginx run in a folder of its own
import web  # bench/web.py: players, the wrk scripts, the first page's weight

ROOT = Path(__file__).resolve().parent.parent
CONNECTIONS = 32
WORKERS = 2
THREADS = 4

STATIC_SITE = """
server {{
    listen 127.0.0.1:{port};
    root {folder}/site;
    index index.html;
}}
"""
"""The home page's static copy as nginx serves it: the ceiling a page through the app is measured against."""


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def worker_memory(master: int) -> dict[str, int]:
    """Resident memory (KiB) of each gunicorn worker: the master's children."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    memory = {}
    for child in children:
        status = Path(f"/proc/{child}/status").read_text()
        match = re.search(r"VmRSS:\s+(\d+) kB", status)
        if match:
            memory[child] = int(match.group(1))
    return memory


def static_copy(base: str, folder: Path) -> Path:
    """The home page and the files it loads, saved for nginx to serve as static files."""
    site = folder / "site"
    folder.chmod(0o755)  # readable by nginx's workers, whichever user they run as
    page = urllib.request.urlopen(base + "/").read()
    (site / "index.html").parent.mkdir(parents=True, exist_ok=True)
    (site / "index.html").write_bytes(page)
    for link in re.findall(rb'(?:src|href)="(/[^"?]+)"', page):
        path = site / link.decode().lstrip("/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(urllib.request.urlopen(base + link.decode()).read())
    return site


def nginx_ceiling(base: str, folder: Path, script: Path, seconds: float) -> dict[str, Any]:
    if not Path(nginx_conf.NGINX).exists():
        raise web.BenchError("nginx is not installed (apt-get install nginx-light)")
    static_copy(base, folder)
    port = web.free_port()
    site = STATIC_SITE.format(folder=folder, port=port)
    server = nginx_conf.start(folder, site, workers=2, connections=1024, quiet=True)
    try:
        web.wait_for(f"http://127.0.0.1:{port}/", process=server)
        return web.wrk(f"http://127.0.0.1:{port}/", script, seconds, threads=2)
    finally:
        web.stop(server)


def step_script(folder: Path, base: str, number: int, players: int) -> Path:
    """A wrk script for step POSTs: one player (cookie, CSRF token) per wrk thread and connection."""
    made = [web.player(base, number) for _ in range(players)]
    table = "{" + ",".join(f'{{cookie="{p["cookie"]}", token="{p["token"]}"}}' for p in made) + "}"
    script = folder / f"step-{players}.lua"
    script.write_text(web.STEP_LUA % {"players": table, "path": f"/puzzles/{number}/move"})
    return script


def soak(
    base: str, folder: Path, get_script: Path, number: int, minutes: float, master: int
) -> dict[str, Any]:
    """GETs and step POSTs together (16 connections each) for `minutes`; each worker's memory around it."""
    before = worker_memory(master)
    steps = step_script(folder, base, number, CONNECTIONS // 2)
    seconds = minutes * 60
    half = str(CONNECTIONS // 2)
    runs = [
        subprocess.Popen(
            ["wrk", "-t", threads, "-c", half, "-d", f"{seconds:.0f}s", "-s", str(script), base + "/"],
            stdout=subprocess.PIPE,
            text=True,
        )
        for script, threads in ((get_script, "2"), (steps, half))
    ]
    outputs = [run.communicate(timeout=seconds + 120)[0] for run in runs]
    after = worker_memory(master)
    figures = {}
    for name, output in zip(("get_home", "step_post"), outputs, strict=True):
        match = re.search(r"BENCH (\d+) (\d+) ([\d.]+) ([\d.]+)", output)
        if match is None:
            raise web.BenchError(f"wrk gave no figures in the soak: {output.strip()[:200]}")
        requests, errors, p99, _ = match.groups()
        figures[name] = {"requests_per_s": round(int(requests) / seconds, 1), "non_2xx": int(errors)}
        figures[name]["p99_ms"] = float(p99)
    growth = {pid: round(100 * (after[pid] - before[pid]) / before[pid], 1) for pid in before if pid in after}
    return {
        "minutes": minutes,
        **figures,
        "rss_kib_before": before,
        "rss_kib_after": after,
        "growth_percent": growth,
        "workers_replaced": sorted(set(before) ^ set(after)),
    }


def run(database_url: str, seconds: float, minutes: float) -> dict[str, Any]:
    if shutil.which("wrk") is None:
        raise web.BenchError("wrk is not installed (apt-get install wrk)")
    folder = Path(tempfile.mkdtemp(prefix="tavolo-load-"))
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "bench",
        "TAVOLO_LAUNCH_DATE": datetime.now(UTC).date().isoformat(),  # today is #1
        "TAVOLO_RATE_LIMITS": "off",  # every request comes from one address
    }
    web.flask(env, "db", "upgrade")
    web.flask(env, "puzzles", "ensure", "--days", "0")
    port = web.free_port()
    base = f"http://127.0.0.1:{port}"
    gunicorn = [str(ROOT / ".venv/bin/gunicorn"), "--bind", f"127.0.0.1:{port}", "--worker-class", "gthread"]
    gunicorn += ["--workers", str(WORKERS), "--threads", str(THREADS), "--log-level", "warning"]
    server = subprocess.Popen([*gunicorn, "webapp:create_app()"], env=env, cwd=ROOT)
    results: dict[str, Any] = {
        "database": database_url.split(":", 1)[0],
        "connections": CONNECTIONS,
        "workers": WORKERS,
        "threads": THREADS,
        "cores": os.cpu_count(),
        "load_average_at_start": load_average(),
    }
    try:
        web.wait_for(base + "/help", process=server)
        number = json.loads(urllib.request.urlopen(base + "/api/daily").read())["number"]
        results["first_load_bytes"] = web.first_load_bytes(base)
        get_script = folder / "get.lua"
        get_script.write_text(web.GET_LUA)
        results["get_home"] = web.wrk(base + "/", get_script, seconds, threads=2)
        steps = step_script(folder, base, number, CONNECTIONS)
        results["step_post"] = web.wrk(base + "/", steps, seconds, threads=CONNECTIONS)
        results["nginx_static_home"] = nginx_ceiling(base, folder, get_script, seconds)
        results["get_home_share_of_nginx"] = round(
            results["get_home"]["requests_per_s"] / results["nginx_static_home"]["requests_per_s"], 3
        )
        if minutes > 0:
            results["soak"] = soak(base, folder, get_script, number, minutes, server.pid)
        results["load_average_at_end"] = load_average()
    finally:
        web.stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temporary folder")
    parser.add_argument("--seconds", type=float, default=60, help="each wrk run (default 60)")
    parser.add_argument("--minutes", type=float, default=10, help="the soak (default 10; 0 skips it)")
    parser.add_argument("--json", type=Path, default=None, help="also append the figures to this file")
    args = parser.parse_args()
    if args.seconds <= 0 or args.minutes < 0:
        parser.error("--seconds must be positive and --minutes at least 0")
    scratch = None
    url = args.database_url
    if url is None:
        scratch = Path(tempfile.mkdtemp(prefix="tavolo-load-db-"))
        url = f"sqlite:///{scratch / 'load.sqlite3'}"
    try:
        return web.report("load.py", lambda: run(url, args.seconds, args.minutes), args.json)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

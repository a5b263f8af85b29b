"""Web benchmark: gunicorn on loopback, loaded by wrk (Debian's) with 32 connections.

    .venv/bin/python bench/web.py [--seconds 10]

Measures `GET /` (requests/s, p99), the step POST (a card to a new meld and back, each with the
engine's step check; p99), the step check itself uncached, and the bytes of a first page load.
Everything runs on a throw-away SQLite database with one generated puzzle as today's.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from puzzles import Position, step_check

ROOT = Path(__file__).resolve().parent.parent
CONNECTIONS = 32

STEP_LUA = """
-- each wrk thread is one player with its own cookie and CSRF token; one connection per thread,
-- so its moves alternate in order: a hand card to a new meld, then back to the hand
local players = %(players)s
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("player", counter)
end
function init(args)
  local p = players[player]
  wrk.headers["Cookie"] = p.cookie
  wrk.headers["X-CSRFToken"] = p.token
  wrk.headers["HX-Request"] = "true"
  wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
  out = true
end
function request()
  local body
  if out then body = "card=h0&to=new&from=hand" else body = "card=h0&to=hand" end
  return wrk.format("POST", "%(path)s", nil, body)
end
-- the direction turns on an answer, not on a request: wrk builds one request up front to check
-- the script, which would otherwise send one thread's first move the wrong way
function response(status, headers, body)
  out = not out
end
function done(summary, latency, requests)
  io.write(string.format("BENCH %%d %%d %%.1f %%.1f\\n", summary.requests,
    summary.errors.status, latency:percentile(99) / 1000, latency.mean / 1000))
end
"""

GET_LUA = """
function done(summary, latency, requests)
  io.write(string.format("BENCH %d %d %.1f %.1f\\n", summary.requests,
    summary.errors.status, latency:percentile(99) / 1000, latency.mean / 1000))
end
"""


class BenchError(RuntimeError):
    """A benchmark that cannot run here; the message says what is missing."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def flask(env: dict[str, str], *args: str) -> str:
    command = [str(ROOT / ".venv/bin/flask"), "--app", "webapp", *args]
    return subprocess.run(command, env=env, cwd=ROOT, check=True, capture_output=True, text=True).stdout


def wrk(
    url: str, script: Path, seconds: float, threads: int, connections: int = CONNECTIONS
) -> dict[str, float]:
    """`wrk` with a script that prints `BENCH requests errors p99 mean` (GET_LUA, STEP_LUA)."""
    command = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds:.0f}s", "-s", str(script)]
    done = subprocess.run([*command, url], check=True, capture_output=True, text=True, timeout=seconds + 60)
    output = done.stdout
    match = re.search(r"BENCH (\d+) (\d+) ([\d.]+) ([\d.]+)", output)
    if match is None:
        raise BenchError(f"wrk gave no figures: {output.strip()[:200]}")
    requests, errors, p99, mean = match.groups()
    return {
        "requests_per_s": round(int(requests) / seconds, 1),
        "non_2xx": int(errors),
        "p99_ms": float(p99),
        "mean_ms": float(mean),
    }


def wait_for(
    url: str, headers: dict[str, str] | None = None, process: subprocess.Popen[bytes] | None = None
) -> None:
    """Until the server at `url` answers (a minute at most), or its `process` has stopped."""
    for _ in range(600):
        if process is not None and process.poll() is not None:
            raise BenchError(f"{process.args!r} stopped at start (exit status {process.returncode})")
        try:
            urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=5).read()
            return
        except OSError:
            time.sleep(0.1)
    raise BenchError(f"{url} did not answer within a minute")


def stop(*processes: subprocess.Popen[bytes]) -> None:
    for process in processes:
        process.terminate()
        process.wait(timeout=30)


def report(script: str, run: Callable[[], dict[str, Any]], json_path: Path | None = None) -> int:
    """Print `run()`'s figures as JSON (and append them as one line to `json_path`); a benchmark that
    cannot run here is exit status 2 with one line on stderr."""
    try:
        results = run()
    except (BenchError, subprocess.CalledProcessError, OSError) as error:
        print(f"bench/{script}: error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(results, indent=2))
    if json_path is not None:
        with json_path.open("a") as out:
            out.write(json.dumps(results) + "\n")
    return 0


def player(base: str, number: int) -> dict[str, str]:
    """A new player who has made a first move (and taken it back): their cookie and CSRF token."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    # today's page for a browser without a session carries no token: its script asks /token, as here
    opener.open(base + "/").read()
    token = re.search(r'"token":\s*"([^"]+)"', opener.open(base + "/token").read().decode())
    assert token is not None
    for body in (b"card=h0&to=new", b"card=h0&to=hand"):
        move = urllib.request.Request(
            f"{base}/puzzles/{number}/move",
            data=body,
            headers={"X-CSRFToken": token.group(1), "HX-Request": "1"},
        )
        opener.open(move).read()
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    return {"cookie": cookie, "token": token.group(1)}


BROWSER_ENCODINGS = "gzip, deflate, br, zstd"
"""What Chromium asks for."""


def first_load_bytes(base: str) -> dict[str, int]:
    """Bytes of the page and every file it loads: on the wire, asking for compression as Chromium
    does, and as they are unpacked."""
    wire = raw = 0
    links: list[str] = ["/"]
    for number, link in enumerate(links):
        packed = urllib.request.Request(base + link, headers={"Accept-Encoding": BROWSER_ENCODINGS})
        wire += len(urllib.request.urlopen(packed).read())
        body = urllib.request.urlopen(base + link).read()
        raw += len(body)
        if number == 0:
            found = re.findall(rb'(?:src|href)="(/[^"]+)"', body)
            links += [item.decode() for item in found if item.endswith((b".js", b".css", b".svg"))]
    return {"transferred": wire, "unpacked": raw}


def step_check_ms(base: str) -> dict[str, float]:
    """The engine's step check on today's puzzle, uncached: each hand card laid alone."""
    answer = json.loads(urllib.request.urlopen(base + "/api/daily").read())
    position = Position.build(answer["rules"], answer["table"], answer["hand"])
    times = []
    for card in position.hand:
        started = time.perf_counter()
        step_check(position, [card], 0.3)
        times.append((time.perf_counter() - started) * 1000)
    return {"median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("bench/web.py: error: wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="tavolo-bench-"))
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'bench.sqlite3'}",
        SECRET_KEY="bench",
        TAVOLO_LAUNCH_DATE=datetime.now(UTC).date().isoformat(),  # today is #1: a Monday or not, quick
    )
    flask(env, "db", "upgrade")
    flask(env, "puzzles", "ensure", "--days", "0")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    gunicorn = [str(ROOT / ".venv/bin/gunicorn"), "--bind", f"127.0.0.1:{port}", "--worker-class", "gthread"]
    gunicorn += ["--workers", str(args.workers), "--threads", str(args.threads), "--log-level", "warning"]
    server = subprocess.Popen(
        [*gunicorn, "webapp:create_app()"], env={**env, "TAVOLO_RATE_LIMITS": "off"}, cwd=ROOT
    )
    try:
        wait_for(base + "/help")
        results: dict[str, object] = {"connections": CONNECTIONS, "workers": args.workers}
        results["threads"] = args.threads
        results["first_load_bytes"] = first_load_bytes(base)
        get_script = folder / "get.lua"
        get_script.write_text(GET_LUA)
        results["get_home"] = wrk(base + "/", get_script, args.seconds, threads=2)
        daily = json.loads(urllib.request.urlopen(base + "/api/daily").read())
        players = [player(base, daily["number"]) for _ in range(CONNECTIONS)]
        table = "{" + ",".join(f'{{cookie="{p["cookie"]}", token="{p["token"]}"}}' for p in players) + "}"
        step_script = folder / "step.lua"
        step_script.write_text(STEP_LUA % {"players": table, "path": f"/puzzles/{daily['number']}/move"})
        results["step_post"] = wrk(base + "/", step_script, args.seconds, threads=CONNECTIONS)
        results["step_check_uncached"] = step_check_ms(base)
        print(json.dumps(results, indent=2))
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

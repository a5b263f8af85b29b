"""Midnight rush: the start of a new day played through the real stack.

    scripts/with-postgres.sh .venv/bin/python bench/rush.py [--players 500 2000] [--seconds 60]
        [--every-card] [--client asyncio|threads] [--workers 2] [--threads 4]
        [--worker-class gthread|sync] [--no-upstream-keepalive] [--no-front-door] [--app-root DIR]
        [--hosts 2] [--kill-host-at SECONDS]

deploy/nginx.conf (its host, checkout and port changed, as test_front_door does) in front of
gunicorn (as the Procfile: 3 gthread workers of 3 threads, `TAVOLO_PROXIES=1`), the PostgreSQL of
`DATABASE_URL` (durable, as with-postgres.sh starts it without --fast), and a Redis of its own for
the limits and kept answers. Today is puzzle #1. Each of N players arrives at a moment spread evenly
over `--seconds`, from an address of their own (127.x.y.z), loads the puzzle page, plays the
solution's steps as the engine plans them (`puzzles.steps_between`, as the hints and the solution's
replay do: hand cards onto melds, the table cards of the broken melds; each a step POST with its
step check) and ends the turn. `--every-card`: the first player model, which built every meld of the
solution card by card on new places, kept melds too. The client is one asyncio process (`--client
threads`: the first one, 2 processes x 96 threads of http.client); both send the same bytes and let
at most 192 players play at once, so a slow server makes players start late (`late_start_*`).

Printed per N: p50, p99 and max of every request, errors (non-2xx or no answer), requests a player,
and the CPU seconds of each process group (the client, gunicorn, PostgreSQL, Redis, nginx, and the
whole machine's, other people's work included), which other work on a shared machine hardly moves,
unlike the times. Then `GET /` for a new visitor through the front door (wrk, 32 connections, 10 s)
beside nginx serving the same page as a file: wrk has one address, so that measurement runs with
the per-address `limit_req` lines taken out of the site file. Figures are printed, never asserted.
`--app-root DIR` serves another checkout (before/after a change) with this .venv, as bench/flood.py
does.

`--hosts N`: N app hosts, each a gunicorn as above on a port of its own (as on a machine of its
own), in deploy/nginx.conf's one `upstream`, on the one PostgreSQL and the one Redis. Printed too,
per host from nginx's log (`by_host`): the requests each answered, and the tries nginx gave up on
there and sent to another host or answered 502 itself. `--kill-host-at S`: S seconds into the
rush, the last host dies (SIGKILL to its master and workers at once, as a machine that fails); what
that host had in flight (`in_flight`) nginx sends again to another host, POSTs too, since each
carries its own id as the page's script gives it (bench/morning.py, webapp/turn/replays.py) and the
app applies it once; the errors then are what nginx could not send again; `errors_from_kill_s` says when
the first and last came. After each rush the database is asked for the rush's attempts
(`attempts_finished_with_every_move`: finished, with as many moves as each player made), beside the
players whose end of turn was answered (`players_finished`): nothing finished is lost.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import json
import multiprocessing
import os
import re
import resource
import shutil
import signal
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
import morning  # bench/morning.py: a player's moves and requests
import nginx_conf  # bench/nginx_conf.py: nginx in front, as deploy/nginx.conf has it
import redis
import web  # bench/web.py: free ports, wrk
from sqlalchemy import create_engine, text

from webapp.db import engine_url

ROOT = Path(__file__).resolve().parent.parent
THREADS_PER_PROCESS = 96


def threads_process(port: int, players: list[int], starts: list[float], moves: Any, out: Any) -> None:
    lock = threading.Lock()
    tally = Tally()

    def one(number: int, start: float) -> None:
        late = max(time.time() - start, 0)
        time.sleep(max(start - time.time(), 0))
        played = morning.play_threaded(port, number, moves)
        with lock:
            tally.add(played, late)

    with ThreadPoolExecutor(THREADS_PER_PROCESS) as pool:
        for number, start in zip(players, starts, strict=True):
            pool.submit(one, number, start)
    out.put(tally.finish())


class Tally:
    """A client process's figures: each request's time, the errors, each player's late start, the
    players who ended their turn."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.errors: list[tuple[str, float]] = []
        self.lates: list[float] = []
        self.finished = 0

    def add(self, played: morning.Played, late: float) -> None:
        times, errors, finished = played
        self.times += times
        self.errors += errors
        self.lates.append(late)
        self.finished += finished

    def finish(self) -> tuple[list[float], list[tuple[str, float]], list[float], int, float]:
        """The figures, and the CPU seconds this process used (user and system)."""
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return self.times, self.errors, self.lates, self.finished, usage.ru_utime + usage.ru_stime


async def play_async(port: int, number: int, moves: list[morning.Move]) -> morning.Played:
    """A player on one asyncio stream: the same requests, bytes for bytes, as http.client sends."""
    times: list[float] = []
    errors: list[tuple[str, float]] = []
    player = morning.Player(moves)
    script = player.script()
    writer = None
    try:
        method, path, body = next(script)
        reader, writer = None, None
        while True:
            started = time.perf_counter()
            try:
                async with asyncio.timeout(60):
                    if reader is None or writer is None:
                        reader, writer = await asyncio.open_connection(
                            "127.0.0.1", port, local_addr=(morning.address(number), 0)
                        )
                    writer.write(request_bytes(method, path, body, player.headers))
                    status, cookies, text = await read_answer(reader)
            except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError) as error:
                errors.append((f"no answer ({type(error).__name__})", time.time()))
                break
            times.append((time.perf_counter() - started) * 1000)
            player.took(cookies)
            answer = text if 200 <= status < 300 else None
            if answer is None:
                errors.append((f"{method} {path.rsplit('/', 1)[1]} {status}", time.time()))
            method, path, body = script.send(answer)
    except StopIteration:
        pass
    finally:
        if writer is not None:
            writer.close()
    return times, errors, player.finished


def request_bytes(method: str, path: str, body: str | None, headers: dict[str, str]) -> bytes:
    """A request byte for byte as http.client writes it: `Accept-Encoding: identity`, the body's
    length (0 for a POST without one), then the headers in their order."""
    lines = [f"{method} {path} HTTP/1.1", "Accept-Encoding: identity"]
    data = (body or "").encode()
    if body is not None or method == "POST":
        lines.append(f"Content-Length: {len(data)}")
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


async def read_answer(reader: asyncio.StreamReader) -> tuple[int, list[str], str]:
    """An HTTP/1.1 answer's status, its Set-Cookie values and its body (by length, or chunked)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = [line.split(":", 1) for line in lines[1:] if ":" in line]
    cookies = [value.strip() for name, value in headers if name.lower() == "set-cookie"]
    fields = {name.lower(): value.strip() for name, value in headers}
    if "content-length" in fields:
        body = await reader.readexactly(int(fields["content-length"]))
    elif fields.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            body += (await reader.readexactly(size + 2))[:-2]
        await reader.readuntil(b"\r\n")
    else:
        raise ValueError("an answer with neither Content-Length nor chunks")
    return status, cookies, body.decode()


def async_process(port: int, players: list[int], starts: list[float], moves: Any, out: Any) -> None:
    tally = Tally()
    # at most this many players at once, as the thread client's pool allows (so a slow server delays
    # players' arrivals the same way in both clients: `late_start` says by how much)
    gate_size = THREADS_PER_PROCESS * 2

    async def main() -> None:
        gate = asyncio.Semaphore(gate_size)

        async def one(number: int, start: float) -> None:
            await asyncio.sleep(max(start - time.time(), 0))
            async with gate:
                late = max(time.time() - start, 0)
                tally.add(await play_async(port, number, moves), late)

        await asyncio.gather(*(one(n, s) for n, s in zip(players, starts, strict=True)))

    asyncio.run(main())
    out.put(tally.finish())


class Kill:
    """One app host killed at once (SIGKILL to its gunicorn's session: master and workers, as a
    machine that dies) `at` seconds into a rush; `cpu` keeps its CPU seconds from just before."""

    def __init__(self, at: float, host: str, process: subprocess.Popen[bytes], groups: dict[str, int | None]):
        self.at = at
        self.host = host
        self.process = process
        self.groups = groups
        self.cpu: dict[str, float] = {}
        self.when = 0.0

    def __call__(self) -> None:
        self.cpu = cpu_seconds(self.groups)
        self.when = time.time()
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def rush(
    port: int,
    players: int,
    seconds: float,
    moves: list[morning.Move],
    offset: int,
    client: str,
    kill: Kill | None = None,
) -> dict[str, Any]:
    begin = time.time() + 2
    timer = threading.Timer(begin + kill.at - time.time(), kill) if kill is not None else None
    if timer is not None:
        timer.start()
    starts = [begin + seconds * n / players for n in range(players)]
    numbers = list(range(offset, offset + players))
    out: Any = multiprocessing.Queue()
    if client == "threads":
        processes = [
            multiprocessing.Process(
                target=threads_process, args=(port, numbers[n::2], starts[n::2], moves, out)
            )
            for n in range(2)
        ]
    else:
        processes = [multiprocessing.Process(target=async_process, args=(port, numbers, starts, moves, out))]
    for process in processes:
        process.start()
    times: list[float] = []
    lates: list[float] = []
    errors: list[tuple[str, float]] = []
    finished = 0
    client_cpu = 0.0
    for _ in processes:
        found, failed, late, ended, cpu = out.get(timeout=3600)
        times += found
        errors += failed
        lates += late
        finished += ended
        client_cpu += cpu
    for process in processes:
        process.join()
    if timer is not None:
        timer.join()
    times.sort()
    lates.sort()
    killed = {}
    if kill is not None:
        # when each error came, from the kill: only requests in flight at that moment should fail
        after = sorted(at - kill.when for _, at in errors)
        killed = {
            "killed_host": kill.host,
            "killed_at_s": round(kill.when - begin, 1),
            "errors_from_kill_s": [round(after[0], 2), round(after[-1], 2)] if after else None,
        }
    return {
        "players": players,
        "within_s": seconds,
        "wall_s": round(time.time() - begin, 1),
        "requests": len(times),
        "requests_per_player": round(len(times) / players, 1),
        "p50_ms": round(statistics.median(times), 1) if times else None,
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 1) if times else None,
        "max_ms": round(times[-1], 1) if times else None,
        "errors": len(errors),
        "error_kinds": dict(collections.Counter(kind for kind, _ in errors)),
        **killed,
        "players_done": len(lates),
        "players_finished": finished,
        # how long players waited for the client (its threads, or its gate of as many) past their
        # moment of arrival: time no request time holds
        "late_start_p50_s": round(statistics.median(lates), 1) if lates else None,
        "late_start_max_s": round(lates[-1], 1) if lates else None,
        "client_cpu_s": round(client_cpu, 1),
    }


HOSTS_LOG = "hosts.log"
"""nginx's line for each request in the rush's folder: which app hosts it went to and what each said."""
HOSTS_FORMAT = '$msec $request_method $status "$upstream_addr" "$upstream_status" "$upstream_connect_time"'


def start_nginx(
    folder: Path, app_ports: list[int], limits: bool, keepalive: bool = True
) -> tuple[subprocess.Popen[bytes], int]:
    port = web.free_port()
    site = nginx_conf.deploy_site(app_ports, port, folder / "cache")
    site = site.replace(
        "upstream tavolo {", f"log_format tavolo_hosts '{HOSTS_FORMAT}';\nupstream tavolo {{", 1
    )
    site = site.replace(
        "    server_tokens off;\n",
        f"    server_tokens off;\n    access_log {folder / HOSTS_LOG} tavolo_hosts;\n",
        1,
    )
    if not limits:
        site = "\n".join(
            line for line in site.splitlines() if "limit_req " not in line and "limit_conn " not in line
        )
    if not keepalive:  # a new connection to gunicorn per request, for the A/B
        site = re.sub(r"\n\s*keepalive \d+;[^\n]*", "", site)
        site = site.replace('proxy_set_header Connection "";', "")
    # the page as a file, for nginx's own rate beside ours
    site = site.replace(
        "    location / {", f"    location = /page.html {{ root {folder}; }}\n    location / {{", 1
    )
    return nginx_conf.start(folder, site, connections=4096), port


def process_tree() -> dict[int, tuple[int, list[str], float]]:
    """Every process now (Linux /proc): its parent, its command line and the CPU seconds (user and
    system) it and the children it has waited for used."""
    tick = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        # utime, stime, cutime, cstime: a child's time lands in its parent's once it is reaped
        found[int(entry.name)] = (int(fields[1]), command, sum(int(f) for f in fields[11:15]) / tick)
    return found


def postmaster(port: str) -> int | None:
    """The PostgreSQL server listening on `port` (as with-postgres.sh starts it: `-p PORT`)."""
    for pid, (_, command, _) in process_tree().items():
        if command[0].endswith("postgres") and any(
            a == "-p" and b == port for a, b in itertools.pairwise(command)
        ):
            return pid
    return None


def cpu_seconds(groups: dict[str, int | None]) -> dict[str, float]:
    """CPU seconds used so far by each process group (a process and all its descendants), and by
    the whole machine (every process, ours and other people's, from /proc/stat)."""
    tree = process_tree()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in tree.items():
        children.setdefault(parent, []).append(pid)
    seconds = {}
    for name, root in groups.items():
        total, todo = 0.0, [root] if root in tree else []
        while todo:
            pid = todo.pop()
            total += tree[pid][2]
            todo += children.get(pid, [])
        seconds[name] = total
    busy = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    # user, nice, system, irq, softirq, steal (not idle, not iowait)
    seconds["machine"] = sum(int(busy[i]) for i in (0, 1, 2, 5, 6, 7)) / os.sysconf("SC_CLK_TCK")
    return seconds


LOGGED = re.compile(r'([\d.]+) (\w+) (\d+) "([^"]*)" "([^"]*)" "([^"]*)"')


def by_host(log: Path, offset: int, names: dict[str, str]) -> dict[str, Any]:
    """What nginx's log says from `offset` on, per app host (`names`: its address to its name): the
    requests it answered, and the tries nginx gave up on there (the host dropped or refused the
    request) and sent to another host, or answered 502 itself: a POST it had sent is never sent
    again. `in_flight` are the tries the host had taken (a connection made); `refused` the ones it
    never saw."""
    hosts = {name: collections.Counter[str]() for name in names.values()}
    with log.open() as lines:
        lines.seek(offset)
        for line in lines:
            found = LOGGED.match(line)
            if found is None or found.group(4) in ("", "-"):
                continue  # nginx's own answer (a 429 of its limits, a static file)
            _, method, status, tried, said, connect = found.groups()
            tries = list(zip(tried.split(", "), said.split(", "), connect.split(", "), strict=False))
            for number, (address, answer, connected) in enumerate(tries):
                if address not in names:
                    continue
                host = hosts[names[address]]
                if number < len(tries) - 1:
                    host["in_flight" if connected != "-" else "refused"] += 1
                    host[f"{method} sent again"] += 1
                elif not status.startswith("2"):
                    host[f"{method} {status}"] += 1
                    host["in_flight" if connected != "-" else "refused"] += answer.startswith("502")
                else:
                    host["answered"] += 1
    return {name: dict(counts) for name, counts in hosts.items()}


NGINX_SAID = re.compile(r"\[(\w+)\] [\d#]+: \*\d+ ([^,]*?)(?: while [^,]*)?, client")


def nginx_said(log: Path, offset: int) -> dict[str, Any]:
    """nginx's error log from `offset` on: its messages counted (a dropped or refused connection to
    a host, in its words, without the times, clients and requests), and the first few whole."""
    if not log.exists():
        return {}
    with log.open() as lines:
        lines.seek(offset)
        said = lines.read().splitlines()
    found = (NGINX_SAID.search(line) for line in said)
    counted = collections.Counter(" ".join(match.groups()) for match in found if match)
    return {"counted": dict(counted), "first": said[:3]}


def resident_mb(groups: dict[str, int | None]) -> dict[str, float]:
    """The memory each process group holds now (resident, MB: a process and all its descendants;
    pages shared between them, as gunicorn's workers share their master's, counted in each)."""
    tree = process_tree()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in tree.items():
        children.setdefault(parent, []).append(pid)
    page = os.sysconf("SC_PAGE_SIZE")
    held = {}
    for name, root in groups.items():
        total, todo = 0, [root] if root in tree else []
        while todo:
            pid = todo.pop()
            with contextlib.suppress(OSError):  # gone meanwhile
                total += int((Path("/proc") / str(pid) / "statm").read_text().split()[1]) * page
            todo += children.get(pid, [])
        held[name] = round(total / 2**20, 1)
    return held


def redis_memory(port: int) -> dict[str, float]:
    """Redis's keys and the memory it uses for them (MB): the rate limits' windows, the kept answers."""
    client = redis.Redis(port=port)
    try:
        return {"keys": client.dbsize(), "used_mb": round(client.info("memory")["used_memory"] / 2**20, 1)}
    finally:
        client.close()


def wrk_rate(url: str, seconds: int) -> dict[str, float]:
    done = subprocess.run(
        ["wrk", "-t2", "-c32", f"-d{seconds}s", "-H", f"Host: {morning.HOST}", "--latency", url],
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


def start_host(
    args: argparse.Namespace, env: dict[str, str], app_root: Path
) -> tuple[subprocess.Popen[bytes], int]:
    """One app host: gunicorn on a port of its own, in a session of its own (so that a kill takes
    its master and workers at once)."""
    app_port = web.free_port()
    gunicorn = [str(ROOT / ".venv/bin/gunicorn"), "--bind", f"127.0.0.1:{app_port}"]
    gunicorn += ["--worker-class", args.worker_class, "--workers", str(args.workers)]
    gunicorn += ["--threads", str(args.threads), *nginx_conf.keep_alive()]
    gunicorn += ["--log-level", "error", "webapp:create_app()"]
    return subprocess.Popen(gunicorn, env=env, cwd=app_root, start_new_session=True), app_port


def attempts_kept(database: str, since: datetime, moves: int) -> dict[str, int]:
    """The rush's attempts as the database holds them (begun from `since`): how many, how many
    finished, and how many of those with every move the players made."""
    engine = create_engine(engine_url(database))
    query = text(
        "SELECT count(*), count(*) FILTER (WHERE status <> 'playing'), "
        "count(*) FILTER (WHERE status <> 'playing' AND moves = :moves) "
        "FROM attempt WHERE number = 1 AND started >= :since"
    )
    size = text("SELECT pg_total_relation_size('attempt') / greatest(count(*), 1) FROM attempt")
    with engine.connect() as connection:
        row = connection.execute(query, {"since": since, "moves": moves}).one()
        bytes_an_attempt = connection.execute(size).scalar_one()
    engine.dispose()
    return {
        "attempts_begun": row[0],
        "attempts_finished": row[1],
        "attempts_finished_with_every_move": row[2],
        # the table and its indexes over its rows: the disk a player's day takes
        "attempt_bytes_a_row": int(bytes_an_attempt),
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith("postgres"):
        raise OSError("DATABASE_URL must name a PostgreSQL: run under scripts/with-postgres.sh")
    folder = Path(tempfile.mkdtemp(prefix="tavolo-rush-"))
    app_root = args.app_root.resolve()
    redis_server, redis_port = flood.start_redis(folder)
    env = {
        **os.environ,
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        **flood.SECRETS,
        "TAVOLO_PROXIES": "1",
        "TAVOLO_LAUNCH_DATE": datetime.now(UTC).date().isoformat(),
        "PYTHONPATH": str(app_root),
    }
    env.pop("TAVOLO_RATE_LIMITS", None)
    started = [redis_server]  # stopped at the end, whatever happens
    try:
        flask = [str(ROOT / ".venv/bin/flask"), "--app", "webapp"]
        # the pool's one puzzle is today's: its solution is the moves every player makes
        pooled = flood.seed_pool(flask, env, app_root, folder)
        solution, rules = [list(meld) for meld in pooled.solution], pooled.position().rules
        # the app hosts, each a gunicorn of its own (as on machines of their own), on the one PostgreSQL
        # and the one Redis
        hosts = [start_host(args, env, app_root) for _ in range(args.hosts)]
        names = {f"127.0.0.1:{port}": f"host_{number}" for number, (_, port) in enumerate(hosts, 1)}
        apps = [app for app, _ in hosts]
        started += apps
        nginx, port = start_nginx(
            folder, [port for _, port in hosts], limits=True, keepalive=args.upstream_keepalive
        )
        started.append(nginx)
        results: dict[str, Any] = {
            "app_root": str(app_root),
            "cores": os.cpu_count(),
            "hosts": args.hosts,
            "gunicorn": f"{args.workers} {args.worker_class} workers x {args.threads} threads a host",
            "upstream_keepalive": args.upstream_keepalive,
            "players_play": "every card" if args.every_card else "the solution's steps",
            "client": args.client,
            "load_average_at_start": round(os.getloadavg()[0], 2),
        }
        for app, app_port in hosts:
            web.wait_for(f"http://127.0.0.1:{app_port}/help", {"Host": morning.HOST}, app)
        web.wait_for(f"http://127.0.0.1:{port}/help", {"Host": morning.HOST})
        # the moves, from the page a player is first shown (the same for every player)
        start_page = (
            urllib.request.urlopen(
                urllib.request.Request(f"http://127.0.0.1:{port}/puzzles/1", headers={"Host": morning.HOST})
            )
            .read()
            .decode()
        )
        plan = morning.every_card_plan if args.every_card else morning.steps_plan
        try:
            moves = plan(start_page, solution, rules)
        except ValueError as error:
            raise web.BenchError(str(error)) from None
        results["moves_a_player"] = len(moves)
        groups: dict[str, int | None] = {names[f"127.0.0.1:{p}"]: app.pid for app, p in hosts}
        groups |= {"postgresql": postmaster(database.rsplit(":", 1)[1].split("/")[0])}
        groups |= {"redis": redis_server.pid, "nginx": nginx.pid}
        kill = None
        if args.kill_host_at is not None:
            # the last host dies; the others carry on
            kill = Kill(args.kill_host_at, f"host_{args.hosts}", apps[-1], groups)
        results["rushes"] = []
        offset = 0
        for players in args.players:
            before = cpu_seconds(groups)
            logged = (folder / HOSTS_LOG).stat().st_size
            complained = (folder / "error.log").stat().st_size if (folder / "error.log").exists() else 0
            since = datetime.now(UTC)
            results["rushes"].append(rush(port, players, args.seconds, moves, offset, args.client, kill))
            after = cpu_seconds(groups)
            if kill is not None:
                # a killed host's processes are gone: its CPU as it was just before the kill
                after[kill.host] = kill.cpu[kill.host]
                del groups[kill.host]
                kill = None
            # CPU seconds by process group: unlike the times, other work on the machine hardly
            # moves them; "machine" is every process's, other people's too
            cpu = {f"{name}_cpu_s": round(after[name] - before[name], 1) for name in before}
            app_cpu = sum(after[name] - before[name] for name in names.values())
            figures = results["rushes"][-1]
            requests = max(figures["requests"], 1)
            figures |= cpu | {
                "app_cpu_s": round(app_cpu, 1),
                "app_cpu_ms_a_request": round(app_cpu * 1000 / requests, 2),
                "postgresql_cpu_ms_a_request": round(
                    (after["postgresql"] - before["postgresql"]) * 1000 / requests, 2
                ),
                "redis_cpu_ms_a_request": round((after["redis"] - before["redis"]) * 1000 / requests, 3),
                "by_host": by_host(folder / HOSTS_LOG, logged, names),
                "nginx_said": nginx_said(folder / "error.log", complained),
                **attempts_kept(database, since, len(moves)),
                "resident_mb": resident_mb(groups),
                "redis": redis_memory(redis_port),
                "load_average_now": round(os.getloadavg()[0], 2),
            }
            print(json.dumps(figures), file=sys.stderr, flush=True)  # each as it ends
            offset += players
        if not args.front_door:
            return results
        nginx.terminate()
        nginx.wait(timeout=30)
        alive = [app_port for app, app_port in hosts if app.poll() is None]
        nginx, port = start_nginx(folder, alive, limits=False)
        started.append(nginx)
        web.wait_for(f"http://127.0.0.1:{port}/help", {"Host": morning.HOST})
        page = urllib.request.urlopen(
            urllib.request.Request(f"http://127.0.0.1:{port}/", headers={"Host": morning.HOST})
        )
        (folder / "page.html").write_bytes(page.read())
        ours = wrk_rate(f"http://127.0.0.1:{port}/", 10)
        static = wrk_rate(f"http://127.0.0.1:{port}/page.html", 10)
        results["get_home_new_visitor"] = ours
        results["nginx_static_same_page"] = static
        results["ours_share_of_static"] = round(ours["requests_per_s"] / max(static["requests_per_s"], 1), 4)
        results["load_average_at_end"] = round(os.getloadavg()[0], 2)
    finally:
        web.stop(*(process for process in started if process.poll() is None))
        shutil.rmtree(folder, ignore_errors=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[500, 2000], help="rush sizes (500 2000)")
    parser.add_argument("--seconds", type=float, default=60, help="players arrive within this (60)")
    parser.add_argument("--app-root", type=Path, default=ROOT, help="the checkout to serve (this one)")
    parser.add_argument(
        "--every-card",
        action="store_true",
        help="players build every meld of the solution card by card, kept melds too (the first model)",
    )
    parser.add_argument(
        "--client",
        choices=("asyncio", "threads"),
        default="asyncio",
        help="one asyncio process (default) or the first client's 2 processes x 96 threads",
    )
    parser.add_argument(
        "--hosts", type=int, default=1, help="app hosts: gunicorns on ports of their own behind nginx (1)"
    )
    parser.add_argument(
        "--kill-host-at",
        type=float,
        metavar="SECONDS",
        help="kill the last host (SIGKILL, master and workers) this many seconds into the rush",
    )
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers a host (3, as the Procfile)")
    parser.add_argument("--threads", type=int, default=3, help="threads a worker (3, as the Procfile)")
    parser.add_argument("--worker-class", choices=("gthread", "sync"), default="gthread")
    parser.add_argument(
        "--no-upstream-keepalive",
        dest="upstream_keepalive",
        action="store_false",
        help="nginx opens a new connection to gunicorn per request",
    )
    parser.add_argument(
        "--no-front-door", dest="front_door", action="store_false", help="skip the GET / measurement"
    )
    args = parser.parse_args()
    if args.seconds <= 0 or any(not 1 <= players <= 100_000 for players in args.players):
        parser.error("--seconds must be positive and --players 1 to 100000")
    if not 1 <= args.workers <= 64 or not 1 <= args.threads <= 256:
        parser.error("--workers must be 1 to 64 and --threads 1 to 256")
    if not 1 <= args.hosts <= 8:
        parser.error("--hosts must be 1 to 8")
    if args.kill_host_at is not None and (
        args.hosts < 2 or len(args.players) != 1 or not 0 <= args.kill_host_at < args.seconds
    ):
        parser.error("--kill-host-at takes --hosts 2 or more, one --players and a moment within --seconds")
    if args.worker_class == "sync" and args.threads != 1:
        # gunicorn would quietly run gthread workers instead
        parser.error("--worker-class sync takes --threads 1")
    if not (args.app_root / "webapp" / "__init__.py").is_file():
        parser.error(f"--app-root {args.app_root} holds no webapp/")
    return web.report("rush.py", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())

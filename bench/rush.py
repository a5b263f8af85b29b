"""Midnight rush: the start of a new day played through the real stack.

    scripts/with-postgres.sh .venv/bin/python bench/rush.py [--players 500 2000] [--seconds 60]
        [--every-card] [--client asyncio|threads] [--workers 2] [--threads 4]
        [--worker-class gthread|sync] [--no-upstream-keepalive] [--no-front-door] [--app-root DIR]

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
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import http.client
import itertools
import json
import multiprocessing
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Generator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import flood  # bench/flood.py: the pool's one puzzle
import nginx_conf  # bench/nginx_conf.py: nginx in front, as deploy/nginx.conf has it
import web  # bench/web.py: free ports, wrk

from puzzles import Card, Rules, StepKind, steps_between

ROOT = Path(__file__).resolve().parent.parent
HOST = "tavolo.example"
CARD = re.compile(r'data-card="(\w+)" data-from="(\w+)" draggable="true"\s+aria-label="([^"(]+)')
PLACE = re.compile(r'data-card="(\w+)" data-from="(\w+)"')
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
THREADS_PER_PROCESS = 96


def address(number: int) -> str:
    return f"127.{10 + number // 60000}.{number // 250 % 240 + 1}.{number % 250 + 1}"


Move = tuple[str, str | None]
"""One step POST: the card's id, and a card already in the meld it joins (None: a new meld)."""


def label_of(token: str) -> str:
    """A solution card (`10H`) as the page's aria-label names it (`10♥`)."""
    return token[:-1] + SUITS[token[-1]]


def steps_plan(page: str, solution: list[list[str]], rules: Rules) -> list[Move]:
    """The moves of a player who plays the solution as the engine's plan does (`puzzles.steps_between`,
    what the hints and the solution's replay show): hand cards onto melds, and the table cards of
    the melds the solution breaks; a meld it keeps stays where it is."""
    table: dict[str, list[str]] = {}
    hand: dict[str, list[str]] = {}
    label_of_id: dict[str, str] = {}
    for card, where, label in CARD.findall(page):
        label_of_id[card] = label.strip()
        if where == "hand":
            hand.setdefault(label.strip(), []).append(card)
        else:
            table.setdefault(where, []).append(card)
    token_of = {label_of(token): token for meld in solution for token in meld}
    # the plan's melds as card ids: the table's first, in the page's order; new melds after them
    ids = [table[where] for where in sorted(table, key=int)]
    start = [[Card.parse(token_of[label_of_id[i]]) for i in meld] for meld in ids]
    moves: list[Move] = []
    for step in steps_between(start, [[Card.parse(token) for token in meld] for meld in solution], rules):
        if step.kind is StepKind.BREAK:
            continue
        if step.kind is StepKind.TAKE or step.target is None:
            raise web.BenchError(f"the solution's plan takes cards back into the hand: {step}")
        if step.new:
            ids.append([])
        target = ids[step.target]
        for card in step.cards:
            label = label_of(str(card))
            if step.source is None:
                chosen = hand[label].pop(0)
            else:
                chosen = next(i for i in ids[step.source] if label_of_id[i] == label)
                ids[step.source].remove(chosen)
            moves.append((chosen, target[0] if target else None))
            target.append(chosen)
    return moves


def every_card_plan(page: str, solution: list[list[str]], rules: Rules) -> list[Move]:
    """The moves of a player who builds every meld of the solution card by card on a new place, the
    melds the solution keeps too (`--every-card`, the rush's first player model); the rules are
    `steps_plan`'s, unread."""
    del rules
    ids: dict[str, list[str]] = {}
    for card, _, label in CARD.findall(page):
        ids.setdefault(label.strip(), []).append(card)
    moves: list[Move] = []
    for meld in solution:
        first = None
        for token in meld:
            choices = sorted(ids.get(label_of(token), []), key=lambda i: (i[0] != "t", i))
            if not choices:
                raise web.BenchError(f"the page shows no {label_of(token)} left for the solution")
            chosen = choices[0]
            ids[label_of(token)].remove(chosen)
            moves.append((chosen, first))
            first = first or chosen
    return moves


Request = tuple[str, str, str | None]


class Player:
    """One player's morning, written once for both clients: the page, the plan's moves (each a step
    POST with its step check), the end of the turn. `script()` yields each request and is sent the
    answer's text (None for an error, which ends the morning); `headers` are the ones to send."""

    def __init__(self, moves: list[Move]) -> None:
        self.moves = moves
        self.headers = {"Host": HOST}

    def took(self, cookies: list[str]) -> None:
        for value in cookies:
            self.headers["Cookie"] = value.split(";", 1)[0]

    def script(self) -> Generator[Request, str | None, None]:
        page = yield ("GET", "/puzzles/1", None)
        if page is None:
            return
        token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
        self.headers |= {"X-CSRFToken": token.group(1) if token else "", "HX-Request": "true"}
        self.headers["Content-Type"] = "application/x-www-form-urlencoded"
        for card, beside in self.moves:
            target = "new"
            if beside is not None:
                found = re.search(f'data-card="{beside}" data-from="(\\w+)"', page)
                target = found.group(1) if found else "new"
            answer = yield ("POST", "/puzzles/1/move", f"card={card}&to={target}")
            if answer is None:
                return
            page = answer
        yield ("POST", "/puzzles/1/end", None)


def play_threaded(port: int, number: int, moves: list[Move]) -> tuple[list[float], list[str]]:
    """A player on http.client (`--client threads`, the rush's first client): the time of each
    request (ms) and the errors (what each was)."""
    times: list[float] = []
    errors: list[str] = []
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(address(number), 0))
    player = Player(moves)
    script = player.script()
    answer: str | None = None
    try:
        method, path, body = next(script)
        while True:
            started = time.perf_counter()
            try:
                link.request(method, path, body, player.headers)
                response = link.getresponse()
                text = response.read().decode()
            except OSError as error:
                errors.append(f"no answer ({type(error).__name__})")
                break
            times.append((time.perf_counter() - started) * 1000)
            player.took(response.headers.get_all("Set-Cookie") or [])
            answer = text if 200 <= response.status < 300 else None
            if answer is None:
                errors.append(f"{method} {path.rsplit('/', 1)[1]} {response.status}")
            method, path, body = script.send(answer)
    except StopIteration:
        pass
    link.close()
    return times, errors


def threads_process(port: int, players: list[int], starts: list[float], moves: Any, out: Any) -> None:
    lock = threading.Lock()
    tally = Tally()

    def one(number: int, start: float) -> None:
        late = max(time.time() - start, 0)
        time.sleep(max(start - time.time(), 0))
        found, failed = play_threaded(port, number, moves)
        with lock:
            tally.add(found, failed, late)

    with ThreadPoolExecutor(THREADS_PER_PROCESS) as pool:
        for number, start in zip(players, starts, strict=True):
            pool.submit(one, number, start)
    out.put(tally.finish())


class Tally:
    """A client process's figures: each request's time, the errors, each player's late start."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.errors: list[str] = []
        self.lates: list[float] = []

    def add(self, times: list[float], errors: list[str], late: float) -> None:
        self.times += times
        self.errors += errors
        self.lates.append(late)

    def finish(self) -> tuple[list[float], list[str], list[float], float]:
        """The figures, and the CPU seconds this process used (user and system)."""
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return self.times, self.errors, self.lates, usage.ru_utime + usage.ru_stime


async def play_async(port: int, number: int, moves: list[Move]) -> tuple[list[float], list[str]]:
    """A player on one asyncio stream: the same requests, bytes for bytes, as http.client sends."""
    times: list[float] = []
    errors: list[str] = []
    player = Player(moves)
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
                            "127.0.0.1", port, local_addr=(address(number), 0)
                        )
                    writer.write(request_bytes(method, path, body, player.headers))
                    status, cookies, text = await read_answer(reader)
            except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError) as error:
                errors.append(f"no answer ({type(error).__name__})")
                break
            times.append((time.perf_counter() - started) * 1000)
            player.took(cookies)
            answer = text if 200 <= status < 300 else None
            if answer is None:
                errors.append(f"{method} {path.rsplit('/', 1)[1]} {status}")
            method, path, body = script.send(answer)
    except StopIteration:
        pass
    finally:
        if writer is not None:
            writer.close()
    return times, errors


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
                found, failed = await play_async(port, number, moves)
                tally.add(found, failed, late)

        await asyncio.gather(*(one(n, s) for n, s in zip(players, starts, strict=True)))

    asyncio.run(main())
    out.put(tally.finish())


def rush(
    port: int, players: int, seconds: float, moves: list[Move], offset: int, client: str
) -> dict[str, Any]:
    begin = time.time() + 2
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
    errors: list[str] = []
    client_cpu = 0.0
    for _ in processes:
        found, failed, late, cpu = out.get(timeout=3600)
        times += found
        errors += failed
        lates += late
        client_cpu += cpu
    for process in processes:
        process.join()
    times.sort()
    lates.sort()
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
        "error_kinds": dict(collections.Counter(errors)),
        "players_done": len(lates),
        # how long players waited for the client (its threads, or its gate of as many) past their
        # moment of arrival: time no request time holds
        "late_start_p50_s": round(statistics.median(lates), 1) if lates else None,
        "late_start_max_s": round(lates[-1], 1) if lates else None,
        "client_cpu_s": round(client_cpu, 1),
    }


def start_nginx(
    folder: Path, app_port: int, limits: bool, keepalive: bool = True
) -> tuple[subprocess.Popen[bytes], int]:
    port = web.free_port()
    site = nginx_conf.deploy_site(app_port, port, folder / "cache")
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
    pooled = flood.seed_pool(flask, env, app_root, folder)
    solution, rules = [list(meld) for meld in pooled.solution], pooled.position().rules
    app_port = web.free_port()
    gunicorn = [str(ROOT / ".venv/bin/gunicorn"), "--bind", f"127.0.0.1:{app_port}"]
    gunicorn += ["--worker-class", args.worker_class, "--workers", str(args.workers)]
    gunicorn += ["--threads", str(args.threads), "--log-level", "error", "webapp:create_app()"]
    app = subprocess.Popen(gunicorn, env=env, cwd=app_root)
    nginx, port = start_nginx(folder, app_port, limits=True, keepalive=args.upstream_keepalive)
    results: dict[str, Any] = {
        "app_root": str(app_root),
        "cores": os.cpu_count(),
        "gunicorn": f"{args.workers} {args.worker_class} workers x {args.threads} threads",
        "upstream_keepalive": args.upstream_keepalive,
        "players_play": "every card" if args.every_card else "the solution's steps",
        "client": args.client,
        "load_average_at_start": round(os.getloadavg()[0], 2),
    }
    try:
        web.wait_for(f"http://127.0.0.1:{port}/help", {"Host": HOST})
        # the moves, from the page a player is first shown (the same for every player)
        start_page = (
            urllib.request.urlopen(
                urllib.request.Request(f"http://127.0.0.1:{port}/puzzles/1", headers={"Host": HOST})
            )
            .read()
            .decode()
        )
        moves = (every_card_plan if args.every_card else steps_plan)(start_page, solution, rules)
        results["moves_a_player"] = len(moves)
        groups = {"app": app.pid, "postgresql": postmaster(database.rsplit(":", 1)[1].split("/")[0])}
        groups |= {"redis": redis.pid, "nginx": nginx.pid}
        results["rushes"] = []
        offset = 0
        for players in args.players:
            before = cpu_seconds(groups)
            results["rushes"].append(rush(port, players, args.seconds, moves, offset, args.client))
            after = cpu_seconds(groups)
            # CPU seconds by process group: unlike the times, other work on the machine hardly
            # moves them; "machine" is every process's, other people's too
            cpu = {f"{name}_cpu_s": round(after[name] - before[name], 1) for name in before}
            results["rushes"][-1] |= cpu | {"load_average_now": round(os.getloadavg()[0], 2)}
            print(json.dumps(results["rushes"][-1]), file=sys.stderr, flush=True)  # each as it ends
            offset += players
        if not args.front_door:
            return results
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
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (3, as the Procfile)")
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
    if args.worker_class == "sync" and args.threads != 1:
        # gunicorn would quietly run gthread workers instead
        parser.error("--worker-class sync takes --threads 1")
    if not (args.app_root / "webapp" / "__init__.py").is_file():
        parser.error(f"--app-root {args.app_root} holds no webapp/")
    return web.report("rush.py", lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())

"""Two app hosts, as docs/DEPLOYING.md adds them: two gunicorns on ports of their own (as on machines
of their own) in deploy/nginx.conf's upstream, on one PostgreSQL and one Redis. A limit counts across
both hosts, an analysis solved on one is served by the other from Redis, 200 players who play today's
puzzle through nginx, spread over both hosts, each leave their finished attempt in the database with
every move, a move sent again to the other host (with its id) is applied once, and once a host is
dead the other answers everything, POSTs too.

PostgreSQL only: hosts on machines of their own share no SQLite file."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from sqlalchemy import create_engine, select

import generator
from bench import morning, nginx_conf
from tests.ports import free_port
from tests.waiting import wait_until
from tests.webapp.redis_server import RedisServer
from tests.webapp.test_front_door import production_env, publish_today, wait_for
from webapp import models
from webapp.db import engine_url
from webapp.settings import PROJECT_ROOT

pytestmark = pytest.mark.slow  # runs Redis, nginx and two gunicorns as programs

HOST = morning.HOST
PLAYERS = 200
CHECKS_A_DAY = 10
"""The hosts' check limit for the test (the site's is a minute's): a window the test cannot outlast."""

GUNICORN_CONF = f"""
# the one setting the test changes, in each worker's app once it is built: the check API's limit
def post_worker_init(worker):
    worker.wsgi.config["CHECK_RATE_LIMIT"] = "{CHECKS_A_DAY} per day"
"""


@dataclass
class Hosts:
    """The two app hosts (`apps`, their `ports`), nginx's port in front of both, and the Redis."""

    apps: list[subprocess.Popen[bytes]]
    ports: list[int]
    front: int
    redis: RedisServer
    database_url: str
    logs: list[Path]


@pytest.fixture(scope="module")
def hosts(
    request: pytest.FixtureRequest, postgres_url: str | None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Hosts]:
    if postgres_url is None:
        pytest.skip("two hosts share a PostgreSQL: the PostgreSQL run (scripts/test-postgres.sh) runs this")
    if not Path(nginx_conf.NGINX).exists():
        pytest.skip("needs Debian's nginx (make test installs it)")
    # asked for only now: the SQLite run skips before it solves the known puzzle
    module_database_url: str = request.getfixturevalue("module_database_url")
    known_puzzle: generator.Puzzle = request.getfixturevalue("known_puzzle")
    folder = tmp_path_factory.mktemp("two-hosts")
    redis_server = RedisServer(folder)
    env = production_env(module_database_url, HOST) | {"REDIS_URL": redis_server.url}
    env.pop("TAVOLO_RATE_LIMITS", None)
    flask = [str(PROJECT_ROOT / ".venv/bin/flask"), "--app", "webapp", "db", "upgrade"]
    subprocess.run(flask, env=env, cwd=PROJECT_ROOT, check=True, capture_output=True, timeout=300)
    publish_today(module_database_url, known_puzzle)
    (folder / "gunicorn.conf.py").write_text(GUNICORN_CONF)
    apps, ports, logs = [], [], []
    for name in ("a", "b"):
        ports.append(free_port())
        logs.append(folder / f"{name}.log")
        gunicorn = [str(PROJECT_ROOT / ".venv/bin/gunicorn"), "--bind", f"127.0.0.1:{ports[-1]}"]
        gunicorn += ["--config", str(folder / "gunicorn.conf.py"), "--access-logfile", str(logs[-1])]
        gunicorn += [
            "--worker-class",
            "gthread",
            "--workers",
            "1",
            "--threads",
            "4",
            *nginx_conf.keep_alive(),
        ]
        gunicorn.append("webapp:create_app()")
        # a session of its own, so that a kill takes the master and its worker at once
        apps.append(subprocess.Popen(gunicorn, env=env, cwd=PROJECT_ROOT, start_new_session=True))
    front = free_port()
    nginx = nginx_conf.start(folder, nginx_conf.deploy_site(ports, front, folder / "cache"))
    try:
        for app, port in zip(apps, ports, strict=True):
            wait_for(port, app, "gunicorn")
        wait_for(front, nginx, "nginx")
        yield Hosts(apps, ports, front, redis_server, module_database_url, logs)
    finally:
        for process in (nginx, *apps):
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=60)
        redis_server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def post_json(port: int, path: str, body: object, address: str) -> tuple[int, object]:
    """A JSON POST straight to one host, from `address` as nginx would name it (X-Forwarded-For)."""
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    headers = {"Host": HOST, "Content-Type": "application/json", "X-Forwarded-For": address}
    link.request("POST", path, json.dumps(body), headers)
    response = link.getresponse()
    text = response.read()
    link.close()
    return response.status, json.loads(text) if response.status == 200 else None


def test_a_limit_counts_across_both_hosts(hosts: Hosts) -> None:
    first, second = hosts.ports

    def check(port: int, address: str = "203.0.113.7") -> int:
        return post_json(port, "/api/puzzles/1/check", {"table": []}, address)[0]

    # half the day's checks on each host: together they are the whole allowance
    answered = [check(port) for port in (first, second) for _ in range(CHECKS_A_DAY // 2)]
    assert answered == [200] * CHECKS_A_DAY
    assert check(first) == 429 and check(second) == 429
    # per client address: another one still has its own
    assert check(second, "203.0.113.8") == 200


def test_an_analysis_solved_on_one_host_is_served_by_the_other(hosts: Hosts) -> None:
    first, second = hosts.ports
    body = {"rules": "classic", "table": [["3S", "4S", "5S"], ["7H", "7D", "7C"]], "hand": ["6S", "7S", "KD"]}
    status, answer = post_json(first, "/api/solve", body, "198.51.100.1")
    assert status == 200 and isinstance(answer, dict) and answer["max_placed"] == 2
    store = redis.Redis.from_url(hosts.redis.url)
    kept = sorted(store.keys("tavolo:analyses:*"))
    assert kept  # the analysis and its settled part
    store.config_resetstat()
    # the same position, its melds in another order, from another client
    shuffled = {**body, "table": body["table"][::-1]}
    status, again = post_json(second, "/api/solve", shuffled, "198.51.100.2")
    assert status == 200 and isinstance(again, dict)
    assert again["max_placed"] == 2 and again["table"] == answer["table"]
    # the second host read the first one's answer and wrote none: it solved nothing
    calls = store.info("commandstats")
    assert calls.get("cmdstat_get", {}).get("calls", 0) >= 1
    assert "cmdstat_set" not in calls
    assert sorted(store.keys("tavolo:analyses:*")) == kept
    store.close()


def served(log: Path, path: str) -> int:
    """Requests for `path` a host's access log shows it answered: gunicorn writes each line once the
    answer has gone, so a client may have read it a moment before."""
    return sum(f'"POST {path} HTTP' in line for line in log.read_text().splitlines())


def solution_moves(hosts: Hosts, puzzle: generator.Puzzle) -> list[morning.Move]:
    """The moves of today's solution as the engine plans them (bench/rush.py's players'), read from
    the page a new player is shown."""
    request = urllib.request.Request(f"http://127.0.0.1:{hosts.front}/puzzles/1", headers={"Host": HOST})
    page = urllib.request.urlopen(request, timeout=120).read().decode()
    solution = [list(meld) for meld in puzzle.solution]
    return morning.steps_plan(page, solution, puzzle.position().rules)


def play(hosts: Hosts, numbers: range, moves: list[morning.Move]) -> None:
    """Players `numbers` each play the moves through nginx and end their turn, all answered."""
    with ThreadPoolExecutor(16) as pool:
        played = list(
            pool.map(lambda number: morning.play_threaded(hosts.front, number, moves, 120), numbers)
        )
    assert [errors for _, errors, _ in played if errors] == []
    assert all(finished for _, _, finished in played)


def test_two_hundred_players_on_two_hosts_lose_nothing(hosts: Hosts, known_puzzle: generator.Puzzle) -> None:
    moves = solution_moves(hosts, known_puzzle)
    assert len(moves) >= len(known_puzzle.laid)
    play(hosts, range(PLAYERS), moves)
    # both hosts played: nginx sent each its turn of the requests
    wait_until(
        lambda: sum(served(log, "/puzzles/1/end") for log in hosts.logs) == PLAYERS,
        "the hosts' logs did not show every end of turn",
    )
    assert min(served(log, "/puzzles/1/end") for log in hosts.logs) > 0
    assert min(served(log, "/puzzles/1/move") for log in hosts.logs) > 0
    engine = create_engine(engine_url(hosts.database_url))
    attempt = models.PlayerAttempt
    with engine.connect() as connection:
        rows = connection.execute(
            select(attempt.player_id, attempt.status, attempt.moves, attempt.placed, attempt.history).where(
                attempt.number == 1
            )
        ).all()
    engine.dispose()
    assert len(rows) == PLAYERS and len({row.player_id for row in rows}) == PLAYERS
    for row in rows:
        assert row.status is models.Status.SOLVED, row
        assert row.moves == len(moves) and len(row.history) == len(moves)
        assert row.placed == len(known_puzzle.laid)


def test_a_post_sent_again_to_the_other_host_is_answered_alike_and_applied_once(
    hosts: Hosts, known_puzzle: generator.Puzzle
) -> None:
    # as nginx sends a move again to the second host when the first died with it: the same bytes
    player = morning.Player(solution_moves(hosts, known_puzzle))
    script = player.script()
    headers = {"X-Forwarded-For": "10.9.8.7"}

    def send(port: int, request: morning.Request) -> tuple[int, str]:
        link = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        method, path, body = request
        link.request(method, path, body, player.headers | headers)
        response = link.getresponse()
        text = response.read().decode()
        player.took(response.headers.get_all("Set-Cookie") or [])
        link.close()
        return response.status, text

    status, page = send(hosts.ports[0], next(script))
    assert status == 200
    move = script.send(page)
    first, again = send(hosts.ports[0], move), send(hosts.ports[1], move)
    assert first[0] == 200 and again == first
    engine = create_engine(engine_url(hosts.database_url))
    with engine.connect() as connection:
        rows = connection.execute(
            select(models.PlayerAttempt.moves).where(
                models.PlayerAttempt.last_request == player.headers["X-Tavolo-Request"]
            )
        ).all()
    engine.dispose()
    assert [row.moves for row in rows] == [1]


def held_connections(port: int) -> int:
    """Loopback TCP connections to `port` still open or half closed (ESTABLISHED, CLOSE_WAIT), from
    /proc/net/tcp: nginx's kept connections to a host."""
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        remote, state = fields[2], fields[3]
        count += int(remote.split(":")[1], 16) == port and state in ("01", "08")
    return count


def test_once_a_host_is_dead_the_other_answers_everything(
    hosts: Hosts, known_puzzle: generator.Puzzle
) -> None:
    # last in the module: the second host stays dead
    moves = solution_moves(hosts, known_puzzle)
    dead = hosts.apps[1]
    os.killpg(dead.pid, signal.SIGKILL)
    dead.wait(timeout=60)
    # nginx has seen its kept connections to the dead host close (a request sent on one before that
    # would be in flight at the kill, which the rush's `--kill-host-at` measures)
    wait_until(lambda: held_connections(hosts.ports[1]) == 0, "nginx kept its connections to the dead host")
    before = served(hosts.logs[0], "/puzzles/1/end")
    # every request finds the dead host refusing and goes to the other, POSTs too: none reached it
    play(hosts, range(PLAYERS, PLAYERS + 10), moves)
    wait_until(lambda: served(hosts.logs[0], "/puzzles/1/end") == before + 10, "the live host ended 10 turns")

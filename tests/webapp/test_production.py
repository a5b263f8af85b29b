"""Production settings, each checked: the databases' settings, SECRET_KEY, cookies, CSRF on every POST,
the security headers, the body limit, rate limits (shared through Redis, or per process), client
addresses behind a proxy, and the solution kept from anyone who has not finished."""

from __future__ import annotations

import html
import json
import multiprocessing
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import brotli  # Flask-Compress's own dependency
import pytest
from click.testing import CliRunner, Result
from flask import Flask
from flask.cli import cli as flask_cli
from flask.testing import FlaskClient
from sqlalchemy import event, make_url, text

import generator
from tests.ports import free_port
from tests.waiting import BACKSTOP, wait_until
from tests.webapp.conftest import TODAY, FrozenClock, Player, attempts, make_app, store
from webapp.db import database
from webapp.settings import PROJECT_ROOT

ROOT = PROJECT_ROOT
STATELESS_POSTS = {"api.check", "analyser.solve_api"}
"""POST endpoints that store nothing and read no cookie, for other programs: no CSRF token."""

# -- the databases


def test_sqlite_runs_in_wal_with_a_busy_timeout_and_writers_lock_up_front(
    app: Flask, database_url: str
) -> None:
    db = app.extensions["tavolo.db"]
    if not db.is_sqlite:
        pytest.skip("SQLite's settings")
    with db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    other = sqlite3.connect(make_url(database_url).database or "", timeout=0, isolation_level=None)

    def other_writer_gets_in() -> bool:
        try:
            other.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            return False
        other.execute("ROLLBACK")
        return True

    with db.reader() as session:
        session.execute(text("SELECT count(*) FROM player"))
        assert other_writer_gets_in()  # a reader takes no lock
    with db.write() as session:
        session.connection()
        assert not other_writer_gets_in()  # a writer holds the lock before its first statement
    assert other_writer_gets_in()
    other.close()


WRITES = ("UPDATE", "INSERT", "BEGIN IMMEDIATE")
"""How a statement that writes, or takes SQLite's write lock, begins."""


def test_a_writer_waits_for_another_instead_of_failing(app: Flask, player: Player, published: int) -> None:
    """A long write transaction elsewhere makes a move wait, never fail with "database is locked"."""
    player.move(TODAY, "h0", "new")
    db = app.extensions["tavolo.db"]
    mover = threading.current_thread()  # the test client runs the move in this thread
    holding, move_writes, moved = threading.Event(), threading.Event(), threading.Event()
    waited: list[bool] = []

    def note_the_moves_write(connection: Any, cursor: Any, statement: str, *rest: Any) -> None:
        if threading.current_thread() is mover and statement.lstrip().upper().startswith(WRITES):
            move_writes.set()

    def move_waits_on_a_lock() -> bool:
        with db.autocommit() as connection:
            waiting = (
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            return bool(connection.execute(text(waiting)).scalar())

    def hold_the_lock() -> None:
        # held until the move has sent its write, so that the move comes during the hold however
        # slow the machine. PostgreSQL shows the move waiting on the lock (the attempt's row);
        # SQLite does not (its busy wait is inside the driver, which lets this thread run again
        # before the statement starts), so there the hold goes on a while past the write: a while,
        # not a measure
        with app.app_context(), database().write() as session:
            session.execute(text("UPDATE attempt SET moves = moves"))
            holding.set()
            move_writes.wait(BACKSTOP)
            if db.is_sqlite:
                time.sleep(0.5)
            else:
                wait_until(lambda: move_waits_on_a_lock() or moved.is_set(), "the move waits or ends")
                waited.append(not moved.is_set())

    event.listen(db.engine, "before_cursor_execute", note_the_moves_write)
    other = threading.Thread(target=hold_the_lock)
    other.start()
    try:
        assert holding.wait(BACKSTOP), "the other writer never took the lock"
        response = player.move(TODAY, "h1", "new")
    finally:
        moved.set()
        event.remove(db.engine, "before_cursor_execute", note_the_moves_write)
        other.join()
    assert move_writes.is_set(), "the move wrote nothing while the other writer held the lock"
    assert db.is_sqlite or waited == [True], "the move never waited on the other writer's lock"
    assert response.status_code == 200
    assert attempts(app)[0][3] == 2


def test_postgresql_moves_commit_without_waiting_for_the_disk(app: Flask) -> None:
    db = app.extensions["tavolo.db"]
    if db.is_sqlite:
        pytest.skip("PostgreSQL's settings")
    setting = text("SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'")
    with db.autocommit() as connection:
        assert tuple(connection.execute(setting).one()) == ("off", "client")  # set as it connects
    with db.write() as session:  # every other write waits for the disk
        assert session.execute(setting).one().setting == "on"
    with db.autocommit() as connection:  # and leaves the connection as it found it
        assert connection.execute(setting).one().setting == "off"


# -- SECRET_KEY and cookies

KEPT_OUT = {"SECRET_KEY", "TAVOLO_DAILY_SECRET"}
"""Variables the machine running the tests may set, which each case here chooses for itself."""


def flask_command(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`flask` as a program: a Python of its own, as the platform starts it."""
    environment = {key: value for key, value in os.environ.items() if key not in KEPT_OUT}
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "webapp", *args],
        env={**environment, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def flask_in_process(env: dict[str, str], *args: str) -> Result:
    """The same `flask` command (`python -m flask` runs `flask.cli.main`, which is `cli.main()`)
    in this process: its app factory, its exit status and its words are the program's, without
    the few seconds of CPU that starting Python and importing the project again take. The
    program's own start is proven once per behaviour, by `flask_command`."""
    environment: dict[str, str | None] = {key: None for key in KEPT_OUT}
    arguments = ["--app", "webapp", *args]
    return CliRunner().invoke(flask_cli, arguments, env={**environment, **env}, prog_name="flask")


LONG_KEY = "9f2c71d4e8a05b3f6c19e2d7a4b8f05c3e61d9a27b4c8e0f5a13d6b92e7c4f08"
LONG_DAILY = "e41b7c0a9d35f826c7e04a1b9f3d62c85a7e0f49b13c6d28e5f7a0b4c91d36e2"


@pytest.mark.slow  # runs flask as a program
def test_production_refuses_to_start_without_a_secret_key(tmp_path: Path) -> None:
    env = {"TAVOLO_ENV": "production", "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}"}
    refused = flask_in_process(env, "routes")
    assert refused.exit_code == 2, refused.output
    assert "SECRET_KEY is not set: production refuses to start without one" in refused.stderr
    # a short key's refusal is the same path (tests/webapp/test_settings.py checks its words)
    refused = flask_in_process({**env, "SECRET_KEY": LONG_KEY}, "routes")
    assert refused.exit_code == 2, refused.output
    assert "TAVOLO_DAILY_SECRET is not set: production refuses to start without one" in refused.stderr
    env |= {"SECRET_KEY": LONG_KEY, "TAVOLO_DAILY_SECRET": LONG_DAILY, "TAVOLO_ENV": "Production"}
    refused = flask_in_process(env, "routes")
    assert refused.exit_code == 2, refused.output
    assert "TAVOLO_BASE_URL is not set: production refuses to start without one" in refused.stderr
    # and with everything set, the program itself starts
    started = flask_command({**env, "TAVOLO_BASE_URL": "https://tavolo.example"}, "routes")
    assert started.returncode == 0, started.stderr
    assert "/puzzles/<int:number>/move" in started.stdout


REFUSED_SETTINGS = [
    ({"TAVOLO_ENV": "Prod"}, "TAVOLO_ENV 'Prod' is not one of"),
    ({"TAVOLO_ENV": "production", "SECRET_KEY": " " * 40}, "SECRET_KEY is 0 characters long"),
    ({"TAVOLO_ENV": "PRODUCTION", "SECRET_KEY": LONG_KEY}, "TAVOLO_DAILY_SECRET is not set"),
]


@pytest.mark.parametrize(("env", "variable"), REFUSED_SETTINGS)
def test_a_refused_setting_is_one_line_and_exit_2(tmp_path: Path, env: dict[str, str], variable: str) -> None:
    # the hole found: a refused setting was a 42-line traceback and exit 1, its cause on the last line
    database = tmp_path / "x.sqlite3"
    refused = flask_in_process({**env, "DATABASE_URL": f"sqlite:///{database}"}, "db", "upgrade")
    assert refused.exit_code == 2, refused.output
    assert len(refused.stderr.strip().splitlines()) == 1 and variable in refused.stderr, refused.stderr
    assert not database.exists(), "a refused start touched the database"


@pytest.mark.slow  # runs flask as a program
def test_a_refused_setting_is_one_line_and_exit_2_from_the_program(tmp_path: Path) -> None:
    env, variable = REFUSED_SETTINGS[0]
    refused = flask_command({**env, "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}"}, "db", "upgrade")
    assert refused.returncode == 2, refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and variable in refused.stderr, refused.stderr


def production_app(database_url: str, clock: FrozenClock) -> Flask:
    from webapp import settings

    environ = {
        "TAVOLO_ENV": "PRODUCTION",  # read in any case
        "TAVOLO_BASE_URL": "https://localhost",
        "SECRET_KEY": LONG_KEY,
        "TAVOLO_DAILY_SECRET": LONG_DAILY,
    }
    return make_app(database_url, clock, RATELIMIT_ENABLED=True, **settings.from_environment(environ))


def test_production_cookies_are_secure_httponly_and_lax(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    app = production_app(database_url, clock)
    store(app, known_puzzle, TODAY)
    client = app.test_client()
    player = Player(client)
    response = player.move(TODAY, "h0", "new")
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("tavolo=")
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Expires=" in cookie  # long-lived: the player's record follows the cookie
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")


# -- CSRF


def post_rules(app: Flask) -> list[tuple[str, str]]:
    """Every POST endpoint with a URL that reaches it (the check runs before the view)."""
    rules = []
    for rule in app.url_map.iter_rules():
        if "POST" in (rule.methods or set()):
            values = {name: 7 if name in {"number", "run_id", "group_id"} else "x" for name in rule.arguments}
            rules.append((rule.endpoint, rule.build(values)[1]))  # type: ignore[index]
    return rules


def test_every_post_but_the_stateless_apis_needs_the_csrf_token(app: Flask, published: int) -> None:
    client = app.test_client()
    client.get("/")
    rules = post_rules(app)
    assert {
        "daily.move",
        "daily.end_turn",
        "archive.move",
        "practice.move",
        "review.move",
        "players.adopt",
        "rush.start",
        "rush.move",
        "streak.skip",
        "friends.make_table",
        "friends.join",
        "friends.leave",
        "friends.revoke",
    } <= {endpoint for endpoint, _ in rules}
    for endpoint, path in rules:
        if endpoint in STATELESS_POSTS:
            continue
        for headers in ({}, {"X-CSRFToken": "forged"}, {"X-CSRFToken": "forged", "HX-Request": "true"}):
            response = client.post(path, data={"card": "h0", "to": "new", "code": "x"}, headers=headers)
            assert response.status_code == 400, (endpoint, response.status_code)
            assert "CSRF" in html.unescape(response.get_data(as_text=True)), endpoint
    assert attempts(app) == []


def test_the_stateless_apis_set_no_cookie(app: Flask, client: FlaskClient, published: int) -> None:
    for endpoint, path in post_rules(app):
        if endpoint in STATELESS_POSTS:
            response = client.post(path, json={"table": []})
            assert response.status_code < 500
            assert "Set-Cookie" not in response.headers, endpoint


def test_htmx_sends_the_token_in_a_header_that_the_server_takes(app: Flask, published: int) -> None:
    script = (ROOT / "webapp/static/play.js").read_text()
    assert re.search(r'htmx:configRequest[\s\S]{0,200}headers\["X-CSRFToken"\]', script)
    client = app.test_client()
    page = client.get("/").get_data(as_text=True)
    assert '<meta name="csrf-token" content=""' in page  # no session yet: the script asks for a token
    assert re.search(r"htmx:confirm[\s\S]{0,300}tokenFirst\(\)", script)
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', client.get("/").get_data(as_text=True))
    assert token is None
    token = re.search(r'"token":\s*"([^"]+)"', client.get("/token").get_data(as_text=True))
    assert token is not None
    moved = client.post(
        f"/puzzles/{TODAY}/move",
        data={"card": "h0", "to": "new"},
        headers={"X-CSRFToken": token.group(1), "HX-Request": "true"},
    )
    assert moved.status_code == 200


# -- headers and pages


def pages(app: Flask) -> list[str]:
    """Every page a GET reaches without arguments, and the puzzle pages."""
    paths = [
        rule.rule
        for rule in app.url_map.iter_rules()
        if "GET" in (rule.methods or set()) and not rule.arguments and not rule.rule.startswith("/api/")
    ]
    return [*paths, f"/puzzles/{TODAY}", f"/archive/{TODAY - 1}", "/analyse?table=3S+4S+5S&hand=6S"]


def test_every_response_carries_the_security_headers(app: Flask, client: FlaskClient, published: int) -> None:
    player = Player(client)
    responses = {
        "page": client.get("/"),
        "fragment": player.move(TODAY, "h0", "new"),
        "api": client.get("/api/daily"),
        "not found": client.get("/nowhere"),
        "refusal": player.move(TODAY, "h0", "hand", "3"),
        "static": client.get("/static/tavolo.css"),
        "vendored": client.get("/vendor/htmx.min.js"),
    }
    for name, response in responses.items():
        policy = response.headers.get("Content-Security-Policy", "")
        assert policy.startswith("default-src 'self'"), name
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy, name
        assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, name
        assert response.headers["X-Content-Type-Options"] == "nosniff", name
        assert response.headers["X-Frame-Options"] == "DENY", name
        assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin", name
        assert "Strict-Transport-Security" not in response.headers, "HSTS only behind HTTPS"


def test_no_page_has_inline_script_style_or_handlers(app: Flask, client: FlaskClient, published: int) -> None:
    """With `default-src 'self'`, a browser would refuse any of them: each page must need none."""
    checked = 0
    for path in pages(app):
        response = client.get(path)
        if response.status_code != 200 or response.mimetype != "text/html":
            continue
        page = response.get_data(as_text=True)
        assert re.search(r"<script(?![^>]*\ssrc=)", page) is None, path
        assert re.search(r"\sstyle=", page) is None and "<style" not in page, path
        assert re.search(r"\son[a-z]+=", page) is None, path
        assert "javascript:" not in page, path
        checked += 1
    assert checked >= 5


def test_an_oversized_body_is_refused_with_a_message(app: Flask, player: Player, published: int) -> None:
    big = "x" * (app.config["MAX_CONTENT_LENGTH"] + 1)
    for htmx in (True, False):
        response = player.post(f"/puzzles/{TODAY}/move", htmx=htmx, card="h0", to="new", padding=big)
        assert response.status_code == 413
        assert "too large: at most 32 KiB" in response.get_data(as_text=True)
    api = player.client.post(
        f"/api/puzzles/{TODAY}/check", data=big.encode(), content_type="application/json"
    )
    assert api.status_code == 413 and api.get_json()["error"]
    assert attempts(app) == []


# -- rate limits


@pytest.fixture
def limited_app(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[Flask]:
    app = make_app(
        database_url,
        clock,
        RATELIMIT_ENABLED=True,
        STEP_RATE_LIMIT="3 per minute",
        CHECK_RATE_LIMIT="3 per minute",
        # solves are charged in solver seconds, here at least 1 s each: the tests' frozen clock times
        # every solve at 0 s, so each costs exactly that
        SOLVE_SECONDS_LIMIT="3 per minute",
        SOLVE_LEAST_CHARGE=1.0,
        TRANSFER_RATE_LIMIT="3 per minute",
    )
    store(app, known_puzzle, TODAY)
    yield app
    with app.app_context():
        database().dispose()


def limited_posts(player: Player) -> dict[str, Any]:
    """One request of each rate-limited kind: a step, a check, a solve, a transfer code."""
    client = player.client
    hands = iter(["6S", "2S", "7S", "AS", "8S"])  # a new position each time: a kept answer is free
    return {
        "step": lambda: player.move(TODAY, "h0", "new"),
        "check": lambda: client.post(f"/api/puzzles/{TODAY}/check", json={"table": []}),
        "solve": lambda: client.post(
            "/api/solve", json={"rules": "classic", "table": [["3S", "4S", "5S"]], "hand": [next(hands)]}
        ),
        "transfer": lambda: player.post("/stats/adopt", code="ABCD-EFGH"),
        "transfer code": lambda: player.post("/stats/code", htmx=False),
    }


def test_steps_checks_solves_and_transfer_codes_are_rate_limited(limited_app: Flask) -> None:
    player = Player(limited_app.test_client())
    for kind, send in limited_posts(player).items():
        answers = [send() for _ in range(4)]
        assert all(answer.status_code != 429 for answer in answers[:3]), kind
        refused = answers[3]
        assert refused.status_code == 429, kind
        message = html.unescape(refused.get_data(as_text=True))
        limit = "3 solver seconds per minute" if kind == "solve" else "3 per minute"
        assert "Too many requests" in message and limit in message, kind
        assert 0 <= int(refused.headers["Retry-After"]) <= 60, kind
        # no X-RateLimit-* headers: reading the window for them cost a step two more calls to Redis
        assert not any("X-RateLimit-Remaining" in answer.headers for answer in answers), kind


@pytest.mark.parametrize(
    ("language", "limit", "solver_limit"),
    [
        ("de", "höchstens 3 pro Minute", "höchstens 3 Sekunden Rechenzeit pro Minute"),
        ("pl", "najwyżej 3 na minutę", "najwyżej 3 sekundy pracy solvera na minutę"),
    ],
)
def test_a_rate_limit_is_named_in_the_players_language(
    limited_app: Flask, language: str, limit: str, solver_limit: str
) -> None:
    # limits' own text ("3 per 1 minute") is English whatever the page's language
    player = Player(limited_app.test_client())
    player.client.set_cookie("tavolo_language", language)
    for kind, send in limited_posts(player).items():
        refused = [send() for _ in range(4)][3]
        assert refused.status_code == 429, kind
        message = (
            refused.get_json()["error"] if refused.is_json else html.unescape(refused.get_data(as_text=True))
        )
        assert (solver_limit if kind == "solve" else limit) in message, (kind, message[-400:])
        assert "per 1 minute" not in message and "Too many" not in message, kind


def test_analyses_kept_or_not_and_hints_are_rate_limited_per_address(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    # the hole found: a kept /analyse answer cost 67 ms of rendering and nothing limited it
    app = make_app(
        database_url,
        clock,
        RATELIMIT_ENABLED=True,
        ANALYSE_RATE_LIMIT="3 per minute",
        HINT_RATE_LIMIT="2 per minute",
    )
    store(app, known_puzzle, TODAY)
    player = Player(app.test_client())
    client = player.client
    same = {"table": "3S 4S 5S", "hand": "6S"}  # the same position each time: kept after the first
    body = {"rules": "classic", "table": [["3S", "4S", "5S"]], "hand": ["6S"]}
    statuses = [client.get("/analyse", query_string=same).status_code for _ in range(2)]
    statuses.append(client.post("/api/solve", json=body).status_code)  # the page and the API share one
    refused = client.post("/api/solve", json=body)
    assert statuses == [200, 200, 200] and refused.status_code == 429
    assert "3 per minute" in refused.get_json()["error"] and refused.headers["Retry-After"].isdigit()
    page = client.get("/analyse", query_string=same)
    assert page.status_code == 429 and "Slow down" in page.get_data(as_text=True)
    # another address has its own count
    other = app.test_client().get("/analyse", query_string=same, environ_base={"REMOTE_ADDR": "192.0.2.9"})
    assert other.status_code == 200
    hints = [player.post(f"/puzzles/{TODAY}/hint").status_code for _ in range(3)]
    assert hints == [200, 200, 429]


def test_the_limits_count_per_client_address_behind_one_proxy(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    app = make_app(database_url, clock, RATELIMIT_ENABLED=True, CHECK_RATE_LIMIT="2 per minute", PROXIES=1)
    store(app, known_puzzle, TODAY)
    client = app.test_client()

    def check(forwarded_for: str) -> int:
        response = client.post(
            f"/api/puzzles/{TODAY}/check",
            json={"table": []},
            headers={"X-Forwarded-For": forwarded_for, "X-Forwarded-Proto": "https"},
        )
        return response.status_code

    assert [check("203.0.113.7") for _ in range(3)] == [200, 200, 429]
    assert check("198.51.100.9") == 200  # another client behind the same proxy has its own budget
    # a client cannot pose as another by adding addresses: only the proxy's own hop is trusted
    assert check("198.51.100.9, 203.0.113.7") == 429
    answer = client.get(
        "/api/daily", headers={"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}
    )
    assert answer.get_json()["url"].startswith("https://")


def test_without_a_proxy_forwarded_addresses_are_ignored(limited_app: Flask) -> None:
    client = limited_app.test_client()
    codes = [
        client.post(
            f"/api/puzzles/{TODAY}/check", json={"table": []}, headers={"X-Forwarded-For": f"192.0.2.{n}"}
        ).status_code
        for n in range(4)
    ]
    assert codes == [200, 200, 200, 429]


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A throw-away Redis server on a free loopback port."""
    server = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(server).exists():
        pytest.skip("needs Debian's redis-server (make test installs it)")
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
    )
    try:

        def listening() -> bool:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=30).close()
            except OSError:
                return False
            return True

        wait_until(listening, "redis-server did not listen")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


def checks_in_a_new_process(database_url: str, clock: FrozenClock, count: int, **config: Any) -> list[int]:
    """The statuses of `count` checks sent to an app in a process of its own, as a worker would be."""
    context = multiprocessing.get_context("fork")
    statuses = context.Queue()

    def worker() -> None:
        app = make_app(database_url, clock, RATELIMIT_ENABLED=True, CHECK_RATE_LIMIT="3 per minute", **config)
        client = app.test_client()
        statuses.put(
            [client.post(f"/api/puzzles/{TODAY}/check", json={"table": []}).status_code for _ in range(count)]
        )

    process = context.Process(target=worker)
    process.start()
    codes: list[int] = statuses.get(timeout=60)
    process.join(timeout=60)
    return codes


@pytest.mark.slow  # a Redis server and worker processes
def test_with_redis_every_worker_counts_against_the_same_limit(
    app: Flask, published: int, database_url: str, clock: FrozenClock, redis_url: str
) -> None:
    from webapp import settings

    config = settings.from_environment({"REDIS_URL": redis_url})
    assert checks_in_a_new_process(database_url, clock, 2, **config) == [200, 200]
    assert checks_in_a_new_process(database_url, clock, 2, **config) == [200, 429]


def test_without_redis_each_process_counts_alone(
    app: Flask, published: int, database_url: str, clock: FrozenClock
) -> None:
    assert checks_in_a_new_process(database_url, clock, 2) == [200, 200]
    assert checks_in_a_new_process(database_url, clock, 4) == [200, 200, 200, 429]


# -- the solution


def assert_no_solution(page: str, known: generator.Puzzle) -> None:
    """No solution table, and no meld of the solution that the table lacked, in any form."""
    assert "The solution" not in page and "table still" not in page
    assert '"solution"' not in page
    for meld in known.solution:
        if tuple(meld) not in {tuple(table_meld) for table_meld in known.table}:
            assert json.dumps(list(meld)) not in page
            assert " ".join(meld) not in page


def test_the_solution_never_reaches_a_player_who_has_not_finished(
    app: Flask, player: Player, published: int, known_puzzle: generator.Puzzle
) -> None:
    client = player.client
    seen = {
        "page": client.get("/").get_data(as_text=True),
        "by number": client.get(f"/puzzles/{TODAY}").get_data(as_text=True),
        "api daily": client.get("/api/daily").get_data(as_text=True),
        "api puzzle": client.get(f"/api/puzzles/{TODAY}").get_data(as_text=True),
        "move": player.move(TODAY, "h0", "new").get_data(as_text=True),
        "undo": player.post(f"/puzzles/{TODAY}/undo").get_data(as_text=True),
        "bad move": player.move(TODAY, "t0", "hand").get_data(as_text=True),
        "end refused": player.post(f"/puzzles/{TODAY}/end").get_data(as_text=True),
        "reset": player.post(f"/puzzles/{TODAY}/reset").get_data(as_text=True),
        "hint": player.post(f"/puzzles/{TODAY}/hint").get_data(as_text=True),
        "check": client.post(f"/api/puzzles/{TODAY}/check", json={"table": known_puzzle.table}).get_data(
            as_text=True
        ),
        "page after moves": client.get("/").get_data(as_text=True),
    }
    for name, page in seen.items():
        try:
            assert_no_solution(page, known_puzzle)
        except AssertionError:
            pytest.fail(f"the solution shows in the {name}")
    given_up = player.post(f"/puzzles/{TODAY}/give-up").get_data(as_text=True)
    assert "The solution" in given_up  # the same check sees it once the player has given up


BROWSER_ENCODINGS = {"Accept-Encoding": "gzip, deflate, br, zstd"}


@pytest.mark.parametrize("path", ["/static/tavolo.css", "/static/play.js", "/vendor/htmx.min.js"])
def test_the_files_a_page_loads_travel_compressed(client: FlaskClient, path: str) -> None:
    plain = client.get(path).get_data()
    packed = client.get(path, headers=BROWSER_ENCODINGS)
    assert packed.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in packed.headers["Vary"]
    body = packed.get_data()
    assert len(body) < len(plain) / 2 and brotli.decompress(body) == plain


def test_pages_never_travel_compressed(client: FlaskClient, published: int) -> None:
    """A page holds the CSRF token beside text taken from the URL: compressed, the token could be
    guessed from response sizes (BREACH)."""
    for path in ("/", "/analyse?rules=classic&table=3S+4S+5S&hand=6S", "/help"):
        answer = client.get(path, headers=BROWSER_ENCODINGS)
        assert answer.status_code == 200 and "Content-Encoding" not in answer.headers, path
        assert "csrf-token" in answer.get_data(as_text=True)


def test_absolute_urls_come_from_the_base_url_and_a_foreign_host_is_a_400(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    from webapp import settings

    environ = {"TAVOLO_BASE_URL": "https://tavolo.example/"}
    app = make_app(database_url, clock, **settings.from_environment(environ))
    store(app, known_puzzle, TODAY)
    client = app.test_client()
    site = {"base_url": "http://tavolo.example"}  # the proxy speaks plain HTTP to the app
    answer = client.get(f"/api/puzzles/{TODAY}", **site)
    assert answer.status_code == 200
    assert answer.get_json()["url"] == f"https://tavolo.example/puzzles/{TODAY}"
    page = client.get(f"/puzzles/{TODAY}", **site).get_data(as_text=True)
    assert f'<meta property="og:url" content="https://tavolo.example/puzzles/{TODAY}">' in page
    assert f"https://tavolo.example/puzzles/{TODAY}/preview.svg" in page
    for path in ("/", f"/api/puzzles/{TODAY}"):
        refused = client.get(path, base_url="http://evil.example")
        assert refused.status_code == 400, path
        assert "Host 'evil.example' is not trusted." in refused.get_data(as_text=True)

"""The Procfile: `release:` migrates, `web:` serves with gunicorn's threads, `clock:` publishes. Each
line is run here as a platform would run it, with the platform's variables."""

from __future__ import annotations

import os
import shlex
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect

from tests.ports import free_port
from tests.waiting import answers, wait_until
from webapp.db import engine_url
from webapp.settings import PROJECT_ROOT

PROCFILE = PROJECT_ROOT / "Procfile"
pytestmark = pytest.mark.slow  # each Procfile line runs as a program


def procfile() -> dict[str, str]:
    lines = [line for line in PROCFILE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    return {name.strip(): command.strip() for name, command in (line.split(":", 1) for line in lines)}


def platform_env(database_url: str, **extra: str) -> dict[str, str]:
    """What a Procfile platform sets: the variables docs/DEPLOYING.md lists, and the app's tools on PATH."""
    return {
        **os.environ,
        "PATH": f"{PROJECT_ROOT / '.venv/bin'}:{os.environ['PATH']}",
        "DATABASE_URL": database_url,
        "SECRET_KEY": "9f2c71d4e8a05b3f6c19e2d7a4b8f05c3e61d9a27b4c8e0f5a13d6b92e7c4f08",
        "TAVOLO_DAILY_SECRET": "e41b7c0a9d35f826c7e04a1b9f3d62c85a7e0f49b13c6d28e5f7a0b4c91d36e2",
        "TAVOLO_ENV": "production",
        "TAVOLO_BASE_URL": "http://127.0.0.1",
        "TAVOLO_PROXIES": "1",
        **extra,
    }


def test_the_procfile_runs_release_web_and_clock() -> None:
    lines = procfile()
    assert set(lines) == {"release", "web", "clock"}
    web = shlex.split(lines["web"])
    assert web[0] == "gunicorn" and web[-1] == "webapp:create_app()"
    assert "--worker-class" in web and web[web.index("--worker-class") + 1] == "gthread"
    assert "0.0.0.0:${PORT:-5000}" in lines["web"]
    assert shlex.split(lines["release"]) == ["flask", "--app", "webapp", "db", "upgrade"]
    assert shlex.split(lines["clock"]) == ["flask", "--app", "webapp", "clock"]


@pytest.fixture(scope="module")
def released(module_database_url: str) -> tuple[str, subprocess.CompletedProcess[str]]:
    """The Procfile's `release:` line run once on an empty database, which the `web:` test then
    serves: a platform runs them in that order, and migrating again cost the web test a `flask`
    start. Returns the database's URL and how the release went."""
    done = subprocess.run(
        procfile()["release"],
        shell=True,
        env=platform_env(module_database_url),
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return module_database_url, done


def test_release_migrates_an_empty_database(released: tuple[str, subprocess.CompletedProcess[str]]) -> None:
    database_url, done = released
    assert done.returncode == 0, done.stderr
    engine = create_engine(engine_url(database_url))
    try:
        tables = set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    assert {"puzzle", "daily", "player", "attempt", "alembic_version"} <= tables


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def web(released: tuple[str, subprocess.CompletedProcess[str]], port: int, tmp_path: Path) -> Iterator[str]:
    """The Procfile's `web:` line, running on the released database."""
    database_url, done = released
    assert done.returncode == 0, done.stderr
    env = platform_env(database_url, PORT=str(port), WEB_CONCURRENCY="2", GUNICORN_THREADS="2")
    log = (tmp_path / "web.log").open("w")
    server = subprocess.Popen(
        ["sh", "-c", f"exec {procfile()['web']}"], env=env, cwd=PROJECT_ROOT, stdout=log, stderr=log
    )
    try:
        answered = answers(f"http://127.0.0.1:{port}/help")

        def ready() -> bool:
            assert server.poll() is None, (tmp_path / "web.log").read_text()
            return answered()

        wait_until(ready, "the web process did not answer")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


def test_web_serves_the_site_with_two_threaded_workers(web: str) -> None:
    request = urllib.request.Request(
        web + "/help", headers={"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'")
        # behind the platform's HTTPS router: HSTS, and cookies only over HTTPS
        assert answer.headers["Strict-Transport-Security"].startswith("max-age=")
        cookie = answer.headers.get("Set-Cookie", "")
        assert not cookie or "Secure" in cookie
    # -ww: without a terminal ps cuts each line to 80 columns, and a long checkout path hides the port
    processes = subprocess.run(["ps", "-e", "-ww", "-o", "args="], capture_output=True, text=True).stdout
    assert processes.count(f"--bind 0.0.0.0:{web.rsplit(':', 1)[1]}") == 3  # the master and two workers


def test_the_clock_command_is_there(database_url: str) -> None:
    env = platform_env(database_url)
    helped = subprocess.run(
        f"{procfile()['clock']} --help", shell=True, env=env, cwd=PROJECT_ROOT, capture_output=True, text=True
    )
    assert helped.returncode == 0 and "--once" in helped.stdout

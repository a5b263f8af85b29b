"""Faults and races: concurrent moves on one attempt, publishers racing for a day, a stopped clock,
a worker killed in the middle of a move, a database away for a moment."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import socket
import sqlite3
import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, make_url, select

import generator
from tests.waiting import BACKSTOP
from tests.webapp.conftest import (
    DECOY_PAIRS,
    NOON,
    TODAY,
    FrozenClock,
    Player,
    attempts,
    make_app,
    store,
    unlike_known,
    variant,
)
from webapp import models
from webapp.db import database, engine_url
from webapp.schedule import daily
from webapp.schedule.scheduler import publish_job
from webapp.turn import store as attempt_store
from webapp.turn.attempts import move


def stored_attempt(app: Flask) -> attempt_store.Stored:
    """The only attempt, as a move reads it."""
    with app.app_context(), database().autocommit() as connection:
        stored = attempt_store.read(connection, attempts(app)[0][0], daily.daily(TODAY).puzzle)
        assert stored is not None
        return stored


def test_a_move_writes_only_onto_the_attempt_it_read(app: Flask, player: Player, published: int) -> None:
    player.move(TODAY, "h0", "new")
    stale = stored_attempt(app)
    assert player.move(TODAY, "h1", "new").status_code == 200
    move(stale.attempt, None, "h2", "new", None)
    with app.app_context(), database().autocommit() as connection:
        assert not attempt_store.write(connection, stale)
    # the stale write lost: the table holds h0 and h1, as the two moves that succeeded left it
    table = attempts(app)[0][1]
    assert ["h0"] in table and ["h1"] in table and ["h2"] not in table
    assert attempts(app)[0][3] == 2


def test_a_move_that_loses_a_race_is_redone_on_the_new_table(
    app: Flask, player: Player, published: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    player.move(TODAY, "h0", "new")
    other = Player(app.test_client())
    other.client.set_cookie("tavolo", player.client.get_cookie("tavolo").value)  # type: ignore[union-attr]
    other.token = player.token
    real_read = attempt_store.read
    raced: list[int] = []

    def read_then_race(*args: Any) -> attempt_store.Stored | None:
        stored = real_read(*args)
        if not raced:  # another window moves a card between this request's read and its write
            raced.append(0)
            raced[0] = other.move(TODAY, "h1", "new").status_code
        return stored

    monkeypatch.setattr(attempt_store, "read", read_then_race)
    response = player.move(TODAY, "h2", "new")
    assert raced == [200]
    assert response.status_code == 200
    table = attempts(app)[0][1]
    assert ["h0"] in table and ["h1"] in table and ["h2"] in table
    assert attempts(app)[0][3] == 3


def test_a_move_that_always_loses_the_race_is_refused_and_changes_nothing_of_its_own(
    app: Flask, player: Player, published: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    player.move(TODAY, "h0", "new")
    monkeypatch.setattr(attempt_store, "write", lambda connection, stored: False)
    response = player.move(TODAY, "h1", "new")
    assert response.status_code == 409
    assert "reload the page" in response.get_data(as_text=True)
    assert attempts(app)[0][3] == 1


def test_concurrent_moves_on_one_attempt_lose_no_update(app: Flask, player: Player, published: int) -> None:
    """Six windows of one player, each moving its own card out and back: every accepted move counts,
    and the table ends as it began."""
    player.move(TODAY, "h0", "new")
    player.move(TODAY, "h0", "hand")
    cookie = player.client.get_cookie("tavolo")
    assert cookie is not None
    start_table = attempts(app)[0][1]
    accepted: list[int] = []
    failures: list[str] = []
    barrier = threading.Barrier(6)

    def window(card: str) -> None:
        client = app.test_client()
        client.set_cookie("tavolo", cookie.value)
        barrier.wait()
        for step in range(8):
            response = client.post(
                f"/puzzles/{TODAY}/move",
                data={"card": card, "to": "new" if step % 2 == 0 else "hand"},
                headers={"X-CSRFToken": player.token, "HX-Request": "true"},
            )
            if response.status_code == 200:
                accepted.append(1)
            else:  # only a race lost three times over may refuse, and then the card did not move
                failures.append(response.get_data(as_text=True))
                return

    threads = [threading.Thread(target=window, args=(f"h{i}",)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all("reload the page" in failure for failure in failures)
    _, table, status, moves = attempts(app)[0]
    assert moves == 2 + len(accepted)
    if not failures:
        assert table == start_table
    assert status == "playing"


# -- the daily job fired from eight processes at once


def publishing_processes(database_url: str, clock: FrozenClock, count: int) -> list[str]:
    """Run the clock's job in `count` processes that start together; what each one said."""
    context = multiprocessing.get_context("fork")
    start = context.Barrier(count)
    said = context.Queue()

    def clock_process() -> None:
        # waits are generous: a loaded machine may hold the write lock or start processes slowly,
        # and what this test checks is that each day is published once, not how fast
        app = make_app(database_url, clock, SQLITE_BUSY_MS=120_000)
        start.wait(timeout=300)
        try:
            said.put(f"published {publish_job(app)}")
        except Exception as error:  # reported to the test, which fails on it
            said.put(f"failed: {error!r}")

    processes = [context.Process(target=clock_process) for _ in range(count)]
    for process in processes:
        process.start()
    answers = [said.get(timeout=600) for _ in processes]
    for process in processes:
        process.join(timeout=60)
    return answers


@pytest.mark.parametrize("source", ["pool", "generator"])
def test_the_daily_job_in_eight_processes_at_once_publishes_each_day_once(
    app: Flask,
    database_url: str,
    clock: FrozenClock,
    known_puzzle: generator.Puzzle,
    fake_generator: list[tuple[str, int]],
    source: str,
) -> None:
    if source == "pool":
        for n, pair in enumerate(DECOY_PAIRS[:12]):
            store(app, variant(known_puzzle, " ".join(pair), "hard", f"cp{n}"))
    answers = publishing_processes(database_url, clock, 8)
    assert all(answer.startswith("published") for answer in answers), answers
    with app.app_context(), database().reader() as session:
        days = session.execute(select(models.Daily.number, models.Daily.puzzle_id)).all()
    numbers = sorted(number for number, _ in days)
    assert numbers == list(range(7, 15))  # the open days and the next seven, each once
    assert len({puzzle for _, puzzle in days}) == len(days)  # and no puzzle on two days
    # each process went through the days it found unpublished, and found each published after
    seen = [set(json.loads(answer.removeprefix("published "))) for answer in answers]
    assert set().union(*seen) == set(numbers)


# -- the clock stopped across midnight


def test_with_the_clock_stopped_across_midnight_the_new_day_still_has_its_puzzle(
    app: Flask,
    client: FlaskClient,
    clock: FrozenClock,
    known_puzzle: generator.Puzzle,
    fake_generator: list[tuple[str, int]],
) -> None:
    # the tiers of #7 (a Sunday), #8 and #9, and one more
    for n, (pair, tier) in enumerate(zip(DECOY_PAIRS, ["master", "easy", "medium", "hard"], strict=False)):
        # tables apart: no day nearly repeats another's
        store(app, unlike_known(variant(known_puzzle, " ".join(pair), tier, f"cp{n}"), n))
    app.config["PUBLISH_AHEAD_DAYS"] = 1
    clock.moment = NOON.replace(hour=23, minute=30)
    assert publish_job(app) == [7, 8]  # the clock's last run: #8 is open in Kiribati already
    # the clock process dies; midnight passes in UTC, and later in Kiribati the 31st begins
    clock.moment = NOON.replace(day=30, hour=10, minute=30)
    assert client.get("/api/daily").get_json()["number"] == 8
    page = client.get("/?tz=Pacific/Kiritimati")
    assert page.status_code == 200 and "Tavolo #9" in page.get_data(as_text=True)
    first = client.get("/api/daily?tz=Pacific/Kiritimati").get_json()
    assert first["number"] == 9 and first["date"] == "2026-12-01"
    # every later request, and the clock when it comes back, agree on #9's puzzle
    assert client.get("/api/puzzles/9").get_json()["hand"] == first["hand"]
    assert publish_job(app) == []
    with app.app_context(), database().reader() as session:
        assert session.scalar(select(func.count()).select_from(models.Daily)) == 3
    assert fake_generator == []  # the pool had puzzles: nobody waited for the generator


# -- a worker killed in the middle of a move


def killed_in_the_middle(database_url: str, clock: FrozenClock, cookie: str, token: str, where: str) -> None:
    """A worker process that stops dead (SIGKILL) in the middle of a move: `where` says at which point."""
    context = multiprocessing.get_context("fork")
    reached = context.Event()

    def worker() -> None:
        app = make_app(database_url, clock)

        def stop_dead(*args: Any, **kwargs: Any) -> Any:
            reached.set()
            threading.Event().wait()  # never set: the test kills the process here

        if where == "first move, player and attempt flushed":
            real_write_new = attempt_store.write_new

            def write_new_then_stop(*args: Any) -> None:
                real_write_new(*args)
                stop_dead()

            attempt_store.write_new = write_new_then_stop  # type: ignore[assignment]
        else:  # "move, between its read and its write"
            attempt_store.write = stop_dead  # type: ignore[assignment]
        client = app.test_client()
        client.set_cookie("tavolo", cookie)
        client.post(
            f"/puzzles/{TODAY}/move",
            data={"card": "h1", "to": "new"},
            headers={"X-CSRFToken": token, "HX-Request": "true"},
        )

    process = context.Process(target=worker)
    process.start()
    assert reached.wait(BACKSTOP), "the worker never reached the point where it dies"
    os.kill(process.pid or 0, signal.SIGKILL)
    process.join(timeout=30)
    assert process.exitcode == -signal.SIGKILL


@pytest.mark.parametrize(
    "where", ["first move, player and attempt flushed", "move, between its read and its write"]
)
def test_a_worker_killed_in_the_middle_of_a_move_leaves_no_half_written_attempt(
    app: Flask, player: Player, published: int, database_url: str, clock: FrozenClock, where: str
) -> None:
    if where.startswith("move"):
        player.move(TODAY, "h0", "new")
    before = attempts(app)
    cookie = player.client.get_cookie("tavolo")  # the CSRF token's session, and the player once they moved
    assert cookie is not None
    killed_in_the_middle(database_url, clock, cookie.value, player.token, where)
    assert attempts(app) == before  # all of the move or none of it: here none
    with app.app_context(), database().reader() as reader:
        players = reader.scalar(select(func.count()).select_from(models.Player))
    assert players == len(before)
    # and nothing stays locked: the next move goes through at once
    assert player.move(TODAY, "h2", "new").status_code == 200
    assert attempts(app)[0][3] == len(before) + 1


# -- the database away for a moment


class Cable:
    """A TCP relay to the database that the test can cut and mend, as a network would."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connected = True
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.connected:
                client.close()
                continue
            server = socket.create_connection(self.target)
            self.sockets += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self.pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.connected = False
        for end in self.sockets:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
        self.sockets = []

    def mend(self) -> None:
        self.connected = True

    def close(self) -> None:
        self.cut()
        self.listener.close()


def lock_the_file(database_url: str) -> Callable[[], None]:
    """Another process's write transaction on the SQLite file, held until the returned call."""
    holder = sqlite3.connect(make_url(database_url).database or "", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")

    def release() -> None:
        holder.rollback()
        holder.close()

    return release


def test_the_database_away_for_a_moment_is_a_503_and_the_site_recovers_without_a_restart(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    cable = None
    # with the rate limits on, as in production: Flask-Limiter once raised the 503's Retry-After to
    # its own window's reset
    limits = {"RATELIMIT_ENABLED": True}
    if database_url.startswith("sqlite"):
        # SQLite is a file and never away; what can happen is another process keeping it locked
        app = make_app(database_url, clock, SQLITE_BUSY_MS=200, **limits)
    else:
        url = make_url(engine_url(database_url))
        cable = Cable(url.host or "127.0.0.1", url.port or 5432)
        app = make_app(
            url.set(host="127.0.0.1", port=cable.port).render_as_string(hide_password=False), clock, **limits
        )
    store(app, known_puzzle, TODAY)
    player = Player(app.test_client())
    assert player.move(TODAY, "h0", "new").status_code == 200
    if cable is not None:
        cable.cut()
        away = [player.move(TODAY, "h1", "new"), player.client.get("/")]
        cable.mend()
    else:
        release = lock_the_file(database_url)
        away = [player.move(TODAY, "h1", "new")]
        release()
    for response in away:
        assert response.status_code == 503
        assert "unavailable for a moment" in response.get_data(as_text=True)
        assert response.headers["Retry-After"] == "5"
    moved = player.move(TODAY, "h1", "new")
    assert moved.status_code == 200, moved.get_data(as_text=True)
    assert "Retry-After" not in moved.headers  # a limited view's answers wait for nothing
    assert player.client.get("/").status_code == 200
    assert attempts(app)[0][3] == 2
    if cable is not None:
        cable.close()

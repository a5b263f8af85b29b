"""Faults degrade, never 500: with Redis stopped mid-test, the rate limits count in each process's
memory and play goes on (moves, checks, solves, the analyser, transfer codes), with a log line."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis.exceptions import TimeoutError as RedisTimeout

import generator
from tests.webapp.conftest import TODAY, FrozenClock, Player, make_app, store
from tests.webapp.redis_server import RedisServer
from webapp import settings
from webapp.analyser import solving
from webapp.db import database
from webapp.security import limiter


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    yield server
    server.stop()


ANSWERED = {"move": 200, "undo": 200, "check": 200, "solve": 200, "analyse": 200, "transfer code": 303}
"""What each of `requests` answers when all is well."""


def requests(player: Player) -> dict[str, Any]:
    """One request of each kind that counts against a limit, and the status it gets."""
    client = player.client
    hands = iter(["AS", "AH", "AD", "AC", "2S", "2H", "2C", "KS", "KC"])  # a new position each time

    def solve() -> int:
        body = {"rules": "classic", "table": [["3S", "4S", "5S"]], "hand": [next(hands)]}
        return int(
            client.post("/api/solve", data=json.dumps(body), content_type="application/json").status_code
        )

    return {
        "move": lambda: player.move(TODAY, "h0", "new").status_code,
        "undo": lambda: player.post(f"/puzzles/{TODAY}/undo").status_code,
        "check": lambda: client.post(f"/api/puzzles/{TODAY}/check", json={"table": []}).status_code,
        "solve": solve,
        "analyse": lambda: (
            client.get("/analyse", query_string={"table": "3S 4S 5S", "hand": next(hands)}).status_code
        ),
        "transfer code": lambda: player.post("/stats/code", htmx=False).status_code,
    }


@pytest.mark.slow  # a Redis server of its own
def test_play_goes_on_when_redis_stops(
    database_url: str,
    clock: FrozenClock,
    known_puzzle: generator.Puzzle,
    redis: RedisServer,
    caplog: pytest.LogCaptureFixture,
) -> None:
    config = settings.from_environment({"REDIS_URL": redis.url})
    app = make_app(database_url, clock, RATELIMIT_ENABLED=True, CHECK_RATE_LIMIT="8 per minute", **config)
    store(app, known_puzzle, TODAY)
    player = Player(app.test_client())
    before = {kind: send() for kind, send in requests(player).items()}
    assert before == ANSWERED
    assert not [record for record in caplog.records if "Redis unreachable" in record.getMessage()]

    redis.stop()
    with caplog.at_level(logging.WARNING, logger="tavolo"):
        after = {kind: send() for kind, send in requests(player).items()}
    assert after == ANSWERED
    said = [record.getMessage() for record in caplog.records if record.name == "tavolo.security"]
    assert said and all("rate limits: Redis unreachable, counting in memory" in line for line in said)
    kept = [record.getMessage() for record in caplog.records if record.name == "tavolo.caching"]
    assert kept == [] or all("shared cache: Redis unreachable" in line for line in kept)
    # the limits still hold, counted in this process's memory from the moment Redis went
    checks = [requests(player)["check"]() for _ in range(8)]
    assert checks[:7] == [200] * 7 and checks[7] == 429
    with app.app_context():
        database().dispose()


@pytest.mark.slow  # a Redis server of its own
def test_a_call_to_redis_failing_after_another_thread_switched_is_answered(
    database_url: str,
    clock: FrozenClock,
    known_puzzle: generator.Puzzle,
    redis: RedisServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Under the midnight rush, Redis timed out for two threads at once: the first switched the limits
    # to memory, and the second, whose call had been failing meanwhile, answered 500.
    config = settings.from_environment({"REDIS_URL": redis.url})
    app = make_app(database_url, clock, RATELIMIT_ENABLED=True, **config)
    store(app, known_puzzle, TODAY)
    player = Player(app.test_client())
    in_redis = limiter._limiter  # the counters in Redis, before any fallback

    def switched_meanwhile(*args: Any, **kwargs: Any) -> Any:
        limiter._storage_dead = True  # what the thread that failed first did, while this call waited
        raise RedisTimeout("Timeout reading from socket")

    for name in ("hit", "test", "get_window_stats"):
        monkeypatch.setattr(in_redis, name, switched_meanwhile)
    answered = {}
    for kind, send in requests(player).items():
        limiter._storage_dead = False  # Redis believed up as each request starts
        answered[kind] = send()
    assert answered == ANSWERED
    with app.app_context():
        database().dispose()


@pytest.mark.slow  # a Redis server of its own
def test_every_worker_shares_the_kept_answers_through_redis(
    database_url: str,
    clock: FrozenClock,
    known_puzzle: generator.Puzzle,
    redis: RedisServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    solved: list[str] = []
    analyse = solving.settle

    def counted(position: Any, *args: Any) -> Any:
        solved.append(str(position))
        return analyse(position, *args)

    monkeypatch.setattr(solving, "settle", counted)
    config = settings.from_environment({"REDIS_URL": redis.url})
    first, second = (make_app(database_url, clock, **config) for _ in range(2))  # two workers
    body = {"rules": "classic", "table": [["3S", "4S", "5S"], ["7H", "7D", "7C"]], "hand": ["6S", "7S", "KD"]}
    shuffled = {**body, "table": body["table"][::-1]}
    answer = first.test_client().post("/api/solve", json=body).get_json()
    assert len(solved) == 1 and answer["max_placed"] == 2
    again = second.test_client().post("/api/solve", json=shuffled).get_json()
    assert len(solved) == 1, "the other worker solved the same position again"
    assert again["max_placed"] == 2 and again["table"] == answer["table"]
    page = second.test_client().get(
        "/analyse", query_string={"table": "7H 7D 7C / 3S 4S 5S", "hand": "6S 7S KD"}
    )
    assert page.status_code == 200 and len(solved) == 1
    # the page holds the chain length the first worker solved: no cell left to ask for it
    assert "must break at once" in page.get_data(as_text=True) and 'hx-trigger="load"' not in page.get_data(
        as_text=True
    )
    for app in (first, second):
        with app.app_context():
            database().dispose()

"""Pages whose cost grows with a player's data are limited by the app: in requests per client address
and per player (a burst of 150 meets a 429 on each), and in the CPU time each page measurably took;
an IPv6 client counts by its /64."""

from __future__ import annotations

import html
from itertools import count
from typing import Any

import pytest
from flask import Flask

import generator
from tests.webapp.conftest import FrozenClock, Player, make_app, store
from webapp.addresses import client_network

PAGES = ("/stats", "/me/export.json", "/review", "/review/next", "/friends", "/friends/1")


def limited_app(database_url: str, clock: FrozenClock, known: generator.Puzzle, **config: Any) -> Flask:
    app = make_app(database_url, clock, RATELIMIT_ENABLED=True, **config)
    store(app, known, 7)
    return app


def with_record(app: Flask, address: str = "127.0.0.1") -> Player:
    """A player with a record and a friends' table (#1), from `address`."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    player = Player(client)
    assert player.post("/puzzles/7/give-up").status_code == 200
    assert player.post("/friends", htmx=False, table="Family", name="Anna").status_code == 303
    return player


@pytest.mark.parametrize("path", PAGES)
def test_a_burst_of_150_from_one_cookie_meets_a_429(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle, path: str
) -> None:
    app = limited_app(database_url, clock, known_puzzle)
    player = with_record(app)
    statuses = [player.client.get(path).status_code for _ in range(150)]
    assert statuses[0] in (200, 303) and 429 in statuses, path
    refused = player.client.get(path)
    assert refused.status_code == 429 and "Too many requests" in html.unescape(refused.get_data(as_text=True))


def test_one_cookie_from_many_addresses_is_still_one_player(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    app = limited_app(database_url, clock, known_puzzle, PAGE_RATE_LIMIT="5 per minute")
    player = with_record(app)
    statuses = [
        player.client.get("/stats", environ_overrides={"REMOTE_ADDR": f"198.51.100.{n}"}).status_code
        for n in range(1, 8)
    ]
    assert statuses == [200] * 5 + [429] * 2


def test_an_ipv6_client_counts_by_its_64(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    app = limited_app(database_url, clock, known_puzzle, PAGE_RATE_LIMIT="5 per minute")
    client = app.test_client()
    # no cookie: a fresh address of the same /64 for every request
    statuses = [
        client.get("/stats", environ_overrides={"REMOTE_ADDR": f"2001:db8:1:2::{n:x}"}).status_code
        for n in range(1, 8)
    ]
    assert statuses == [200] * 5 + [429] * 2
    other = client.get("/stats", environ_overrides={"REMOTE_ADDR": "2001:db8:1:3::1"})
    assert other.status_code == 200  # the next /64 is another client


def test_pages_are_charged_the_cpu_time_they_took(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    """The meter is the app's (a thread's CPU time); here one that reads half a second more each time
    it is asked, so that every page costs 0.5 s whatever the machine."""
    ticks = count()
    app = limited_app(
        database_url,
        clock,
        known_puzzle,
        PAGE_RATE_LIMIT="1000 per minute",
        PAGE_SECONDS_LIMIT="5 per minute",  # 10 pages of 0.5 s
        PAGE_COST_METER=lambda: next(ticks) * 0.5,
    )
    player = with_record(app)
    statuses = [player.client.get("/stats").status_code for _ in range(12)]
    assert statuses == [200] * 10 + [429] * 2
    refused = player.client.get("/friends/1", headers={"Accept-Language": "de"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert "5 Sekunden pro Minute" in html.unescape(refused.get_data(as_text=True))
    # another player from another address has their own seconds
    assert with_record(app, "203.0.113.9").client.get("/stats").status_code == 200


def test_the_pages_are_not_limited_with_rate_limits_off(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    app = make_app(database_url, clock, PAGE_RATE_LIMIT="2 per minute")
    store(app, known_puzzle, 7)
    player = with_record(app)
    assert {player.client.get("/stats").status_code for _ in range(5)} == {200}


@pytest.mark.parametrize(
    ("address", "network"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2::1", "2001:db8:1:2::/64"),
        ("::ffff:192.0.2.1", "192.0.2.1"),
        ("fe80::1%eth0", "fe80::/64"),
        ("not an address", "not an address"),
    ],
)
def test_client_network(address: str, network: str) -> None:
    assert client_network(address) == network

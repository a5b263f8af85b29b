"""Pages whose cost grows with a player's data are limited by the app: in requests per client address
and per player (a burst of 150 meets a 429 on each), and in the CPU time each page measurably took;
an IPv6 client counts by its /64."""

from __future__ import annotations

import html
import re
from itertools import count
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import generator
from tests.webapp.conftest import FrozenClock, Player, make_app, store
from webapp.addresses import client_network
from webapp.refused_early import RefusedEarly

TOKEN = re.compile(r'<meta name="csrf-token" content="([^"]*)"')
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


def flasked(app: Flask) -> list[str]:
    """The paths of the requests Flask itself saw (the rest were answered in front of it)."""
    seen: list[str] = []
    early = app.extensions["tavolo.refused_early"]
    assert isinstance(early, RefusedEarly)
    flask = early.inner

    def counted(environ: Any, start_response: Any) -> Any:
        seen.append(environ["PATH_INFO"])
        return flask(environ, start_response)

    early.inner = counted
    return seen


def scraper(app: Flask, player: Player) -> tuple[FlaskClient, dict[str, str]]:
    """A client sending the player's cookie as it was, never taking a new one (as a script does)."""
    cookie = player.client.get_cookie("tavolo")
    assert cookie is not None
    return app.test_client(use_cookies=False), {"Cookie": f"tavolo={cookie.value}"}


@pytest.mark.parametrize("path", ["/stats", "/me/export.json", "/review", "/friends/1"])
def test_a_flood_with_the_cookie_is_refused_in_front_of_flask(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle, path: str
) -> None:
    limits = {"PAGE_RATE_LIMIT": "2 per minute", "EXPORT_RATE_LIMIT": "5 per minute"}
    app = limited_app(database_url, clock, known_puzzle, **limits)
    player = with_record(app)
    seen = flasked(app)
    flood, cookie = scraper(app, player)
    answers = [flood.get(path, headers=cookie) for _ in range(150)]
    statuses = [answer.status_code for answer in answers]
    assert statuses[:2] == [200, 200] and set(statuses[2:]) == {429}, path
    assert len(seen) == 3  # the two pages and the first refusal: 147 never reached Flask
    first, last = answers[2], answers[-1]
    assert last.get_data() == first.get_data() and "Set-Cookie" not in last.headers
    token = TOKEN.search(first.get_data(as_text=True))
    assert token is not None and token.group(1) == ""  # one page for any cookie: no session's token
    assert 1 <= int(last.headers["Retry-After"]) <= 61 and last.headers["X-RateLimit-Remaining"] == "0"
    # cookies made up for each request, from the refused address: the same bytes, and through Flask
    # once at most (when the player's own counter refused first, the address is noted then)
    for n in range(20):
        made_up = flood.get(path, headers={"Cookie": f"tavolo=made.up.{n}"})
        assert made_up.status_code == 429 and made_up.get_data() == first.get_data()
    assert len(seen) <= 4
    # another player at the same address: the address's own counter is spent at this page
    neighbour, theirs = scraper(app, with_record(app))
    other = with_record(app, "203.0.113.9")
    before = len(seen)
    assert {neighbour.get(path, headers=theirs).status_code for _ in range(5)} == {429}
    assert len(seen) == before
    # another page, and another player from another address, go to Flask and are served
    before = len(seen)
    assert neighbour.get("/help").status_code == 200 and len(seen) == before + 1
    assert other.client.get(path).status_code in (200, 404) and len(seen) == before + 2  # 404: not at #1


def test_a_player_refused_over_many_addresses_is_refused_in_front_of_flask(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    app = limited_app(database_url, clock, known_puzzle, PAGE_RATE_LIMIT="3 per minute")
    player = with_record(app)
    seen = flasked(app)
    flood, cookie = scraper(app, player)

    def from_address(n: int, headers: dict[str, str]) -> int:
        answer = flood.get("/stats", headers=headers, environ_overrides={"REMOTE_ADDR": f"198.51.100.{n}"})
        return int(answer.status_code)

    assert [from_address(n, cookie) for n in range(1, 11)] == [200] * 3 + [429] * 7
    assert len(seen) == 4  # the player's refusal was noted under their cookie: 6 never reached Flask
    # the addresses themselves were counted once each: a visitor without the cookie is served there
    assert from_address(1, {}) == 200 and len(seen) == 5


def test_refusals_of_other_pages_still_go_to_flask_with_a_cookie(
    database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle
) -> None:
    """Only a costly page's limits count the address and the player alone; the analyser's refusal of
    a visitor with a session carries its token and goes through Flask, as before."""
    app = limited_app(database_url, clock, known_puzzle, ANALYSE_RATE_LIMIT="1 per hour")
    player = with_record(app)
    seen = flasked(app)
    flood, cookie = scraper(app, player)
    query = {"rules": "classic", "table": "3S 4S 5S / 7H 7D 7C", "hand": "6S 7S KD"}
    statuses = [flood.get("/analyse", query_string=query, headers=cookie).status_code for _ in range(4)]
    assert statuses == [200, 429, 429, 429] and len(seen) == 4

"""deploy/nginx.conf in front of gunicorn, as docs/DEPLOYING.md runs them on one machine: Debian's
nginx with that file (only its host, checkout, cache folder and port changed), gunicorn with one
worker of 4 threads behind it. Slow-header clients are nginx's to hold, never gunicorn's threads;
today's page for a visitor without a cookie is nginx's to serve."""

from __future__ import annotations

import http.client
import ipaddress
import os
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import limits
import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import generator
from bench import nginx_conf
from tests.ports import free_port
from tests.waiting import answers, wait_until
from tests.webapp.conftest import FrozenClock, make_app, variant
from webapp import models
from webapp.addresses import client_network
from webapp.db import database
from webapp.errors import front_door_refusals
from webapp.languages import LANGUAGES
from webapp.schedule import pool
from webapp.schedule.days import Calendar
from webapp.security import CONTENT_SECURITY_POLICY
from webapp.settings import PROJECT_ROOT, defaults

pytestmark = pytest.mark.slow  # runs nginx and gunicorn as programs

HOST = "tavolo.example"
SLOW_CLIENTS = 16


def publish_today(database_url: str, known_puzzle: generator.Puzzle) -> None:
    """Today (UTC) is puzzle #1, and tomorrow #2, should the test run across midnight."""
    today = datetime.now(UTC).date()
    app: Flask = make_app(database_url, FrozenClock(datetime.now(UTC)), LAUNCH_DATE=today)
    with app.app_context(), database().write() as session:
        for number, puzzle in ((1, known_puzzle), (2, variant(known_puzzle, "2H 3D", "hard", "cy1"))):
            row, _ = pool.add(session, puzzle, datetime.now(UTC))
            day = Calendar(today).day(number)
            session.add(models.Daily(number=number, day=day, puzzle=row, published=datetime.now(UTC)))
    with app.app_context():
        database().dispose()


def production_env(database_url: str, host: str = HOST) -> dict[str, str]:
    """An app host's environment in production behind nginx at `host`, on `database_url`."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "9f2c71d4e8a05b3f6c19e2d7a4b8f05c3e61d9a27b4c8e0f5a13d6b92e7c4f08",
        "TAVOLO_DAILY_SECRET": "e41b7c0a9d35f826c7e04a1b9f3d62c85a7e0f49b13c6d28e5f7a0b4c91d36e2",
        "TAVOLO_ENV": "production",
        "TAVOLO_BASE_URL": f"https://{host}",
        "TAVOLO_PROXIES": "1",
        "TAVOLO_LAUNCH_DATE": datetime.now(UTC).date().isoformat(),
    }


def wait_for(port: int, process: subprocess.Popen[bytes], what: str, host: str = HOST) -> None:
    answered = answers(f"http://127.0.0.1:{port}/help", Host=host)

    def ready() -> bool:
        assert process.poll() is None, f"{what} stopped (exit status {process.returncode})"
        return answered()

    wait_until(ready, f"{what} did not answer")


@pytest.fixture(scope="module")
def front_door(module_database_url: str, known_puzzle: generator.Puzzle) -> Iterator[int]:
    """nginx on a free port with deploy/nginx.conf, in front of gunicorn; yields nginx's port.

    One for the module: starting them (migrations, gunicorn, nginx) took most of each test's time.
    Each test leaves nginx as it found it (it closes the connections it held), and the request
    limits are per zone: only the costly-requests test reaches the costly zone, and the pages' burst
    of 100 is far above what the module asks for."""
    database_url = module_database_url
    if not Path(nginx_conf.NGINX).exists():
        pytest.skip("needs Debian's nginx (make test installs it)")
    folder = Path(tempfile.mkdtemp(prefix="tavolo-nginx-"))
    env = production_env(database_url)
    flask = [str(PROJECT_ROOT / ".venv/bin/flask"), "--app", "webapp", "db", "upgrade"]
    subprocess.run(flask, env=env, cwd=PROJECT_ROOT, check=True, capture_output=True, timeout=120)
    publish_today(database_url, known_puzzle)
    app_port, nginx_port = free_port(), free_port()
    gunicorn = [str(PROJECT_ROOT / ".venv/bin/gunicorn"), "--bind", f"127.0.0.1:{app_port}"]
    gunicorn += ["--worker-class", "gthread", "--workers", "1", "--threads", "4", *nginx_conf.keep_alive()]
    gunicorn.append("webapp:create_app()")
    log = (folder / "gunicorn.log").open("w")
    app = subprocess.Popen(gunicorn, env=env, cwd=PROJECT_ROOT, stdout=log, stderr=log)
    site = nginx_conf.deploy_site(app_port, nginx_port, folder / "cache")
    nginx = nginx_conf.start(folder, site, gzip=True)
    try:
        wait_for(app_port, app, "gunicorn")
        wait_for(nginx_port, nginx, "nginx")
        yield nginx_port
    finally:
        for process in (nginx, app):
            process.terminate()
            process.wait(timeout=30)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def get(port: int, path: str, host: str = HOST, **headers: str) -> http.client.HTTPResponse:
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    link.request("GET", path, headers={"Host": host, **headers})
    response = link.getresponse()
    response.read()
    link.close()
    return response


def test_sixteen_slow_header_clients_do_not_keep_the_home_page_waiting(front_door: int) -> None:
    slow = []
    for number in range(SLOW_CLIENTS):
        # a request that never ends its header: gunicorn alone gives each such client a thread
        client = socket.create_connection(("127.0.0.1", front_door), timeout=60)
        client.sendall(f"GET / HTTP/1.1\r\nHost: {HOST}\r\nX-Slow: {number}\r\n".encode())
        slow.append(client)
    try:
        for _ in range(3):
            home = get(front_door, "/")
            assert home.status == 200
            assert home.getheader("Content-Security-Policy", "").startswith("default-src 'self'; img-src")
    finally:
        for client in slow:
            client.close()


def test_nginx_serves_the_static_files_and_never_compresses_a_page(front_door: int) -> None:
    sheet = get(front_door, "/static/tavolo.css", **{"Accept-Encoding": "gzip"})
    assert sheet.status == 200 and sheet.getheader("Content-Encoding") == "gzip"
    # nginx's own header, not the app's longer policy: the file never reached gunicorn
    assert sheet.getheader("Content-Security-Policy") == "default-src 'self'"
    assert sheet.getheader("X-Content-Type-Options") == "nosniff"
    htmx = get(front_door, "/vendor/htmx.min.js")
    assert htmx.status == 200 and "javascript" in (htmx.getheader("Content-Type") or "")
    page = get(front_door, "/help", **{"Accept-Encoding": "gzip"})
    assert page.status == 200 and page.getheader("Content-Encoding") is None  # BREACH


def test_nginx_refuses_big_bodies_and_other_hosts(front_door: int) -> None:
    link = http.client.HTTPConnection("127.0.0.1", front_door, timeout=60)
    body = b'{"hand": [' + b'"2D",' * 10_000 + b'"2D"]}'
    link.request("POST", "/api/solve", body, {"Host": HOST, "Content-Type": "application/json"})
    assert link.getresponse().status == 413
    link.close()
    with pytest.raises(http.client.RemoteDisconnected):  # 444: no answer at all
        get(front_door, "/", host="evil.example")


def app_answered(response: http.client.HTTPResponse) -> bool:
    """Whether gunicorn wrote the answer: the app's policy is longer than nginx's own headers."""
    return "img-src" in (response.getheader("Content-Security-Policy") or "")


def test_nginx_limits_the_costly_requests_per_address(front_door: int) -> None:
    # the hole found: nothing in front limited a cached /analyse, 67 ms of the app's CPU each
    with ThreadPoolExecutor(40) as pool:
        answered = list(pool.map(lambda _: get(front_door, "/analyse"), range(40)))
    refused = [response for response in answered if response.status == 429]
    assert refused and not any(app_answered(response) for response in refused)
    assert len(refused) >= 40 - 21 - 2  # a burst of 20 and what 2 a second adds while they arrive
    home = get(front_door, "/")  # other pages have a zone of their own
    assert home.status == 200 and app_answered(home)


def test_nginx_limits_the_requests_in_progress_per_address(front_door: int) -> None:
    held = []
    try:
        for _ in range(32):
            # a whole header and a body still to come: a request in progress, held by nginx
            client = socket.create_connection(("127.0.0.1", front_door), timeout=60)
            client.sendall(
                f"POST /stats/code HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: 10\r\n\r\n".encode()
            )
            held.append(client)
        wait_until(lambda: get(front_door, "/help").status == 429, "the 33rd request was not refused")
    finally:
        for client in held:
            client.close()
    wait_until(lambda: get(front_door, "/help").status == 200, "pages did not come back")


def fetch(port: int, path: str, **headers: str) -> tuple[http.client.HTTPResponse, bytes]:
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    link.request("GET", path, headers={"Host": HOST, **headers})
    response = link.getresponse()
    body = response.read()
    link.close()
    return response, body


def test_nginx_keeps_todays_page_for_visitors_without_a_cookie(front_door: int) -> None:
    def kept(**headers: str) -> bool:
        return fetch(front_door, "/", **headers)[0].getheader("X-Cache-Status") == "HIT"

    # waited on, not asked once: in the last second of a day the app lets nothing be kept
    wait_until(kept, "nginx did not keep today's page")
    answer, page = fetch(front_door, "/")
    assert answer.status == 200 and app_answered(answer)  # the app's own headers, kept with it
    assert answer.getheader("Set-Cookie") is None and answer.getheader("X-Accel-Expires") is None
    assert answer.getheader("Cache-Control") == "no-cache"  # browsers ask again
    assert b'<meta name="csrf-token" content=""' in page and b'lang="en"' in page
    wait_until(lambda: kept(**{"Accept-Language": "de"}), "nginx did not keep the German page")
    assert b'lang="de"' in fetch(front_door, "/", **{"Accept-Language": "de"})[1]
    # any cookie, a query or htmx: the app answers, with the visitor's own page
    for path, headers in (
        ("/", {"Cookie": "tavolo_deck=four"}),
        ("/?beat=3", {}),
        ("/", {"HX-Request": "1"}),
    ):
        answer, page = fetch(front_door, path, **headers)
        assert answer.status == 200 and answer.getheader("X-Cache-Status") == "BYPASS", (path, headers)
    assert b'class="four-colour"' in fetch(front_door, "/", Cookie="tavolo_deck=four")[1]


def test_the_token_and_its_cookie_come_from_the_app_for_each_visitor(front_door: int) -> None:
    tokens = set()
    for _ in range(2):
        answer, body = fetch(front_door, "/token")
        assert answer.status == 200 and answer.getheader("Cache-Control") == "no-store"
        cookie = answer.getheader("Set-Cookie") or ""
        assert "HttpOnly" in cookie and "Secure" in cookie
        tokens.add(body)
        # with its session, today's page is the visitor's own, with that token
        mine, page = fetch(front_door, "/", Cookie=cookie.split(";", 1)[0])
        assert mine.getheader("X-Cache-Status") == "BYPASS" and b'name="csrf-token" content=""' not in page
    assert len(tokens) == 2


def get_from(
    port: int, source: str, path: str, method: str = "GET", **headers: str
) -> tuple[http.client.HTTPResponse, bytes]:
    """A request from the loopback address `source` (127.0.0.2, ...: another client to nginx)."""
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    link.request(method, path, headers={"Host": HOST, **headers})
    response = link.getresponse()
    body = response.read()
    link.close()
    return response, body


REFUSALS = PROJECT_ROOT / "webapp/static/refused"


def nginx_refusal(language: str) -> bytes:
    return (REFUSALS / f"{language}.html").read_bytes()


def refused_by_nginx(
    port: int, source: str, path: str, tries: int, **headers: str
) -> tuple[http.client.HTTPResponse, bytes] | None:
    """The first of up to `tries` requests that nginx refused itself (one of its pages), else None. A
    zone lets a request through now and then (one a second): the app answers that one."""
    pages = {nginx_refusal(language) for language in LANGUAGES}
    for _ in range(tries):
        response, body = get_from(port, source, path, **headers)
        if body in pages:
            assert response.status == 429
            return response, body
    return None


def test_nginx_refuses_a_costly_page_flood_by_address_and_by_cookie(front_door: int) -> None:
    # one address, one made-up session cookie, asking /stats again and again: the app answers, then
    # nginx refuses itself (its burst, 5, is below the app's own count, so that a flood's first
    # second is not the app's whole minute of pages at once)
    player = {"Cookie": "tavolo=scraped-record; tavolo_language=de"}
    answered = []
    for _ in range(200):
        response, body = get_from(front_door, "127.0.0.2", "/stats", **player)
        if body == nginx_refusal("de"):
            break
        answered.append(response.status)
    else:
        pytest.fail("nginx never refused /stats itself")
    assert 200 in answered
    # the same cookie from another address, far within that address's burst: the cookie's zone
    assert refused_by_nginx(front_door, "127.0.0.3", "/stats", 10, **player) is not None
    # that address without the cookie: the app answers (its own limit counts at most 10 so far)
    response, body = get_from(front_door, "127.0.0.3", "/stats")
    assert response.status == 200 and app_answered(response)
    # a form at a costly path: not counted, the app answers (no CSRF token: its 400)
    response, body = get_from(front_door, "127.0.0.2", "/friends", "POST", Cookie="tavolo=scraped-record")
    assert response.status == 400 and app_answered(response)
    # other pages, and the puzzles under /review/, are not costly pages
    for path in ("/help", "/review/nosuchcode"):
        response, _ = get_from(front_door, "127.0.0.2", path, **player)
        assert app_answered(response) and response.status != 429, path


def test_nginx_lets_through_less_than_the_apps_minute_of_costly_pages_at_once() -> None:
    # the app serves a client its PAGE_RATE_LIMIT's minute of costly pages, each drawn in full: a
    # flood let through at once held up everyone's pages for its first second (bench/flood.py): at
    # most half of it passes at once, the rest one a second
    conf = (PROJECT_ROOT / "deploy/nginx.conf").read_text()
    costly = re.search(r"location ~ \^/\(stats\|[^{]*\{(?P<body>[^}]*)\}", conf)
    assert costly is not None
    bursts = re.findall(r"zone=tavolo_record_(?:address|player) burst=(\d+)", costly["body"])
    per_minute = [
        item.amount
        for item in limits.parse_many(str(defaults("")["PAGE_RATE_LIMIT"]))
        if item.get_expiry() == 60
    ]
    assert len(bursts) == 2 and per_minute
    assert all(int(burst) + 1 <= per_minute[0] / 2 for burst in bursts)


def test_an_honest_players_costly_pages_at_once_reach_the_app(front_door: int) -> None:
    # six costly pages at once, as a player opening their stats, review and tables in tabs: nginx
    # lets them all through (its burst of 5 and the one a second), and the app answers each
    player = {"Cookie": "tavolo=a-player-of-many-tabs"}
    for path in ("/stats", "/review", "/friends", "/stats", "/review", "/friends"):
        response, _ = get_from(front_door, "127.0.0.6", path, **player)
        assert response.status == 200 and app_answered(response), path


def test_the_apps_own_refusal_of_a_costly_page_passes_through_nginx(front_door: int) -> None:
    # the export's own limit (2 a minute) refuses within nginx's burst: the app's 429 reaches the
    # client as the app drew it, not replaced by nginx's page
    visitor = {"Cookie": "tavolo=no-record-here"}
    statuses = [get_from(front_door, "127.0.0.5", "/me/export.json", **visitor) for _ in range(3)]
    assert [response.status for response, _ in statuses] == [404, 404, 429]
    for response, body in statuses:
        assert app_answered(response) and body not in {nginx_refusal(language) for language in LANGUAGES}


def test_nginx_refusal_speaks_the_visitors_language_with_the_apps_headers(front_door: int) -> None:
    flooded = "127.0.0.4"
    assert refused_by_nginx(front_door, flooded, "/review", 300) is not None  # its burst spent
    for headers, language in (
        ({}, "en"),
        ({"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.8"}, "pl"),
        ({"Accept-Language": "fr, it;q=0.5"}, "en"),  # only the first language is read
        ({"Cookie": "tavolo_language=it", "Accept-Language": "de"}, "it"),
        ({"Cookie": "tavolo_language=xx", "Accept-Language": "de"}, "de"),
    ):
        refused = refused_by_nginx(front_door, flooded, "/review", 10, **headers)
        assert refused is not None, headers
        answer, body = refused
        assert body == nginx_refusal(language), headers
        assert answer.getheader("Content-Security-Policy") == CONTENT_SECURITY_POLICY
        assert answer.getheader("Retry-After") == "2" and answer.getheader("Cache-Control") == "no-store"
        assert answer.getheader("Content-Type") == "text/html; charset=utf-8"


def test_the_refusal_pages_are_the_apps_own_in_each_language(module_database_url: str) -> None:
    app = make_app(module_database_url, FrozenClock(datetime.now(UTC)))
    pages = front_door_refusals(app)
    assert sorted(pages) == sorted(f"{language}.html" for language in LANGUAGES)
    for name, page in pages.items():
        assert page.encode() == (REFUSALS / name).read_bytes(), f"{name} is stale: run make setup"
    assert 'lang="it"' in pages["it.html"] and "Troppe richieste" in pages["it.html"]
    assert "<h1>Zwolnij</h1>" in pages["pl.html"] and 'href="/static/tavolo.css"' in pages["pl.html"]
    assert all("csrf" not in page and "<script" not in page for page in pages.values())  # no one's


CLIENT_MAP = re.compile(r"^map \$remote_addr \$tavolo_client \{$.*?^\}$", re.MULTILINE | re.DOTALL)
CLIENT_SITE = """{client_map}
server {{
    listen 127.0.0.1:{port};
    # the test's X-Real-IP stands for the client's address, as nginx would have read it off a socket
    set_real_ip_from 127.0.0.1;
    real_ip_header X-Real-IP;
    location / {{ return 200 "$tavolo_client"; }}
}}
"""


@pytest.fixture(scope="module")
def client_key_server() -> Iterator[int]:
    """nginx answering with deploy/nginx.conf's `$tavolo_client` for the address in `X-Real-IP`."""
    if not Path(nginx_conf.NGINX).exists():
        pytest.skip("needs Debian's nginx (make test installs it)")
    found = CLIENT_MAP.search((PROJECT_ROOT / "deploy/nginx.conf").read_text())
    assert found is not None, "deploy/nginx.conf has no map for $tavolo_client"
    folder = Path(tempfile.mkdtemp(prefix="tavolo-nginx-"))
    port = free_port()
    nginx = nginx_conf.start(folder, CLIENT_SITE.format(client_map=found.group(0), port=port))
    try:
        wait_until(answers(f"http://127.0.0.1:{port}/"), "nginx did not answer")
        yield port
    finally:
        nginx.terminate()
        nginx.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)


def nginx_client_key(port: int, address: str) -> str:
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    link.request("GET", "/", headers={"X-Real-IP": address})
    key = link.getresponse().read().decode()
    link.close()
    return key


def as_network(key: str) -> str:
    """nginx's key as the app writes its client: an IPv4 address as it is, a /64 as a network."""
    return key if "." in key else str(ipaddress.IPv6Network(f"{key}::/64" if key.count(":") == 3 else key))


# groups of zeros in every place, where nginx's short form (`::`) is hardest to read off
GROUP = st.one_of(st.just(0), st.integers(0, 0xFFFF))
IPV6 = st.lists(GROUP, min_size=8, max_size=8).map(
    lambda groups: ipaddress.IPv6Address(
        sum(group << (16 * (7 - place)) for place, group in enumerate(groups))
    )
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(address=IPV6, written=st.sampled_from(["compressed", "exploded"]))
def test_nginx_counts_a_client_as_the_app_does(
    client_key_server: int, address: ipaddress.IPv6Address, written: str
) -> None:
    key = nginx_client_key(client_key_server, getattr(address, written))
    assert as_network(key) == client_network(str(address)), key
    # and every other address in its /64 is that client too
    neighbour = ipaddress.IPv6Address(int(address) ^ 0xFFFF_0000_0000_0001)
    assert nginx_client_key(client_key_server, str(neighbour)) == key or address.ipv4_mapped is not None


def test_nginx_counts_an_ipv4_client_alone_and_a_mapped_one_as_itself(client_key_server: int) -> None:
    assert nginx_client_key(client_key_server, "192.0.2.7") == "192.0.2.7"
    assert nginx_client_key(client_key_server, "::ffff:192.0.2.7") == "192.0.2.7"
    assert nginx_client_key(client_key_server, "2001:db8::1") == nginx_client_key(
        client_key_server, "2001:db8::ffff:2"
    )
    assert nginx_client_key(client_key_server, "2001:db8::1") != nginx_client_key(
        client_key_server, "2001:db8:0:1::1"
    )

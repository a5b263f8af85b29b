"""deploy/nginx.conf's upstream sends a POST again to another app host when the first died with it,
only if the POST carries its own id (`X-Tavolo-Request`, which the app applies once:
tests/webapp/turn/test_replays.py); one without is answered 502, as it may have been applied.

The hosts are stand-ins, no app: one reads each request whole and closes the connection unanswered
(a host killed with the request in flight), the other answers 200. nginx's round robin sends the first
request to the first host of its upstream, the one that dies."""

from __future__ import annotations

import http.client
import shutil
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bench import morning, nginx_conf
from tests.ports import free_port
from tests.waiting import wait_until

pytestmark = pytest.mark.slow  # runs nginx as a program

HOST = morning.HOST
REQUEST_HEADER = "X-Tavolo-Request"


@dataclass
class StandIn:
    """An app host on a port of its own that keeps the id of every request it read whole, and
    answers it (`answers`) or dies with it."""

    answers: bool
    seen: list[str | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection:
                self._one(connection)

    def _one(self, connection: socket.socket) -> None:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                return
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        headers = dict(
            line.split(": ", 1) for line in head.decode("latin-1").split("\r\n")[1:] if ": " in line
        )
        length = int({k.lower(): v for k, v in headers.items()}.get("content-length", "0"))
        while len(body) < length:
            chunk = connection.recv(65536)
            if not chunk:
                return
            body += chunk
        self.seen.append({k.lower(): v for k, v in headers.items()}.get(REQUEST_HEADER.lower()))
        if self.answers:
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def front(tmp_path: Path) -> Iterator[tuple[int, StandIn, StandIn]]:
    """nginx with deploy/nginx.conf in front of a host that dies with each request, then one that
    answers; yields nginx's port and the two hosts."""
    if not Path(nginx_conf.NGINX).exists():
        pytest.skip("needs Debian's nginx (make test installs it)")
    dying, answering = StandIn(answers=False), StandIn(answers=True)
    port = free_port()
    site = nginx_conf.deploy_site([dying.port, answering.port], port, tmp_path / "cache")
    nginx = nginx_conf.start(tmp_path, site)

    def listening() -> bool:
        assert nginx.poll() is None, f"nginx stopped (exit status {nginx.returncode})"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return False
        return True

    try:
        # no request before the test's own: a host that failed one is left alone for 10 s
        wait_until(listening, "nginx did not listen")
        yield port, dying, answering
    finally:
        nginx.terminate()
        nginx.wait(timeout=60)
        dying.close()
        answering.close()
        shutil.rmtree(tmp_path / "cache", ignore_errors=True)


def post(port: int, request: str | None) -> int:
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Host": HOST, "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
    if request is not None:
        headers[REQUEST_HEADER] = request
    link.request("POST", "/puzzles/1/move", "card=h0&to=new", headers)
    status = link.getresponse().status
    link.close()
    return status


def test_a_post_with_its_id_goes_to_the_other_host_when_the_first_dies_with_it(
    front: tuple[int, StandIn, StandIn],
) -> None:
    port, dying, answering = front
    assert post(port, "a" * 32) == 200
    # the same request, bytes for bytes, reached both: the app answers the second as the first
    assert dying.seen == ["a" * 32] and answering.seen == ["a" * 32]


def test_a_post_without_an_id_is_never_sent_twice(front: tuple[int, StandIn, StandIn]) -> None:
    port, dying, answering = front
    assert post(port, None) == 502
    assert dying.seen == [None] and answering.seen == []

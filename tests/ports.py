"""Ports for servers the tests start, taken from below the kernel's ephemeral range.

A port found by binding to port 0 comes from the ephemeral range, and the kernel may hand the same
port to an outgoing connection (a database client, say) before the server binds it: gunicorn then
fails with "Address already in use". Ports below the range are never given to outgoing connections,
so only another listener can hold one; each xdist worker counts through a block of its own, and a
port some other program listens on is skipped.
"""

import itertools
import os
import socket
from collections.abc import Iterator
from pathlib import Path

BLOCK = 400


def _first_ephemeral() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _worker() -> int:
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name[2:]) if name[2:].isdigit() else 0


def _candidates() -> Iterator[int]:
    # Blocks count down from the ephemeral range, to stay clear of the well-known ports.
    start = max(_first_ephemeral() - BLOCK * (_worker() + 1), 1024)
    return itertools.cycle(range(start, start + BLOCK))


_NEXT = _candidates()


def free_port() -> int:
    """A port nothing listens on now, on every address (gunicorn binds 0.0.0.0)."""
    for port in itertools.islice(_NEXT, BLOCK):
        with socket.socket() as probe:
            try:
                probe.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in this worker's block")

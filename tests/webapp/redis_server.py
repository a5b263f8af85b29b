"""A throw-away Redis server on a free loopback port, that a test may stop when it likes."""

from __future__ import annotations

import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from tests.ports import free_port
from tests.waiting import wait_until


class RedisServer:
    """Debian's redis-server, no persistence, in `folder`; `url` reaches it while it runs."""

    def __init__(self, folder: Path) -> None:
        server = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not Path(server).exists():
            pytest.skip("needs Debian's redis-server (make test installs it)")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        command = [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(folder)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        wait_until(self.listening, "redis-server did not listen")

    def listening(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=30).close()
        except OSError:
            return False
        return True

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=60)

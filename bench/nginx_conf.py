"""nginx as the benchmarks and the front door's test run it: Debian's nginx, as the user who runs it,
in a throw-away folder, with deploy/nginx.conf as its site (only its host, checkout, cache folder and
port changed: `deploy_site`) or a site of its own (bench/load.py's static copy).

Imported by bench/rush.py and bench/load.py as a script's neighbour (`import nginx_conf`) and by
tests/webapp/test_front_door.py as `bench.nginx_conf`: it imports nothing of the project's.
"""

from __future__ import annotations

import grp
import os
import pwd
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
MAIN_CONF = """
# the workers keep the caller's own user (root drops to www-data by default): they must read the
# checkout and the temporary folders wherever those are; without root, nginx ignores this line
user {user} {group};
worker_processes {workers};
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections {connections}; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    gzip {gzip};
    include {folder}/tavolo.conf;
}}
"""
"""The main nginx.conf around a site file (`tavolo.conf`), for an nginx that owns its folder."""


UPSTREAM = "    server 127.0.0.1:8000 "
"""deploy/nginx.conf's one app host, the line `deploy_site` writes once per host."""


def keep_alive() -> list[str]:
    """gunicorn's `--keep-alive` as deploy/tavolo-web.service has it, for a gunicorn behind this
    nginx: it must keep idle connections longer than nginx's `keepalive_timeout` does."""
    service = (ROOT / "deploy/tavolo-web.service").read_text()
    found = re.search(r"--keep-alive (\d+)", service)
    if found is None:
        raise ValueError("deploy/tavolo-web.service gives gunicorn no --keep-alive")
    return ["--keep-alive", found.group(1)]


def deploy_site(app_ports: int | Sequence[int], port: int, cache: Path) -> str:
    """deploy/nginx.conf in front of gunicorn on `app_ports` (one app host each, as its `upstream`
    lists them), listening on loopback at `port`, serving this checkout's static files and keeping
    pages in `cache`."""
    site = (ROOT / "deploy/nginx.conf").read_text()
    ports = [app_ports] if isinstance(app_ports, int) else list(app_ports)
    head, line, tail = site.partition(UPSTREAM)
    if not line or not ports:
        raise ValueError(f"deploy/nginx.conf has no line {UPSTREAM.strip()!r} for the app hosts")
    rest, _, tail = tail.partition("\n")
    hosts = "".join(f"{UPSTREAM.replace('8000', str(app))}{rest}\n" for app in ports)
    site = head + hosts + tail
    site = site.replace("/srv/tavolo", str(ROOT))
    site = site.replace("/var/cache/tavolo-nginx", str(cache))
    return site.replace("listen 80", f"listen 127.0.0.1:{port}")


def start(
    folder: Path,
    site: str,
    workers: int = 1,
    connections: int = 256,
    gzip: bool = False,
    quiet: bool = False,
) -> subprocess.Popen[bytes]:
    """nginx serving `site` (a file of `server` blocks) from `folder`; `gzip` on as Debian's own
    nginx.conf has it (the site must turn it off for pages); `quiet` sends its stderr nowhere."""
    for temporary in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / temporary).mkdir(exist_ok=True)
    (folder / "tavolo.conf").write_text(site)
    user, group = pwd.getpwuid(os.geteuid()).pw_name, grp.getgrgid(os.getegid()).gr_name
    main = MAIN_CONF.format(
        folder=folder,
        user=user,
        group=group,
        workers=workers,
        connections=connections,
        gzip="on" if gzip else "off",
    )
    (folder / "nginx.conf").write_text(main)
    command = [NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder)]
    return subprocess.Popen(command, stderr=subprocess.DEVNULL if quiet else None)

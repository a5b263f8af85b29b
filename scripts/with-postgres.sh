#!/usr/bin/env bash
# Run a command with DATABASE_URL naming a throw-away PostgreSQL server: a cluster in a temporary
# folder, listening on a free loopback port, stopped and deleted afterwards whatever happens.
#
#   scripts/with-postgres.sh [--fast] COMMAND [ARGUMENTS...]
#
# --fast turns durability off (fsync, synchronous commit), for tests; benchmarks keep it on.
set -euo pipefail
cd "$(dirname "$0")/.."

fast=()
if [ "${1:-}" = "--fast" ]; then
    fast=(-c fsync=off -c synchronous_commit=off -c full_page_writes=off)
    shift
fi
if [ $# -eq 0 ]; then
    echo "scripts/with-postgres.sh: error: no command to run" >&2
    exit 2
fi

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then
    echo "scripts/with-postgres.sh: PostgreSQL is not installed (scripts/system-packages.sh installs it)" >&2
    exit 2
fi

as_postgres() {
    # initdb refuses to run as root: the cluster belongs to the postgres user
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

folder=$(mktemp -d /tmp/tavolo-postgres.XXXXXX)
[ "$(id -u)" -eq 0 ] && chown postgres: "$folder"
port=$(.venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
    as_postgres "$pg_bin/pg_ctl" -D "$folder/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$folder"
}
trap stop EXIT

as_postgres "$pg_bin/initdb" -D "$folder/data" -U tavolo -A trust -E UTF8 --no-sync >/dev/null
options="-h 127.0.0.1 -p $port -k $folder -c max_connections=200 ${fast[*]}"
as_postgres "$pg_bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -s -o "$options" start
as_postgres "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U tavolo tavolo

echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2
DATABASE_URL="postgresql://tavolo@127.0.0.1:$port/tavolo" "$@"

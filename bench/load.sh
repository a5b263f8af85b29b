#!/usr/bin/env bash
# The production load benchmark, on loopback only: gunicorn (2 workers of 4 threads) under wrk with
# 32 connections, `GET /` and the step POST, nginx serving the same page as a static file, and a soak
# with each worker's memory before and after; on SQLite and on a throw-away PostgreSQL.
#
#   bench/load.sh [--seconds 60] [--minutes 10] [--database sqlite|postgres|both] [--json FILE]
#
# Every run is bounded: about 3 x seconds + minutes per database, plus a minute of setting up.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
minutes=10
database=both
json=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=${2:?}; shift 2 ;;
        --minutes) minutes=${2:?}; shift 2 ;;
        --database) database=${2:?}; shift 2 ;;
        --json) json=(--json "${2:?}"); shift 2 ;;
        *) echo "bench/load.sh: error: unknown argument $1" >&2; exit 2 ;;
    esac
done
case "$database" in
    sqlite | postgres | both) ;;
    *) echo "bench/load.sh: error: --database is sqlite, postgres or both, not $database" >&2; exit 2 ;;
esac
for program in wrk nginx; do
    if ! command -v "$program" >/dev/null && [ ! -x "/usr/sbin/$program" ]; then
        echo "bench/load.sh: error: $program is not installed (apt-get install wrk nginx-light)" >&2
        exit 2
    fi
done

load=(.venv/bin/python bench/load.py --seconds "$seconds" --minutes "$minutes" "${json[@]}")
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores" >&2
if [ "$database" != postgres ]; then
    "${load[@]}"
fi
if [ "$database" != sqlite ]; then
    scripts/with-postgres.sh sh -c '"$@" --database-url "$DATABASE_URL"' load "${load[@]}"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

#!/usr/bin/env bash
# Run the web app's tests against a real PostgreSQL: the throw-away server of with-postgres.sh,
# durability off, its address handed to the tests' own variable (DATABASE_URL stays unset, so no
# test can reach the server by accident through the app's default configuration).
#
#   scripts/test-postgres.sh [PYTEST ARGUMENTS...]
#
# With no test path among the arguments, all of tests/webapp runs; with one, only what it names.
set -euo pipefail
cd "$(dirname "$0")/.."
where=tests/webapp
for argument in "$@"; do
    case "$argument" in
        tests/*) where= ;;
    esac
done
exec scripts/with-postgres.sh --fast bash -c \
    'export TAVOLO_TEST_DATABASE_URL="$DATABASE_URL"; unset DATABASE_URL; exec .venv/bin/pytest $0 "$@"' \
    "$where" "$@"

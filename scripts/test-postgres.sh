#!/usr/bin/env bash
# Run the web app's tests against a real PostgreSQL: the throw-away server of with-postgres.sh,
# durability off, its address handed to the tests' own variable (DATABASE_URL stays unset, so no
# test can reach the server by accident through the app's default configuration).
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/with-postgres.sh --fast bash -c \
    'export TAVOLO_TEST_DATABASE_URL="$DATABASE_URL"; unset DATABASE_URL; exec .venv/bin/pytest tests/webapp "$@"' \
    test-postgres "$@"

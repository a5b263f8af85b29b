#!/usr/bin/env bash
# `make run`: migrate the database, publish today's puzzle and the next days', then serve the site on
# http://127.0.0.1:$PORT (5000 by default) with the publishing clock running beside it.
set -euo pipefail
cd "$(dirname "$0")/.."

port=${PORT:-5000}
# a small practice pool for trying the site out: the clock tops it up in the background
export TAVOLO_PRACTICE_POOL=${TAVOLO_PRACTICE_POOL:-20}
flask=(.venv/bin/flask --app webapp)

"${flask[@]}" db upgrade
echo "making sure today's puzzle and the next 7 days' exist (an empty pool takes a minute)"
"${flask[@]}" puzzles ensure

"${flask[@]}" clock &
clock=$!
trap 'kill "$clock" 2>/dev/null || true; wait "$clock" 2>/dev/null || true' EXIT

echo "Tavolo on http://127.0.0.1:$port"
.venv/bin/gunicorn --bind "127.0.0.1:$port" --worker-class gthread --workers 2 --threads 4 \
    --access-logfile - 'webapp:create_app()'

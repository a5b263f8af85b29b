#!/usr/bin/env bash
# The suite under load, as CI on a shared machine sees it: `make test` from a fresh clone of this
# repository's HEAD, RUNS times in a row (3 by default), while two busy processes keep both cores of a
# 2-core machine loaded. Prints each run's time; stops at the first failure, with the end of its log.
#
#   scripts/stress-test.sh [RUNS]
set -euo pipefail
runs=${1:-3}
case "$runs" in
    '' | *[!0-9]*) echo "scripts/stress-test.sh: error: RUNS must be a whole number, not $runs" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
busy=()
stop() {
    [ ${#busy[@]} -eq 0 ] || kill "${busy[@]}" 2>/dev/null || true
    rm -rf "$work"
}
trap stop EXIT
for _ in 1 2; do
    (while :; do :; done) &
    busy+=($!)
done
for run in $(seq "$runs"); do
    git clone --quiet "$root" "$work/run$run"
    started=$(date +%s)
    if (cd "$work/run$run" && make test) >"$work/run$run.log" 2>&1; then
        echo "run $run of $runs: make test passed in $(($(date +%s) - started)) s"
    else
        kept=$(mktemp /tmp/tavolo-stress-run$run.XXXXXX.log)
        cp "$work/run$run.log" "$kept"
        echo "run $run of $runs: make test failed after $(($(date +%s) - started)) s; its log is $kept, which ends:"
        tail -n 60 "$kept"
        exit 1
    fi
    rm -rf "$work/run$run"
done

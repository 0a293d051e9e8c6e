#!/usr/bin/env bash
# The bench signature check (src/README.md, principle 12): `arbiter bench` must print the
# node count named by the newest `Bench: N` line in the git log, and must print it
# every time: two command-line runs and two UCI `bench` runs around a `ucinewgame`
# all give the same count.
#
# usage: scripts/bench_signature.sh [path/to/arbiter]   (default build/arbiter)
# Exit 0 when all agree; 1 on a mismatch (with the figures); 2 when it cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."

ARBITER="${1:-build/arbiter}"
[ -x "$ARBITER" ] || { echo "bench_signature: no engine at $ARBITER" >&2; exit 2; }

nodes_of() { tail -n 1 | awk '$2 == "nodes" && $4 == "nps" { print $1 }'; }

first=$("$ARBITER" bench | nodes_of)
second=$("$ARBITER" bench | nodes_of)
uci=$(printf 'bench\nucinewgame\nbench\nquit\n' | "$ARBITER" | awk '$2 == "nodes" && $4 == "nps" { print $1 }')
uci_first=$(echo "$uci" | sed -n 1p)
uci_second=$(echo "$uci" | sed -n 2p)

echo "bench: command line $first, $second; UCI $uci_first, after ucinewgame $uci_second"
status=0
if [ -z "$first" ] || [ "$first" != "$second" ] || [ "$first" != "$uci_first" ] || [ "$first" != "$uci_second" ]; then
    echo "bench_signature: bench is not repeatable" >&2
    status=1
fi

log=$(git log --format=%B 2>/dev/null || true)
expected=$(printf '%s\n' "$log" | grep -oE '^Bench: [0-9]+' | head -n 1 | grep -oE '[0-9]+' || true)
if [ -n "$expected" ]; then
    echo "newest Bench: in the git log: $expected"
    if [ "$expected" != "$first" ]; then
        echo "bench_signature: bench prints $first but the newest commit message says Bench: $expected" >&2
        status=1
    fi
else
    echo "bench_signature: no 'Bench: N' line in the git log (or no git history)" >&2
    status=1
fi
exit $status

#!/usr/bin/env bash
# Perft speed of Arbiter against Stockfish, single thread, no hashing: start position
# depth 6 and Kiwipete depth 5. Node counts are checked against the published values;
# a wrong count fails the script (exit 1) whatever the speed.
#
# usage: scripts/perft_speed.sh [path/to/arbiter]
#   engine path: the argument, else $ARBITER, else build/arbiter
#   $STOCKFISH   Stockfish binary (default /usr/games/stockfish, Debian's 15.1); when
#                it is missing the comparison is skipped with a message, not failed
#   $REPS        repetitions per measurement, the best one counts (default 3)
#
# Method. Every measurement is a fresh process timed from the outside with
# `date +%s.%N`: Arbiter as `arbiter perft <d> <fen>`, Stockfish as `position fen ...`
# + `go perft <d>` on stdin (Threads 1, Hash 1: its perft neither searches in parallel
# nor probes the hash table). Process start-up (loading, table set-up, Stockfish's net)
# is measured the same way at depth 1 on the same position and subtracted:
#   seconds = best-of-REPS(depth d) - best-of-REPS(depth 1)
# Depth 1 costs microseconds, so what remains is the enumeration alone. The two
# engines alternate within each repetition, so a change in machine load hits both
# alike. Both count the last ply in bulk (a move count instead of a child position),
# so "nodes" is the leaf count of the perft, as published.
#
# Output: per position and engine the nodes, seconds and nodes per second, then the
# ratio of Arbiter's nodes per second to Stockfish's (above 1: Arbiter is faster).

set -euo pipefail

cd "$(dirname "$0")/.."

ARBITER="${1:-${ARBITER:-build/arbiter}}"
STOCKFISH="${STOCKFISH:-/usr/games/stockfish}"
REPS="${REPS:-3}"

STARTPOS='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
KIWIPETE='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
# name|fen|depth|nodes
POSITIONS=(
    "startpos|$STARTPOS|6|119060324"
    "kiwipete|$KIWIPETE|5|193690690"
)

if [[ ! -x "$ARBITER" ]]; then
    echo "perft_speed: no Arbiter binary at '$ARBITER' (build it, or pass its path / set ARBITER)" >&2
    exit 2
fi
HAVE_STOCKFISH=1
if [[ ! -x "$STOCKFISH" ]]; then
    HAVE_STOCKFISH=0
    echo "perft_speed: Stockfish not found at '$STOCKFISH' (Debian: apt install stockfish," \
         "or set STOCKFISH); measuring Arbiter alone" >&2
fi

now() { date +%s.%N; }

# Runs one engine once; prints "<elapsed seconds> <nodes>".
measure() {  # engine fen depth
    local start end out
    start=$(now)
    if [[ $1 == arbiter ]]; then
        out=$("$ARBITER" perft "$3" "$2") || true
    else
        out=$(printf 'setoption name Threads value 1\nsetoption name Hash value 1\nposition fen %s\ngo perft %s\nquit\n' \
                     "$2" "$3" | "$STOCKFISH") || true
    fi
    end=$(now)
    echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", b - a }') $(nodes_of "$out")"
}

nodes_of() {
    local count
    count=$(grep -o 'Nodes searched: [0-9]*' <<<"$1" | awk '{ print $3 }' | tail -n 1)
    echo "${count:-missing}"
}

min() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b + 0 < a + 0) print b; else print a }'; }

status=0
printf '%-9s %-10s %12s %10s %14s\n' position engine nodes seconds nodes/s
for entry in "${POSITIONS[@]}"; do
    IFS='|' read -r name fen depth expected <<<"$entry"
    engines=(arbiter)
    [[ $HAVE_STOCKFISH == 1 ]] && engines+=(stockfish)
    declare -A best=() startup=() nodes=()
    for ((rep = 0; rep < REPS; ++rep)); do
        for engine in "${engines[@]}"; do
            read -r seconds count < <(measure "$engine" "$fen" "$depth")
            if [[ "$count" != "$expected" ]]; then
                echo "perft_speed: $engine $name depth $depth: $count nodes, expected $expected" >&2
                status=1
            fi
            nodes[$engine]=$count
            best[$engine]=$(min "${best[$engine]:-}" "$seconds")
            read -r seconds _ < <(measure "$engine" "$fen" 1)
            startup[$engine]=$(min "${startup[$engine]:-}" "$seconds")
        done
    done
    declare -A nps=()
    for engine in "${engines[@]}"; do
        net=$(awk -v a="${best[$engine]}" -v b="${startup[$engine]}" 'BEGIN { d = a - b; if (d < 0.001) d = 0.001; printf "%.3f", d }')
        nps[$engine]=$(awk -v n="${nodes[$engine]}" -v s="$net" 'BEGIN { printf "%.0f", n / s }')
        printf '%-9s %-10s %12s %10s %14s   (start-up %.3f s subtracted)\n' "$name" "$engine" "${nodes[$engine]}" \
               "$net" "${nps[$engine]}" "${startup[$engine]}"
    done
    if [[ $HAVE_STOCKFISH == 1 ]]; then
        printf '%-9s ratio arbiter/stockfish nodes/s: %s\n' "$name" \
               "$(awk -v a="${nps[arbiter]}" -v b="${nps[stockfish]}" 'BEGIN { printf "%.2f", a / b }')"
    fi
    unset best startup nodes nps
done
if [[ $status != 0 ]]; then
    echo "perft_speed: FAILED: node counts differ from the published values" >&2
fi
exit "$status"

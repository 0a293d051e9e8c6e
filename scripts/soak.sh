#!/usr/bin/env bash
# Long-run soak: Arbiter against itself, both with Threads 2, at a fast time control,
# through scripts/match.py (fastchess or cutechess-cli on PATH). Passes only with zero
# crashes, zero illegal moves, zero time forfeits and no protocol warnings (--strict).
# Run it by hand on an otherwise idle machine (one game at a time: two threads each)
# and report the figures; it is too long for CI.
#
# usage: scripts/soak.sh [games (default 1000)] [tc (default 1+0.01)] [engine (default build/arbiter)]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
games=${1:-1000}
tc=${2:-1+0.01}
engine=${3:-build/arbiter}
exec python3 scripts/match.py --engine "$engine" --engine-name arbiter-a --opponent "$engine" \
    --opponent-name arbiter-b --engine-option Threads=2 --opponent-option Threads=2 \
    --tc "$tc" --games "$games" --concurrency 1 --strict

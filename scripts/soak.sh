#!/usr/bin/env bash
# The tournament-grade soak: every setting of scripts/soak.py's plan (both tournament
# managers, four time controls, Threads 2, pondering, DFRC, Syzygy, strength levels,
# MultiPV, small and large Hash, Move Overhead 0; Debian's stockfish, toga2, glaurung
# and Arbiter itself), a progress line per chunk of games and a summary table of
# forfeits, illegal moves, crashes and protocol warnings per setting. The same command
# continues an interrupted soak. Hours of games: run it on an otherwise idle machine.
#
# usage: scripts/soak.sh [--engine build/arbiter] [--dir soak] [--only NAME,...] [--scale X] [--list]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec python3 scripts/soak.py "$@"

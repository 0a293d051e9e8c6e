#!/usr/bin/env python3
"""Lazy SMP speed-up: time to a fixed depth with T threads against 1 thread.

usage: scripts/smp_speedup.py [--engine build/arbiter] [--threads 2] [--depth 20]
                              [--reps 3] [--hash 64] [--fen FEN ...] [--option NAME=VALUE ...]

For each position (eight middlegames unless --fen is given) and each repetition the
engine searches `go depth D` once with 1 thread and once with T threads, in that
order, each time in a fresh process (so no hash, history or warm cache carries over).
The time is measured from sending `go` to reading `bestmove`. A position's speed-up
is the median 1-thread time over the median T-thread time; the summary is the
geometric mean over the positions. Beside it: the nodes T threads searched to the
depth over the nodes 1 thread needed (all threads counted), and nodes per second with
T threads over 1 thread; the speed-up is about their quotient, so an nps ratio near T
with a speed-up well below it means the threads search much more than one to reach the
depth.
--option sets a UCI option for both (a tuning build's parameters, say).

Run it on an idle machine: every other process takes a core from the T threads.
Exit status: 0, or 1 when the engine misbehaves (no bestmove, a crash).
"""

import argparse
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

MIDDLEGAMES = [
    # Kiwipete (perft suite), a Sicilian, a Queen's Gambit Declined, a King's Indian.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkb1r/1p2pppp/p1np1n2/8/3NP3/2N1B3/PPP2PPP/R2QKB1R w KQkq - 0 7",
    "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "r1bq1rk1/pppnn1bp/3p2p1/3Pp3/2P1Pp2/2N2P2/PP2BBPP/R2QNRK1 w - - 0 13",
    # Four middlegames of the bench (src/search/bench.cpp).
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "2r5/2rk2pp/1pn1pb2/pN1p4/P2P4/1N2B3/nPR1KPPP/3R4 b - - 0 1",
    "r2r2k1/pb3ppp/1p1bp3/7q/3n2nP/PP1B2P1/1B1N1P2/RQ2NRK1 b - - 0 1",
    "2rq1rk1/pp3ppp/2n2b2/4NR2/3P4/PB5Q/1P4PP/3R2K1 w - - 0 1",
]


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        """Lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"engine exited before '{prefix}' (status {self.proc.poll()})")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except (BrokenPipeError, subprocess.TimeoutExpired):
            self.proc.kill()


def search_once(path, fen, depth, threads, hash_mb, options=()):
    """Seconds from `go` to `bestmove`, and the nodes of the last info line."""
    engine = Engine(path)
    try:
        engine.send("uci")
        engine.read_until("uciok")
        engine.send(f"setoption name Threads value {threads}")
        engine.send(f"setoption name Hash value {hash_mb}")
        for name, value in options:
            engine.send(f"setoption name {name} value {value}")
        engine.send("isready")
        engine.read_until("readyok")
        engine.send(f"position fen {fen}")
        engine.send("isready")
        engine.read_until("readyok")
        start = time.perf_counter()
        engine.send(f"go depth {depth}")
        lines = engine.read_until("bestmove")
        seconds = time.perf_counter() - start
    finally:
        engine.close()
    nodes = 0
    for line in lines:
        words = line.split()
        if words[:1] == ["info"] and "nodes" in words:
            nodes = int(words[words.index("nodes") + 1])
    return seconds, nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = Path(__file__).resolve().parent.parent
    parser.add_argument("--engine", default=str(root / "build" / "arbiter"))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--hash", type=int, default=64)
    parser.add_argument("--fen", action="append", help="a position (repeatable); default: eight middlegames")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a UCI option set for every search (repeatable)")
    args = parser.parse_args()
    if args.threads < 2 or args.depth < 1 or args.reps < 1 or args.hash < 1:
        parser.error("--threads must be at least 2; --depth, --reps and --hash at least 1")
    if any("=" not in option for option in args.option):
        parser.error("--option takes NAME=VALUE")
    options = [tuple(part.strip() for part in option.split("=", 1)) for option in args.option]
    fens = args.fen or MIDDLEGAMES

    speedups, node_ratios, nps_ratios = [], [], []
    print(f"{'position':<8} {'1 thread s':>11} {f'{args.threads} threads s':>12} {'speed-up':>9} "
          f"{'nodes ratio':>12} {'nps ratio':>10}")
    for index, fen in enumerate(fens, 1):
        times = {1: [], args.threads: []}
        searched = {1: [], args.threads: []}
        nps = {1: [], args.threads: []}
        try:
            for _ in range(args.reps):
                for threads in (1, args.threads):
                    seconds, nodes = search_once(args.engine, fen, args.depth, threads, args.hash, options)
                    times[threads].append(seconds)
                    searched[threads].append(nodes)
                    nps[threads].append(nodes / seconds)
        except (RuntimeError, OSError) as error:
            print(f"smp_speedup: position {index}: {error}", file=sys.stderr)
            return 1
        single, multi = statistics.median(times[1]), statistics.median(times[args.threads])
        speedup = single / multi
        node_ratio = statistics.median(searched[args.threads]) / max(statistics.median(searched[1]), 1)
        nps_ratio = statistics.median(nps[args.threads]) / statistics.median(nps[1])
        speedups.append(speedup)
        node_ratios.append(node_ratio)
        nps_ratios.append(nps_ratio)
        print(f"{index:<8} {single:>11.2f} {multi:>12.2f} {speedup:>9.2f} {node_ratio:>12.2f} {nps_ratio:>10.2f}")

    def geometric_mean(values):
        return math.exp(sum(math.log(v) for v in values) / len(values))
    print(f"geometric mean: time-to-depth speed-up {geometric_mean(speedups):.2f}, nodes ratio "
          f"{geometric_mean(node_ratios):.2f}, nps ratio {geometric_mean(nps_ratios):.2f} "
          f"(depth {args.depth}, {args.reps} repetitions, median each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

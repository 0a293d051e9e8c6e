#!/usr/bin/env python3
"""Multi-threaded searches under hostile interleavings: Threads 2, with isready,
stop, setoption Hash/Threads/MultiPV and ucinewgame arriving during and between
searches. Run by CTest on the release build, and by scripts/sanitizers.sh on the
ThreadSanitizer build, where a data race makes the engine print a report on stderr
and exit non-zero (TSAN_OPTIONS=halt_on_error=1).

usage: threaded_search_test.py path/to/arbiter [seconds]
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_pipe import Engine, check  # noqa: E402

FENS = [
    "startpos",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R1BQK2R w KQ - 0 8",
    "fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
]


def main():
    binary = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 6.0
    rng = random.Random(5)
    searches = 0
    with Engine(binary) as engine:
        engine.send("uci")
        engine.read_until(lambda l: l == "uciok")
        engine.send("setoption name Threads value 2")
        engine.send("setoption name Hash value 8")
        engine.sync()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            engine.send(f"position {rng.choice(FENS)}")
            kind = rng.randrange(4)
            if kind == 0:
                engine.send("go infinite")
                time.sleep(rng.uniform(0.01, 0.3))
                # During the search: isready answers, setoption and ucinewgame are refused.
                engine.send("isready")
                engine.send("setoption name Hash value 16")
                engine.send("ucinewgame")
                time.sleep(rng.uniform(0.0, 0.1))
                engine.send("stop")
                lines = engine.read_until(lambda l: l.startswith("bestmove"))
                check("readyok" in lines, f"no readyok during the search: {lines[-5:]}")
                errors = [l for l in lines if l.startswith("info string error")]
                check(len(errors) == 2, f"expected 2 refusals during the search, got {errors}")
            elif kind == 1:
                engine.search(f"go movetime {rng.randrange(20, 150)}")
            elif kind == 2:
                engine.search(f"go nodes {rng.randrange(1000, 50000)}")
            else:
                engine.send(f"go depth {rng.randrange(3, 9)}")
                if rng.random() < 0.5:
                    engine.send("stop")
                engine.read_until(lambda l: l.startswith("bestmove"))
            searches += 1
            # Between searches: resize, change threads and lines, new game.
            choice = rng.randrange(5)
            if choice == 0:
                engine.send(f"setoption name Hash value {rng.choice([1, 4, 16, 32])}")
            elif choice == 1:
                engine.send(f"setoption name Threads value {rng.choice([1, 2, 3])}")
            elif choice == 2:
                engine.send(f"setoption name MultiPV value {rng.choice([1, 2, 3])}")
            elif choice == 3:
                engine.send("ucinewgame")
            stray = [l for l in engine.sync() if l.startswith("info string error")]
            check(not stray, f"unexpected errors between searches: {stray}")
        engine.send("quit")
        code = engine.proc.wait(timeout=20)
        stderr = engine.proc.stderr.read()
    check(code == 0, f"exit code {code}; stderr:\n{stderr[-4000:]}")
    check("ThreadSanitizer" not in stderr and "runtime error" not in stderr, f"sanitizer report:\n{stderr[-4000:]}")
    print(f"threaded_search_test: {searches} searches, all answered, clean exit")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"FAILED: {error}")
        sys.exit(1)

#!/usr/bin/env python3
"""Runs Arbiter's perft against an EPD suite at every listed depth.

Each line of the suite is `FEN ;D1 n ;D2 n ...`. On a mismatch it prints Arbiter's
divide and, where Stockfish is installed, Stockfish's divide with the moves whose
counts differ, so the bug can be followed one ply down.

usage: scripts/perft_suite.py [--engine build/arbiter] [--max-depth N] [--chess960] suite.epd...
The Chess960 mode is switched on automatically for files whose name contains 960.
"""
import argparse
import pathlib
import shutil
import subprocess
import sys
import time


class Engine:
    def __init__(self, command, chess960):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        # Perft suites hold positions that no game reaches (standard.epd #51).
        self.send("setoption name Allow Unreachable Positions value true")
        if chess960:
            self.send("setoption name UCI_Chess960 value true")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def divide(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        moves = {}
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.strip()
            if line.startswith("info string error"):
                raise RuntimeError(line)
            if line.startswith("Nodes searched"):
                return int(line.split(":")[1]), moves
            if ":" in line and not line.startswith("info"):
                move, count = line.split(":")
                moves[move.strip()] = int(count)

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def parse_suite(path):
    for line in pathlib.Path(path).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, *depths = line.split(";")
        yield fen.strip(), [(int(d.split()[0][1:]), int(d.split()[1])) for d in depths]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suites", nargs="+")
    parser.add_argument("--engine", default="build/arbiter")
    parser.add_argument("--max-depth", type=int, default=99)
    parser.add_argument("--chess960", action="store_true")
    args = parser.parse_args()

    failures = checked = 0
    start = time.time()
    for suite in args.suites:
        chess960 = args.chess960 or "960" in pathlib.Path(suite).name
        engine = Engine([args.engine], chess960)
        reference = None
        for fen, depths in parse_suite(suite):
            for depth, expected in depths:
                if depth > args.max_depth:
                    continue
                checked += 1
                total, moves = engine.divide(fen, depth)
                if total == expected:
                    continue
                failures += 1
                print(f"MISMATCH {fen} depth {depth}: expected {expected}, got {total}")
                stockfish = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
                if stockfish:
                    reference = reference or Engine([stockfish], chess960)
                    _, theirs = reference.divide(fen, depth)
                    for move in sorted(set(moves) | set(theirs)):
                        if moves.get(move) != theirs.get(move):
                            print(f"  {move}: arbiter {moves.get(move)}  stockfish {theirs.get(move)}")
                else:
                    for move, count in sorted(moves.items()):
                        print(f"  {move}: {count}")
        engine.close()
        if reference:
            reference.close()
    print(f"{checked} perft counts checked, {failures} mismatches, {time.time() - start:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

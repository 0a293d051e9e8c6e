#!/usr/bin/env python3
"""Writes the reference list of tests/data/syzygy5-stockfish.txt: random positions of
every 5-piece table in a folder, each with the WDL value Stockfish reports for it.

    python3 scripts/syzygy5_reference.py ARBITER STOCKFISH TABLES_3_4 TABLES_5 [COUNT] > list

Positions are drawn at random (seeded: the same list every run) for each table, half
with the table's colours and half with them swapped, either side to move; Arbiter
(with Allow Unreachable Positions) drops the illegal ones. Stockfish, with both
folders on its SyzygyPath, searches each to depth 1: with the root in the tables it
reports the score of its table ranking, which gives the root's class:
a mate or a score of at least MinTableWin centipawns is a win, a smaller positive
score a win the fifty-move rule spoils (Stockfish shows those as 1 to about 50 cp),
0 a draw, and the same below zero for losses. Made once with Debian's Stockfish 15.1;
the list is a reference independent of Arbiter's prober.
"""

import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tb_endings  # noqa: E402

# Stockfish shows a table win inside the fifty-move rule as a score near its mate
# bound (above 8000 cp); cursed wins stay below 100 cp.
MinTableWin = 1000
Seed = 20261129


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def ready(self):
        self.send("isready")
        return self.until("readyok")[:-1]


def random_fen(material, rng):
    """A random placement of `material` ("KRPvKR", White before the v), then a random side
    to move (in that order: the committed reference list was drawn so)."""
    fen = tb_endings.random_fen(material, True, rng)
    return fen if rng.random() < 0.5 else fen.replace(" w ", " b ")


def stockfish_wdl(sf, fen):
    sf.send("position fen " + fen)
    sf.send("go depth 1")
    score = None
    for line in sf.until("bestmove"):
        words = line.split()
        if "score" in words:
            i = words.index("score")
            score = (words[i + 1], int(words[i + 2]))
    kind, value = score
    if kind == "mate":
        return "win" if value > 0 else "loss"  # mate 0: the side to move is mated
    if value >= MinTableWin:
        return "win"
    if value > 0:
        return "cursed-win"
    if value == 0:
        return "draw"
    return "blessed-loss" if value > -MinTableWin else "loss"


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    arbiter_path, stockfish_path, tables34, tables5 = sys.argv[1:5]
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 300
    arbiter = Engine(arbiter_path)
    arbiter.send("setoption name Allow Unreachable Positions value true")
    arbiter.ready()
    sf = Engine(stockfish_path)
    sf.send("uci")
    sf.until("uciok")
    sf.send(f"setoption name SyzygyPath value {tables34}:{tables5}")
    found = sf.ready()
    print("# Random positions of the 5-piece tables, each with Stockfish 15.1's WDL for the side to")
    print("# move (scripts/syzygy5_reference.py; " + " ".join(found) + ").")
    print("# FEN; WDL")
    rng = random.Random(Seed)
    tables = sorted(name[:-5] for name in os.listdir(tables5) if name.endswith(".rtbw"))
    for table in tables:
        strong, weak = table.split("v")
        for material in (table, weak + "v" + strong):
            written = 0
            while written < count // 2:
                fen = random_fen(material, rng)
                arbiter.send("position fen " + fen)
                if arbiter.ready():  # an error line: not a legal position
                    continue
                print(f"{fen}; {stockfish_wdl(sf, fen)}")
                written += 1
    sf.send("quit")
    arbiter.send("quit")
    return 0


if __name__ == "__main__":
    sys.exit(main())

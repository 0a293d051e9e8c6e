#!/usr/bin/env python3
"""Writes an EPD of won (or drawn) tablebase endings for the play test of the Syzygy support.

Random positions of the given materials (the first side White) are asked of the
engine (`d` prints `Tablebase: WDL <...>, DTZ <n>` with SyzygyPath set) and kept when
the side to move has the asked result, nobody is in check and, for wins, the DTZ lies
in the asked range (a long DTZ: the win needs technique). The files committed as
tests/data/syzygy_wins.epd and tests/data/syzygy_draws.epd were made by

    python3 scripts/tb_endings.py --tables tests/data/syzygy \\
        KQvKR:6:20:70 KBNvK:6:30:70 KRvKP:5:15:60 KQvKP:3:15:60 > tests/data/syzygy_wins.epd
    python3 scripts/tb_endings.py --tables tests/data/syzygy --result draw \\
        KQvKP:4:0:0 KRvKP:3:0:0 KPvKP:3:0:0 > tests/data/syzygy_draws.epd

Each material is NAME:COUNT:MIN_DTZ:MAX_DTZ. Deterministic for a given --seed.
"""
import argparse
import pathlib
import random
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent


def random_fen(material: str, white_to_move: bool, rng: random.Random) -> str:
    board = {}
    white = True
    for letter in material:
        if letter == "v":
            white = False
            continue
        while True:
            square = rng.randrange(64)
            if square in board or (letter == "P" and not 8 <= square < 56):
                continue
            break
        board[square] = letter if white else letter.lower()
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = board.get(rank * 8 + file)
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
            empty = 0
            row += piece
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + (" w - - 0 1" if white_to_move else " b - - 0 1")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=str(REPO / "build" / "arbiter"))
    parser.add_argument("--tables", required=True, help="SyzygyPath for the engine")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--result", choices=["win", "draw"], default="win", help="the side to move's result")
    parser.add_argument("materials", nargs="+", help="NAME:COUNT:MIN_DTZ:MAX_DTZ, e.g. KQvKR:7:20:70")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    engine = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(fen: str):
        """(checkers, wdl, dtz) of a position, or None when the engine refuses it."""
        engine.stdin.write(f"position fen {fen}\nd\nisready\n")
        engine.stdin.flush()
        checkers, wdl, dtz, refused = None, None, None, False
        while True:
            line = engine.stdout.readline().strip()
            if line == "readyok":
                break
            if line.startswith("info string error"):
                refused = True
            elif line.startswith("Checkers:"):
                checkers = line[len("Checkers:"):].strip()
            elif line.startswith("Tablebase: WDL "):
                parts = line[len("Tablebase: WDL "):].split(", DTZ ")
                # "unknown" where a table the DTZ needs (after a promotion, say) is missing
                wdl, dtz = parts[0], int(parts[1]) if parts[1].lstrip("-").isdigit() else None
        return None if refused or wdl is None or dtz is None else (checkers, wdl, dtz)

    engine.stdin.write(f"setoption name SyzygyPath value {args.tables}\n")
    for spec in args.materials:
        name, count, low, high = spec.split(":")
        found = 0
        for _ in range(200000):
            if found == int(count):
                break
            fen = random_fen(name, rng.random() < 0.5, rng)
            answer = ask(fen)
            if answer is None:
                continue
            checkers, wdl, dtz = answer
            if wdl != args.result or checkers or not int(low) <= dtz <= int(high):
                continue
            verdict = f"won, DTZ {dtz}" if args.result == "win" else "drawn"
            print(f"{fen.rsplit(' ', 2)[0]} c0 \"{name} {verdict}\";")
            found += 1
        if found < int(count):
            print(f"tb_endings: only {found} {name} positions found", file=sys.stderr)
            return 1
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    engine.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())

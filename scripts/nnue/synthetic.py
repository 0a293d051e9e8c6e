#!/usr/bin/env python3
"""Writes synthetic `.abin` training data to check the trainer without real games.

Positions are random but plausible: both kings (never adjacent), for each side a random
number of pawns (0-8, never on ranks 1 or 8), knights, bishops, rooks (0-2 each) and
queens (0-1), on random free squares, random side to move. The score is the material
balance from White's point of view (P=100, N=300, B=320, R=500, Q=900) and the result is
drawn so that White's expected game score is sigmoid(score / 400), with draws most
likely when the material is level.

    python3 scripts/nnue/synthetic.py OUT.abin --count 1000000 --seed 1
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import system_python  # noqa: E402

system_python.require("numpy")
import numpy as np  # noqa: E402
import abin  # noqa: E402

VALUES = np.array([100, 300, 320, 500, 900, 0], dtype=np.int64)  # P N B R Q K
MAX_COUNT = np.array([8, 2, 2, 2, 1], dtype=np.int64)  # pawns .. queens per side


def _kings_adjacent(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (np.abs(a // 8 - b // 8) <= 1) & (np.abs(a % 8 - b % 8) <= 1)


def generate(count: int, seed: int = 1):
    """(boards (count, 64) int16 codes / -1, stm, score_white, result)."""
    rng = np.random.default_rng(seed)
    n = count
    # Piece counts per side and type: each piece of a full set is kept independently with
    # a per-position probability (both sparse and crowded boards occur), slightly
    # different for the two sides (material imbalances of a few pawns are common).
    base = rng.random((n, 1, 1))
    keep = np.clip(base + rng.normal(0.0, 0.1, (n, 2, 1)), 0.0, 1.0)
    counts = (rng.random((n, 2, 5, 8)) < keep[..., None]) & (np.arange(8) < MAX_COUNT[:, None])
    counts = counts.sum(axis=3)  # (n, 2, 5)

    boards = np.full((n, 64), -1, dtype=np.int16)
    rows = np.arange(n)
    # Kings first (not adjacent, resampled until they are not).
    wk = rng.integers(0, 64, n)
    bk = rng.integers(0, 64, n)
    bad = (wk == bk) | _kings_adjacent(wk, bk)
    while bad.any():
        bk[bad] = rng.integers(0, 64, int(bad.sum()))
        bad = (wk == bk) | _kings_adjacent(wk, bk)
    boards[rows, wk] = 5
    boards[rows, bk] = 11

    # Pawns: random free squares of ranks 2-7, by sorting random keys (taken squares last).
    middle = np.arange(8, 56)
    taken = boards[:, middle] >= 0
    keys = rng.random((n, 48)) + taken * 2.0
    order = np.argsort(keys, axis=1)
    slot = 0
    for colour in (0, 1):
        for k in range(8):
            present = counts[:, colour, 0] > k
            sq = middle[order[:, slot]]
            boards[rows[present], sq[present]] = 6 * colour
            slot += 1
    # Pieces: random free squares anywhere.
    taken = boards >= 0
    keys = rng.random((n, 64)) + taken * 2.0
    order = np.argsort(keys, axis=1)
    slot = 0
    for colour in (0, 1):
        for t in range(1, 5):
            for k in range(int(MAX_COUNT[t])):
                present = counts[:, colour, t] > k
                sq = order[:, slot]
                boards[rows[present], sq[present]] = 6 * colour + t
                slot += 1

    material = (counts * VALUES[:5]).sum(axis=2)  # (n, 2)
    score = material[:, 0] - material[:, 1]
    stm = rng.integers(0, 2, n).astype(np.uint8)
    expected = 1.0 / (1.0 + np.exp(-score / 400.0))
    p_draw = 0.4 * (1.0 - np.abs(2.0 * expected - 1.0))
    p_white = expected - p_draw / 2.0
    u = rng.random(n)
    result = np.where(u < p_white, abin.RESULT_WHITE_WINS, np.where(u < p_white + p_draw, abin.RESULT_DRAW, abin.RESULT_BLACK_WINS))
    return boards, stm, score, result.astype(np.uint8)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Write a synthetic .abin file (material scores)")
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=250_000)
    args = ap.parse_args(argv)
    t0 = time.time()
    written = 0
    with open(args.out, "wb") as f:
        for i, start in enumerate(range(0, args.count, args.chunk)):
            m = min(args.chunk, args.count - start)
            boards, stm, score, result = generate(m, seed=args.seed * 1_000_003 + i)
            records = abin.encode_boards(boards, score, result, stm, halfmove=0, flags=0, fullmove=1)
            f.write(records.tobytes())
            written += m
    print(f"wrote {written} positions to {args.out} in {time.time() - t0:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

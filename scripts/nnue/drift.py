#!/usr/bin/env python3
"""How each net's raw evaluation relates to its predecessor's, by piece count.

    python3 scripts/nnue/drift.py --data FILE.abin NET1.anet NET2.anet ... [--positions N]

The engine scales the net's output before the search sees it (search.cpp,
Worker::evaluate): by (800 + 12 per knight or bishop + 20 per rook + 36 per queen) /
1024 and by (200 - halfmove clock) / 200 (search/tunables.h; dataset.engine_scale).
Self-play stores the search's scores, so a net trained on them learns the scaled
target, and the next engine scales it again. For each pair of consecutive
nets (in the order given) this prints, per piece count, the least-squares slope of the
later net's raw evaluation on the earlier one's (through the origin, positions whose
evaluations are within 1000 cp), beside the mean scale the engine applies there: a slope
that follows the scale below 1 is the shrinking passed on from one generation to the
next. It also prints each net's slope against the data's stored scores."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import system_python  # noqa: E402

system_python.require("numpy", "torch")

import argparse  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

import abin  # noqa: E402
import dataset  # noqa: E402
import netfile  # noqa: E402
from model import PerspectiveNet, start_from_net  # noqa: E402

GROUPS = [(2, 5), (6, 9), (10, 13), (14, 17), (18, 21), (22, 25), (26, 29), (30, 32)]


def raw_evals(net_path, data, batch_size=16384) -> np.ndarray:
    """The net's evaluation in centipawns (side to move's view) of every position of `data`."""
    net = netfile.read(net_path)
    king_buckets = net.ft_weights.shape[0] // netfile.INPUTS
    model = PerspectiveNet(hidden=net.hidden, buckets=net.buckets, qat="all", king_buckets=king_buckets)
    start_from_net(model, net)
    model.eval()
    out = []
    with torch.no_grad():
        for start in range(0, len(data), batch_size):
            part = slice(start, start + batch_size)
            # In the data's order (not sorted by piece count): one evaluation per position, in place.
            batch = dataset.cpu_batch(data.feats[part], data.score[part], data.result2[part], False,
                                      sort_by_pieces=False, king_buckets=king_buckets)
            out.append((model(batch) * 400.0).numpy().astype(np.float64))
    return np.concatenate(out)


def slope(x: np.ndarray, y: np.ndarray) -> str:
    """"a/b": the least-squares slope of y on x through the origin, and the ratio of their
    root mean squares. Noise in x pulls the first below 1 even when y is x plus noise; the
    second is symmetric in x and y, the measure of how much larger y's scale is."""
    keep = (np.abs(x) < 1000) & (np.abs(y) < 1000)
    x, y = x[keep], y[keep]
    ols = (x * y).sum() / max((x * x).sum(), 1e-9)
    rms = np.sqrt((y * y).sum() / max((x * x).sum(), 1e-9))
    return f"{ols:.3f}/{rms:.3f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("nets", nargs="+", help=".anet files, oldest first")
    ap.add_argument("--data", required=True, nargs="+", help=".abin files")
    ap.add_argument("--positions", type=int, default=200000, help="use the first N positions")
    args = ap.parse_args(argv)
    torch.set_num_threads(max(1, (os.cpu_count() or 2) - 1))
    data = dataset.Dataset.load(args.data, args.positions, log=lambda *_: None)
    pieces = (data.feats != abin.PAD).sum(axis=1)
    records = abin.load_records(args.data, len(data))
    scale = dataset.engine_scale(data.feats, records["halfmove"])
    stored = data.score.astype(np.float64)
    evals = [raw_evals(path, data) for path in args.nets]
    for i, path in enumerate(args.nets, 1):
        print(f"net {i}: {path}")

    header = "pieces   positions  engine scale  " + "  ".join(f"{'net ' + str(i):>14}" for i in range(1, len(evals) + 1))
    print("\nslope of each net's raw evaluation on the stored search scores (mean engine scale beside):")
    print(header)
    for lo, hi in GROUPS + [(2, 32)]:
        m = (pieces >= lo) & (pieces <= hi)
        if m.sum() < 100:
            continue
        cells = "  ".join(f"{slope(stored[m], e[m]):>14}" for e in evals)
        print(f"{lo:>2}-{hi:<2}  {int(m.sum()):>10}  {scale[m].mean():12.3f}  {cells}")
    print("\nslope of each net's raw evaluation on its predecessor's:")
    print("pieces   positions  engine scale  " + "  ".join(f"{f'{i + 1} on {i}':>14}" for i in range(1, len(evals))))
    for lo, hi in GROUPS + [(2, 32)]:
        m = (pieces >= lo) & (pieces <= hi)
        if m.sum() < 100:
            continue
        cells = "  ".join(f"{slope(a[m], b[m]):>14}" for a, b in zip(evals, evals[1:]))
        print(f"{lo:>2}-{hi:<2}  {int(m.sum()):>10}  {scale[m].mean():12.3f}  {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

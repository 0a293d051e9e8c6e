#!/usr/bin/env python3
"""The training loss of trained nets on a data set: which net predicts these positions'
scores and results best.

    python3 scripts/nnue/net_loss.py --data FILE.abin [--data FILE2.abin ...] [--lambda L [--lambda L2 ...]] NET.anet ...

For each net and each lambda, the mean over all positions of
|sigmoid(eval / 400) - target|^power with target = lambda * sigmoid(score / 400) +
(1 - lambda) * result, exactly as train.py computes its losses (the net read from its
file, so the evaluation is the quantised net's). lambda 1 measures the scores alone,
0 the results alone; the defaults are 1, 0.75 (training's) and 0.

Made for a validation set that resembles real play: positions of Arbiter's match games
(`arbiter convert GAMES.pgn OUT.abin`), scored by searches far deeper than the data
generator's. Such a set is scored by one net's searches, so it leans toward that net:
use it to rank candidates against each other, and let games decide (nets/README.md)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import system_python  # noqa: E402

system_python.require("numpy", "torch")

import argparse  # noqa: E402
import types  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

import dataset  # noqa: E402
import netfile  # noqa: E402
from model import PerspectiveNet, start_from_net  # noqa: E402
import train  # noqa: E402


def net_losses(net_path, data, lambdas, power=2.0, batch_size=16384):
    """{lambda: loss} of the net in `net_path` over every position of `data` (dataset.Dataset)."""
    net = netfile.read(net_path)
    king_buckets = net.ft_weights.shape[0] // netfile.INPUTS
    model = PerspectiveNet(hidden=net.hidden, buckets=net.buckets, qat="all", king_buckets=king_buckets)
    start_from_net(model, net)
    model.eval()
    source = dataset.BatchSource(data, torch.device("cpu"), False, king_buckets=king_buckets)
    ids = np.arange(len(data), dtype=np.int64)
    return {lam: train.evaluate_loss(model, source, ids, types.SimpleNamespace(lam=lam, power=power, batch_size=batch_size))
            for lam in lambdas}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Loss of trained .anet nets on .abin data")
    ap.add_argument("nets", nargs="+", help=".anet files")
    ap.add_argument("--data", action="append", required=True, help="an .abin file (repeat for more, concatenated)")
    ap.add_argument("--lambda", dest="lambdas", type=float, action="append",
                    help="weight of the score in the target; repeat for several (default: 1, 0.75 and 0)")
    ap.add_argument("--power", type=float, default=2.0)
    ap.add_argument("--threads", type=int, default=max(1, os.cpu_count() or 1))
    args = ap.parse_args(argv)
    args.lambdas = args.lambdas or [1.0, 0.75, 0.0]
    if any(not 0 <= lam <= 1 for lam in args.lambdas) or args.power <= 0:
        ap.error("every --lambda must be within [0, 1], --power above 0")
    torch.set_num_threads(args.threads)
    try:
        data = dataset.Dataset.load(args.data, log=lambda *a, **k: None)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if len(data) == 0:
        print("error: no positions", file=sys.stderr)
        return 1
    print(f"{len(data)} positions; loss |sigmoid(eval / 400) - target|^{args.power:g}")
    print(f"{'net':40}" + "".join(f"{'lambda ' + format(lam, 'g'):>14}" for lam in args.lambdas))
    for path in args.nets:
        try:
            losses = net_losses(path, data, args.lambdas, args.power)
        except (OSError, netfile.NetFileError, ValueError) as e:
            print(f"error: {path}: {e}", file=sys.stderr)
            return 1
        print(f"{path:40}" + "".join(f"{losses[lam]:14.6f}" for lam in args.lambdas))
    return 0


if __name__ == "__main__":
    sys.exit(main())

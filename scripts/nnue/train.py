#!/usr/bin/env python3
"""Trainer of Arbiter's NNUE: (768 [x 4] -> H) x 2 -> 1 x B, SCReLU, on `.abin` self-play data.

    python3 scripts/nnue/train.py --data data/*.abin --epochs 20 --out nets/arbiter-003.anet \
        --hidden 384 --buckets 8 --checkpoint run1.pt --log run1.log     (loss curve: run1.png)

The network and its gradients are in model.py, the data and its batches in dataset.py;
this file holds the loss, the schedules, the checks and the training loop. The net's
output y (model.py) is trained toward a blend of the stored score and the game's result:
    loss = mean |sigmoid(y) - target|^p,
    target = lambda * sigmoid(score_stm / 400) + (1 - lambda) * result_stm.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import system_python  # noqa: E402

system_python.require("numpy", "torch")
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import abin  # noqa: E402
import netfile  # noqa: E402
from dataset import BatchSource, Dataset, cpu_batch  # noqa: E402
from model import PerspectiveNet, start_from_net  # noqa: E402

INPUTS = netfile.INPUTS
PAD = abin.PAD

SANITY_FENS = [
    ("start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("start, Black to move", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
    ("White a queen up, W to move", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("White a queen up, B to move", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
    ("Black a queen up, W to move", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1"),
    ("White a pawn up, W to move", "rnbqkbnr/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("White a pawn up, B to move", "rnbqkbnr/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
    ("Black a rook up, W to move", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1"),
    ("Italian opening", "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
    ("KQ v K", "8/8/8/4k3/8/8/3QK3/8 w - - 0 1"),
    ("KQ v K, B to move", "8/8/8/4k3/8/8/3QK3/8 b - - 0 1"),
    ("KR v KR", "8/3r4/4k3/8/8/4K3/3R4/8 w - - 0 1"),
]


# ----------------------------------------------------------------------------- training


def loss_fn(y: torch.Tensor, batch, lam: float, power: float) -> torch.Tensor:
    target = lam * torch.sigmoid(batch["score"] / 400.0) + (1.0 - lam) * batch["result"]
    diff = torch.sigmoid(y) - target
    if power == 2.0:
        return diff.square().mean()
    return diff.abs().pow(power).mean()


def lr_factor(step: int, total_steps: int, steps_per_epoch: int, args) -> float:
    if step < args.warmup_steps:
        return (step + 1) / args.warmup_steps
    if args.lr_schedule == "constant":
        return 1.0
    if args.lr_schedule == "step":
        epoch = step // max(1, steps_per_epoch)
        return args.step_gamma ** (epoch // args.step_epochs)
    # cosine from 1 down to min_lr_factor over the steps after the warm-up
    span = max(1, total_steps - args.warmup_steps)
    progress = min(1.0, (step - args.warmup_steps) / span)
    return args.min_lr_factor + (1.0 - args.min_lr_factor) * 0.5 * (1.0 + math.cos(math.pi * progress))


def lambda_at(step: int, total_steps: int, args) -> float:
    """The score's weight in the target at this step: --lambda, moving linearly to
    --lambda-end over the run when that is given."""
    if args.lam_end is None:
        return args.lam
    return args.lam + (args.lam_end - args.lam) * min(1.0, step / max(1, total_steps))


def evaluate_loss(model, source: BatchSource, ids: np.ndarray, args) -> float:
    if len(ids) == 0:
        return float("nan")
    total, count = 0.0, 0
    with torch.no_grad():
        for batch in source.batches(ids, args.batch_size, train=False, drop_last=False):
            y = model(batch)
            n = y.shape[0]
            total += float(loss_fn(y, batch, getattr(args, "val_lam", args.lam), args.power)) * n
            count += n
    return total / count


def random_feature_rows(rng: np.random.Generator, n: int) -> np.ndarray:
    """n rows of plain side-to-move features, PAD-padded: one king of each colour and up
    to 30 other distinct features (not necessarily a legal position)."""
    others = np.setdiff1d(np.arange(INPUTS), np.r_[abin.OWN_KING : abin.OWN_KING + 64, abin.THEIR_KING : INPUTS])
    feats = np.full((n, abin.MAX_PIECES), PAD, dtype=np.int16)
    for i in range(n):
        k = int(rng.integers(2, 33))
        feats[i, 0] = abin.OWN_KING + rng.integers(64)
        feats[i, 1] = abin.THEIR_KING + rng.integers(64)
        feats[i, 2:k] = rng.choice(others, k - 2, replace=False)
        feats[i, :k] = rng.permutation(feats[i, :k])
    return feats


def check_gradients(seed: int = 1) -> None:
    """Built-in check: the sparse backward and the fused head give the same gradients as
    plain autograd through embedding_bag, clamp, square and matmul (double precision),
    with and without fake quantisation, with and without king buckets (whose gradient
    reaches the bucket rows and the factor through the merged matrix)."""
    rng = np.random.default_rng(seed)
    feats = random_feature_rows(rng, 64)
    score = rng.integers(-600, 600, 64).astype(np.int16)
    result2 = rng.integers(0, 3, 64).astype(np.uint8)
    # Sorted by piece count, the head computes each bucket's run; unsorted, all buckets.
    for sort in (True, False):
        for king_buckets in (1, netfile.KING_BUCKETS):
            batch = cpu_batch(feats, score, result2, with_grad_prep=True, sort_by_pieces=sort, king_buckets=king_buckets)
            batch["score"], batch["result"] = batch["score"].double(), batch["result"].double()
            check_gradients_of_batch(batch, seed, king_buckets)


def check_gradients_of_batch(batch, seed: int, king_buckets: int = 1) -> None:
    for qat in ("none", "all"):
        for buckets in (1, netfile.BUCKETS) if king_buckets == 1 else (netfile.BUCKETS,):
            model = PerspectiveNet(hidden=128, buckets=buckets, seed=seed, qat=qat, king_buckets=king_buckets).double()
            if king_buckets > 1:  # bucket rows that differ from each other (they start at 0)
                with torch.no_grad():
                    g = torch.Generator().manual_seed(seed)
                    model.ft_weight.add_(torch.randn(model.ft_weight.shape, generator=g, dtype=torch.float64) * 0.05)
            loss_fn(model(batch), batch, 0.75, 2.0).backward()
            grads = [p.grad.clone() for p in model.parameters()]
            model.zero_grad()
            fw, fb = model.effective()[:2]
            acc = F.embedding_bag(batch["flat"], fw, batch["offsets"], mode="sum") + fb
            loss_fn(model.forward_acc_reference(acc, batch["pieces"]), batch, 0.75, 2.0).backward()
            err = max(float((g - p.grad).abs().max()) for g, p in zip(grads, model.parameters()))
            if not err < 1e-12:
                raise RuntimeError(f"gradient check failed (qat {qat}, {buckets} buckets, {king_buckets} king buckets): "
                                   f"max error {err}")


def save_checkpoint(path, state) -> None:
    tmp = f"{path}.tmp"
    torch.save(state, tmp)
    os.replace(tmp, path)


def plot_history(path, history, title="Arbiter NNUE training") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = [h["epoch"] for h in history]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(epochs, [h["train_loss"] for h in history], "o-", label="training")
    ax.plot(epochs, [h["val_loss"] for h in history], "s-", label="validation")
    ax.set_xlabel("epoch")
    ax.set_ylabel("loss")
    ax.set_yscale("log")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    # The learning rate at the end of each epoch, on its own axis: the schedule's shape
    # next to the losses it produced.
    lr_ax = ax.twinx()
    lr_ax.plot(epochs, [h["lr"] for h in history], ":", color="grey", label="learning rate (right)")
    lr_ax.set_ylabel("learning rate")
    lines = ax.get_lines() + lr_ax.get_lines()
    ax.legend(lines, [line.get_label() for line in lines])
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description="Train Arbiter's (768 [x 4] -> H) x 2 -> 1 x B NNUE on .abin data")
    ap.add_argument("--data", nargs="+", required=True, help=".abin files")
    ap.add_argument("--out", default="net.anet", help="quantised network to write (default net.anet)")
    ap.add_argument("--hidden", type=int, default=netfile.HIDDEN, choices=netfile.HIDDEN_SIZES,
                    help="neurons per perspective (default 256)")
    ap.add_argument("--buckets", type=int, default=netfile.BUCKETS, choices=(1, netfile.BUCKETS),
                    help="output buckets by piece count: 8 (architecture 2, default) or 1 (architecture 1, as gen2-a)")
    ap.add_argument("--log", default=None,
                    help="copy everything printed to this file; the loss curve goes next to it (same name, .png)")
    ap.add_argument("--epochs", type=int, default=10, help="total epochs (also when resuming)")
    ap.add_argument("--batch-size", type=int, default=16384)
    ap.add_argument("--lr", type=float, default=1e-3, help="peak learning rate")
    ap.add_argument("--wd", type=float, default=1e-4, help="AdamW weight decay (weights only, not biases)")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.75, help="weight of the score in the target (rest: game result)")
    ap.add_argument("--lambda-end", dest="lam_end", type=float, default=None,
                    help="lambda at the end of the run, reached linearly from --lambda (default: --lambda throughout); "
                         "the validation loss uses this one")
    ap.add_argument("--unscale", action="store_true",
                    help="divide each stored score by the scale the engine applied to its search's evaluations "
                         "(material and the fifty-move counter; dataset.engine_scale())")
    ap.add_argument("--min-ply", type=int, default=0,
                    help="leave out positions before this game ply (2 * (fullmove - 1) + side to move)")
    ap.add_argument("--power", type=float, default=2.0, help="loss exponent p in |sigmoid(y) - target|^p (e.g. 2.5)")
    ap.add_argument("--lr-schedule", choices=["cosine", "step", "constant"], default="cosine")
    ap.add_argument("--warmup-steps", type=int, default=-1, help="linear warm-up steps (-1: 2%% of all steps, at most 1000)")
    ap.add_argument("--min-lr-factor", type=float, default=0.02, help="cosine: final lr = lr * this")
    ap.add_argument("--step-epochs", type=int, default=4, help="step schedule: decay every this many epochs")
    ap.add_argument("--step-gamma", type=float, default=0.3, help="step schedule: decay factor")
    ap.add_argument("--val-fraction", type=float, default=0.02)
    ap.add_argument("--val-split", choices=["tail", "random"], default="tail",
                    help="validation positions: the last ones of the data (whole games; default) or a random sample")
    ap.add_argument("--max-positions", type=int, default=None, help="use only the first N positions of the files")
    ap.add_argument("--checkpoint", default=None, help="save a resumable checkpoint here after every epoch")
    ap.add_argument("--stop-after", type=int, default=None,
                    help="stop after this many epochs of this run (the schedule still spans --epochs; continue with --resume)")
    ap.add_argument("--resume", default=None, help="resume from this checkpoint")
    ap.add_argument("--init-from", default=None, metavar="NET",
                    help="start from this .anet's weights instead of random ones (same hidden size; a net with one "
                         "output or without king buckets may start a run with more)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=max(1, (os.cpu_count() or 1) - 1),
                    help="CPU threads for torch (default: all cores but one, which prepares batches)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--data-on-device", choices=["auto", "yes", "no"], default="auto", help="CUDA: keep the whole data set in GPU memory")
    ap.add_argument("--qat", choices=["none", "out", "all"], default="all",
                    help="fake-quantise these weights in the forward pass (straight-through gradient) "
                         "so that the float and the quantised net agree (default: all)")
    ap.add_argument("--dense-batches", action="store_true",
                    help="CPU: use the padded-index batches of the GPU path (slower; for testing that path)")
    ap.add_argument("--init-scale", type=float, default=0.1, help="std of the initial feature weights")
    ap.add_argument("--king-buckets", type=int, default=1,
                    help=f"king input buckets: 1 (none, default) or {netfile.KING_BUCKETS} (architecture "
                         f"{netfile.ARCH_KING_BUCKETS}: by the own king's square, mirrored by its file, factorised; "
                         f"needs --buckets {netfile.BUCKETS}, excludes --mirror)")
    ap.add_argument("--mirror", action="store_true",
                    help="augment: mirror each training position left-right (files a <-> h) with probability 1/2")
    ap.add_argument("--plot", default=None, help="write the loss curves to this PNG (default with --log: beside the log)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines within an epoch")
    args = ap.parse_args(argv)
    if args.power <= 0 or not 0 <= args.lam <= 1 or not 0 <= args.val_fraction < 1 or args.batch_size < 1:
        ap.error("bad --power / --lambda / --val-fraction / --batch-size")
    if args.lam_end is not None and not 0 <= args.lam_end <= 1:
        ap.error("bad --lambda-end")
    if args.min_ply < 0:
        ap.error("bad --min-ply")
    args.val_lam = args.lam if args.lam_end is None else args.lam_end
    kb = args.king_buckets
    if kb not in (1, netfile.KING_BUCKETS):
        ap.error(f"--king-buckets {kb}: the format has 1 (no king buckets) or {netfile.KING_BUCKETS} "
                 f"(architecture {netfile.ARCH_KING_BUCKETS})")
    if kb > 1 and args.buckets != netfile.BUCKETS:
        ap.error(f"--king-buckets {kb} needs --buckets {netfile.BUCKETS} "
                 f"(architecture {netfile.ARCH_KING_BUCKETS} has {netfile.BUCKETS} output buckets)")
    if kb > 1 and args.mirror:
        ap.error(f"--mirror with --king-buckets {kb}: the king-bucketed inputs are already mirrored by the "
                 "king's file, so a position mirrored left-right has the same features; drop --mirror")
    if args.init_from and args.resume:
        ap.error("--init-from with --resume: a checkpoint holds its own weights")
    if args.log and not args.plot:
        args.plot = os.path.splitext(args.log)[0] + ".png"
    return args


class Tee:
    """stdout copied to a log file (appended: a resumed run continues its log)."""

    def __init__(self, path, stream):
        self.file = open(path, "a", encoding="utf-8")
        self.stream = stream

    def write(self, text):
        self.stream.write(text)
        self.file.write(text)
        return len(text)

    def flush(self):
        self.stream.flush()
        self.file.flush()


def tune_malloc() -> None:
    """glibc returns large freed blocks to the OS at once, so every (batch, 256) float
    temporary costs fresh zeroed pages (page faults dominated the CPU step time); keep
    blocks up to 1 GiB in the heap and never trim it."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL("libc.so.6")
            libc.mallopt(-3, 1 << 30)  # M_MMAP_THRESHOLD
            libc.mallopt(-1, 2**31 - 1)  # M_TRIM_THRESHOLD
        except (OSError, AttributeError):
            pass


def main(argv=None) -> int:
    args = parse_args(argv)
    if not args.log:
        return train(args)
    saved = sys.stdout
    sys.stdout = Tee(args.log, saved)
    try:
        print(f"== {time.strftime('%Y-%m-%d %H:%M:%S')} train.py {' '.join(sys.argv[1:] if argv is None else argv)}")
        return train(args)
    finally:
        sys.stdout.flush()
        sys.stdout.file.close()
        sys.stdout = saved


def train(args) -> int:
    t_start = time.time()
    tune_malloc()
    torch.set_num_threads(max(1, args.threads))
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        print("error: --device cuda but CUDA is not available", file=sys.stderr)
        return 1
    print(f"torch {torch.__version__}, device {device}, threads {torch.get_num_threads()}")

    data = Dataset.load(args.data, args.max_positions, unscale=args.unscale, min_ply=args.min_ply)
    n = len(data)
    if n == 0:
        print("error: no positions", file=sys.stderr)
        return 1
    n_val = int(round(n * args.val_fraction))
    index_type = np.int64 if n >= 2**31 else np.int32
    if args.val_split == "tail":
        # The files hold whole games in order: the last positions are games the net never
        # sees (except the one game cut by the boundary). A random split puts neighbouring
        # positions of the same game on both sides, and its loss rewards memorising games.
        val_ids, train_ids = np.arange(n - n_val, n, dtype=index_type), np.arange(n - n_val, dtype=index_type)
    else:
        perm = np.random.default_rng(args.seed).permutation(n).astype(index_type)
        val_ids, train_ids = np.sort(perm[:n_val]), perm[n_val:]
        del perm
    steps_per_epoch = max(1, len(train_ids) // args.batch_size)
    total_steps = steps_per_epoch * args.epochs
    if args.warmup_steps < 0:
        args.warmup_steps = min(1000, max(1, total_steps // 50))
    print(f"train {len(train_ids)}, validation {n_val}; {steps_per_epoch} steps/epoch of {args.batch_size}, {total_steps} steps")

    on_device = False
    if device.type == "cuda":
        need = n * 67 * 2  # the arrays plus room for the per-batch gathers
        try:
            free = torch.cuda.mem_get_info(device)[0]
        except (AttributeError, RuntimeError):
            free = torch.cuda.get_device_properties(device).total_memory // 2
        on_device = args.data_on_device == "yes" or (args.data_on_device == "auto" and need < free * 0.6)
        print(f"data on the GPU: {on_device} ({torch.cuda.get_device_name(device)})")
    elif not args.dense_batches:
        check_gradients()
    if args.king_buckets > 1:
        data.check_kings()
    source = BatchSource(data, device, on_device, dense=args.dense_batches, king_buckets=args.king_buckets)

    model = PerspectiveNet(hidden=args.hidden, buckets=args.buckets, init_scale=args.init_scale, seed=args.seed,
                           qat=args.qat, king_buckets=args.king_buckets).to(device)
    print(f"network: {netfile.describe(model.arch, args.hidden)} (architecture {model.arch}"
          f"{', factorised king buckets' if args.king_buckets > 1 else ''})")
    if args.init_from:
        try:
            start_from_net(model, netfile.read(args.init_from))
        except (OSError, netfile.NetFileError, ValueError) as e:
            print(f"error: --init-from {args.init_from}: {e}", file=sys.stderr)
            return 1
        print(f"starting from the weights of {args.init_from}")
    decay = [model.ft_weight, model.out_weight] + ([model.ft_factor] if args.king_buckets > 1 else [])
    no_decay = [model.ft_bias, model.out_bias]
    optimizer = torch.optim.AdamW(
        [{"params": decay, "weight_decay": args.wd}, {"params": no_decay, "weight_decay": 0.0}], lr=args.lr, betas=(0.9, 0.999)
    )
    history = []
    start_epoch = 0
    step = 0
    if args.resume:
        state = torch.load(args.resume, map_location=device)
        shape = (state.get("hidden", netfile.HIDDEN), state.get("buckets", 1), state.get("king_buckets", 1))
        if shape != (args.hidden, args.buckets, args.king_buckets):
            print(f"error: {args.resume} holds a net of hidden size {shape[0]} with {shape[1]} bucket(s) and "
                  f"{shape[2]} king bucket(s); this run asks for {args.hidden}, {args.buckets} and {args.king_buckets}",
                  file=sys.stderr)
            return 1
        if state["model"]["out_weight"].dim() == 1:  # a checkpoint from before output buckets
            state["model"]["out_weight"] = state["model"]["out_weight"].unsqueeze(0)
            for moments in state["optimizer"]["state"].values():
                for key in ("exp_avg", "exp_avg_sq"):
                    if moments[key].dim() == 1 and moments[key].shape[0] == 2 * args.hidden:
                        moments[key] = moments[key].unsqueeze(0)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        history = state["history"]
        start_epoch = state["epoch"]
        step = state["step"]
        if state.get("positions") != n or state.get("seed") != args.seed:
            print(f"warning: checkpoint was made with {state.get('positions')} positions / seed {state.get('seed')}; "
                  f"now {n} / {args.seed}: the train/validation split differs")
        # A run that started from a net keeps saying so when resumed.
        args.init_from = state.get("args", {}).get("init_from")
        print(f"resumed from {args.resume} after epoch {start_epoch} (step {step})")

    train_time = 0.0
    trained_positions = 0
    end_epoch = args.epochs if args.stop_after is None else min(args.epochs, start_epoch + args.stop_after)
    for epoch in range(start_epoch, end_epoch):
        model.train()
        order = np.random.default_rng([args.seed, epoch]).permutation(train_ids)
        if args.mirror:  # seeded per epoch, so a resumed run mirrors the same positions
            source.mirror_rng = np.random.default_rng([args.seed, epoch, 7])
        t0 = time.time()
        loss_sum, loss_n = torch.zeros((), device=device), 0
        for i, batch in enumerate(source.batches(order, args.batch_size, train=True, drop_last=True)):
            for g in optimizer.param_groups:
                g["lr"] = args.lr * lr_factor(step, total_steps, steps_per_epoch, args)
            y = model(batch)
            loss = loss_fn(y, batch, lambda_at(step, total_steps, args), args.power)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            model.clip_()
            step += 1
            loss_sum += loss.detach() * y.shape[0]
            loss_n += y.shape[0]
            if not args.quiet and (i + 1) % 200 == 0:
                el = time.time() - t0
                print(f"  epoch {epoch + 1} step {i + 1}/{steps_per_epoch} loss {float(loss_sum) / loss_n:.6f} "
                      f"{loss_n / el:.0f} pos/s", flush=True)
        if device.type == "cuda":
            torch.cuda.synchronize()
        dt = time.time() - t0
        train_time += dt
        trained_positions += loss_n
        model.eval()
        train_loss = float(loss_sum) / max(1, loss_n)
        val_loss = evaluate_loss(model, source, val_ids, args)
        lr_now = optimizer.param_groups[0]["lr"]
        history.append(dict(epoch=epoch + 1, train_loss=train_loss, val_loss=val_loss, lr=lr_now, seconds=dt, pos_per_s=loss_n / dt))
        print(f"epoch {epoch + 1}/{args.epochs}: train loss {train_loss:.6f}, val loss {val_loss:.6f}, "
              f"lr {lr_now:.2e}, {dt:.1f}s, {loss_n / dt:.0f} pos/s", flush=True)
        if args.checkpoint:
            save_checkpoint(args.checkpoint, dict(model=model.state_dict(), optimizer=optimizer.state_dict(), history=history,
                                                  epoch=epoch + 1, step=step, positions=n, seed=args.seed, args=vars(args),
                                                  hidden=args.hidden, buckets=args.buckets, king_buckets=args.king_buckets))
        if args.plot:
            plot_history(args.plot, history, f"Arbiter NNUE {netfile.describe(model.arch, args.hidden)}\n"
                                             f"lambda {args.lam}{f' to {args.lam_end}' if args.lam_end is not None else ''}, {args.lr_schedule} schedule, peak lr {args.lr}, batch {args.batch_size}")

    # ------------------------------------------------------------------ output
    model = model.cpu()
    qnet = model.quantised()
    netfile.write(args.out, qnet)
    check = netfile.read(args.out)  # round trip through the file, CRC included
    total_time = time.time() - t_start

    print()
    print("== summary ==")
    print(f"net:            {args.out} ({os.path.getsize(args.out)} bytes), "
          f"{netfile.describe(qnet.arch, qnet.hidden)}, architecture {qnet.arch}")
    print(f"data:           {' '.join(args.data)}")
    print(f"start:          {args.init_from or f'random weights (seed {args.seed})'}"
          f"{f', resumed from {args.resume}' if args.resume else ''}")
    print(f"positions:      {n} (train {len(train_ids)}, validation {n_val}: {args.val_split})")
    print(f"epochs:         {len(history)} of {args.epochs} (this run: {end_epoch - start_epoch}), batch {args.batch_size}")
    print(f"optimiser:      AdamW lr {args.lr} wd {args.wd}, {args.lr_schedule} schedule, warm-up {args.warmup_steps} steps")
    lam = f"{args.lam} to {args.lam_end}" if args.lam_end is not None else f"{args.lam}"
    print(f"loss:           |sigmoid(y) - target|^{args.power}, lambda {lam}, qat {args.qat}, mirror {args.mirror}")
    print(f"labels:         {'scores unscaled' if args.unscale else 'scores as stored'}"
          f"{f', positions from ply {args.min_ply}' if args.min_ply else ''}")
    if history:
        print(f"final loss:     train {history[-1]['train_loss']:.6f}, validation {history[-1]['val_loss']:.6f}")
    if trained_positions:
        print(f"throughput:     {trained_positions / train_time:.0f} positions/s on {device} ({torch.get_num_threads()} threads)")
    if args.plot and history:
        print(f"loss curve:     {args.plot}")
    print(f"time:           {total_time:.1f}s total")
    print()
    print(f"qat: {args.qat}. float = the trained float net (with its fake quantisation), raw = without it,")
    print("int = netfile.evaluate_cp of the written file (the engine's integer arithmetic); cp, side to move's view")
    print(f"{'position':30} {'raw':>8} {'float':>8} {'int':>6} {'int-float':>9}")
    worst = 0.0
    for name, fen in SANITY_FENS:
        raw = model.float_eval_fen(fen, raw=True)
        fl = model.float_eval_fen(fen)
        q = netfile.evaluate_cp(check, fen)
        worst = max(worst, abs(fl - q))
        print(f"{name:30} {raw:8.1f} {fl:8.1f} {q:6d} {q - fl:9.1f}")
    print(f"largest float/integer difference: {worst:.1f} cp")
    return 0


if __name__ == "__main__":
    sys.exit(main())

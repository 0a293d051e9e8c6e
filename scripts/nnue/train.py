#!/usr/bin/env python3
"""Trainer of Arbiter's NNUE: (768 [x 4] -> H) x 2 -> 1 x B, SCReLU, on `.abin` self-play data.

    python3 scripts/nnue/train.py --data data/*.abin --epochs 20 --out nets/arbiter-003.anet \
        --hidden 384 --buckets 8 --checkpoint run1.pt --log run1.log     (loss curve: run1.png)

The float network (nets/README.md), H = --hidden, B = --buckets (1: architecture 1,
8: architecture 2, output buckets by material), with --king-buckets 4 architecture 3
(the features indexed by the perspective's king bucket, mirrored when its king is on
files e-h; 3072 rows):
    a_us   = b + sum of W[f] over the side to move's active features     (and a_them likewise)
    k      = (pieces - 2) // 4 clipped to 0..7 with 8 buckets, else 0
    y      = sum_i screlu(a_us)_i * w[k]_i + sum_i screlu(a_them)_i * w[k]_{H+i} + c[k]
    screlu(x) = clamp(x, 0, 1)^2, engine score = 400 * y centipawns.
Loss: mean |sigmoid(y) - target|^p,
    target = lambda * sigmoid(score_stm / 400) + (1 - lambda) * result_stm.
After every optimiser step the weights are clipped to the ranges the quantised format
needs (feature weights and biases [-1.98, 1.98], output weights [-1, 1]). With --qat all
(the default) the forward pass uses the weights rounded to the file's grid (1/255 for
the feature transformer, 1/64 for the output weights, 1/16320 for the output bias) with
straight-through gradients, so the float net being optimised is the quantised one: the
output weights are small (|w| ~ 0.05, a few steps of 1/64), and without this their
rounding alone moved evaluations by 10-40 cp.

King buckets (--king-buckets 4) are factorised: the trainable rows are the 3072 bucket
rows W plus 768 shared rows F, and the net's row of feature i is W[i] + F[i % 768], so
what one bucket learns about a piece on a square reaches the others through F. The
merged (3072, H) matrix is built (and fake-quantised) in every forward pass, clipping
keeps the merged rows in range (W = clamp(W + F) - F), and the file holds the merged rows.

Data: every record is decoded once (abin.decode, vectorised) into the side to move's
feature indices (int16, 32 slots padded with abin.PAD), the score (int16) and the
result (uint8), 67 bytes per position; the other perspective's indices are derived
per batch (abin.other_perspective; with king buckets both perspectives' bucketed
indices, abin.king_bucket_features). On CUDA the whole set is moved to the GPU when it
fits. On the CPU the feature transformer's gradient is computed by a transposed sparse
sum (features sorted per batch), much faster than the generic EmbeddingBag backward.
"""
from __future__ import annotations

import argparse
import math
import os
import queue
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import system_python  # noqa: E402

system_python.require("numpy", "torch")
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import abin  # noqa: E402
import netfile  # noqa: E402

INPUTS = netfile.INPUTS
HIDDEN = netfile.HIDDEN
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


# ----------------------------------------------------------------------------- model


class SparseSum(torch.autograd.Function):
    """out[b] = sum of weight[flat[offsets[b] : offsets[b+1]]] (CPU).

    The backward is the same kind of bag sum on the transposed problem: the gradient
    of weight row f is the sum of grad_out over the bags that contain f, computed by
    embedding_bag over the bags' row numbers sorted by feature (prepared per batch)."""

    @staticmethod
    def forward(ctx, weight, flat, offsets, rows_by_feature, feature_offsets):
        ctx.save_for_backward(rows_by_feature, feature_offsets)
        return F.embedding_bag(flat, weight, offsets, mode="sum")

    @staticmethod
    def backward(ctx, grad_out):
        rows_by_feature, feature_offsets = ctx.saved_tensors
        grad_w = F.embedding_bag(rows_by_feature, grad_out.contiguous(), feature_offsets, mode="sum")
        return grad_w, None, None, None, None


class SCReLUHead(torch.autograd.Function):
    """y[i] = screlu(acc[i]) @ w[k_i, :h] + screlu(acc[n+i]) @ w[k_i, h:] (+ bias outside),
    fused; weight is (buckets, 2h), bucket (n,) the output bucket k_i of each position.

    Positions sorted by bucket (cpu_batch sorts them by piece count) are computed one
    run of a bucket at a time, each a matrix-vector product with its bucket's row:
    no more arithmetic than one bucket. Otherwise all buckets are computed by two small
    matmuls, (n, h) x (h, buckets), and each position's column picked, the backward
    scattering grad_y into an (n, buckets) matrix zero outside the chosen columns; with
    8 buckets that took 0.25 s of a 0.31 s step (n 16384, h 384, one core); with the
    runs the whole step takes 0.16 s. Autograd through clamp / square / matmul makes about a dozen passes over
    the (2n, h) activations with as many allocations; this makes about six."""

    @staticmethod
    def runs(bucket: torch.Tensor, buckets: int):
        """[(k, start, end)] of the runs of each bucket when `bucket` is sorted, else None."""
        if bucket.numel() > 1 and bool((bucket[1:] < bucket[:-1]).any()):
            return None
        ends = torch.cumsum(torch.bincount(bucket, minlength=buckets), 0).tolist()
        starts = [0] + ends[:-1]
        return [(k, s, e) for k, (s, e) in enumerate(zip(starts, ends)) if e > s]

    @staticmethod
    def forward(ctx, acc, weight, bucket):
        n, h = acc.shape[0] // 2, acc.shape[1]
        c = torch.clamp(acc, 0.0, 1.0)
        act = c.square()
        runs = SCReLUHead.runs(bucket, weight.shape[0])
        if runs is None:
            y_all = act[:n] @ weight[:, :h].t() + act[n:] @ weight[:, h:].t()  # (n, buckets)
            y = y_all.gather(1, bucket.unsqueeze(1)).squeeze(1)
        else:
            y = torch.empty(n, dtype=acc.dtype, device=acc.device)
            for k, s, e in runs:
                torch.mv(act[s:e], weight[k, :h], out=y[s:e])
                y[s:e].add_(torch.mv(act[n + s : n + e], weight[k, h:]))
        ctx.runs = runs
        ctx.save_for_backward(acc, c, act, weight, bucket)
        return y

    @staticmethod
    def backward(ctx, grad_y):
        acc, c, act, weight, bucket = ctx.saved_tensors
        n, h = c.shape[0] // 2, c.shape[1]
        # d screlu / d acc = 2 clamp(acc, 0, 1) up to acc = 1 included (as autograd's clamp,
        # which matters with fake-quantised weights: acc is then often exactly 1), 0 above.
        grad_acc = torch.where(acc > 1.0, torch.zeros((), dtype=c.dtype, device=c.device), c)
        g2 = (2.0 * grad_y).unsqueeze(1)
        if ctx.runs is None:
            g = torch.zeros((n, weight.shape[0]), dtype=grad_y.dtype, device=grad_y.device)
            g.scatter_(1, bucket.unsqueeze(1), grad_y.unsqueeze(1))
            grad_w = torch.cat([g.t() @ act[:n], g.t() @ act[n:]], dim=1)
            w = weight[bucket]  # (n, 2h): each position's output row
            grad_acc[:n].mul_(w[:, :h]).mul_(g2)
            grad_acc[n:].mul_(w[:, h:]).mul_(g2)
            return grad_acc, grad_w, None
        grad_w = torch.zeros_like(weight)
        for k, s, e in ctx.runs:
            torch.mv(act[s:e].t(), grad_y[s:e], out=grad_w[k, :h])
            torch.mv(act[n + s : n + e].t(), grad_y[s:e], out=grad_w[k, h:])
            grad_acc[s:e].mul_(weight[k, :h]).mul_(g2[s:e])
            grad_acc[n + s : n + e].mul_(weight[k, h:]).mul_(g2[s:e])
        return grad_acc, grad_w, None


def fake_quantise(w: torch.Tensor, scale: int) -> torch.Tensor:
    """w rounded to multiples of 1/scale (half away from zero, as netfile.quantise) in the
    forward pass; the gradient passes straight through to w."""
    q = torch.sign(w) * torch.floor(torch.abs(w) * scale + 0.5) / scale
    return w + (q - w).detach()


class PerspectiveNet(torch.nn.Module):
    """qat: which weights the forward pass fake-quantises ('none', 'out', 'all'), so that
    the float network the optimiser sees is the one the quantised file will hold."""

    def __init__(self, hidden: int = HIDDEN, buckets: int = 1, init_scale: float = 0.1, seed: int = 0, qat: str = "none",
                 king_buckets: int = 1):
        super().__init__()
        self.arch = netfile.arch_of(buckets, king_buckets)
        self.qat = qat
        g = torch.Generator().manual_seed(seed)
        shared = torch.randn(INPUTS, hidden, generator=g) * init_scale
        if king_buckets == 1:
            self.ft_weight = torch.nn.Parameter(shared)
        else:
            # The bucket rows W start at 0: the net starts as the plain one (the factor F
            # below), and each bucket learns its difference from the shared rows.
            self.ft_weight = torch.nn.Parameter(torch.zeros(INPUTS * king_buckets, hidden))
        self.ft_bias = torch.nn.Parameter(torch.rand(hidden, generator=g) * 0.5)
        bound = 1.0 / math.sqrt(2 * hidden)
        self.out_weight = torch.nn.Parameter((torch.rand(buckets, 2 * hidden, generator=g) * 2 - 1) * bound)
        self.out_bias = torch.nn.Parameter(torch.zeros(buckets))
        if king_buckets > 1:
            self.ft_factor = torch.nn.Parameter(shared)  # F: (768, H), shared by the king buckets
        self.hidden = hidden
        self.buckets = buckets
        self.king_buckets = king_buckets

    def ft_rows(self) -> torch.Tensor:
        """The feature weights the net uses, (768 * king_buckets, H): W, or with king
        buckets the merged W[i] + F[i % 768] (autograd carries the gradient to both)."""
        if self.king_buckets == 1:
            return self.ft_weight
        h = self.hidden
        return (self.ft_weight.view(self.king_buckets, INPUTS, h) + self.ft_factor).view(-1, h)

    def bucket_of(self, pieces: torch.Tensor) -> torch.Tensor:
        """Output bucket per position from its piece count (netfile.output_bucket)."""
        if self.buckets == 1:
            return torch.zeros_like(pieces, dtype=torch.long)
        return torch.clamp(torch.div(pieces.long() - 2, 4, rounding_mode="floor"), 0, self.buckets - 1)

    def effective(self):
        """(ft_weight, ft_bias, out_weight, out_bias) as the forward pass uses them (the
        feature weights merged with the factor under king buckets)."""
        fw, fb, ow, ob = self.ft_rows(), self.ft_bias, self.out_weight, self.out_bias
        if self.qat == "all":
            fw, fb = fake_quantise(fw, netfile.QA), fake_quantise(fb, netfile.QA)
        if self.qat in ("all", "out"):
            ow, ob = fake_quantise(ow, netfile.QB), fake_quantise(ob, netfile.QA * netfile.QB)
        return fw, fb, ow, ob

    def accumulators_from_batch(self, batch) -> torch.Tensor:
        """(2B, hidden) accumulators: rows [0, B) side to move, [B, 2B) the other side."""
        fw, fb = self.effective()[:2]
        if batch["kind"] == "cpu-sparse":
            if torch.is_grad_enabled() and fw.requires_grad:
                acc = SparseSum.apply(fw, batch["flat"], batch["offsets"], batch["rows_by_feature"], batch["feature_offsets"])
            else:
                acc = F.embedding_bag(batch["flat"], fw, batch["offsets"], mode="sum")
        else:  # dense padded indices with a 0/1 weight per slot (any device)
            acc = F.embedding_bag(batch["idx"], fw, per_sample_weights=batch["mask"].to(fw.dtype), mode="sum")
        return acc + fb

    def forward_acc(self, acc: torch.Tensor, pieces: torch.Tensor) -> torch.Tensor:
        ow, ob = self.effective()[2:]
        bucket = self.bucket_of(pieces)
        return SCReLUHead.apply(acc, ow, bucket) + ob[bucket]

    def forward_acc_reference(self, acc: torch.Tensor, pieces: torch.Tensor) -> torch.Tensor:
        """The same as forward_acc with plain autograd (for checks)."""
        n = acc.shape[0] // 2
        ow, ob = self.effective()[2:]
        bucket = self.bucket_of(pieces)
        w = ow[bucket]
        act = torch.clamp(acc, 0.0, 1.0).square()
        return (act[:n] * w[:, : self.hidden]).sum(1) + (act[n:] * w[:, self.hidden :]).sum(1) + ob[bucket]

    def forward(self, batch) -> torch.Tensor:
        return self.forward_acc(self.accumulators_from_batch(batch), batch["pieces"])

    @torch.no_grad()
    def clip_(self) -> None:
        clip = netfile.FT_CLIP
        if self.king_buckets == 1:
            self.ft_weight.clamp_(-clip, clip)
        else:  # the merged rows W + F are what the file holds: keep them in range
            self.ft_factor.clamp_(-clip, clip)
            w = self.ft_weight.view(self.king_buckets, INPUTS, self.hidden)
            w.copy_(torch.clamp(w + self.ft_factor, -clip, clip) - self.ft_factor)
        self.ft_bias.clamp_(-clip, clip)
        self.out_weight.clamp_(-netfile.OUT_CLIP, netfile.OUT_CLIP)

    def float_eval_fen(self, fen: str, raw: bool = False) -> float:
        """400 * y in double precision, as trained (fake quantisation included) or `raw`."""
        us, them = netfile.features(fen, self.arch)
        k = int(netfile.output_bucket(len(us))) if self.buckets > 1 else 0
        with torch.no_grad():
            params = (self.ft_rows(), self.ft_bias, self.out_weight, self.out_bias) if raw else self.effective()
            w, b, ow, ob = (p.detach().double().cpu() for p in params)
            a = b + w[us].sum(0)
            t = b + w[them].sum(0)
            y = (a.clamp(0, 1) ** 2) @ ow[k, : self.hidden] + (t.clamp(0, 1) ** 2) @ ow[k, self.hidden :] + float(ob[k])
        return 400.0 * float(y)

    def quantised(self) -> netfile.QuantNet:
        """The integer net of the file (with king buckets, the merged rows W + F)."""
        return netfile.quantise(
            self.ft_rows().detach().cpu().numpy(),
            self.ft_bias.detach().cpu().numpy(),
            self.out_weight.detach().cpu().numpy(),
            self.out_bias.detach().cpu().numpy(),
        )


def start_from_net(model: PerspectiveNet, net: netfile.QuantNet) -> None:
    """Set the model's weights to a trained net's (dequantised) instead of random ones, so
    that training refines that net ("--init-from"): the old net's knowledge (its data) is
    kept and the new data adds to it. The hidden size must match. A net with one output
    gets it copied to every output bucket; a net without king buckets gives the shared
    rows F of a king-bucketed model (W = 0: every bucket starts as the old net, read
    through the king's mirror); a king-bucketed net gives F = the mean of its four
    buckets and W = each bucket's difference from it. Every case starts as exactly the
    source's integer weights (for a source without king buckets: as the source would
    evaluate each position mirrored when that side's king is on files e-h)."""
    if net.hidden != model.hidden:
        raise ValueError(f"hidden size {net.hidden}, the run asks for {model.hidden}")
    if net.buckets not in (1, model.buckets):
        raise ValueError(f"{net.buckets} output buckets, the run asks for {model.buckets}")
    source_kb = net.ft_weights.shape[0] // INPUTS
    if source_kb > model.king_buckets:
        raise ValueError(f"{source_kb} king buckets, the run asks for {model.king_buckets}")
    ft_w, ft_b, out_w, out_b = (torch.tensor(a, dtype=torch.float32) for a in netfile.dequantise(net))
    with torch.no_grad():
        if model.king_buckets == 1:
            model.ft_weight.copy_(ft_w)
        else:
            rows = ft_w.view(source_kb, INPUTS, model.hidden)
            shared = rows.mean(0)
            model.ft_factor.copy_(shared)
            model.ft_weight.copy_((rows - shared).expand(model.king_buckets, -1, -1).reshape(-1, model.hidden))
        model.ft_bias.copy_(ft_b)
        model.out_weight.copy_(out_w.expand(model.buckets, -1))
        model.out_bias.copy_(out_b.expand(model.buckets))


# ----------------------------------------------------------------------------- data


# search/tunables.h: eval_scale_base, eval_scale_minor, eval_scale_rook, eval_scale_queen,
# eval_fifty_span (tests/scripts/nnue_train_test.py checks these against the header).
EVAL_SCALE = {"eval_scale_base": 800, "eval_scale_minor": 12, "eval_scale_rook": 20, "eval_scale_queen": 36,
              "eval_fifty_span": 200}


def engine_scale(stm_features: np.ndarray, halfmove: np.ndarray) -> np.ndarray:
    """The factor by which the engine scales the net's output (search.cpp,
    Worker::evaluate): (base + minor * knights and bishops + rook * rooks + queen * queens)
    / 1024 * (fifty_span - min(halfmove, 100)) / fifty_span, pieces of both sides."""
    piece_type = (stm_features.astype(np.int32) % 384) // 64
    k = EVAL_SCALE
    values = np.array([0, k["eval_scale_minor"], k["eval_scale_minor"], k["eval_scale_rook"], k["eval_scale_queen"],
                       0, 0], dtype=np.int32)
    weights = np.where(stm_features == PAD, 0, values[np.minimum(piece_type, 6)]).sum(axis=1)
    clock = np.minimum(np.asarray(halfmove, dtype=np.float64), 100)
    span = k["eval_fifty_span"]
    return (k["eval_scale_base"] + weights) / 1024 * (span - clock) / span


class Dataset:
    """Decoded positions in compact arrays (67 bytes per position)."""

    def __init__(self, feats: np.ndarray, score: np.ndarray, result2: np.ndarray):
        self.feats = feats  # (n, 32) int16, side to move's features, PAD-padded
        self.score = score  # (n,) int16, centipawns, side to move's view
        self.result2 = result2  # (n,) uint8, 0 / 1 / 2 = loss / draw / win for the side to move

    def __len__(self) -> int:
        return len(self.score)

    @staticmethod
    def load(paths, max_positions=None, chunk=1 << 20, log=print, unscale=False, min_ply=0) -> "Dataset":
        """The first `max_positions` records of `paths`, without those before game ply
        `min_ply` (2 * (fullmove - 1) + side to move); with `unscale` each score divided
        by the scale the engine applied to the evaluations of the search that made it
        (engine_scale())."""
        rs = abin.RecordSet(paths)
        n = len(rs) if max_positions is None else min(len(rs), max_positions)
        feats = np.empty((n, abin.MAX_PIECES), dtype=np.int16)
        score = np.empty(n, dtype=np.int16)
        result2 = np.empty(n, dtype=np.uint8)
        t0 = time.time()
        pos = 0
        for records in rs.chunks(chunk, n):
            if min_ply:
                ply = 2 * (records["fullmove"].astype(np.int64) - 1) + records["stm"]
                records = records[ply >= min_ply]
            d = abin.decode(records)
            m = len(d)
            feats[pos : pos + m] = d.stm_features
            stm_score = d.score_stm / engine_scale(d.stm_features, records["halfmove"]) if unscale else d.score_stm
            score[pos : pos + m] = np.clip(np.rint(stm_score), -32767, 32767)
            result2[pos : pos + m] = (d.result_stm * 2).astype(np.uint8)
            pos += m
        dt = time.time() - t0
        dropped = f", {n - pos} before ply {min_ply} left out" if min_ply else ""
        log(f"loaded {pos} positions from {len(rs.paths)} file(s){dropped}{', scores unscaled' if unscale else ''} "
            f"in {dt:.1f}s ({n / max(dt, 1e-9) / 1e6:.2f} M positions/s decoding)")
        return Dataset(feats[:pos], score[:pos], result2[:pos])

    def check_kings(self, chunk: int = 1 << 20) -> None:
        """King buckets need one king of each colour in every position: checked once here,
        so that a bad record stops the run at the start, not inside a batch."""
        for begin in range(0, len(self), chunk):
            f = self.feats[begin : begin + chunk]
            own = ((f >= abin.OWN_KING) & (f < abin.OWN_KING + 64)).sum(axis=1)
            their = ((f >= abin.THEIR_KING) & (f != PAD)).sum(axis=1)
            bad = np.flatnonzero((own != 1) | (their != 1))
            if len(bad):
                raise abin.AbinError(f"position {begin + int(bad[0])}: king buckets need exactly one king of each colour")


def cpu_batch(feats: np.ndarray, score: np.ndarray, result2: np.ndarray, with_grad_prep: bool,
              sort_by_pieces: bool = True, king_buckets: int = 1):
    """Prepares a CPU batch: flattened bags for both perspectives (+ the transposed layout).
    The positions are sorted by piece count, so that the output buckets come in runs
    (SCReLUHead); a batch's order does not matter otherwise. feats are the plain side to
    move's indices; with king buckets both perspectives' bucketed indices are derived."""
    n = len(score)
    if sort_by_pieces:
        order = np.argsort((feats != PAD).sum(axis=1), kind="stable")
        feats, score, result2 = feats[order], score[order], result2[order]
    if king_buckets > 1:
        both = np.concatenate(abin.king_bucket_features(feats))  # (2n, 32)
        pad, inputs = abin.KING_PAD, abin.KING_INPUTS
    else:
        both = np.concatenate([feats, abin.other_perspective(feats)])  # (2n, 32)
        pad, inputs = PAD, INPUTS
    mask = both != pad
    counts = mask.sum(axis=1)
    flat = both[mask].astype(np.int64)
    offsets = np.zeros(2 * n, dtype=np.int64)
    np.cumsum(counts[:-1], out=offsets[1:])
    batch = {
        "kind": "cpu-sparse",
        "flat": torch.from_numpy(flat),
        "offsets": torch.from_numpy(offsets),
        "pieces": torch.from_numpy(counts[:n].astype(np.int64)),
        "score": torch.from_numpy(score.astype(np.float32)),
        "result": torch.from_numpy(result2.astype(np.float32) * 0.5),
    }
    if with_grad_prep:
        order = np.argsort(flat.astype(np.int16), kind="stable")
        rows = np.repeat(np.arange(2 * n, dtype=np.int64), counts)
        fcount = np.bincount(flat, minlength=inputs)
        foff = np.zeros(inputs, dtype=np.int64)
        np.cumsum(fcount[:-1], out=foff[1:])
        batch["rows_by_feature"] = torch.from_numpy(rows[order])
        batch["feature_offsets"] = torch.from_numpy(foff)
    return batch


KING_BUCKET_MAP = torch.tensor(abin.KING_BUCKET_MAP, dtype=torch.long)


def king_bucket_indices(feats: torch.Tensor):
    """abin.king_bucket_features in torch, on feats' device: (us, them) bucketed indices
    of plain side-to-move rows (n, k) (long, PAD-padded), KING_PAD in the unused slots.
    Every row holds one king of each colour (Dataset.check_kings)."""
    pad = feats == PAD
    zero = torch.zeros_like(feats)
    own = (feats >= abin.OWN_KING) & (feats < abin.OWN_KING + 64)
    their = (feats >= abin.THEIR_KING) & ~pad
    k_us = torch.where(own, feats - abin.OWN_KING, zero).sum(1)
    k_them = torch.where(their, feats - abin.THEIR_KING, zero).sum(1) ^ 56
    m_us = ((k_us & 7) >= 4).long() * 7
    m_them = ((k_them & 7) >= 4).long() * 7
    kmap = KING_BUCKET_MAP.to(feats.device)
    base_us = kmap[k_us ^ m_us] * INPUTS
    base_them = kmap[k_them ^ m_them] * INPUTS
    other = ((feats + 384) % INPUTS) ^ 56
    fill = torch.full_like(feats, abin.KING_PAD)
    us = torch.where(pad, fill, base_us[:, None] + (feats ^ m_us[:, None]))
    them = torch.where(pad, fill, base_them[:, None] + (other ^ m_them[:, None]))
    return us, them


def dense_batch(feats: torch.Tensor, score: torch.Tensor, result2: torch.Tensor, device, king_buckets: int = 1):
    """A batch of padded indices (+ 0/1 slot weights) on `device` (CUDA path)."""
    feats = feats.to(device, non_blocking=True).long()
    if king_buckets > 1:
        both = torch.cat(king_bucket_indices(feats))
        pad = abin.KING_PAD
    else:
        other = torch.where(feats == PAD, feats, ((feats + 384) % 768) ^ 56)
        both = torch.cat([feats, other])
        pad = PAD
    mask = both != pad
    return {
        "kind": "dense",
        "idx": torch.where(mask, both, torch.zeros_like(both)),
        "pieces": mask[: feats.shape[0]].sum(1),
        "mask": mask.float(),
        "score": score.to(device, non_blocking=True).float(),
        "result": result2.to(device, non_blocking=True).float() * 0.5,
    }


class BatchSource:
    """Iterates over batches of a subset of the data in a given order.

    CPU: sparse batches prepared by numpy in a prefetch thread. Other devices (CUDA), or
    `dense` on the CPU (to exercise that code path without a GPU): padded index batches,
    gathered on the device when the data set lives there."""

    def __init__(self, data: Dataset, device: torch.device, data_on_device: bool, dense: bool = False,
                 mirror_rng: np.random.Generator | None = None, king_buckets: int = 1):
        self.data = data
        self.king_buckets = king_buckets
        self.mirror_rng = mirror_rng  # training batches: mirror each position with probability 1/2
        self.device = device
        self.dense = dense or device.type != "cpu"
        self.gather_on_device = self.dense and (data_on_device or device.type == "cpu")
        if self.dense:
            tensors = (torch.from_numpy(data.feats), torch.from_numpy(data.score), torch.from_numpy(data.result2))
            self.tensors = tuple(t.to(device) for t in tensors) if self.gather_on_device else tensors

    def _make(self, ids: np.ndarray, train: bool):
        ids = np.sort(ids)  # sequential-ish memory access; order inside a batch is irrelevant
        rows = self.mirror_rng.random(len(ids)) < 0.5 if train and self.mirror_rng is not None else None
        if self.dense:
            t = torch.from_numpy(ids.astype(np.int64))
            if self.gather_on_device:
                t = t.to(self.device)
                feats, score, result2 = (x[t] for x in self.tensors)
            else:
                feats, score, result2 = (x[t].pin_memory() for x in self.tensors)
            if rows is not None:  # abin.mirror_files on the device
                flip = torch.from_numpy(rows).to(feats.device)[:, None] & (feats != PAD)
                feats = torch.where(flip, feats ^ 7, feats)
            return dense_batch(feats, score, result2, self.device, self.king_buckets)
        feats = self.data.feats[ids]
        if rows is not None:
            feats = abin.mirror_files(feats, rows)
        return cpu_batch(feats, self.data.score[ids], self.data.result2[ids], train, king_buckets=self.king_buckets)

    def batches(self, order: np.ndarray, batch_size: int, train: bool, drop_last: bool):
        starts = list(range(0, len(order), batch_size))
        if drop_last and len(order) >= batch_size and len(order) % batch_size:
            starts = starts[:-1]
        if self.dense:
            for s in starts:
                yield self._make(order[s : s + batch_size], train)
            return
        # CPU: prepare the next batches in a thread (numpy releases the GIL for most of it).
        q: queue.Queue = queue.Queue(maxsize=3)
        stop = threading.Event()

        def producer():
            try:
                for s in starts:
                    if stop.is_set():
                        return
                    q.put(self._make(order[s : s + batch_size], train))
            except BaseException as e:  # surface errors in the consumer
                q.put(e)
                return
            q.put(None)

        th = threading.Thread(target=producer, daemon=True)
        th.start()
        try:
            while True:
                item = q.get()
                if item is None:
                    break
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            stop.set()
            while th.is_alive():
                try:
                    q.get_nowait()
                except queue.Empty:
                    th.join(0.05)


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
                         "(material and the fifty-move counter; engine_scale())")
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

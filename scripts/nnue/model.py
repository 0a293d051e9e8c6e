"""The network that train.py optimises, in PyTorch (the trainer's model): the feature
transformer's sparse sum and the SCReLU output layer with gradients of their own, fake
quantisation, and the start from a trained net (--init-from).

The float network (nets/README.md), H = --hidden, B = --buckets (1: architecture 1,
8: architecture 2, output buckets by material), with --king-buckets 4 architecture 3
(the features indexed by the perspective's king bucket, mirrored when its king is on
files e-h; 3072 rows):
    a_us   = b + sum of W[f] over the side to move's active features     (and a_them likewise)
    k      = (pieces - 2) // 4 clipped to 0..7 with 8 buckets, else 0
    y      = sum_i screlu(a_us)_i * w[k]_i + sum_i screlu(a_them)_i * w[k]_{H+i} + c[k]
    screlu(x) = clamp(x, 0, 1)^2, engine score = 400 * y centipawns.
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

On the CPU the feature transformer's gradient is computed by a transposed sparse
sum (features sorted per batch), much faster than the generic EmbeddingBag backward.
"""
from __future__ import annotations

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import system_python  # noqa: E402

system_python.require("numpy", "torch")
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import netfile  # noqa: E402

INPUTS = netfile.INPUTS
HIDDEN = netfile.HIDDEN


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

    Positions sorted by bucket (dataset.cpu_batch sorts them by piece count) are computed one
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

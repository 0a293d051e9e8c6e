"""The trainer's data (train.py): `.abin` records decoded into compact arrays, and the
batches made from them.

Every record is decoded once (abin.decode, vectorised) into the side to move's
feature indices (int16, 32 slots padded with abin.PAD), the score (int16) and the
result (uint8), 67 bytes per position; the other perspective's indices are derived
per batch (abin.other_perspective; with king buckets both perspectives' bucketed
indices, abin.king_bucket_features). On CUDA the whole set is moved to the GPU when it
fits.
"""
from __future__ import annotations

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

import abin  # noqa: E402
import netfile  # noqa: E402

INPUTS = netfile.INPUTS
PAD = abin.PAD


# search/tunables.h: eval_scale_base, eval_scale_minor, eval_scale_rook, eval_scale_queen,
# eval_fifty_span (tests/scripts/nnue_train_test.py checks these against the header). The
# engines before the second SPSA run's values scaled by 800, 12, 20, 36 and 200: --unscale
# on their self-play undoes a scale 4-6% too small (pawns only to the start position).
EVAL_SCALE = {"eval_scale_base": 767, "eval_scale_minor": 11, "eval_scale_rook": 18, "eval_scale_queen": 32,
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
    (model.SCReLUHead); a batch's order does not matter otherwise. feats are the plain side to
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

#!/usr/bin/env python3
"""Arbiter's `.anet` network files (numpy only; no torch).

Specified in nets/README.md: architecture 1, (768 -> H) x 2 -> 1; architecture 2,
the same with 8 output buckets chosen by the piece count; architecture 3, architecture 2
with king input buckets, (768 x 4 -> H) x 2 -> 1 x 8: each perspective's features are
mirrored left-right when its king stands on files e-h and indexed into one of four
768-row blocks by that king's square (KING_BUCKET_MAP). H is one of HIDDEN_SIZES.
Provides:
    quantise(ft_w, ft_b, out_w, out_b) -> QuantNet     float weights -> integers (clip + round)
    to_bytes(net) / write(path, net)                     header (with CRC-32) + payload
    from_bytes(data) / read(path)                        parse and validate (NetFileError)
    evaluate_cp(net, position)                           the engine's exact integer evaluation
    features(position, arch)                             feature indices of both perspectives
    random_net(seed, hidden, buckets, king_buckets)      a random valid net, for tests

Command line:
    netfile.py info NET
    netfile.py eval NET FEN...        one line per FEN: "<cp>\t<fen>" (side to move's view)
    netfile.py random OUT --seed S [--hidden H] [--buckets 1|8] [--king-buckets 1|4]
"""
from __future__ import annotations

import os
import struct
import sys
import zlib
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import system_python  # noqa: E402

system_python.require("numpy")
import numpy as np  # noqa: E402
import abin  # noqa: E402

MAGIC = b"ARBNNUE\x00"
FORMAT_VERSION = 1
ARCH_PLAIN = 1  # one output
ARCH_BUCKETS = 2  # BUCKETS outputs, one per material bucket (output_bucket)
ARCH_KING_BUCKETS = 3  # as ARCH_BUCKETS, with KING_BUCKETS input buckets by the own king's square
ARCHS = (ARCH_PLAIN, ARCH_BUCKETS, ARCH_KING_BUCKETS)
ARCH_ID = ARCH_PLAIN
BUCKETS = 8
INPUTS = 768  # features per king bucket (all of them for architectures 1 and 2)
KING_BUCKETS = abin.KING_BUCKETS  # 4; the map and the batch derivation live beside the features in abin
KING_BUCKET_MAP = [int(b) for b in abin.KING_BUCKET_MAP]  # [0,0,1,1,1,1,0,0] + [2]*8 + [3]*48
HIDDEN = 256  # gen2-a's
HIDDEN_SIZES = (128, 256, 384, 512, 768, 1024)  # the engine's kernels (src/eval/nnue/network.h)
QA = 255
QB = 64
HEADER_SIZE = 32
HEADER_STRUCT = struct.Struct("<8sIIIIII")  # magic, version, arch, hidden, payload size, crc, reserved
assert HEADER_STRUCT.size == HEADER_SIZE


def bucket_count(arch: int) -> int:
    """Output buckets of an architecture."""
    return BUCKETS if arch in (ARCH_BUCKETS, ARCH_KING_BUCKETS) else 1


def king_bucket_count(arch: int) -> int:
    """Input (king) buckets of an architecture."""
    return KING_BUCKETS if arch == ARCH_KING_BUCKETS else 1


def input_count(arch: int) -> int:
    """Rows of the feature weights: 768, or 3072 for architecture 3."""
    return INPUTS * king_bucket_count(arch)


def arch_of(buckets: int, king_buckets: int = 1) -> int:
    """The architecture id of a net with these output and input (king) buckets."""
    if king_buckets == KING_BUCKETS:
        if buckets != BUCKETS:
            raise NetFileError(f"{buckets} output bucket(s) with {KING_BUCKETS} king buckets: "
                               f"architecture {ARCH_KING_BUCKETS} has {BUCKETS} output buckets")
        return ARCH_KING_BUCKETS
    if king_buckets != 1:
        raise NetFileError(f"{king_buckets} king buckets: the format has 1 (architectures 1, 2) or "
                           f"{KING_BUCKETS} (architecture {ARCH_KING_BUCKETS})")
    if buckets not in (1, BUCKETS):
        raise NetFileError(f"{buckets} output buckets: the format has 1 (architecture 1) or {BUCKETS} (architecture 2)")
    return ARCH_BUCKETS if buckets == BUCKETS else ARCH_PLAIN


def arch_of_buckets(buckets: int) -> int:
    """The architecture id of a net without king buckets (1 or 2)."""
    return arch_of(buckets, 1)


def payload_size(arch: int = ARCH_PLAIN, hidden: int = HIDDEN) -> int:
    b = bucket_count(arch)
    return (input_count(arch) * hidden + hidden + b * 2 * hidden) * 2 + 4 * b


def output_bucket(piece_count):
    """Architecture 2's output bucket of a position with piece_count pieces (kings
    included): (piece_count - 2) // 4, clipped to 0..7. Works on numpy arrays too."""
    return np.clip((np.asarray(piece_count) - 2) // 4, 0, BUCKETS - 1)


def describe(arch: int, hidden: int) -> str:
    """The shape as the engine prints it, e.g. "(768 x 4 -> 384) x 2 -> 1 x 8 output buckets"."""
    inputs = f"768 x {KING_BUCKETS}" if arch == ARCH_KING_BUCKETS else "768"
    text = f"({inputs} -> {hidden}) x 2 -> 1"
    return text + f" x {BUCKETS} output buckets" if bucket_count(arch) > 1 else text


FT_WEIGHT_COUNT = INPUTS * HIDDEN
PAYLOAD_SIZE = payload_size(ARCH_PLAIN, HIDDEN)
assert PAYLOAD_SIZE == 394756
assert payload_size(ARCH_BUCKETS, 512) == 803872
assert payload_size(ARCH_KING_BUCKETS, 384) == 2372384

# Float clip ranges (the trainer clips to these after every step; quantise clips again).
FT_CLIP = 1.98  # feature weights and biases
OUT_CLIP = 1.0  # output weights
FT_QMAX = int(np.floor(FT_CLIP * QA + 0.5))  # 505
OUT_QMAX = int(OUT_CLIP * QB)  # 64

WHITE, BLACK = 0, 1
PIECE_CHARS = "PNBRQKpnbrqk"
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


class NetFileError(ValueError):
    pass


@dataclass
class QuantNet:
    """An integer net. out_weights is (buckets, 2H): per bucket, the H weights for the
    side to move's accumulator, then the other side's; out_bias is (buckets,) int64.
    A 1-D out_weights (2H,) and a scalar out_bias are taken as one bucket. The
    architecture follows from the shapes: 3072 feature rows (4 king buckets) with 8
    output buckets is architecture 3; 768 rows is architecture 1 or 2 by the buckets."""

    ft_weights: np.ndarray  # (768, H) int16, feature-major; (3072, H) for architecture 3
    ft_bias: np.ndarray  # (H,) int16
    out_weights: np.ndarray  # (buckets, 2H) int16
    out_bias: np.ndarray  # (buckets,) int64, each an i32

    def __post_init__(self):
        self.out_weights = np.asarray(self.out_weights)
        if self.out_weights.ndim == 1:
            self.out_weights = self.out_weights.reshape(1, -1)
        self.out_bias = np.asarray(self.out_bias, dtype=np.int64).reshape(-1)

    @property
    def hidden(self) -> int:
        return int(self.ft_bias.shape[0])

    @property
    def buckets(self) -> int:
        return int(self.out_weights.shape[0])

    @property
    def king_buckets(self) -> int:
        rows = int(self.ft_weights.shape[0])
        if rows not in (INPUTS, INPUTS * KING_BUCKETS):
            raise NetFileError(f"feature weights have {rows} rows: the format has {INPUTS} (architectures 1, 2) "
                               f"or {INPUTS * KING_BUCKETS} (architecture {ARCH_KING_BUCKETS})")
        return rows // INPUTS

    @property
    def arch(self) -> int:
        return arch_of(self.buckets, self.king_buckets)

    def bucket(self, piece_count: int) -> int:
        return int(output_bucket(piece_count)) if self.buckets > 1 else 0

    def validate(self) -> None:
        h = self.hidden
        if h not in HIDDEN_SIZES:
            raise NetFileError(f"hidden size {h} is not one the engine evaluates {HIDDEN_SIZES}")
        arch = self.arch  # raises on a row count or bucket combination the format lacks
        if self.ft_weights.shape != (input_count(arch), h) or self.ft_bias.shape != (h,):
            raise NetFileError("feature transformer has the wrong shape")
        if self.out_weights.shape != (self.buckets, 2 * h):
            raise NetFileError("output weights have the wrong shape")
        if self.out_bias.shape != (self.buckets,):
            raise NetFileError("output biases have the wrong shape")
        if not ((-(2**31) <= self.out_bias) & (self.out_bias < 2**31)).all():
            raise NetFileError("output bias does not fit i32")


# ----------------------------------------------------------------------------- quantisation


def _round(x: np.ndarray) -> np.ndarray:
    """Round half away from zero (deterministic; independent of numpy's half-to-even)."""
    x = np.asarray(x, dtype=np.float64)
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def quantise(ft_w, ft_b, out_w, out_b) -> QuantNet:
    """Float weights -> integer net. ft_w is (768, H) feature-major (the transpose of a
    torch Linear's weight, the same layout as an EmbeddingBag's weight), or (3072, H) for
    architecture 3 (king buckets, which needs 8 output buckets); out_w is
    (buckets, 2H) (side to move's H first in each row) or, for one bucket, 2H entries;
    out_b has one entry per bucket (or is a scalar). Feature weights / biases are
    clipped to [-1.98, 1.98], output weights to [-1, 1], then multiplied by QA / QB and
    rounded half away from zero; the output biases are quantised by QA * QB."""
    ft_w = np.asarray(ft_w, dtype=np.float64)
    ft_b = np.asarray(ft_b, dtype=np.float64).reshape(-1)
    h = ft_b.shape[0]
    out_w = np.asarray(out_w, dtype=np.float64)
    if out_w.ndim == 1:
        out_w = out_w.reshape(1, -1)
    out_b = np.asarray(out_b, dtype=np.float64).reshape(-1)
    if h not in HIDDEN_SIZES:
        raise NetFileError(f"hidden size {h} is not one the engine evaluates {HIDDEN_SIZES}")
    if ft_w.ndim != 2 or ft_w.shape[1] != h or ft_w.shape[0] not in (INPUTS, INPUTS * KING_BUCKETS):
        raise NetFileError(f"feature weights must be ({INPUTS}, {h}) or ({INPUTS * KING_BUCKETS}, {h}), "
                           f"got {ft_w.shape}")
    if out_w.ndim != 2 or out_w.shape[1] != 2 * h or out_b.shape != (out_w.shape[0],):
        raise NetFileError("bias / output weight shapes are wrong")
    arch_of(out_w.shape[0], ft_w.shape[0] // INPUTS)
    if not (np.isfinite(ft_w).all() and np.isfinite(ft_b).all() and np.isfinite(out_w).all() and np.isfinite(out_b).all()):
        raise NetFileError("non-finite weights")
    qw = _round(np.clip(ft_w, -FT_CLIP, FT_CLIP) * QA).astype(np.int16)
    qb = _round(np.clip(ft_b, -FT_CLIP, FT_CLIP) * QA).astype(np.int16)
    qo = _round(np.clip(out_w, -OUT_CLIP, OUT_CLIP) * QB).astype(np.int16)
    ob = _round(out_b * QA * QB)
    if not ((-(2**31) <= ob) & (ob < 2**31)).all():
        raise NetFileError(f"output bias {out_b} does not fit i32 after quantisation")
    return QuantNet(qw, qb, qo, ob.astype(np.int64))


def dequantise(net: QuantNet):
    """Integer net -> float arrays (ft_w, ft_b, out_w (buckets, 2H), out_b (buckets,))."""
    return (
        net.ft_weights.astype(np.float64) / QA,
        net.ft_bias.astype(np.float64) / QA,
        net.out_weights.astype(np.float64) / QB,
        net.out_bias.astype(np.float64) / (QA * QB),
    )


# ----------------------------------------------------------------------------- file format


def payload_bytes(net: QuantNet) -> bytes:
    net.validate()
    return b"".join(
        [
            np.ascontiguousarray(net.ft_weights, dtype="<i2").tobytes(),
            np.ascontiguousarray(net.ft_bias, dtype="<i2").tobytes(),
            np.ascontiguousarray(net.out_weights, dtype="<i2").tobytes(),
            np.ascontiguousarray(net.out_bias, dtype="<i4").tobytes(),
        ]
    )


def to_bytes(net: QuantNet) -> bytes:
    payload = payload_bytes(net)
    assert len(payload) == payload_size(net.arch, net.hidden)
    header = HEADER_STRUCT.pack(MAGIC, FORMAT_VERSION, net.arch, net.hidden, len(payload), zlib.crc32(payload) & 0xFFFFFFFF, 0)
    return header + payload


def write(path, net: QuantNet) -> None:
    data = to_bytes(net)
    with open(path, "wb") as f:
        f.write(data)


def parse_header(data: bytes) -> dict:
    if len(data) < HEADER_SIZE:
        raise NetFileError(f"truncated header: {len(data)} bytes, need {HEADER_SIZE}")
    magic, version, arch, hidden, size, crc, reserved = HEADER_STRUCT.unpack_from(data, 0)
    return dict(magic=magic, version=version, arch=arch, hidden=hidden, payload_size=size, crc=crc, reserved=reserved)


def from_bytes(data: bytes) -> QuantNet:
    """Parses and validates a `.anet` image; raises NetFileError with a specific message."""
    h = parse_header(data)
    if h["magic"] != MAGIC:
        raise NetFileError(f"bad magic {h['magic']!r}: not an Arbiter network file")
    if h["version"] != FORMAT_VERSION:
        raise NetFileError(f"unsupported format version {h['version']} (expected {FORMAT_VERSION})")
    arch, hidden = h["arch"], h["hidden"]
    if arch not in ARCHS:
        raise NetFileError(f"unsupported architecture id {arch} "
                           f"(expected {ARCH_PLAIN}, {ARCH_BUCKETS} or {ARCH_KING_BUCKETS})")
    if hidden not in HIDDEN_SIZES:
        raise NetFileError(f"unsupported hidden size {hidden} (expected one of {HIDDEN_SIZES})")
    expected = payload_size(arch, hidden)
    if h["payload_size"] != expected:
        raise NetFileError(f"payload size field {h['payload_size']} is not {expected} ({describe(arch, hidden)})")
    if h["reserved"] != 0:
        raise NetFileError(f"reserved header field is {h['reserved']}, not 0")
    actual = len(data) - HEADER_SIZE
    if actual < expected:
        raise NetFileError(f"truncated payload: {actual} bytes, expected {expected}")
    if actual > expected:
        raise NetFileError(f"{actual - expected} trailing bytes after the payload")
    payload = bytes(data[HEADER_SIZE:])
    crc = zlib.crc32(payload) & 0xFFFFFFFF
    if crc != h["crc"]:
        raise NetFileError(f"CRC mismatch: header says {h['crc']:08x}, payload has {crc:08x}")
    b = bucket_count(arch)
    rows = input_count(arch)
    off = 0
    ft_w = np.frombuffer(payload, dtype="<i2", count=rows * hidden, offset=off).reshape(rows, hidden)
    off += rows * hidden * 2
    ft_b = np.frombuffer(payload, dtype="<i2", count=hidden, offset=off)
    off += hidden * 2
    out_w = np.frombuffer(payload, dtype="<i2", count=b * 2 * hidden, offset=off).reshape(b, 2 * hidden)
    off += b * 2 * hidden * 2
    out_b = np.frombuffer(payload, dtype="<i4", count=b, offset=off)
    net = QuantNet(ft_w.astype(np.int16), ft_b.astype(np.int16), out_w.astype(np.int16), out_b.astype(np.int64))
    if (np.abs(net.ft_weights.astype(np.int32)).max() > FT_QMAX or np.abs(net.ft_bias.astype(np.int32)).max() > FT_QMAX
            or np.abs(net.out_weights.astype(np.int32)).max() > OUT_QMAX):
        raise NetFileError(f"a weight is outside the ranges the engine accepts (|feature weight, bias| <= {FT_QMAX}, "
                           f"|output weight| <= {OUT_QMAX})")
    return net


def read(path) -> QuantNet:
    with open(path, "rb") as f:
        return from_bytes(f.read())


# ----------------------------------------------------------------------------- positions and features


def parse_fen(fen: str):
    """(sorted list of (square, piece code), side to move 0/1) from a FEN; only the board
    and side-to-move fields matter. Squares a1 = 0 ... h8 = 63; codes 0-5 White
    P N B R Q K, 6-11 Black (the board parser is abin's)."""
    board, side = abin.parse_fen_board(fen)
    pieces = [(int(square), int(board[square])) for square in np.flatnonzero(board >= 0)]
    if len(pieces) > 32:
        raise ValueError(f"more than 32 pieces in {fen!r}")
    return pieces, side


def relative_square(perspective: int, square: int) -> int:
    """The square as `perspective` sees it: ranks flipped for Black."""
    return square if perspective == WHITE else square ^ 56


def king_bucket(perspective: int, king_square: int):
    """(bucket, mirror) of architecture 3 for the perspective whose king stands on
    king_square (absolute): mirror = 7 when the king is on files e-h (squares are then
    XORed with 7, files a <-> h), else 0; bucket = KING_BUCKET_MAP[rel(king) ^ mirror]."""
    mirror = 7 if (king_square & 7) >= 4 else 0
    return KING_BUCKET_MAP[relative_square(perspective, king_square) ^ mirror], mirror


def feature_index(perspective: int, square: int, code: int, king_square: int | None = None) -> int:
    """Index of piece `code` on `square` for `perspective`; with king_square (that
    perspective's own king, absolute), architecture 3's bucketed index."""
    colour, ptype = divmod(code, 6)
    plain = (0 if colour == perspective else 384) + ptype * 64
    if king_square is None:
        return plain + relative_square(perspective, square)
    bucket, mirror = king_bucket(perspective, king_square)
    return bucket * INPUTS + plain + (relative_square(perspective, square) ^ mirror)


def king_squares(pieces) -> tuple[int, int]:
    """(White's king square, Black's) of a piece list; raises without one king of each colour."""
    kings = [[s for s, c in pieces if c == 5], [s for s, c in pieces if c == 11]]
    if len(kings[WHITE]) != 1 or len(kings[BLACK]) != 1:
        raise ValueError("king buckets need exactly one king of each colour")
    return kings[WHITE][0], kings[BLACK][0]


def features(position, arch: int = ARCH_PLAIN):
    """(side to move's feature indices, other side's) of a FEN or a (pieces, stm) pair,
    in the piece order of the position; for architecture 3 the king-bucketed indices."""
    pieces, stm = parse_fen(position) if isinstance(position, str) else position
    if arch == ARCH_KING_BUCKETS:
        kings = king_squares(pieces)
        us = [feature_index(stm, s, c, kings[stm]) for s, c in pieces]
        them = [feature_index(1 - stm, s, c, kings[1 - stm]) for s, c in pieces]
    else:
        us = [feature_index(stm, s, c) for s, c in pieces]
        them = [feature_index(1 - stm, s, c) for s, c in pieces]
    return us, them


# ----------------------------------------------------------------------------- integer evaluation


def trunc_div(a: int, b: int) -> int:
    """C++ integer division (truncates toward zero), for Python ints."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def accumulators(net: QuantNet, position):
    """The two i16 accumulators (side to move's first) as int64 arrays, checked for i16 range."""
    us, them = features(position, net.arch)
    accs = []
    for feats in (us, them):
        acc = net.ft_bias.astype(np.int64).copy()
        for f in feats:
            acc += net.ft_weights[f].astype(np.int64)
        if acc.min() < -32768 or acc.max() > 32767:
            raise OverflowError("accumulator outside i16")
        accs.append(acc)
    return accs


def evaluate_detail(net: QuantNet, position, bucket: int | None = None) -> dict:
    """evaluate_cp with its intermediate values; `bucket` overrides the output bucket."""
    acc_us, acc_them = accumulators(net, position)
    hidden = net.hidden
    if bucket is None:
        bucket = net.bucket(len(features(position)[0]))
    v_us = np.clip(acc_us, 0, QA)
    v_them = np.clip(acc_them, 0, QA)
    out = net.out_weights[bucket].astype(np.int64)
    total = int((v_us * v_us * out[:hidden]).sum() + (v_them * v_them * out[hidden:]).sum())
    scaled = trunc_div(total, QA) + int(net.out_bias[bucket])
    cp = trunc_div(scaled * 400, QA * QB)
    return dict(acc_us=acc_us, acc_them=acc_them, bucket=bucket, sum=total, scaled=scaled, cp=cp)


def evaluate_cp(net: QuantNet, position) -> int:
    """The engine's integer evaluation in centipawns from the side to move's point of view.

    position: a FEN string (only board and side to move used) or (pieces, stm).
        acc = bias + sum of weights[f] (i16); v = clamp(acc, 0, QA)
              (f: features(position, net.arch), king-bucketed for architecture 3)
        b   = output bucket of the piece count (architectures 2 and 3; else 0)
        sum = sum_i v_us[i]^2 * out[b][i] + v_them[i]^2 * out[b][H + i]   (exact; the engine sums in i64)
        cp  = (sum / QA + out_bias[b]) * 400 / (QA * QB)   (C++ division, truncating)"""
    return evaluate_detail(net, position)["cp"]


def evaluate_float(net: QuantNet, position) -> float:
    """The float network evaluated on the dequantised weights (400 * y), for comparison."""
    ft_w, ft_b, out_w, out_b = dequantise(net)
    us, them = features(position, net.arch)
    bucket = net.bucket(len(us))
    h = net.hidden
    a = ft_b + ft_w[us].sum(axis=0)
    b = ft_b + ft_w[them].sum(axis=0)
    y = (np.clip(a, 0, 1) ** 2) @ out_w[bucket, :h] + (np.clip(b, 0, 1) ** 2) @ out_w[bucket, h:] + out_b[bucket]
    return 400.0 * float(y)


# ----------------------------------------------------------------------------- random nets


def random_net(seed: int = 0, hidden: int = HIDDEN, buckets: int = 1, king_buckets: int = 1) -> QuantNet:
    """A random valid net whose evaluations spread over a few hundred centipawns;
    king_buckets = 4 (with 8 buckets) gives architecture 3, 3072 feature rows.

    Feature weights ~ N(0, 25^2) with per-neuron biases in [0, 200), so that a typical
    accumulator of 20-32 features is partly inside (0, 255); output weights mostly
    uniform in [-20, 20] (scaled by sqrt(256 / hidden), so larger nets spread alike);
    0.1% of the feature weights and 3% of the output weights sit at the limits (+-505,
    +-64) so that the extremes are exercised; each bucket's output bias is chosen so
    that the start position (White to move) evaluates near 0 with that bucket."""
    rows = INPUTS * king_buckets
    arch_of(buckets, king_buckets)
    rng = np.random.default_rng(seed)
    ft_w = np.clip(np.rint(rng.normal(0.0, 25.0, (rows, hidden))), -FT_QMAX, FT_QMAX)
    extreme = rng.random((rows, hidden)) < 0.001
    ft_w[extreme] = rng.choice([-FT_QMAX, FT_QMAX], int(extreme.sum()))
    ft_b = rng.integers(0, 200, hidden)
    span = max(1, int(round(20 * np.sqrt(256 / hidden))))
    out_w = rng.integers(-span, span + 1, (buckets, 2 * hidden))
    extreme = rng.random((buckets, 2 * hidden)) < 0.03
    out_w[extreme] = rng.choice([-OUT_QMAX, OUT_QMAX], int(extreme.sum()))
    net = QuantNet(ft_w.astype(np.int16), ft_b.astype(np.int16), out_w.astype(np.int16), np.zeros(buckets, np.int64))
    for b in range(buckets):  # out_bias[b] is still 0 here, so "scaled" is the sum term alone
        net.out_bias[b] = -evaluate_detail(net, START_FEN, bucket=b)["scaled"] + int(rng.integers(-200, 201))
    return net


# ----------------------------------------------------------------------------- command line


def _stats_line(name: str, a: np.ndarray, qmax: int | None) -> str:
    a = np.asarray(a, dtype=np.int64)
    line = f"{name:16} n={a.size:7d} min={a.min():6d} max={a.max():6d} mean={a.mean():9.3f} mean|x|={np.abs(a).mean():8.3f}"
    if qmax is not None:
        line += f" at-limit={(np.abs(a) >= qmax).mean() * 100:.2f}%"
    return line


SAMPLE_FENS = [
    START_FEN,
    "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
]


def _main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Arbiter .anet network files")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p_info = sub.add_parser("info", help="print the header and weight statistics")
    p_info.add_argument("net")
    p_eval = sub.add_parser("eval", help="integer evaluation (cp, side to move's view) of FENs")
    p_eval.add_argument("net")
    p_eval.add_argument("fens", nargs="+", help="FENs (quote each one)")
    p_eval.add_argument("--verbose", action="store_true", help="also print features, sum and the float value")
    p_rand = sub.add_parser("random", help="write a random valid net")
    p_rand.add_argument("out")
    p_rand.add_argument("--seed", type=int, default=0)
    p_rand.add_argument("--hidden", type=int, default=HIDDEN, choices=HIDDEN_SIZES)
    p_rand.add_argument("--buckets", type=int, default=1, choices=(1, BUCKETS))
    p_rand.add_argument("--king-buckets", type=int, default=1, choices=(1, KING_BUCKETS),
                        help=f"{KING_BUCKETS}: architecture {ARCH_KING_BUCKETS} (needs --buckets {BUCKETS})")
    args = ap.parse_args(argv)
    if args.cmd == "random" and args.king_buckets != 1 and args.buckets != BUCKETS:
        ap.error(f"--king-buckets {args.king_buckets} needs --buckets {BUCKETS} (architecture {ARCH_KING_BUCKETS})")

    try:
        if args.cmd == "info":
            with open(args.net, "rb") as f:
                data = f.read()
            h = parse_header(data)
            net = from_bytes(data)
            print(f"file            {args.net} ({len(data)} bytes)")
            print(f"magic           {h['magic']!r}")
            print(f"version         {h['version']}")
            print(f"architecture    {h['arch']} ({describe(h['arch'], h['hidden'])}, SCReLU)")
            print(f"hidden size     {h['hidden']}")
            if net.king_buckets > 1:
                print(f"inputs          {input_count(net.arch)}: {net.king_buckets} king buckets of {INPUTS}, "
                      "mirrored when the king is on files e-h")
            print(f"payload size    {h['payload_size']}")
            print(f"crc32           {h['crc']:08x} (ok)")
            print(f"reserved        {h['reserved']}")
            print(_stats_line("feature weights", net.ft_weights, FT_QMAX))
            print(_stats_line("feature biases", net.ft_bias, FT_QMAX))
            hid = net.hidden
            for b in range(net.buckets):
                tag = f" [{b}]" if net.buckets > 1 else ""
                print(_stats_line(f"out w us{tag}", net.out_weights[b, :hid], OUT_QMAX))
                print(_stats_line(f"out w them{tag}", net.out_weights[b, hid:], OUT_QMAX))
                print(f"output bias{tag:5} {net.out_bias[b]} ({net.out_bias[b] * 400 / (QA * QB):.2f} cp)")
            dead = np.all(net.ft_weights == 0, axis=0).sum()
            print(f"all-zero neurons {dead}")
            in_range = (np.abs(net.ft_weights.astype(np.int32)).max() <= FT_QMAX and np.abs(net.ft_bias.astype(np.int32)).max() <= FT_QMAX
                        and np.abs(net.out_weights.astype(np.int32)).max() <= OUT_QMAX)
            print(f"weights within the trainer's ranges (|ft| <= {FT_QMAX}, |out| <= {OUT_QMAX}): "
                  f"{'yes' if in_range else 'NO: the engine may overflow'}")
            for fen in SAMPLE_FENS:
                print(f"eval {evaluate_cp(net, fen):6d}  {fen}")
        elif args.cmd == "eval":
            net = read(args.net)
            for fen in args.fens:
                if args.verbose:
                    d = evaluate_detail(net, fen)
                    us, them = features(fen, net.arch)
                    print(f"{d['cp']}\t{fen}")
                    print(f"  features us   {us}")
                    print(f"  features them {them}")
                    print(f"  bucket {d['bucket']}  sum {d['sum']}  sum/QA+bias {d['scaled']}  float {evaluate_float(net, fen):.2f} cp")
                else:
                    print(f"{evaluate_cp(net, fen)}\t{fen}")
        elif args.cmd == "random":
            net = random_net(args.seed, args.hidden, args.buckets, args.king_buckets)
            write(args.out, net)
            print(f"wrote {args.out} ({describe(net.arch, net.hidden)}, seed {args.seed})")
    except (NetFileError, ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(_main())

#!/usr/bin/env python3
"""Reader and writer of Arbiter's `.abin` training data (numpy only).

The format is specified in nets/README.md: a plain sequence of 32-byte little-endian
records, one per position, no header.

Reading:
    rs = RecordSet(["a.abin", "b.abin"])             # memory-mapped files seen as one sequence
    records = rs.slice(i, j)                         # (or load_records(paths): all in memory)
    batch = decode(records)                          # vectorised, no per-position loop
    batch.stm_features, batch.nstm_features          # (n, 32) int16, padded with PAD
    batch.score_stm, batch.result_stm                # side to move's point of view

Writing (tests, synthetic data):
    encode_boards(boards, score_white, result, stm, ...) -> structured record array
    encode_position(pieces, ...) / record_from_fen(fen, ...) for single records
    write_records(path, records, append=False)

Feature indices (nets/README.md): for the accumulator of perspective p and a piece of
colour c, type t (0 pawn ... 5 king) on square s (a1 = 0 ... h8 = 63):
    index = (c == p ? 0 : 384) + t * 64 + (p == White ? s : s ^ 56)
The first accumulator of the network is always the side to move's. The index of the
same piece for the other perspective is other_perspective(index) =
((index + 384) % 768) ^ 56, because switching perspective toggles own/opponent and
flips the ranks.

Architecture 3 (king input buckets, nets/README.md) indexes 4 * 768 rows: with k the
perspective's own king on relative square ks = rel(king square) and m = 7 when that king
stands on files e-h (else 0),
    index = KING_BUCKET_MAP[ks ^ m] * 768 + (c == p ? 0 : 384) + t * 64 + (rel(s) ^ m).
The data keeps the plain side-to-move indices; king_bucket_features derives both
perspectives' bucketed indices from them per batch.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Iterable, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import system_python  # noqa: E402

system_python.require("numpy")
import numpy as np  # noqa: E402

RECORD_SIZE = 32
MAX_PIECES = 32
NUM_FEATURES = 768
PAD = NUM_FEATURES  # index used for the unused slots of a padded feature row

RECORD_DTYPE = np.dtype(
    [
        ("occupancy", "<u8"),
        ("pieces", "u1", (16,)),
        ("score", "<i2"),
        ("result", "u1"),
        ("stm", "u1"),
        ("halfmove", "u1"),
        ("flags", "u1"),
        ("fullmove", "<u2"),
    ]
)
assert RECORD_DTYPE.itemsize == RECORD_SIZE
assert [RECORD_DTYPE.fields[n][1] for n in RECORD_DTYPE.names] == [0, 8, 24, 26, 27, 28, 29, 30]

WHITE, BLACK = 0, 1
RESULT_BLACK_WINS, RESULT_DRAW, RESULT_WHITE_WINS = 0, 1, 2
PIECE_CHARS = "PNBRQKpnbrqk"  # index = piece code 0..11


class AbinError(ValueError):
    pass


# ----------------------------------------------------------------------------- reading


def open_file(path: str | os.PathLike, strict: bool = False) -> np.ndarray:
    """Memory-maps one `.abin` file as a read-only structured array.

    A trailing partial record (a file still being appended to) is ignored with a
    warning on stderr, or rejected when `strict`.
    """
    size = os.path.getsize(path)
    count, rest = divmod(size, RECORD_SIZE)
    if rest:
        msg = f"{path}: size {size} is not a multiple of {RECORD_SIZE}"
        if strict:
            raise AbinError(msg)
        print(f"warning: {msg}; ignoring the last {rest} bytes", file=sys.stderr)
    if count == 0:
        return np.zeros(0, dtype=RECORD_DTYPE)
    return np.memmap(path, dtype=RECORD_DTYPE, mode="r", shape=(count,))


class RecordSet:
    """Several `.abin` files seen as one indexable sequence of records (no copy until sliced)."""

    def __init__(self, paths: Sequence[str | os.PathLike], strict: bool = False):
        self.paths = [str(p) for p in paths]
        self.arrays = [open_file(p, strict) for p in self.paths]
        self.starts = np.cumsum([0] + [len(a) for a in self.arrays])

    def __len__(self) -> int:
        return int(self.starts[-1])

    def slice(self, begin: int, end: int) -> np.ndarray:
        """Records [begin, end) copied into one in-memory array."""
        begin, end = max(0, begin), min(len(self), end)
        parts = []
        for arr, start in zip(self.arrays, self.starts[:-1]):
            lo, hi = max(begin - start, 0), min(end - start, len(arr))
            if lo < hi:
                parts.append(np.asarray(arr[lo:hi]))
        if not parts:
            return np.zeros(0, dtype=RECORD_DTYPE)
        return np.concatenate(parts) if len(parts) > 1 else parts[0].copy()

    def chunks(self, chunk_size: int = 1 << 20, limit: int | None = None) -> Iterable[np.ndarray]:
        total = len(self) if limit is None else min(limit, len(self))
        for begin in range(0, total, chunk_size):
            yield self.slice(begin, min(begin + chunk_size, total))


def load_records(paths: Sequence[str | os.PathLike], limit: int | None = None) -> np.ndarray:
    """All records of the files (up to `limit`) in one in-memory structured array."""
    rs = RecordSet(paths)
    return rs.slice(0, len(rs) if limit is None else limit)


def as_records(data: bytes | bytearray | memoryview | np.ndarray) -> np.ndarray:
    """Bytes (a multiple of 32) or a uint8 array -> structured record array."""
    if isinstance(data, np.ndarray) and data.dtype == RECORD_DTYPE:
        return data
    buf = np.frombuffer(bytes(data) if not isinstance(data, np.ndarray) else data.tobytes(), dtype=np.uint8)
    if buf.size % RECORD_SIZE:
        raise AbinError(f"{buf.size} bytes is not a multiple of {RECORD_SIZE}")
    return buf.view(RECORD_DTYPE)


# ----------------------------------------------------------------------------- decoding


@dataclass
class Decoded:
    """Training tensors of n positions (numpy arrays)."""

    stm_features: np.ndarray  # (n, 32) int16: side to move's perspective, padded with PAD
    nstm_features: np.ndarray  # (n, 32) int16: the other side's perspective, same piece order
    count: np.ndarray  # (n,) uint8: number of pieces (active features per perspective)
    score_stm: np.ndarray  # (n,) int32: centipawns from the side to move's point of view
    result_stm: np.ndarray  # (n,) float32: 0 loss, 0.5 draw, 1 win for the side to move
    stm: np.ndarray  # (n,) uint8: 0 White, 1 Black

    def __len__(self) -> int:
        return len(self.stm)


def other_perspective(index: np.ndarray) -> np.ndarray:
    """Feature index of the same piece seen by the other perspective; PAD stays PAD."""
    idx = np.asarray(index)
    flipped = ((idx.astype(np.int32) + 384) % 768) ^ 56
    return np.where(idx == PAD, PAD, flipped).astype(idx.dtype)


def mirror_files(index: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Feature rows (n, k) with the board mirrored left-right (file a <-> h: square ^ 7) in
    the rows where `rows` is true; PAD stays PAD. Training uses it as augmentation: chess is
    symmetric under this mirror except for castling rights, which the records do not hold."""
    idx = np.asarray(index)
    flip = np.asarray(rows, dtype=bool)[:, None] & (idx != PAD)
    return np.where(flip, idx ^ 7, idx).astype(idx.dtype)


KING_BUCKETS = 4  # architecture 3's king input buckets
KING_INPUTS = KING_BUCKETS * NUM_FEATURES  # 3072 rows of the bucketed feature weights
KING_PAD = KING_INPUTS  # unused slots of a bucketed feature row
# Bucket of the perspective's own king by relative square (a1 = 0 from its side), after the
# mirror that puts it on files a-d: rank 1 files a, b -> 0, files c, d -> 1; rank 2 -> 2;
# ranks 3-8 -> 3. Filled symmetrically on files e-h, which the mirror never uses.
KING_BUCKET_MAP = np.array([0, 0, 1, 1, 1, 1, 0, 0] + [2] * 8 + [3] * 48, dtype=np.int16)
OWN_KING = 5 * 64  # plain indices of the own king: OWN_KING + relative square
THEIR_KING = 384 + 5 * 64  # of the opponent's king


def _king_bucket_tables():
    """(us, them), each (64, 769) int16: us[ks, f] is the side to move's bucketed index of
    its plain index f with its own king on relative square ks; them[kt, f] the other
    side's index of the same piece with the opponent's king on square kt of the side to
    move's frame (its own relative square is kt ^ 56). Column PAD maps to KING_PAD."""
    f = np.arange(NUM_FEATURES + 1)
    ks = np.arange(64)[:, None]
    m = np.where((ks & 7) >= 4, 7, 0)
    us = KING_BUCKET_MAP[ks ^ m].astype(np.int32) * NUM_FEATURES + (f ^ m)
    kt = ks ^ 56
    mt = np.where((kt & 7) >= 4, 7, 0)
    other = ((f + 384) % NUM_FEATURES) ^ 56  # other_perspective
    them = KING_BUCKET_MAP[kt ^ mt].astype(np.int32) * NUM_FEATURES + (other ^ mt)
    us[:, PAD] = KING_PAD
    them[:, PAD] = KING_PAD
    return us.astype(np.int16), them.astype(np.int16)


KING_TABLE_US, KING_TABLE_THEM = _king_bucket_tables()


def king_bucket_features(stm_features: np.ndarray):
    """Architecture 3's bucketed indices (us, them) of plain side-to-move feature rows.

    stm_features: (n, k) plain indices from the side to move's point of view, PAD-padded
    (Decoded.stm_features, the trainer's data), each row holding exactly one own king
    (OWN_KING + its relative square) and one opponent king (THEIR_KING + its square in
    the side to move's frame); AbinError otherwise. Returns two (n, k) int16 arrays, the
    side to move's and the other side's bucketed indices (0 <= index < 3072) in the same
    slots, KING_PAD where the input is PAD. Vectorised: finding the kings, then one
    table gather per perspective (about 7 ms for 16384 x 32 on one core)."""
    f = np.asarray(stm_features)
    own = (f >= OWN_KING) & (f < OWN_KING + 64)
    their = (f >= THEIR_KING) & (f != PAD)  # PAD = 768 would pass the range test
    ok = (own.sum(axis=1) == 1) & (their.sum(axis=1) == 1)
    if not ok.all():
        raise AbinError(f"row {int(np.flatnonzero(~ok)[0])}: king buckets need exactly one king of each colour")
    rows = np.arange(len(f))
    k_us = f[rows, own.argmax(axis=1)].astype(np.intp) - OWN_KING
    k_them = f[rows, their.argmax(axis=1)].astype(np.intp) - THEIR_KING
    fi = f.astype(np.intp)
    width = NUM_FEATURES + 1
    us = KING_TABLE_US.ravel()[k_us[:, None] * width + fi]
    them = KING_TABLE_THEM.ravel()[k_them[:, None] * width + fi]
    return us, them


def _lsb_square(occ: np.ndarray) -> np.ndarray:
    """Index of the lowest set bit of each uint64 (-1 for zero), vectorised."""
    lowest = occ & (~occ + np.uint64(1))
    # Powers of two are exact in float64: frexp(2^k) = (0.5, k + 1).
    _, exponent = np.frexp(lowest.astype(np.float64))
    return exponent.astype(np.int16) - 1


def decode_boards(records: np.ndarray):
    """Squares and piece codes of every record, in increasing square order.

    Returns (squares (n, 32) int16, codes (n, 32) int16, count (n,) uint8); unused
    slots hold square -1 and code -1. Raises AbinError on invalid records.
    """
    records = as_records(records)
    n = len(records)
    occ = np.array(records["occupancy"], dtype=np.uint64)
    pieces = np.asarray(records["pieces"], dtype=np.uint8).reshape(n, 16)
    # Nibbles: piece k is the low nibble of byte k // 2 when k is even, else the high one.
    nibbles = np.empty((n, MAX_PIECES), dtype=np.int16)
    nibbles[:, 0::2] = pieces & 0x0F
    nibbles[:, 1::2] = pieces >> 4

    squares = np.full((n, MAX_PIECES), -1, dtype=np.int16)
    count = np.zeros(n, dtype=np.uint8)
    work = occ.copy()
    for k in range(MAX_PIECES):
        if not work.any():
            break
        sq = _lsb_square(work)
        squares[:, k] = sq
        count += (sq >= 0).astype(np.uint8)
        work &= work - np.uint64(1)  # 0 - 1 wraps to all ones, 0 & that stays 0
    if work.any():
        bad = int(np.flatnonzero(work)[0])
        raise AbinError(f"record {bad}: more than {MAX_PIECES} occupied squares")
    used = squares >= 0
    codes = np.where(used, nibbles, -1).astype(np.int16)
    if (codes > 11).any():
        bad = int(np.flatnonzero((codes > 11).any(axis=1))[0])
        raise AbinError(f"record {bad}: piece code above 11")
    return squares, codes, count


def _feature_table() -> np.ndarray:
    """table[p, code, s]: feature index of piece `code` on square s for perspective p; code 12 = PAD."""
    table = np.full((2, 13, 64), PAD, dtype=np.int16)
    for p in (WHITE, BLACK):
        for code in range(12):
            colour, ptype = divmod(code, 6)
            for s in range(64):
                table[p, code, s] = (0 if colour == p else 384) + ptype * 64 + (s if p == WHITE else s ^ 56)
    return table


FEATURE_TABLE = _feature_table()


def features_for(squares: np.ndarray, codes: np.ndarray, perspective: np.ndarray) -> np.ndarray:
    """Feature indices (int16, PAD where unused) of pieces for a per-row perspective colour."""
    p = np.asarray(perspective, dtype=np.int32).reshape(-1, 1)
    used = codes >= 0
    key = (p * 13 + np.where(used, codes, 12)) * 64 + np.where(used, squares, 0)
    return FEATURE_TABLE.ravel()[key]


DECODE_BLOCK = 1 << 16  # rows per vectorised step (keeps the temporaries in cache)


def decode(records, validate: bool = True) -> Decoded:
    """Decodes records into training tensors (vectorised numpy)."""
    records = as_records(records)
    if len(records) > DECODE_BLOCK:
        parts = [decode(records[i : i + DECODE_BLOCK], validate) for i in range(0, len(records), DECODE_BLOCK)]
        return Decoded(*(np.concatenate([getattr(d, f) for d in parts]) for f in Decoded.__dataclass_fields__))
    squares, codes, count = decode_boards(records)
    stm = np.asarray(records["stm"], dtype=np.uint8)
    if validate:
        if (stm > 1).any():
            raise AbinError(f"record {int(np.flatnonzero(stm > 1)[0])}: side to move not 0/1")
        res = np.asarray(records["result"])
        if (res > 2).any():
            raise AbinError(f"record {int(np.flatnonzero(res > 2)[0])}: result not 0/1/2")
    stm_features = features_for(squares, codes, stm)
    nstm_features = features_for(squares, codes, 1 - stm.astype(np.int32))
    sign = np.where(stm == WHITE, 1, -1).astype(np.int32)
    score_stm = np.asarray(records["score"], dtype=np.int32) * sign  # int32: -(-32768) is safe
    result_white = np.asarray(records["result"], dtype=np.float32) / 2.0  # 0, 0.5, 1 for White
    result_stm = np.where(stm == WHITE, result_white, 1.0 - result_white).astype(np.float32)
    return Decoded(stm_features, nstm_features, count, score_stm, result_stm, stm)


# ----------------------------------------------------------------------------- writing


def encode_boards(
    boards: np.ndarray,
    score_white,
    result,
    stm,
    halfmove=0,
    flags=0,
    fullmove=1,
) -> np.ndarray:
    """Vectorised encoder. boards: (n, 64) int array, piece code 0..11 per square, -1 empty.

    score_white: centipawns from White's point of view (clamped to i16); result: 0 Black
    won, 1 draw, 2 White won; stm: 0 White, 1 Black. Returns a structured record array.
    """
    boards = np.asarray(boards, dtype=np.int16)
    if boards.ndim != 2 or boards.shape[1] != 64:
        raise AbinError("boards must be (n, 64)")
    n = len(boards)
    occupied = boards >= 0
    if (occupied.sum(axis=1) > MAX_PIECES).any():
        raise AbinError(f"more than {MAX_PIECES} pieces on a board")
    if (boards > 11).any():
        raise AbinError("piece code above 11")
    out = np.zeros(n, dtype=RECORD_DTYPE)
    weights = np.uint64(1) << np.arange(64, dtype=np.uint64)
    out["occupancy"] = (occupied.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)
    # Slot of each occupied square = number of occupied squares below it.
    slot = np.cumsum(occupied, axis=1) - 1
    rows, cols = np.nonzero(occupied)
    nib = np.zeros((n, MAX_PIECES), dtype=np.uint8)
    nib[rows, slot[rows, cols]] = boards[rows, cols]
    out["pieces"] = nib[:, 0::2] | (nib[:, 1::2] << 4)
    out["score"] = np.clip(np.asarray(score_white, dtype=np.int64), -32768, 32767)
    out["result"] = result
    out["stm"] = stm
    out["halfmove"] = np.clip(np.asarray(halfmove, dtype=np.int64), 0, 255)
    out["flags"] = flags
    out["fullmove"] = np.clip(np.asarray(fullmove, dtype=np.int64), 0, 65535)
    return out


def encode_position(pieces, score_white=0, result=RESULT_DRAW, stm=WHITE, halfmove=0, flags=0, fullmove=1) -> bytes:
    """One record (32 bytes). pieces: iterable of (square, piece code) pairs."""
    board = np.full(64, -1, dtype=np.int16)
    for sq, code in pieces:
        board[sq] = code
    return encode_boards(board[None, :], score_white, result, stm, halfmove, flags, fullmove).tobytes()


def parse_fen_board(fen: str):
    """(board (64,) int16 with codes / -1, side to move 0/1) from a FEN (other fields ignored)."""
    fields = fen.split()
    if not fields:
        raise ValueError("empty FEN")
    ranks = fields[0].split("/")
    if len(ranks) != 8:
        raise ValueError(f"FEN board needs 8 ranks: {fen!r}")
    board = np.full(64, -1, dtype=np.int16)
    for r, text in enumerate(ranks):
        rank = 7 - r
        file = 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
            elif ch in PIECE_CHARS:
                if file > 7:
                    raise ValueError(f"FEN rank {rank + 1} too long: {fen!r}")
                board[rank * 8 + file] = PIECE_CHARS.index(ch)
                file += 1
            else:
                raise ValueError(f"bad FEN character {ch!r}: {fen!r}")
        if file != 8:
            raise ValueError(f"FEN rank {rank + 1} has {file} files: {fen!r}")
    side = fields[1] if len(fields) > 1 else "w"
    if side not in ("w", "b"):
        raise ValueError(f"bad side to move {side!r}: {fen!r}")
    return board, WHITE if side == "w" else BLACK


def record_from_fen(fen: str, score_white=0, result=RESULT_DRAW, halfmove=None, fullmove=None, flags=0) -> bytes:
    board, stm = parse_fen_board(fen)
    fields = fen.split()
    if halfmove is None:
        halfmove = int(fields[4]) if len(fields) > 4 else 0
    if fullmove is None:
        fullmove = int(fields[5]) if len(fields) > 5 else 1
    return encode_boards(board[None, :], score_white, result, stm, halfmove, flags, fullmove).tobytes()


def board_to_fen(board: np.ndarray, stm: int, halfmove: int = 0, fullmove: int = 1) -> str:
    """FEN of a board (castling and en passant, which records do not keep, written as '-')."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            code = int(board[rank * 8 + file])
            if code < 0:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += PIECE_CHARS[code]
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + (" w" if stm == WHITE else " b") + f" - - {halfmove} {fullmove}"


def records_to_boards(records) -> np.ndarray:
    """(n, 64) int16 boards (codes, -1 empty) of records."""
    squares, codes, _ = decode_boards(records)
    n = len(squares)
    boards = np.full((n, 64), -1, dtype=np.int16)
    rows, slots = np.nonzero(squares >= 0)
    boards[rows, squares[rows, slots]] = codes[rows, slots]
    return boards


def write_records(path, records, append: bool = False) -> None:
    data = records.tobytes() if isinstance(records, np.ndarray) else bytes(records)
    if len(data) % RECORD_SIZE:
        raise AbinError("data is not a whole number of records")
    with open(path, "ab" if append else "wb") as f:
        f.write(data)


# ----------------------------------------------------------------------------- command line


def _main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Inspect .abin training data")
    sub = ap.add_subparsers(dest="cmd", required=True)
    st = sub.add_parser("stats", help="record count and score / result / piece-count statistics")
    st.add_argument("files", nargs="+")
    st.add_argument("--max-positions", type=int, default=None)
    sh = sub.add_parser("show", help="print records as FEN + fields")
    sh.add_argument("file")
    sh.add_argument("--start", type=int, default=0)
    sh.add_argument("--count", type=int, default=10)
    args = ap.parse_args(argv)

    if args.cmd == "stats":
        rs = RecordSet(args.files)
        total = len(rs) if args.max_positions is None else min(len(rs), args.max_positions)
        print(f"records: {total} (files: {len(rs.paths)})")
        results = np.zeros(3, dtype=np.int64)
        stm = np.zeros(2, dtype=np.int64)
        pcount = np.zeros(33, dtype=np.int64)
        s_sum = s_abs = 0.0
        import time

        t0 = time.time()
        for chunk in rs.chunks(1 << 20, total):
            d = decode(chunk)
            results += np.bincount(chunk["result"], minlength=3)[:3]
            stm += np.bincount(chunk["stm"], minlength=2)[:2]
            pcount += np.bincount(d.count, minlength=33)
            s = chunk["score"].astype(np.float64)
            s_sum += s.sum()
            s_abs += np.abs(s).sum()
        dt = time.time() - t0
        if total:
            print(f"decoded in {dt:.2f}s ({total / max(dt, 1e-9) / 1e6:.2f} M positions/s)")
            print(f"results (White's view): black wins {results[0]}, draws {results[1]}, white wins {results[2]}")
            print(f"side to move: white {stm[0]}, black {stm[1]}")
            print(f"score (White's view): mean {s_sum / total:.1f} cp, mean |score| {s_abs / total:.1f} cp")
            mean_pieces = (pcount * np.arange(33)).sum() / total
            print(f"pieces per position: mean {mean_pieces:.2f}, min {np.flatnonzero(pcount)[0]}, max {np.flatnonzero(pcount)[-1]}")
    else:
        recs = open_file(args.file)[args.start : args.start + args.count]
        boards = records_to_boards(recs)
        for i, r in enumerate(recs):
            fen = board_to_fen(boards[i], int(r["stm"]), int(r["halfmove"]), int(r["fullmove"]))
            print(f"{args.start + i}: {fen}  score {int(r['score'])} result {int(r['result'])} flags {int(r['flags'])}")
    return 0


if __name__ == "__main__":
    sys.exit(_main())

#!/usr/bin/env python3
"""Checks scripts/nnue/netfile.py (the .anet format and the reference integer evaluation)
and scripts/nnue/abin.py (the .abin records) against nets/README.md, with byte offsets and
evaluations worked out by hand. numpy only (no torch); runs in a few seconds."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "nnue"))
import system_python  # noqa: E402

system_python.require("numpy")
import numpy as np  # noqa: E402

import importlib.util
import pathlib
import struct
import subprocess
import tempfile
import unittest
import zlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
NNUE = ROOT / "scripts" / "nnue"
sys.path.insert(0, str(NNUE))


def load(name):
    spec = importlib.util.spec_from_file_location(name, NNUE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


abin = load("abin")
netfile = load("netfile")
synthetic = load("synthetic")

HEADER = 32
PAYLOAD = 394756
FT_BIAS_AT = HEADER + 768 * 256 * 2  # 393248
OUT_W_AT = FT_BIAS_AT + 256 * 2  # 393760
OUT_B_AT = OUT_W_AT + 512 * 2  # 394784
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def zero_net():
    return netfile.QuantNet(
        np.zeros((768, 256), np.int16), np.zeros(256, np.int16), np.zeros(512, np.int16), 0
    )


def mirror_fen(fen):
    """Colours swapped and ranks flipped: the same position for the other side."""
    fields = fen.split()
    board = "/".join(reversed(fields[0].split("/"))).swapcase()
    side = "b" if fields[1] == "w" else "w"
    return f"{board} {side} - - 0 1"


def flip_files_fen(fen):
    """The board mirrored left-right (files a <-> h), same side to move, no castling rights."""
    fields = fen.split()
    return " ".join(["/".join(rank[::-1] for rank in fields[0].split("/")), fields[1], "-", "-", "0", "1"])


class QuantiseTest(unittest.TestCase):
    def test_round_trip_gives_the_same_integers(self):
        rng = np.random.default_rng(7)
        ft_w = rng.normal(0, 0.6, (768, 256))  # some beyond the clip range
        ft_b = rng.normal(0, 0.6, 256)
        out_w = rng.normal(0, 0.5, 512)
        out_b = 0.37
        q = netfile.quantise(ft_w, ft_b, out_w, out_b)
        back = netfile.from_bytes(netfile.to_bytes(q))
        np.testing.assert_array_equal(back.ft_weights, q.ft_weights)
        np.testing.assert_array_equal(back.ft_bias, q.ft_bias)
        np.testing.assert_array_equal(back.out_weights, q.out_weights)
        np.testing.assert_array_equal(back.out_bias, q.out_bias)
        # Independent expectation: clip, scale, round (no value here is a tie).
        np.testing.assert_array_equal(q.ft_weights, np.rint(np.clip(ft_w, -1.98, 1.98) * 255))
        np.testing.assert_array_equal(q.out_weights[0], np.rint(np.clip(out_w, -1, 1) * 64))
        self.assertEqual(q.out_bias.tolist(), [round(0.37 * 255 * 64)])  # 6038.4 -> 6038
        self.assertEqual(int(np.abs(q.ft_weights).max()), 505)
        self.assertEqual(int(np.abs(q.out_weights).max()), 64)

    def test_clipping_and_rounding_of_single_values(self):
        ft_w = np.zeros((768, 256))
        ft_w[0, :6] = [2.5, -3.0, 1.98, 100.4 / 255, 0.3 / 255, -100.6 / 255]
        out_w = np.zeros(512)
        out_w[:4] = [1.7, -1.2, 0.3, -0.5 / 64 - 1e-9]
        q = netfile.quantise(ft_w, np.full(256, -2.2), out_w, -1.5)
        self.assertEqual(q.ft_weights[0, :6].tolist(), [505, -505, 505, 100, 0, -101])
        self.assertEqual(q.ft_bias[0], -505)
        self.assertEqual(q.out_weights[0, :4].tolist(), [64, -64, 19, -1])
        self.assertEqual(q.out_bias.tolist(), [-24480])  # -1.5 * 16320


class FileFormatTest(unittest.TestCase):
    def setUp(self):
        net = zero_net()
        net.ft_weights[1, 2] = 7
        net.ft_weights[767, 255] = -505
        net.ft_bias[3] = -9
        net.out_weights[0, 256 + 5] = 11
        net.out_weights[0, 0] = -64
        net.out_bias[0] = -123456
        self.data = netfile.to_bytes(net)

    def test_header_fields_by_hand(self):
        d = self.data
        self.assertEqual(len(d), HEADER + PAYLOAD)
        self.assertEqual(d[0:8], b"ARBNNUE\x00")
        self.assertEqual(struct.unpack_from("<I", d, 8)[0], 1)  # format version
        self.assertEqual(struct.unpack_from("<I", d, 12)[0], 1)  # architecture id
        self.assertEqual(struct.unpack_from("<I", d, 16)[0], 256)  # hidden size
        self.assertEqual(struct.unpack_from("<I", d, 20)[0], PAYLOAD)  # payload size
        self.assertEqual(struct.unpack_from("<I", d, 24)[0], zlib.crc32(d[HEADER:]))
        self.assertEqual(struct.unpack_from("<I", d, 28)[0], 0)  # reserved

    def test_payload_offsets_by_hand(self):
        d = self.data
        self.assertEqual(struct.unpack_from("<h", d, HEADER + (1 * 256 + 2) * 2)[0], 7)
        self.assertEqual(struct.unpack_from("<h", d, HEADER + (767 * 256 + 255) * 2)[0], -505)
        self.assertEqual(struct.unpack_from("<h", d, FT_BIAS_AT + 3 * 2)[0], -9)
        self.assertEqual(struct.unpack_from("<h", d, OUT_W_AT + 0)[0], -64)
        self.assertEqual(struct.unpack_from("<h", d, OUT_W_AT + (256 + 5) * 2)[0], 11)
        self.assertEqual(struct.unpack_from("<i", d, OUT_B_AT)[0], -123456)
        self.assertEqual(OUT_B_AT + 4, len(d))
        # Little-endian bytes of -505 = 0xFE07.
        self.assertEqual(d[HEADER + (767 * 256 + 255) * 2 : HEADER + (767 * 256 + 255) * 2 + 2], b"\x07\xfe")
        # Nothing else is non-zero: 7 -> 07 00, -505 -> 07 FE, -9 -> F7 FF, -64 -> C0 FF,
        # 11 -> 0B 00, -123456 -> C0 1D FE FF: 12 non-zero bytes.
        nonzero = np.count_nonzero(np.frombuffer(d, dtype=np.uint8, offset=HEADER))
        self.assertEqual(nonzero, 12)

    def test_read_back_from_a_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "t.anet")
            with open(path, "wb") as f:
                f.write(self.data)
            net = netfile.read(path)
        self.assertEqual(net.ft_weights[1, 2], 7)
        self.assertEqual(net.out_bias.tolist(), [-123456])

    def rejection(self, data):
        with self.assertRaises(netfile.NetFileError) as ctx:
            netfile.from_bytes(data)
        return str(ctx.exception)

    def test_corruptions_are_rejected_with_distinct_messages(self):
        d = bytearray(self.data)
        bad_payload = bytearray(d)
        bad_payload[HEADER + 1000] ^= 0x01
        bad_crc = bytearray(d)
        struct.pack_into("<I", bad_crc, 24, (zlib.crc32(d[HEADER:]) + 1) & 0xFFFFFFFF)
        bad_magic = bytearray(d)
        bad_magic[0:8] = b"ARBNNUF\x00"
        truncated = bytes(d[:-10])
        short_header = bytes(d[:20])
        bad_version = bytearray(d)
        struct.pack_into("<I", bad_version, 8, 2)
        bad_size = bytearray(d)
        struct.pack_into("<I", bad_size, 20, PAYLOAD - 2)

        crc_msg = self.rejection(bytes(bad_payload))
        self.assertIn("CRC", crc_msg)
        self.assertIn("CRC", self.rejection(bytes(bad_crc)))
        magic_msg = self.rejection(bytes(bad_magic))
        self.assertIn("magic", magic_msg)
        trunc_msg = self.rejection(truncated)
        self.assertIn("truncated", trunc_msg)
        header_msg = self.rejection(short_header)
        self.assertIn("truncated header", header_msg)
        version_msg = self.rejection(bytes(bad_version))
        self.assertIn("version", version_msg)
        size_msg = self.rejection(bytes(bad_size))
        self.assertIn("payload size", size_msg)
        messages = [crc_msg, magic_msg, trunc_msg, header_msg, version_msg, size_msg]
        self.assertEqual(len(set(messages)), len(messages))
        netfile.from_bytes(bytes(d))  # the original is fine


class IntegerEvaluationTest(unittest.TestCase):
    # Position: White K e1 (square 4), P e2 (12); Black k e8 (60).
    # White's perspective: P e2 -> 0 + 0*64 + 12 = 12, K e1 -> 0 + 5*64 + 4 = 324,
    #                      k e8 -> 384 + 320 + 60 = 764.
    # Black's perspective (ranks flipped, s ^ 56): P e2 -> 384 + 0 + 52 = 436,
    #                      K e1 -> 384 + 320 + 60 = 764, k e8 -> 0 + 320 + 4 = 324.
    FEN_W = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    FEN_B = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"

    def net(self):
        net = zero_net()
        net.ft_weights[12, 0] = 100  # White's pawn, seen by White: neuron 0
        net.ft_weights[436, 1] = 200  # White's pawn, seen by Black: neuron 1
        net.ft_weights[324, 2] = 300  # own king on the first rank: neuron 2 (clamped to 255)
        net.ft_bias[3] = -50  # neuron 3 stays below 0: contributes nothing
        net.out_weights[0, 3] = 64
        net.out_weights[0, 256 + 3] = 64
        net.out_weights[0, 0] = 10
        net.out_weights[0, 2] = 3
        net.out_weights[0, 256 + 1] = -7
        net.out_bias[0] = -1000
        return net

    def test_features(self):
        us, them = netfile.features(self.FEN_W)
        self.assertEqual(sorted(us), [12, 324, 764])
        self.assertEqual(sorted(them), [324, 436, 764])
        us_b, them_b = netfile.features(self.FEN_B)
        self.assertEqual(sorted(us_b), [324, 436, 764])
        self.assertEqual(sorted(them_b), [12, 324, 764])

    def test_white_to_move(self):
        # us = White: acc0 100, acc2 300 -> 255; them = Black: acc1 200, acc2 300 -> 255.
        # sum = 100^2*10 + 255^2*3 + 200^2*(-7) = 100000 + 195075 - 280000 = 15075
        # 15075 / 255 = 59 (59.1); (59 - 1000) * 400 = -376400; / 16320 = -23.06 -> -23
        d = netfile.evaluate_detail(self.net(), self.FEN_W)
        self.assertEqual(d["sum"], 15075)
        self.assertEqual(d["scaled"], -941)
        self.assertEqual(d["cp"], -23)  # floor division would give -24

    def test_black_to_move_uses_the_flipped_features(self):
        # us = Black: acc1 200 (out 0), acc2 255 (out 3); them = White: acc0 100 (out 0), acc2 255 (out 0).
        # sum = 255^2*3 = 195075; / 255 = 765; (765 - 1000) * 400 = -94000; / 16320 = -5.76 -> -5
        d = netfile.evaluate_detail(self.net(), self.FEN_B)
        self.assertEqual(d["sum"], 195075)
        self.assertEqual(d["cp"], -5)  # floor division would give -6

    def test_negative_sum_truncates_toward_zero(self):
        # out[2] = 0, bias 0, White to move: sum = 100000 - 280000 = -180000;
        # -180000 / 255 = -705 (-705.9); -705 * 400 = -282000; / 16320 = -17.28 -> -17
        net = self.net()
        net.out_weights[0, 2] = 0
        net.out_bias[0] = 0
        d = netfile.evaluate_detail(net, self.FEN_W)
        self.assertEqual(d["sum"], -180000)
        self.assertEqual(d["scaled"], -705)  # floor would give -706
        self.assertEqual(d["cp"], -17)  # floor would give -18
        self.assertEqual(netfile.evaluate_cp(net, self.FEN_W), -17)

    def test_positive_value(self):
        # Only out bias 16320 * 2 + 1: (0 + 32641) * 400 / 16320 = 800.02 -> 800
        net = zero_net()
        net.out_bias[0] = 32641
        self.assertEqual(netfile.evaluate_cp(net, START), 800)
        net.out_bias[0] = -32641
        self.assertEqual(netfile.evaluate_cp(net, START), -800)

    def test_trunc_div(self):
        self.assertEqual(netfile.trunc_div(7, 2), 3)
        self.assertEqual(netfile.trunc_div(-7, 2), -3)
        self.assertEqual(netfile.trunc_div(7, -2), -3)
        self.assertEqual(netfile.trunc_div(-7, -2), 3)
        self.assertEqual(netfile.trunc_div(-6, 3), -2)

    def test_random_net_is_valid_and_colour_symmetric(self):
        net = netfile.random_net(3)
        self.assertLessEqual(int(np.abs(net.ft_weights).max()), 505)
        self.assertLessEqual(int(np.abs(net.ft_bias).max()), 505)
        self.assertLessEqual(int(np.abs(net.out_weights).max()), 64)
        back = netfile.from_bytes(netfile.to_bytes(net))
        fens = [
            START,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/8/4k3/8/2R5/8/4K3/8 b - - 0 1",
            self.FEN_W,
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        ]
        values = []
        for fen in fens:
            v = netfile.evaluate_cp(back, fen)
            values.append(v)
            self.assertEqual(v, netfile.evaluate_cp(back, mirror_fen(fen)), fen)
            self.assertAlmostEqual(v, netfile.evaluate_float(back, fen), delta=1.0)
        self.assertGreater(max(values) - min(values), 100)  # spread over hundreds of cp


class BucketedFormatTest(unittest.TestCase):
    """Architecture 2: (768 -> H) x 2 -> 1 x 8 output buckets by piece count."""

    H = 384
    FT_BIAS_AT = HEADER + 768 * 384 * 2
    OUT_W_AT = FT_BIAS_AT + 384 * 2
    OUT_B_AT = OUT_W_AT + 8 * 768 * 2

    def net(self):
        net = netfile.QuantNet(np.zeros((768, self.H), np.int16), np.zeros(self.H, np.int16),
                               np.zeros((8, 2 * self.H), np.int16), np.zeros(8, np.int64))
        net.ft_weights[324, 0] = 100  # own king on e1, neuron 0
        net.out_weights[1, 0] = 10  # bucket 1, side to move's neuron 0
        net.out_weights[7, self.H + 5] = -3  # bucket 7, other side's neuron 5
        net.out_bias[:] = [(b + 1) * 4080 for b in range(8)]  # (b + 1) * 100 cp
        return net

    def test_header_and_offsets_by_hand(self):
        d = netfile.to_bytes(self.net())
        self.assertEqual(len(d), HEADER + 602912)
        self.assertEqual(struct.unpack_from("<IIII", d, 8), (1, 2, 384, 602912))
        self.assertEqual(struct.unpack_from("<h", d, HEADER + (324 * 384) * 2)[0], 100)
        self.assertEqual(struct.unpack_from("<h", d, self.OUT_W_AT + (1 * 768 + 0) * 2)[0], 10)
        self.assertEqual(struct.unpack_from("<h", d, self.OUT_W_AT + (7 * 768 + 384 + 5) * 2)[0], -3)
        self.assertEqual(struct.unpack_from("<8i", d, self.OUT_B_AT), tuple((b + 1) * 4080 for b in range(8)))
        self.assertEqual(self.OUT_B_AT + 32, len(d))
        back = netfile.from_bytes(d)
        self.assertEqual((back.arch, back.hidden, back.buckets), (2, 384, 8))

    def test_buckets_by_piece_count(self):
        self.assertEqual([int(netfile.output_bucket(n)) for n in range(2, 33)],
                         [(n - 2) // 4 if n < 30 else 7 for n in range(2, 33)])
        net = self.net()
        self.assertEqual(netfile.evaluate_cp(net, "k7/8/8/8/8/8/8/4K3 w - - 0 1"), 100)  # 2 pieces: bucket 0
        # 6 pieces, bucket 1: 100^2 * 10 / 255 = 392; (392 + 8160) * 400 / 16320 = 209.6 -> 209
        six = "k7/8/8/8/8/8/PPPP4/4K3 w - - 0 1"
        self.assertEqual(netfile.evaluate_detail(net, six)["bucket"], 1)
        self.assertEqual(netfile.evaluate_cp(net, six), 209)
        self.assertEqual(netfile.evaluate_cp(net, START), 800)  # 32 pieces: bucket 7, acc 0

    def test_random_bucketed_nets(self):
        for hidden in (256, 512):
            net = netfile.random_net(5, hidden, 8)
            back = netfile.from_bytes(netfile.to_bytes(net))
            np.testing.assert_array_equal(back.out_weights, net.out_weights)
            np.testing.assert_array_equal(back.out_bias, net.out_bias)
            for fen in [START, "8/8/4k3/8/2R5/8/4K3/8 b - - 0 1", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"]:
                v = netfile.evaluate_cp(back, fen)
                self.assertEqual(v, netfile.evaluate_cp(back, mirror_fen(fen)))
                self.assertAlmostEqual(v, netfile.evaluate_float(back, fen), delta=1.0)

    def test_rejections(self):
        d = bytearray(netfile.to_bytes(self.net()))
        wrong_arch = bytearray(d)
        struct.pack_into("<I", wrong_arch, 12, 1)
        with self.assertRaisesRegex(netfile.NetFileError, "payload size field 602912 is not 592132"):
            netfile.from_bytes(bytes(wrong_arch))
        bad_hidden = bytearray(d)
        struct.pack_into("<I", bad_hidden, 16, 320)
        with self.assertRaisesRegex(netfile.NetFileError, "unsupported hidden size 320"):
            netfile.from_bytes(bytes(bad_hidden))
        bad_arch = bytearray(d)
        struct.pack_into("<I", bad_arch, 12, 4)
        with self.assertRaisesRegex(netfile.NetFileError, "unsupported architecture id 4"):
            netfile.from_bytes(bytes(bad_arch))
        with self.assertRaises(netfile.NetFileError):
            netfile.quantise(np.zeros((768, 384)), np.zeros(384), np.zeros((3, 768)), np.zeros(3))  # 3 buckets


class KingBucketTest(unittest.TestCase):
    """Architecture 3: (768 x 4 -> H) x 2 -> 1 x 8, king input buckets with horizontal
    mirroring (nets/README.md). Indices and offsets worked out by hand."""

    H = 384
    PAYLOAD = (3072 * 384 + 384 + 16 * 384) * 2 + 32  # 2,372,384 as the spec says
    FT_BIAS_AT = HEADER + 3072 * 384 * 2
    OUT_W_AT = FT_BIAS_AT + 384 * 2
    OUT_B_AT = OUT_W_AT + 8 * 768 * 2
    # White K e1 (4), P e2 (12); Black k e8 (60). Both kings on file e: mirrored, bucket 1.
    # White: P e2 -> 768 + 0 + 0 + (12 ^ 7 = 11) = 779; K e1 -> 768 + 320 + 3 = 1091;
    #        k e8 -> 768 + 384 + 320 + (60 ^ 7 = 59) = 1531.
    # Black (ranks flipped, then files): P e2 -> 52 ^ 7 = 51: 768 + 384 + 51 = 1203;
    #        K e1 -> 60 ^ 7 = 59: 768 + 384 + 320 + 59 = 1531; k e8 -> 4 ^ 7 = 3: 768 + 320 + 3 = 1091.
    FEN_W = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    FEN_B = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"
    # White K g1 (6), N c3 (18); Black k d5 (35), p h7 (55); Black to move.
    # White: king g1 mirrored, 6 ^ 7 = 1 -> bucket 0: K 320 + 1 = 321; N 64 + (18 ^ 7 = 21) = 85;
    #        k 384 + 320 + (35 ^ 7 = 36) = 740; p 384 + (55 ^ 7 = 48) = 432.
    # Black: king d5 -> relative 35 ^ 56 = 27 (d4), not mirrored, relative rank 4 -> bucket 3 (2304):
    #        k 2304 + 320 + 27 = 2651; p 2304 + (55 ^ 56 = 15) = 2319;
    #        K 2304 + 384 + 320 + (6 ^ 56 = 62) = 3070; N 2304 + 384 + 64 + (18 ^ 56 = 42) = 2794.
    FEN_2 = "8/7p/8/3k4/8/2N5/8/6K1 b - - 0 1"

    def net(self, hidden=384):
        return netfile.QuantNet(np.zeros((3072, hidden), np.int16), np.zeros(hidden, np.int16),
                                np.zeros((8, 2 * hidden), np.int16), np.zeros(8, np.int64))

    def test_map_and_king_buckets_by_hand(self):
        self.assertEqual(netfile.ARCH_KING_BUCKETS, 3)
        self.assertEqual(netfile.KING_BUCKETS, 4)
        self.assertEqual(list(netfile.KING_BUCKET_MAP), [0, 0, 1, 1, 1, 1, 0, 0] + [2] * 8 + [3] * 48)
        W, B = netfile.WHITE, netfile.BLACK
        self.assertEqual(netfile.king_bucket(W, 4), (1, 7))  # e1: mirrored to d1, bucket 1
        self.assertEqual(netfile.king_bucket(W, 6), (0, 7))  # g1: mirrored to b1, bucket 0
        self.assertEqual(netfile.king_bucket(W, 7), (0, 7))  # h1 -> a1
        self.assertEqual(netfile.king_bucket(W, 0), (0, 0))  # a1
        self.assertEqual(netfile.king_bucket(W, 2), (1, 0))  # c1
        self.assertEqual(netfile.king_bucket(B, 60), (1, 7))  # e8, Black's e1: mirrored, bucket 1
        self.assertEqual(netfile.king_bucket(B, 58), (1, 0))  # c8
        self.assertEqual(netfile.king_bucket(W, 9), (2, 0))  # b2: rank 2
        self.assertEqual(netfile.king_bucket(B, 53), (2, 7))  # f7, Black's rank 2, mirrored
        self.assertEqual(netfile.king_bucket(B, 12), (3, 7))  # e2 is Black's rank 7
        self.assertEqual(netfile.king_bucket(W, 27), (3, 0))  # d4: rank 4
        self.assertEqual(netfile.king_bucket(W, 28), (3, 7))  # e4: rank 4, mirrored
        self.assertEqual(netfile.king_bucket(B, 32), (3, 0))  # a5, Black's rank 4

    def test_features_by_hand(self):
        arch = netfile.ARCH_KING_BUCKETS
        us, them = netfile.features(self.FEN_W, arch)
        self.assertEqual(sorted(us), [779, 1091, 1531])
        self.assertEqual(sorted(them), [1091, 1203, 1531])
        us, them = netfile.features(self.FEN_B, arch)
        self.assertEqual(sorted(us), [1091, 1203, 1531])
        self.assertEqual(sorted(them), [779, 1091, 1531])
        us, them = netfile.features(self.FEN_2, arch)
        self.assertEqual(sorted(us), [2319, 2651, 2794, 3070])
        self.assertEqual(sorted(them), [85, 321, 432, 740])
        # Architectures 1 and 2 keep the plain indices.
        self.assertEqual(sorted(netfile.features(self.FEN_W)[0]), [12, 324, 764])
        with self.assertRaisesRegex(ValueError, "one king of each colour"):
            netfile.features("8/8/8/8/8/8/4P3/4K3 w - - 0 1", arch)

    def test_header_and_offsets_by_hand(self):
        self.assertEqual(self.PAYLOAD, 2372384)
        self.assertEqual(netfile.payload_size(3, 384), self.PAYLOAD)
        net = self.net()
        net.ft_weights[779, 0] = 100
        net.ft_weights[3071, 383] = -505  # the last row: bucket 3's opponent king on relative h8
        net.ft_bias[3] = -9
        net.out_weights[1, 0] = 10
        net.out_weights[7, 384 + 5] = -3
        net.out_bias[:] = [(b + 1) * 4080 for b in range(8)]
        d = netfile.to_bytes(net)
        self.assertEqual(len(d), HEADER + self.PAYLOAD)
        self.assertEqual(d[0:8], b"ARBNNUE\x00")
        self.assertEqual(struct.unpack_from("<IIIIII", d, 8), (1, 3, 384, self.PAYLOAD, zlib.crc32(d[HEADER:]), 0))
        self.assertEqual(struct.unpack_from("<h", d, HEADER + 779 * 384 * 2)[0], 100)
        self.assertEqual(struct.unpack_from("<h", d, self.FT_BIAS_AT - 2)[0], -505)
        self.assertEqual(struct.unpack_from("<h", d, self.FT_BIAS_AT + 3 * 2)[0], -9)
        self.assertEqual(struct.unpack_from("<h", d, self.OUT_W_AT + (1 * 768 + 0) * 2)[0], 10)
        self.assertEqual(struct.unpack_from("<h", d, self.OUT_W_AT + (7 * 768 + 384 + 5) * 2)[0], -3)
        self.assertEqual(struct.unpack_from("<8i", d, self.OUT_B_AT), tuple((b + 1) * 4080 for b in range(8)))
        self.assertEqual(self.OUT_B_AT + 32, len(d))
        back = netfile.from_bytes(d)
        self.assertEqual((back.arch, back.hidden, back.buckets, back.king_buckets), (3, 384, 8, 4))
        self.assertEqual(back.ft_weights.shape, (3072, 384))
        self.assertEqual(netfile.describe(3, 384), "(768 x 4 -> 384) x 2 -> 1 x 8 output buckets")
        self.assertEqual(netfile.describe(2, 384), "(768 -> 384) x 2 -> 1 x 8 output buckets")

    def test_quantise_and_round_trip(self):
        rng = np.random.default_rng(11)
        ft_w = rng.normal(0, 0.6, (3072, 128))
        q = netfile.quantise(ft_w, rng.normal(0, 0.5, 128), rng.normal(0, 0.5, (8, 256)), rng.normal(0, 0.5, 8))
        self.assertEqual(q.arch, 3)
        np.testing.assert_array_equal(q.ft_weights, np.rint(np.clip(ft_w, -1.98, 1.98) * 255))
        back = netfile.from_bytes(netfile.to_bytes(q))
        for field in ("ft_weights", "ft_bias", "out_weights", "out_bias"):
            np.testing.assert_array_equal(getattr(back, field), getattr(q, field))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "k.anet")
            netfile.write(path, q)
            self.assertEqual(os.path.getsize(path), HEADER + (3072 * 128 + 128 + 16 * 128) * 2 + 32)
            np.testing.assert_array_equal(netfile.read(path).ft_weights, q.ft_weights)

    def test_rejections(self):
        d = netfile.to_bytes(self.net())
        as_arch2 = bytearray(d)
        struct.pack_into("<I", as_arch2, 12, 2)
        with self.assertRaisesRegex(netfile.NetFileError, "payload size field 2372384 is not 602912"):
            netfile.from_bytes(bytes(as_arch2))
        # An architecture-2 file relabelled 3: the payload size field no longer fits.
        arch2 = bytearray(netfile.to_bytes(BucketedFormatTest().net()))
        struct.pack_into("<I", arch2, 12, 3)
        with self.assertRaisesRegex(netfile.NetFileError, "payload size field 602912 is not 2372384"):
            netfile.from_bytes(bytes(arch2))
        # The right field but an architecture-2 sized payload behind it.
        struct.pack_into("<I", arch2, 20, 2372384)
        with self.assertRaisesRegex(netfile.NetFileError, "truncated payload: 602912 bytes, expected 2372384"):
            netfile.from_bytes(bytes(arch2))
        with self.assertRaisesRegex(netfile.NetFileError, "trailing bytes"):
            netfile.from_bytes(d + b"\x00\x00")
        # Architecture 3 has 8 output buckets: one is refused when writing and quantising.
        one = netfile.QuantNet(np.zeros((3072, 128), np.int16), np.zeros(128, np.int16), np.zeros(256, np.int16), 0)
        with self.assertRaisesRegex(netfile.NetFileError, "1 output bucket.*8 output buckets"):
            netfile.to_bytes(one)
        with self.assertRaisesRegex(netfile.NetFileError, "8 output buckets"):
            netfile.quantise(np.zeros((3072, 128)), np.zeros(128), np.zeros((1, 256)), np.zeros(1))
        with self.assertRaisesRegex(netfile.NetFileError, "1536 rows"):
            netfile.to_bytes(netfile.QuantNet(np.zeros((1536, 128), np.int16), np.zeros(128, np.int16),
                                              np.zeros((8, 256), np.int16), np.zeros(8, np.int64)))
        big = self.net()
        big.ft_weights[2000, 7] = 506  # outside the engine's range
        data = bytearray(netfile.to_bytes(big))
        with self.assertRaisesRegex(netfile.NetFileError, "outside the ranges"):
            netfile.from_bytes(bytes(data))

    def test_integer_evaluation_by_hand(self):
        # us = White: acc0 = 100 (P e2 as 779); them = Black: acc1 = 200 (P e2 as 1203).
        # sum = 100^2 * 10 + 200^2 * (-7) = -180000; / 255 = -705; * 400 / 16320 = -17.28 -> -17
        # (3 pieces: output bucket 0).
        net = self.net()
        net.ft_weights[779, 0] = 100
        net.ft_weights[1203, 1] = 200
        net.ft_weights[12, 0] = 50  # the plain index of the pawn: unused by architecture 3
        net.ft_weights[780, 0] = 70  # bucket 1 without the mirror: unused while the king is on e1
        net.out_weights[0, 0] = 10
        net.out_weights[0, 384 + 1] = -7
        d = netfile.evaluate_detail(net, self.FEN_W)
        self.assertEqual((d["bucket"], d["sum"], d["scaled"], d["cp"]), (0, -180000, -705, -17))
        self.assertEqual(netfile.evaluate_cp(net, self.FEN_W), -17)
        # King on d1 instead: White's view is not mirrored (P e2 -> 780: acc0 = 70), Black's
        # still is. sum = 70^2 * 10 - 280000 = -231000; / 255 = -905; * 400 / 16320 = -22.18 -> -22
        self.assertEqual(netfile.evaluate_cp(net, "4k3/8/8/8/8/8/4P3/3K4 w - - 0 1"), -22)
        self.assertAlmostEqual(netfile.evaluate_float(net, self.FEN_W), -180000 / 255 * 400 / 16320, places=9)

    def test_random_nets_are_mirror_and_colour_symmetric(self):
        fens = [
            START,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w - - 2 3",
            "8/8/4k3/8/2R5/8/4K3/8 b - - 0 1",
            self.FEN_2,
            "r4rk1/pp3ppp/2n1b3/3p4/3P4/2N1B3/PP3PPP/R4RK1 b - - 0 15",
            "6k1/pp3ppp/8/3p4/3P4/8/PP3PPP/1K6 w - - 0 30",
            "8/1k6/8/1p6/8/8/6PK/8 b - - 0 50",
        ]
        for hidden in (128, 384):
            net = netfile.from_bytes(netfile.to_bytes(netfile.random_net(9, hidden, 8, king_buckets=4)))
            self.assertEqual(net.arch, 3)
            values = []
            for fen in fens:
                with self.subTest(hidden=hidden, fen=fen):
                    v = netfile.evaluate_cp(net, fen)
                    values.append(v)
                    self.assertEqual(v, netfile.evaluate_cp(net, flip_files_fen(fen)))
                    self.assertEqual(v, netfile.evaluate_cp(net, mirror_fen(fen)))
                    self.assertEqual(v, netfile.evaluate_cp(net, flip_files_fen(mirror_fen(fen))))
                    self.assertAlmostEqual(v, netfile.evaluate_float(net, fen), delta=1.0)
            self.assertGreater(max(values) - min(values), 100)
        # Without king buckets the same test sees the difference (so it can fail).
        plain = netfile.random_net(9, 384, 8)
        self.assertTrue(any(netfile.evaluate_cp(plain, f) != netfile.evaluate_cp(plain, flip_files_fen(f)) for f in fens))

    def test_batch_features_agree_with_netfile(self):
        boards, stm, score, result = synthetic.generate(1000, seed=21)
        d = abin.decode(abin.encode_boards(boards, score, result, stm))
        us, them = abin.king_bucket_features(d.stm_features)
        self.assertEqual((us.shape, them.shape), (d.stm_features.shape, d.stm_features.shape))
        kings_seen = set()
        for i in range(len(boards)):
            pieces = [(int(sq), int(boards[i, sq])) for sq in np.flatnonzero(boards[i] >= 0)]
            exp_us, exp_them = netfile.features((pieces, int(stm[i])), netfile.ARCH_KING_BUCKETS)
            n = int(d.count[i])
            self.assertEqual(sorted(us[i, :n].tolist()), sorted(exp_us), i)
            self.assertEqual(sorted(them[i, :n].tolist()), sorted(exp_them), i)
            self.assertTrue((us[i, n:] == 3072).all() and (them[i, n:] == 3072).all())
            kings_seen |= {(code, int(np.flatnonzero(boards[i] == code)[0])) for code in (5, 11)}
        self.assertEqual(len(kings_seen), 128)  # both kings stood on every square
        # Piece order is kept: slot by slot, the same piece in both perspectives.
        single_us, single_them = abin.king_bucket_features(d.stm_features[:1])
        np.testing.assert_array_equal(single_us[0], us[0])
        np.testing.assert_array_equal(single_them[0], them[0])
        no_king = d.stm_features[:3].copy()
        no_king[1, no_king[1] >= 704] = 768  # the opponent's king (704 + square) dropped: PAD
        with self.assertRaisesRegex(abin.AbinError, "row 1: .*one king of each colour"):
            abin.king_bucket_features(no_king)


class CommandLineTest(unittest.TestCase):
    def test_random_info_eval(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "r.anet")
            script = str(NNUE / "netfile.py")
            subprocess.run([sys.executable, script, "random", path, "--seed", "5"], check=True, capture_output=True)
            info = subprocess.run([sys.executable, script, "info", path], check=True, capture_output=True, text=True)
            self.assertIn("crc32", info.stdout)
            fens = [START, "8/8/4k3/8/2R5/8/4K3/8 b - - 0 1"]
            out = subprocess.run([sys.executable, script, "eval", path] + fens, check=True, capture_output=True, text=True)
            net = netfile.read(path)
            lines = out.stdout.strip().splitlines()
            self.assertEqual(len(lines), 2)
            for line, fen in zip(lines, fens):
                cp, text = line.split("\t")
                self.assertEqual(text, fen)
                self.assertEqual(int(cp), netfile.evaluate_cp(net, fen))
            with open(path, "r+b") as f:
                f.seek(100)
                f.write(b"\xff")
            bad = subprocess.run([sys.executable, script, "eval", path, START], capture_output=True, text=True)
            self.assertNotEqual(bad.returncode, 0)
            self.assertIn("CRC", bad.stderr)

    def test_king_bucket_net(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "k.anet")
            script = str(NNUE / "netfile.py")
            subprocess.run([sys.executable, script, "random", path, "--seed", "3", "--hidden", "128", "--buckets", "8",
                            "--king-buckets", "4"], check=True, capture_output=True)
            self.assertEqual(os.path.getsize(path), HEADER + (3072 * 128 + 128 + 16 * 128) * 2 + 32)
            info = subprocess.run([sys.executable, script, "info", path], check=True, capture_output=True, text=True)
            self.assertIn("architecture    3 ((768 x 4 -> 128) x 2 -> 1 x 8 output buckets, SCReLU)", info.stdout)
            fens = [START, "8/8/4k3/8/2R5/8/4K3/8 b - - 0 1"]
            out = subprocess.run([sys.executable, script, "eval", path] + fens, check=True, capture_output=True, text=True)
            net = netfile.read(path)
            self.assertEqual([int(line.split("\t")[0]) for line in out.stdout.splitlines()],
                             [netfile.evaluate_cp(net, fen) for fen in fens])
            verbose = subprocess.run([sys.executable, script, "eval", path, KingBucketTest.FEN_2, "--verbose"],
                                     check=True, capture_output=True, text=True)
            self.assertIn("features us   [3070, 2794, 2651, 2319]", verbose.stdout)  # square order: g1, c3, d5, h7
            bad = subprocess.run([sys.executable, script, "random", path, "--king-buckets", "4"], capture_output=True,
                                 text=True)
            self.assertNotEqual(bad.returncode, 0)
            self.assertIn("--king-buckets 4 needs --buckets 8", bad.stderr)


class AbinTest(unittest.TestCase):
    def test_nibble_order_and_fields_by_hand(self):
        # White king a1 (square 0, code 5), Black king h8 (63, code 11), White knight b1 (1, code 1).
        rec = abin.encode_position([(0, 5), (63, 11), (1, 1)], score_white=-321, result=2, stm=1,
                                   halfmove=300, flags=1, fullmove=70000)
        self.assertEqual(len(rec), 32)
        self.assertEqual(struct.unpack_from("<Q", rec, 0)[0], (1 << 0) | (1 << 1) | (1 << 63))
        # Pieces in increasing square order: a1 K(5), b1 N(1), h8 k(11); the first is the low nibble.
        self.assertEqual(rec[8], 0x15)
        self.assertEqual(rec[9], 0x0B)
        self.assertEqual(rec[10:24], bytes(14))
        self.assertEqual(struct.unpack_from("<h", rec, 24)[0], -321)
        self.assertEqual(rec[26], 2)
        self.assertEqual(rec[27], 1)
        self.assertEqual(rec[28], 255)  # saturated
        self.assertEqual(rec[29], 1)
        self.assertEqual(struct.unpack_from("<H", rec, 30)[0], 65535)  # saturated

    def test_decode_converts_to_the_side_to_move(self):
        fen_b = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"
        data = abin.record_from_fen(START, score_white=35, result=1) + abin.record_from_fen(fen_b, score_white=150, result=2)
        data += abin.encode_position([(4, 5), (60, 11)], score_white=-32768, result=0, stm=1)
        d = abin.decode(data)
        self.assertEqual(d.count.tolist(), [32, 3, 2])
        self.assertEqual(d.score_stm.tolist(), [35, -150, 32768])
        self.assertEqual(d.result_stm.tolist(), [0.5, 0.0, 1.0])
        for row, fen in ((0, START), (1, fen_b)):
            us, them = netfile.features(fen)
            n = int(d.count[row])
            self.assertEqual(sorted(d.stm_features[row, :n].tolist()), sorted(us))
            self.assertEqual(sorted(d.nstm_features[row, :n].tolist()), sorted(them))
            self.assertTrue((d.stm_features[row, n:] == abin.PAD).all())
        self.assertEqual(sorted(d.stm_features[1, :3].tolist()), [324, 436, 764])
        np.testing.assert_array_equal(abin.other_perspective(d.stm_features), d.nstm_features)

    def test_mirror_files_gives_the_features_of_the_mirrored_board(self):
        fens = ["r3k2r/pp1n1ppp/2p1b3/q7/3P4/2N2N2/PPP2PPP/R2QKB1R w KQkq - 0 1",
                "8/5k2/8/1p6/8/8/6PK/8 b - - 0 1"]
        mirrored = [" ".join(["/".join(r[::-1] for r in f.split()[0].split("/"))] + f.split()[1:]) for f in fens]
        d = abin.decode(b"".join(abin.record_from_fen(f) for f in fens))
        m = abin.decode(b"".join(abin.record_from_fen(f) for f in mirrored))
        out = abin.mirror_files(d.stm_features, np.array([True, False]))
        self.assertEqual(sorted(out[0].tolist()), sorted(m.stm_features[0].tolist()))
        np.testing.assert_array_equal(out[1], d.stm_features[1])  # not selected: unchanged
        self.assertNotEqual(sorted(out[0].tolist()), sorted(d.stm_features[0].tolist()))
        both = abin.mirror_files(d.stm_features, np.array([True, True]))
        self.assertEqual(sorted(both[1].tolist()), sorted(m.stm_features[1].tolist()))
        self.assertEqual(int((both == abin.PAD).sum()), int((d.stm_features == abin.PAD).sum()))

    def test_round_trip_with_32_pieces_and_files(self):
        fens = [
            START,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "8/8/4k3/8/2R5/8/4K3/8 b - - 17 60",
        ]
        data = b"".join(abin.record_from_fen(f, score_white=10 * i, result=i % 3) for i, f in enumerate(fens))
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, "a.abin"), os.path.join(tmp, "b.abin")
            abin.write_records(a, data[:64])
            abin.write_records(b, data[64:])
            recs = abin.load_records([a, b])
        self.assertEqual(len(recs), 3)
        boards = abin.records_to_boards(recs)
        for i, fen in enumerate(fens):
            expected = " ".join(fen.split()[:2])
            got = abin.board_to_fen(boards[i], int(recs["stm"][i]), int(recs["halfmove"][i]), int(recs["fullmove"][i]))
            self.assertEqual(" ".join(got.split()[:2]), expected)
            self.assertEqual(int(recs["score"][i]), 10 * i)
        self.assertEqual(int(recs["halfmove"][2]), 17)
        self.assertEqual(int(recs["fullmove"][2]), 60)
        # Start position: all 16 nibble bytes used; a1 rook (3) low, b1 knight (1) high.
        self.assertEqual(data[8], 0x13)
        self.assertEqual(data[23], 0x97)  # g8 knight (7) low, h8 rook (9) high: the last two pieces
        self.assertEqual(bin(struct.unpack_from("<Q", data, 0)[0]).count("1"), 32)

    def test_more_than_32_pieces_is_rejected(self):
        board = np.full((1, 64), -1, dtype=np.int16)
        board[0, :33] = 0
        with self.assertRaises(abin.AbinError):
            abin.encode_boards(board, 0, 1, 0)
        rec = bytearray(abin.encode_position([(0, 5), (63, 11)]))
        struct.pack_into("<Q", rec, 0, (1 << 33) - 1)  # 33 occupied squares
        with self.assertRaises(abin.AbinError):
            abin.decode(bytes(rec))


if __name__ == "__main__":
    unittest.main()

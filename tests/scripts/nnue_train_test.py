#!/usr/bin/env python3
"""End to end: scripts/nnue/train.py trains tiny nets of both architectures on synthetic
data, writes the log, the loss curve and a checkpoint, resumes to the same bytes as an
uninterrupted run, and exports `.anet` files that the engine loads and evaluates within
quantisation error of the trained float model (and exactly as netfile.evaluate_cp).

    nnue_train_test.py ENGINE      (exit status 77: torch or matplotlib missing, skipped)

A few seconds on one core: 12,000 positions, two epochs of batch 1024."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "nnue"))
import system_python  # noqa: E402

system_python.require_or_skip("numpy", "torch", "matplotlib")

import pathlib  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import unittest  # noqa: E402

import torch  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
NNUE = ROOT / "scripts" / "nnue"
sys.path.insert(0, str(NNUE))
import netfile  # noqa: E402
import synthetic  # noqa: E402
import train  # noqa: E402

ENGINE = None  # set from the command line

# Piece counts from 3 to 32, so that most of the eight buckets are used.
FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
    "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r4rk1/pp3ppp/2n1b3/3p4/3P4/2N1B3/PP3PPP/R4RK1 b - - 0 15",
    "6k1/pp3ppp/8/3p4/3P4/8/PP3PPP/6K1 w - - 0 30",
    "8/5k2/8/1p6/8/8/6PK/8 b - - 0 50",
    "8/3r4/4k3/8/8/4K3/3R4/8 w - - 0 1",
    "8/8/8/4k3/8/8/3QK3/8 b - - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "2r3k1/1q3ppp/p3p3/1p1nP3/3P4/P4N2/1Q3PPP/2R3K1 w - - 0 25",
]


def engine_evals(net_path, fens):
    """The engine's `eval` (side to move's view) of each FEN with `net_path` loaded."""
    commands = [f"setoption name EvalFile value {net_path}"]
    for fen in fens:
        commands += [f"position fen {fen}", "eval"]
    commands.append("quit")
    out = subprocess.run([ENGINE], input="\n".join(commands) + "\n", capture_output=True, text=True, timeout=60, check=True)
    lines = out.stdout.splitlines()
    if not lines or lines[0] != f"info string EvalFile {net_path} loaded":
        raise AssertionError(f"the engine did not load {net_path}: {out.stdout}")
    values = [int(line.split("cp (White's view), ")[1].split(" cp")[0]) for line in lines if line.startswith("NNUE evaluation:")]
    assert len(values) == len(fens), out.stdout
    return values


class TrainExportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = pathlib.Path(cls.tmp.name)
        cls.data = cls.dir / "syn.abin"
        subprocess.run([sys.executable, str(NNUE / "synthetic.py"), str(cls.data), "--count", "12000", "--seed", "5"],
                       check=True, capture_output=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_train(self, *extra, name):
        args = ["--data", str(self.data), "--epochs", "2", "--batch-size", "1024", "--threads", "1", "--quiet",
                "--seed", "3", "--out", str(self.dir / f"{name}.anet"), *extra]
        out = subprocess.run([sys.executable, str(NNUE / "train.py"), *args], capture_output=True, text=True, timeout=600)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        return out.stdout

    def model_from(self, checkpoint, hidden, buckets):
        state = torch.load(checkpoint, map_location="cpu")
        model = train.PerspectiveNet(hidden=hidden, buckets=buckets, qat="all")
        model.load_state_dict(state["model"])
        return model

    def check_engine_matches_float(self, name, hidden, buckets):
        net_path = self.dir / f"{name}.anet"
        q = netfile.read(net_path)
        self.assertEqual((q.hidden, q.buckets, q.arch), (hidden, buckets, netfile.arch_of_buckets(buckets)))
        model = self.model_from(self.dir / f"{name}.pt", hidden, buckets)
        values = engine_evals(net_path, FENS)
        buckets_seen = set()
        for fen, cp in zip(FENS, values):
            with self.subTest(fen=fen):
                self.assertEqual(cp, netfile.evaluate_cp(q, fen))
                # Quantisation-aware training: the float model is the quantised one, and
                # the integer formula's two truncations cost at most about 1 cp.
                self.assertAlmostEqual(cp, model.float_eval_fen(fen), delta=1.5)
            buckets_seen.add(q.bucket(len(netfile.features(fen)[0])))
        if buckets > 1:
            self.assertGreaterEqual(len(buckets_seen), 5)
        self.assertGreater(max(values) - min(values), 20)  # the net has learnt something

    def test_bucketed_net_trains_logs_resumes_and_matches_the_engine(self):
        log = self.dir / "b384.log"
        out = self.run_train("--hidden", "384", "--buckets", "8", "--checkpoint", str(self.dir / "b384.pt"),
                             "--log", str(log), name="b384")
        self.assertIn("architecture 2", out)
        self.assertTrue(log.exists() and "== summary ==" in log.read_text())
        png = self.dir / "b384.png"
        self.assertTrue(png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n")
        self.check_engine_matches_float("b384", 384, 8)

        # Stopped after one epoch and resumed: the same net as the uninterrupted run.
        common = ("--hidden", "384", "--buckets", "8", "--checkpoint", str(self.dir / "part.pt"))
        self.run_train(*common, "--stop-after", "1", name="part")
        out = self.run_train(*common, "--resume", str(self.dir / "part.pt"), name="part")
        self.assertIn("resumed from", out)
        self.assertEqual((self.dir / "part.anet").read_bytes(), (self.dir / "b384.anet").read_bytes())

        # A checkpoint of another shape is refused.
        args = ["--data", str(self.data), "--epochs", "3", "--threads", "1", "--hidden", "512", "--buckets", "8",
                "--resume", str(self.dir / "b384.pt"), "--out", str(self.dir / "x.anet")]
        bad = subprocess.run([sys.executable, str(NNUE / "train.py"), *args], capture_output=True, text=True, timeout=600)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("hidden size 384", bad.stderr)

    def test_single_output_net_as_gen2a(self):
        self.run_train("--hidden", "256", "--buckets", "1", "--checkpoint", str(self.dir / "p256.pt"), name="p256")
        self.check_engine_matches_float("p256", 256, 1)
        self.assertEqual(os.path.getsize(self.dir / "p256.anet"), 32 + 394756)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: nnue_train_test.py ENGINE")
    ENGINE = sys.argv.pop(1)
    unittest.main()

#!/usr/bin/env python3
"""End to end: scripts/nnue/train.py trains tiny nets of all three architectures on
synthetic data, writes the log, the loss curve and a checkpoint, resumes to the same
bytes as an uninterrupted run, and exports `.anet` files that the engine loads and
evaluates within quantisation error of the trained float model (and exactly as
netfile.evaluate_cp). For king buckets (architecture 3) also: the factoriser's export is
the merged W + F, gradients against plain autograd on independently built features, the
dense (CUDA) batches against the sparse CPU ones, and the refused option combinations.
And --init-from: a run that starts from a trained net's weights.

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

import contextlib  # noqa: E402
import io  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
NNUE = ROOT / "scripts" / "nnue"
sys.path.insert(0, str(NNUE))
import abin  # noqa: E402
import dataset  # noqa: E402
import netfile  # noqa: E402
import synthetic  # noqa: E402
import train  # noqa: E402
from model import PerspectiveNet, fake_quantise  # noqa: E402

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


def synthetic_data():
    """(temporary directory, its path, a synthetic .abin of 12,000 positions in it)."""
    tmp = tempfile.TemporaryDirectory()
    directory = pathlib.Path(tmp.name)
    data = directory / "syn.abin"
    subprocess.run([sys.executable, str(NNUE / "synthetic.py"), str(data), "--count", "12000", "--seed", "5"],
                   check=True, capture_output=True)
    return tmp, directory, data


class TrainExportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.dir, cls.data = synthetic_data()

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
        model = PerspectiveNet(hidden=hidden, buckets=buckets, qat="all")
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


def flip_files(fen):
    """The board mirrored left-right (files a <-> h), no castling rights."""
    fields = fen.split()
    return " ".join(["/".join(rank[::-1] for rank in fields[0].split("/")), fields[1], "-", "-", "0", "1"])


def quantise_by_hand(x):
    """Clip to +-1.98, scale by 255, round half away from zero (nets/README.md)."""
    y = np.clip(np.asarray(x, dtype=np.float64), -1.98, 1.98) * 255
    return np.sign(y) * np.floor(np.abs(y) + 0.5)


class KingBucketTrainTest(unittest.TestCase):
    """Architecture 3: --king-buckets 4, (768 x 4 -> 384) x 2 -> 1 x 8, factorised."""

    COMMON = ("--hidden", "384", "--buckets", "8", "--king-buckets", "4")

    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.dir, cls.data = synthetic_data()
        cls.out = cls.train(*cls.COMMON, "--checkpoint", str(cls.dir / "kb.pt"), name="kb")
        cls.net = netfile.read(cls.dir / "kb.anet")
        state = torch.load(cls.dir / "kb.pt", map_location="cpu")
        cls.state = state
        cls.model = PerspectiveNet(hidden=384, buckets=8, qat="all", king_buckets=4)
        cls.model.load_state_dict(state["model"])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def train(cls, *extra, name, check=True):
        args = ["--data", str(cls.data), "--epochs", "2", "--batch-size", "1024", "--threads", "1", "--quiet",
                "--seed", "3", "--out", str(cls.dir / f"{name}.anet"), *extra]
        out = subprocess.run([sys.executable, str(NNUE / "train.py"), *args], capture_output=True, text=True, timeout=600)
        if check and out.returncode != 0:
            raise AssertionError(out.stdout + out.stderr)
        return out

    def test_file_is_architecture_3(self):
        self.assertIn("(768 x 4 -> 384) x 2 -> 1 x 8 output buckets (architecture 3", self.out.stdout)
        q = self.net
        self.assertEqual((q.arch, q.hidden, q.buckets, q.king_buckets), (3, 384, 8, 4))
        self.assertEqual(os.path.getsize(self.dir / "kb.anet"), 32 + (3072 * 384 + 384 + 16 * 384) * 2 + 32)
        self.assertEqual(self.state["king_buckets"], 4)

    def test_export_is_the_merged_factoriser(self):
        w = self.state["model"]["ft_weight"].numpy()
        f = self.state["model"]["ft_factor"].numpy()
        self.assertEqual((w.shape, f.shape), ((3072, 384), (768, 384)))
        merged = (w.reshape(4, 768, 384) + f[None]).reshape(3072, 384)  # float32, as the trainer adds
        np.testing.assert_array_equal(self.net.ft_weights, quantise_by_hand(merged))
        # Both parts matter: neither W nor F alone is what the file holds, and the buckets differ.
        self.assertGreater(np.abs(quantise_by_hand(np.tile(f, (4, 1))) - self.net.ft_weights).max(), 0)
        self.assertGreater(np.abs(quantise_by_hand(w) - self.net.ft_weights).max(), 0)
        self.assertGreater(np.abs(self.net.ft_weights[:768].astype(int) - self.net.ft_weights[768:1536]).max(), 0)
        # Clipping kept the merged rows in range (the trained factor can exceed nothing either).
        self.assertLessEqual(np.abs(merged).max(), 1.98 + 1e-6)
        self.assertLessEqual(np.abs(f).max(), 1.98)

    def test_integer_evaluation_matches_the_float_model(self):
        values = []
        for fen in FENS:
            with self.subTest(fen=fen):
                cp = netfile.evaluate_cp(self.net, fen)
                values.append(cp)
                self.assertAlmostEqual(cp, self.model.float_eval_fen(fen), delta=1.5)
                if " - " in fen:  # no castling rights: the net cannot tell a position from its mirror image
                    self.assertEqual(cp, netfile.evaluate_cp(self.net, flip_files(fen)))
                    self.assertAlmostEqual(self.model.float_eval_fen(fen), self.model.float_eval_fen(flip_files(fen)),
                                           delta=1e-9)
        self.assertGreater(max(values) - min(values), 20)  # the net has learnt something

    def test_engine_matches_netfile(self):
        """Needs an engine that loads architecture 3."""
        values = engine_evals(self.dir / "kb.anet", FENS)
        for fen, cp in zip(FENS, values):
            with self.subTest(fen=fen):
                self.assertEqual(cp, netfile.evaluate_cp(self.net, fen))

    def test_resume_gives_the_same_net_and_refuses_other_king_buckets(self):
        common = (*self.COMMON, "--checkpoint", str(self.dir / "part.pt"))
        self.train(*common, "--stop-after", "1", name="part")
        out = self.train(*common, "--resume", str(self.dir / "part.pt"), name="part")
        self.assertIn("resumed from", out.stdout)
        self.assertEqual((self.dir / "part.anet").read_bytes(), (self.dir / "kb.anet").read_bytes())
        for extra in (("--hidden", "384", "--buckets", "8"), ("--hidden", "384", "--buckets", "8", "--king-buckets", "1")):
            bad = self.train(*extra, "--resume", str(self.dir / "kb.pt"), "--epochs", "3", name="x", check=False)
            self.assertNotEqual(bad.returncode, 0)
            self.assertIn("4 king bucket(s)", bad.stderr)

    def test_refused_options(self):
        base = ["--data", "x.abin"]
        cases = [(["--king-buckets", "2"], "--king-buckets 2: the format has 1"),
                 (["--king-buckets", "4", "--buckets", "1"], "--king-buckets 4 needs --buckets 8"),
                 (["--king-buckets", "4", "--mirror"], "drop --mirror")]
        for extra, message in cases:
            err = io.StringIO()
            with self.subTest(extra=extra):
                with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
                    train.parse_args(base + extra)
                self.assertIn(message, err.getvalue())
        self.assertEqual(train.parse_args(base).king_buckets, 1)

    def records(self, n, seed):
        boards, stm, score, result = synthetic.generate(n, seed=seed)
        return boards, stm, abin.decode(abin.encode_boards(boards, score, result, stm))

    def test_gradients_against_independent_features(self):
        train.check_gradients()  # the trainer's own check, king buckets included
        boards, stm, d = self.records(48, 8)
        score = np.clip(d.score_stm, -32767, 32767).astype(np.int16)
        result2 = (d.result_stm * 2).astype(np.uint8)
        batch = dataset.cpu_batch(d.stm_features, score, result2, with_grad_prep=True, sort_by_pieces=False,
                                king_buckets=4)
        batch["score"], batch["result"] = batch["score"].double(), batch["result"].double()
        positions = []
        for i in range(len(boards)):
            pieces = [(int(sq), int(boards[i, sq])) for sq in np.flatnonzero(boards[i] >= 0)]
            positions.append(netfile.features((pieces, int(stm[i])), netfile.ARCH_KING_BUCKETS))
        for qat in ("none", "all"):
            model = PerspectiveNet(hidden=128, buckets=8, seed=4, qat=qat, king_buckets=4).double()
            with torch.no_grad():
                model.ft_weight.normal_(0.0, 0.05, generator=torch.Generator().manual_seed(6))
            train.loss_fn(model(batch), batch, 0.75, 2.0).backward()
            grads = {name: p.grad.clone() for name, p in model.named_parameters()}
            model.zero_grad()
            # Reference: the merged matrix written out, each position's rows summed, plain autograd.
            rows = (model.ft_weight.view(4, 768, 128) + model.ft_factor).view(3072, 128)
            fb, ow, ob = model.ft_bias, model.out_weight, model.out_bias
            if qat == "all":
                rows, fb = fake_quantise(rows, 255), fake_quantise(fb, 255)
                ow, ob = fake_quantise(ow, 64), fake_quantise(ob, 255 * 64)
            ys = []
            for us, them in positions:
                k = min(max((len(us) - 2) // 4, 0), 7)
                a = torch.clamp(fb + rows[us].sum(0), 0, 1) ** 2
                t = torch.clamp(fb + rows[them].sum(0), 0, 1) ** 2
                ys.append(a @ ow[k, :128] + t @ ow[k, 128:] + ob[k])
            train.loss_fn(torch.stack(ys), batch, 0.75, 2.0).backward()
            self.assertEqual(set(grads), {"ft_weight", "ft_factor", "ft_bias", "out_weight", "out_bias"})
            for name, p in model.named_parameters():
                with self.subTest(qat=qat, parameter=name):
                    self.assertGreater(float(p.grad.abs().max()), 0)
                    self.assertLess(float((grads[name] - p.grad).abs().max()), 1e-12)
            # The factor's gradient is the sum of its four bucket rows' gradients.
            torch.testing.assert_close(grads["ft_factor"], grads["ft_weight"].view(4, 768, 128).sum(0))

    def test_dense_batches_agree_with_the_sparse_ones(self):
        boards, stm, d = self.records(3000, 9)
        data = dataset.Dataset(d.stm_features, np.clip(d.score_stm, -32767, 32767).astype(np.int16),
                             (d.result_stm * 2).astype(np.uint8))
        data.check_kings()
        cpu = torch.device("cpu")
        sparse = dataset.BatchSource(data, cpu, False, dense=False, king_buckets=4)
        dense = dataset.BatchSource(data, cpu, False, dense=True, king_buckets=4)
        ids = np.arange(len(data))
        for a, b in zip(sparse.batches(ids, 1000, train=True, drop_last=True),
                        dense.batches(ids, 1000, train=True, drop_last=True)):
            self.assertEqual(b["kind"], "dense")
            outputs = []
            for batch in (a, b):
                self.model.zero_grad()
                y = self.model(batch)
                train.loss_fn(y, batch, 0.75, 2.0).backward()
                # the sparse batch is sorted by piece count: compare as sorted values
                outputs.append((torch.sort(y.detach()).values, self.model.ft_weight.grad.clone(),
                                self.model.ft_factor.grad.clone()))
            for x, z in zip(*outputs):
                torch.testing.assert_close(x, z, rtol=1e-4, atol=1e-6)
        torch_us, torch_them = dataset.king_bucket_indices(torch.from_numpy(d.stm_features).long())
        np_us, np_them = abin.king_bucket_features(d.stm_features)
        np.testing.assert_array_equal(torch_us.numpy(), np_us)
        np.testing.assert_array_equal(torch_them.numpy(), np_them)
        broken = d.stm_features[:5].copy()
        broken[2][broken[2] >= 704] = abin.PAD  # no opponent king
        with self.assertRaisesRegex(abin.AbinError, "position 2: .*one king of each colour"):
            dataset.Dataset(broken, np.zeros(5, np.int16), np.zeros(5, np.uint8)).check_kings()


class InitFromTest(unittest.TestCase):
    """--init-from NET: training starts from a trained net's weights. With no epochs the
    written net is the source (or, for a larger architecture, the source spread over its
    buckets), so these tests check the weights exactly."""

    @classmethod
    def setUpClass(cls):
        cls.tmp, cls.dir, cls.data = synthetic_data()
        cls.plain = cls.dir / "plain.anet"  # architecture 1
        cls.bucketed = cls.dir / "bucketed.anet"  # architecture 2
        cls.king = cls.dir / "king.anet"  # architecture 3
        netfile.write(cls.plain, netfile.random_net(seed=11, hidden=128, buckets=1))
        netfile.write(cls.bucketed, netfile.random_net(seed=12, hidden=128, buckets=8))
        netfile.write(cls.king, netfile.random_net(seed=13, hidden=128, buckets=8, king_buckets=4))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def train(self, source, *extra, name, epochs=0, check=True):
        args = ["--data", str(self.data), "--epochs", str(epochs), "--batch-size", "1024", "--threads", "1", "--quiet",
                "--seed", "3", "--hidden", "128", "--init-from", str(source), "--out", str(self.dir / f"{name}.anet"),
                *extra]
        out = subprocess.run([sys.executable, str(NNUE / "train.py"), *args], capture_output=True, text=True, timeout=600)
        if check:
            self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
            self.assertIn(f"starting from the weights of {source}", out.stdout)
        return out

    def test_same_architecture_gives_the_same_file(self):
        for source, extra in ((self.plain, ("--buckets", "1")), (self.bucketed, ("--buckets", "8")),
                              (self.king, ("--buckets", "8", "--king-buckets", "4"))):
            with self.subTest(source=source.name):
                self.train(source, *extra, name="same")
                self.assertEqual((self.dir / "same.anet").read_bytes(), source.read_bytes())

    def test_one_output_is_copied_to_every_bucket(self):
        self.train(self.plain, "--buckets", "8", name="spread")
        src, out = netfile.read(self.plain), netfile.read(self.dir / "spread.anet")
        self.assertEqual(out.arch, netfile.ARCH_BUCKETS)
        np.testing.assert_array_equal(out.ft_weights, src.ft_weights)
        np.testing.assert_array_equal(out.out_weights, np.repeat(src.out_weights, 8, axis=0))
        for fen in FENS:
            self.assertEqual(netfile.evaluate_cp(out, fen), netfile.evaluate_cp(src, fen))

    def test_plain_inputs_become_every_king_bucket_seen_through_the_mirror(self):
        self.train(self.bucketed, "--buckets", "8", "--king-buckets", "4", name="kb")
        src, out = netfile.read(self.bucketed), netfile.read(self.dir / "kb.anet")
        self.assertEqual(out.arch, netfile.ARCH_KING_BUCKETS)
        for bucket in range(4):
            np.testing.assert_array_equal(out.ft_weights[bucket * 768:(bucket + 1) * 768], src.ft_weights)
        # Both kings on files a-d: no mirror, the source's evaluation; both on e-h: the
        # source's evaluation of the board mirrored left-right.
        queenside = ["2kr4/ppp2ppp/8/8/8/8/PPP2PPP/2KR4 w - - 0 1", "8/1k6/8/8/3P4/8/2K5/8 b - - 0 1"]
        kingside = ["r4rk1/pp3ppp/2n1b3/3p4/3P4/2N1B3/PP3PPP/R4RK1 b - - 0 15", "6k1/pp3ppp/8/3p4/3P4/8/PP3PPP/6K1 w - - 0 30"]
        for fen in queenside:
            self.assertEqual(netfile.evaluate_cp(out, fen), netfile.evaluate_cp(src, fen))
        for fen in kingside:
            self.assertEqual(netfile.evaluate_cp(out, fen), netfile.evaluate_cp(src, flip_files(fen)))
            self.assertNotEqual(netfile.evaluate_cp(src, fen), netfile.evaluate_cp(src, flip_files(fen)))

    def test_training_moves_on_from_the_source(self):
        self.train(self.bucketed, "--buckets", "8", name="tuned", epochs=1)
        src, out = netfile.read(self.bucketed), netfile.read(self.dir / "tuned.anet")
        changed = np.abs(out.ft_weights.astype(int) - src.ft_weights).max()
        self.assertGreater(changed, 0)

    def test_refusals(self):
        cases = [(self.bucketed, ("--hidden", "256", "--buckets", "8"), "hidden size 128, the run asks for 256"),
                 (self.bucketed, ("--buckets", "1"), "8 output buckets, the run asks for 1"),
                 (self.king, ("--buckets", "8"), "4 king buckets, the run asks for 1"),
                 (self.dir / "missing.anet", ("--buckets", "8"), "missing.anet")]
        for source, extra, message in cases:
            with self.subTest(message=message):
                bad = self.train(source, *extra, name="bad", check=False)
                self.assertNotEqual(bad.returncode, 0)
                self.assertIn(f"error: --init-from {source}", bad.stderr)
                self.assertIn(message, bad.stderr)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            train.parse_args(["--data", "x.abin", "--init-from", "a.anet", "--resume", "a.pt"])
        self.assertIn("--init-from with --resume", err.getvalue())


class LabelsTest(unittest.TestCase):
    """The label options of train.py: --unscale undoes the engine's evaluation scale,
    --min-ply leaves out the first plies of games, --lambda-end moves the target's
    weight from scores to results over the run."""

    def test_engine_scale_is_the_engines(self):
        header = (ROOT / "src" / "search" / "tunables.h").read_text()
        for name, value in dataset.EVAL_SCALE.items():
            with self.subTest(name=name):
                self.assertRegex(header, rf"X\({name},\s*{value},")

    def test_unscale_and_min_ply(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        path = pathlib.Path(tmp.name) / "few.abin"
        # White to move: KRvK at halfmove 40, then the start position at ply 0 and ply 30
        # (fullmove 16, White), Black to move at ply 31.
        start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        records = [abin.record_from_fen("8/8/8/4k3/8/8/3RK3/8 w - - 40 60", score_white=300),
                   abin.record_from_fen(start, score_white=-100, fullmove=1),
                   abin.record_from_fen(start, score_white=50, fullmove=16),
                   abin.record_from_fen(start.replace(" w ", " b "), score_white=50, fullmove=16)]
        path.write_bytes(b"".join(records))
        quiet = lambda *a, **k: None  # noqa: E731
        plain = dataset.Dataset.load([str(path)], log=quiet)
        self.assertEqual(plain.score.tolist(), [300, -100, 50, -50])
        unscaled = dataset.Dataset.load([str(path)], log=quiet, unscale=True)
        # the weights as tunables.h has them (test_engine_scale_is_the_engines holds the two together)
        k = dataset.EVAL_SCALE
        span = k["eval_fifty_span"]
        rook = (k["eval_scale_base"] + k["eval_scale_rook"]) / 1024 * (span - 40) / span
        opening = (k["eval_scale_base"] + 8 * k["eval_scale_minor"] + 4 * k["eval_scale_rook"]
                   + 2 * k["eval_scale_queen"]) / 1024
        self.assertEqual(unscaled.score.tolist(), [round(300 / rook), round(-100 / opening), round(50 / opening),
                                                   round(-50 / opening)])
        late = dataset.Dataset.load([str(path)], log=quiet, min_ply=30)
        self.assertEqual(late.score.tolist(), [300, 50, -50])
        self.assertEqual(len(dataset.Dataset.load([str(path)], log=quiet, min_ply=31)), 2)

    def test_a_run_with_the_label_options(self):
        tmp, directory, data = synthetic_data()
        self.addCleanup(tmp.cleanup)
        out = subprocess.run([sys.executable, str(NNUE / "train.py"), "--data", str(data), "--epochs", "1",
                              "--batch-size", "1024", "--threads", "1", "--quiet", "--hidden", "128", "--buckets", "1",
                              "--lambda", "1.0", "--lambda-end", "0.6", "--unscale", "--min-ply", "1",
                              "--out", str(directory / "labels.anet")], capture_output=True, text=True, timeout=600)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        self.assertIn("lambda 1.0 to 0.6", out.stdout)
        self.assertIn("labels:         scores unscaled, positions from ply 1", out.stdout)
        self.assertTrue((directory / "labels.anet").exists())
        bad = subprocess.run([sys.executable, str(NNUE / "train.py"), "--data", str(data), "--lambda-end", "2"],
                             capture_output=True, text=True, timeout=600)
        self.assertNotEqual(bad.returncode, 0)

    def test_lambda_schedule(self):
        import types
        constant = types.SimpleNamespace(lam=0.9, lam_end=None)
        scheduled = types.SimpleNamespace(lam=1.0, lam_end=0.5)
        self.assertEqual([train.lambda_at(s, 100, constant) for s in (0, 50, 100)], [0.9, 0.9, 0.9])
        self.assertEqual([train.lambda_at(s, 100, scheduled) for s in (0, 50, 100, 150)], [1.0, 0.75, 0.5, 0.5])


class NetLossTest(unittest.TestCase):
    """net_loss.py: a net's loss on a data set, against the loss computed position by
    position from netfile's integer evaluation."""

    def test_loss_matches_the_positions_one_by_one(self):
        import net_loss
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        directory = pathlib.Path(tmp.name)
        boards, stm, score, result = synthetic.generate(300, seed=21)
        data_path = directory / "few.abin"
        data_path.write_bytes(abin.encode_boards(boards, score, result, stm).tobytes())
        nets = {arch: directory / f"arch{arch}.anet" for arch in (1, 2, 3)}
        netfile.write(nets[1], netfile.random_net(seed=31, hidden=128, buckets=1))
        netfile.write(nets[2], netfile.random_net(seed=32, hidden=128, buckets=8))
        netfile.write(nets[3], netfile.random_net(seed=33, hidden=128, buckets=8, king_buckets=4))
        data = dataset.Dataset.load([str(data_path)], log=lambda *a, **k: None)
        records = abin.load_records([data_path])
        fens = [abin.board_to_fen(b, int(s)) for b, s in zip(abin.records_to_boards(records), records["stm"])]
        sign = np.where(records["stm"] == 0, 1.0, -1.0)
        score_stm = records["score"] * sign
        result_stm = np.where(records["stm"] == 0, records["result"], 2 - records["result"]) / 2.0
        sigmoid = lambda x: 1.0 / (1.0 + np.exp(-x))  # noqa: E731
        for arch, path in nets.items():
            net = netfile.read(path)
            cp = np.array([netfile.evaluate_cp(net, fen) for fen in fens], dtype=np.float64)
            losses = net_loss.net_losses(path, data, (1.0, 0.75, 0.0))
            for lam, loss in losses.items():
                with self.subTest(arch=arch, lam=lam):
                    target = lam * sigmoid(score_stm / 400.0) + (1 - lam) * result_stm
                    # The integer evaluation truncates (about 1 cp from the float one).
                    self.assertAlmostEqual(loss, float(np.mean((sigmoid(cp / 400.0) - target) ** 2)), delta=2e-4)
        out = subprocess.run([sys.executable, str(NNUE / "net_loss.py"), "--data", str(data_path), "--lambda", "1",
                              str(nets[2]), str(nets[3])], capture_output=True, text=True, timeout=300)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("300 positions", out.stdout)
        self.assertEqual(len(out.stdout.splitlines()), 4)
        bad = subprocess.run([sys.executable, str(NNUE / "net_loss.py"), "--data", str(data_path),
                              str(directory / "missing.anet")], capture_output=True, text=True, timeout=300)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("missing.anet", bad.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: nnue_train_test.py ENGINE")
    ENGINE = sys.argv.pop(1)
    unittest.main()

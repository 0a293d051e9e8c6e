#!/usr/bin/env python3
"""scripts/nnue/pipeline.py end to end on a tiny generation: self-play, conversion and
training produce a net the engine loads; a rerun skips every finished step; a larger
target continues the games and trains again; SIGTERM during data generation stops
datagen cleanly, and the same command then finishes the job; --status reports without
running anything. Bad settings are refused.

    nnue_pipeline_test.py ENGINE      (exit status 77: torch or matplotlib missing, skipped)

About ten seconds on one core: games at 300-1000 nodes a move, two epochs on a few
hundred positions."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "nnue"))
import system_python  # noqa: E402

system_python.require_or_skip("numpy", "torch", "matplotlib")

import json  # noqa: E402
import pathlib  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import unittest  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
PIPELINE = ROOT / "scripts" / "nnue" / "pipeline.py"
ENGINE = None  # set from the command line
DATAGEN = "--threads 1 --soft-nodes 300 --nodes 1000 --seed 5"
TRAIN = "--hidden 256 --buckets 1 --epochs 2 --threads 1 --batch-size 256 --quiet"
RECORD_BYTES = 32  # one .abin record


def pipeline_command(directory, name, positions, *extra):
    return [sys.executable, str(PIPELINE), "--engine", ENGINE, "--dir", str(directory), "--name", name,
            "--positions", str(positions), "--poll", "0.2", "--datagen", DATAGEN, "--train", TRAIN, *extra]


def run_pipeline(directory, name, positions, *extra):
    return subprocess.run(pipeline_command(directory, name, positions, *extra), capture_output=True, text=True,
                          timeout=600)


def engine_loads(net):
    commands = f"setoption name EvalFile value {net}\nposition startpos\neval\nquit\n"
    out = subprocess.run([ENGINE], input=commands, capture_output=True, text=True, timeout=60).stdout
    return f"info string EvalFile {net} loaded" in out and "NNUE evaluation:" in out


class PipelineTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def ok(self, result):
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        return result.stdout

    def kept(self, name):
        return json.loads((self.dir / f"{name}.convert.json").read_text())["kept"]

    def test_every_step_then_nothing_left_then_more_data(self):
        self.ok(run_pipeline(self.dir, "g", 400))
        net = self.dir / "g.anet"
        self.assertGreaterEqual(self.kept("g"), 400)
        self.assertEqual(os.path.getsize(self.dir / "g.abin"), self.kept("g") * RECORD_BYTES)
        self.assertTrue(engine_loads(net))
        self.assertTrue((self.dir / "g.png").exists() and (self.dir / "g.log").exists())
        first = net.read_bytes()

        again = self.ok(run_pipeline(self.dir, "g", 400))
        self.assertIn("data:", again)
        self.assertIn("(done)", again.split("data:")[1].splitlines()[0])
        self.assertIn(f"train: {net} (done)", again)
        self.assertNotIn("datagen:", again)
        self.assertEqual(net.read_bytes(), first)
        # The same run driven from another copy of the scripts is still complete.
        copy = self.dir / "scripts-copy"
        shutil.copytree(ROOT / "scripts", copy)
        moved = pipeline_command(self.dir, "g", 400)
        moved[1] = str(copy / "nnue" / "pipeline.py")
        self.assertIn(f"train: {net} (done)", self.ok(subprocess.run(moved, capture_output=True, text=True, timeout=600)))
        status = self.ok(run_pipeline(self.dir, "g", 400, "--status", "--match-games", "2", "--baseline", "x.anet"))
        self.assertRegex(status, r"(?m)^data: \d+ plies; last conversion \d+ positions .*\(done\)$")
        self.assertIn(f"train: done, {net}", status)
        self.assertIn("match: 0 of 2 games", status)

        # A larger target: the same games continue, and the net is trained again.
        plies = json.loads((self.dir / "g.convert.json").read_text())["plies"]
        more = self.ok(run_pipeline(self.dir, "g", self.kept("g") + 300))
        self.assertIn("datagen:", more)
        self.assertGreater(json.loads((self.dir / "g.convert.json").read_text())["plies"], plies)
        self.assertIn("other data or settings", more)
        self.assertTrue(engine_loads(net))

    def test_sigterm_stops_datagen_and_the_same_command_finishes(self):
        child = subprocess.Popen(pipeline_command(self.dir, "s", 10_000_000), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        progress = self.dir / "s.agame.progress"
        deadline = time.time() + 60
        while time.time() < deadline and not (progress.exists() and " games 0 " not in progress.read_text()):
            time.sleep(0.1)
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=60)
        self.assertEqual(child.returncode, 130, out + err)
        self.assertIn("interrupted", err)
        # Its datagen stopped too (the file it wrote is no longer growing).
        size = (self.dir / "s.agame").stat().st_size
        time.sleep(1.0)
        self.assertEqual((self.dir / "s.agame").stat().st_size, size)
        self.assertGreater(size, 0)

        self.ok(run_pipeline(self.dir, "s", 300))
        self.assertGreaterEqual(self.kept("s"), 300)
        self.assertTrue(engine_loads(self.dir / "s.anet"))

    def test_bad_settings_are_refused(self):
        for extra in (["--match-games", "3", "--baseline", "x.anet"], ["--match-games", "4"]):
            result = run_pipeline(self.dir, "b", 100, *extra)
            self.assertEqual(result.returncode, 2, result.stderr)
        bad_datagen = pipeline_command(self.dir, "b", 100)
        bad_datagen[bad_datagen.index("--datagen") + 1] = "--output elsewhere.agame"
        result = subprocess.run(bad_datagen, capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 2)
        self.assertIn("--output", result.stderr)
        no_engine = pipeline_command(self.dir, "b", 100)
        no_engine[no_engine.index("--engine") + 1] = str(self.dir / "missing")
        self.assertEqual(subprocess.run(no_engine, capture_output=True, text=True, timeout=60).returncode, 2)
        self.assertFalse(any(self.dir.iterdir()))
        # --status reads, never runs: a fresh directory stays empty (not even created).
        fresh = self.dir / "fresh"
        status = self.ok(subprocess.run(pipeline_command(fresh, "f", 1000, "--status"), capture_output=True,
                                        text=True, timeout=60))
        self.assertIn("data: 0 plies, about 1429 needed", status)
        self.assertIn("train: not started", status)
        self.assertFalse(fresh.exists())


class KingBucketOptionTest(unittest.TestCase):
    """--king-buckets folds train.py's option into the train settings (and so into the recipe)."""

    def parse(self, *extra):
        import pipeline

        return pipeline.parse_args(["--engine", ENGINE, "--dir", "d", "--name", "n", "--positions", "10", *extra])

    def test_default_settings_lose_mirror(self):
        import pipeline

        self.assertEqual(self.parse().train, pipeline.GEN3_TRAIN)
        self.assertEqual(self.parse("--king-buckets", "1").train, pipeline.GEN3_TRAIN)
        train = self.parse("--king-buckets", "4").train.split()
        self.assertNotIn("--mirror", train)
        self.assertEqual(train[-2:], ["--king-buckets", "4"])
        self.assertEqual(train[:-2], [a for a in pipeline.GEN3_TRAIN.split() if a != "--mirror"])
        self.assertIn("--mirror", pipeline.GEN3_TRAIN.split())  # the default itself is unchanged

    def test_conflicts_are_refused(self):
        import contextlib
        import io

        cases = [(["--king-buckets", "4", "--train", "--hidden 256 --mirror"], "drop --mirror"),
                 (["--king-buckets", "4", "--train", "--king-buckets 4"], "both as a pipeline option and in --train"),
                 (["--king-buckets", "2"], "invalid choice")]
        for extra, message in cases:
            err = io.StringIO()
            with self.subTest(extra=extra):
                with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
                    self.parse(*extra)
                self.assertIn(message, err.getvalue())
        self.assertEqual(self.parse("--king-buckets", "4", "--train", "--hidden 256").train,
                         "--hidden 256 --king-buckets 4")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: nnue_pipeline_test.py ENGINE")
    ENGINE = os.path.abspath(sys.argv.pop(1))
    unittest.main()

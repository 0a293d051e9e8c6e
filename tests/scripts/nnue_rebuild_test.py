#!/usr/bin/env python3
"""scripts/nnue/rebuild.py on a tiny recipe: the shards are checked against it, pooled
and trained into a net the engine loads; with one training thread the same recipe
gives the same bytes twice; a recipe that refines a net starts from that net, checked by
its sha256; a shard or net whose bytes differ, or that is missing, stops it; `--record`
writes a new net's sha256 into its recipe, once.

    nnue_rebuild_test.py ENGINE      (exit status 77: torch missing, skipped)"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "nnue"))
import system_python  # noqa: E402

system_python.require_or_skip("numpy", "torch")

import hashlib  # noqa: E402
import json  # noqa: E402
import pathlib  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import unittest  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
REBUILD = ROOT / "scripts" / "nnue" / "rebuild.py"
ENGINE = None  # set from the command line
TRAIN = ["--hidden", "128", "--buckets", "8", "--epochs", "2", "--batch-size", "256", "--threads", "1",
         "--seed", "3", "--quiet"]


class RebuildTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = pathlib.Path(cls.tmp.name)
        cls.store = cls.dir / "data"
        cls.store.mkdir()
        cls.nets = cls.dir / "nets"
        cls.nets.mkdir()
        run = cls.dir / "run.agame"
        subprocess.run([ENGINE, "datagen", "--output", str(run), "--format", "agame", "--games", "12", "--threads", "1",
                        "--soft-nodes", "300", "--nodes", "1000", "--seed", "3", "--eval", "hce", "--hash", "1"],
                       check=True, capture_output=True)
        for name, skip, games in (("r-000.apack", 0, 6), ("r-001.apack", 6, 6)):
            subprocess.run([ENGINE, "pack", str(run), str(cls.store / name), "--skip", str(skip), "--games", str(games)],
                           check=True, capture_output=True)
        cls.shards = [{"file": p.name, "sha256": hashlib.sha256(p.read_bytes()).hexdigest()}
                      for p in sorted(cls.store.glob("*.apack"))]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def rebuild(self, recipe: dict, out: str, *flags: str):
        path = self.dir / "recipe.json"
        path.write_text(json.dumps(recipe))
        command = [sys.executable, str(REBUILD), str(path), "--out", str(self.dir / out), "--engine", ENGINE,
                   "--store", str(self.store), "--nets", str(self.nets), *flags]
        return subprocess.run(command, capture_output=True, text=True, timeout=600)

    def test_the_same_recipe_gives_the_same_net(self):
        recipe = {"net": "tiny.anet", "shards": self.shards, "train": TRAIN}
        first = self.rebuild(recipe, "a.anet")
        self.assertEqual(first.returncode, 0, first.stdout + first.stderr)
        self.assertIn("shards: 2 checked against the recipe", first.stdout)
        digest = hashlib.sha256((self.dir / "a.anet").read_bytes()).hexdigest()
        recipe["sha256"] = digest
        second = self.rebuild(recipe, "b.anet")
        self.assertEqual(second.returncode, 0, second.stderr)
        self.assertIn("the same bytes", second.stdout)
        loaded = subprocess.run([ENGINE], input=f"setoption name EvalFile value {self.dir / 'b.anet'}\nquit\n",
                                capture_output=True, text=True, timeout=60).stdout
        self.assertIn("loaded", loaded)

    def test_a_changed_or_missing_shard_stops_it(self):
        changed = [dict(self.shards[0], sha256="0" * 64), self.shards[1]]
        done = self.rebuild({"net": "x", "shards": changed, "train": TRAIN}, "c.anet")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("r-000.apack: sha256 differs", done.stderr)
        missing = self.shards + [{"file": "gone.apack", "sha256": "0" * 64}]
        done = self.rebuild({"net": "x", "shards": missing, "train": TRAIN}, "d.anet")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("gone.apack: not in nets/data/ and the recipe names no commit", done.stderr)

    def test_a_refinement_starts_from_the_named_net(self):
        done = self.rebuild({"net": "start.anet", "shards": self.shards[:1], "train": TRAIN}, "start.anet")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        start = self.dir / "start.anet"
        (self.nets / "start.anet").write_bytes(start.read_bytes())
        named = {"file": "start.anet", "sha256": hashlib.sha256(start.read_bytes()).hexdigest()}
        recipe = {"net": "refined.anet", "shards": self.shards[1:], "init_from": named, "train": TRAIN}
        done = self.rebuild(recipe, "refined.anet")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("start: start.anet checked against the recipe", done.stdout)
        self.assertRegex(done.stdout, r"--init-from \S*start\.anet")
        self.assertIn("starting from the weights of", done.stdout)
        cold = self.rebuild({"net": "cold.anet", "shards": self.shards[1:], "train": TRAIN}, "cold.anet")
        self.assertEqual(cold.returncode, 0, cold.stderr)
        self.assertNotEqual((self.dir / "refined.anet").read_bytes(), (self.dir / "cold.anet").read_bytes())
        recipe["init_from"] = dict(named, sha256="0" * 64)
        done = self.rebuild(recipe, "wrong.anet")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("start.anet: sha256 differs", done.stderr)
        recipe["init_from"] = {"file": "absent.anet", "sha256": "0" * 64}
        done = self.rebuild(recipe, "absent.anet")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("absent.anet: not in nets/ and the recipe names no commit", done.stderr)

    def test_record_writes_a_new_nets_sha256_once(self):
        recipe = {"net": "new.anet", "shards": self.shards, "train": TRAIN}
        done = self.rebuild(recipe, "new.anet", "--record")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        recorded = json.loads((self.dir / "recipe.json").read_text())
        self.assertEqual(recorded["sha256"], hashlib.sha256((self.dir / "new.anet").read_bytes()).hexdigest())
        self.assertEqual(recorded["shards"], self.shards)
        again = self.rebuild(recorded, "again.anet", "--record")
        self.assertNotEqual(again.returncode, 0)
        self.assertIn("already names its net's sha256", again.stderr)
        self.assertFalse((self.dir / "again.anet").exists())


if __name__ == "__main__":
    ENGINE = sys.argv.pop(1)
    unittest.main()

#!/usr/bin/env python3
"""scripts/nnue/store.py on a tiny run: shards added while a run grows hold every game
once, in order, with manifests that `verify` checks (a changed byte, a missing shard, a
shard without a manifest are all reported), `pool` converts them into the same
training records as the run itself, and `recipe` names them for a new net.

    nnue_store_test.py ENGINE

A few seconds on one core: games at 300-1000 nodes a move."""
import hashlib
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
STORE = ROOT / "scripts" / "nnue" / "store.py"
ENGINE = None  # set from the command line
FIRST = ["--generation", "test", "--engine-commit", "0000000", "--net", "hce",
         "--command", "arbiter datagen --output run.agame --format agame --seed 7"]


def datagen(output: pathlib.Path, games: int) -> None:
    subprocess.run([ENGINE, "datagen", "--output", str(output), "--format", "agame", "--games", str(games),
                    "--threads", "1", "--soft-nodes", "300", "--nodes", "1000", "--seed", "7", "--eval", "hce",
                    "--hash", "1"], check=True, capture_output=True)


class StoreTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.dir.name)
        self.store = self.root / "data"

    def tearDown(self):
        self.dir.cleanup()

    def store_py(self, *args, check=True):
        done = subprocess.run([sys.executable, str(STORE), "--store", str(self.store), "--engine", ENGINE, *args],
                              capture_output=True, text=True)
        if check:
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        return done

    def test_a_growing_run_is_stored_shard_by_shard(self):
        run = self.root / "run.agame"
        datagen(run, 3)
        self.store_py("add", str(run), "--run", "r", *FIRST)
        datagen(run, 5)  # the same command continues the run
        self.store_py("add", str(run), "--run", "r")
        nothing_new = self.store_py("add", str(run), "--run", "r", check=False)
        self.assertNotEqual(nothing_new.returncode, 0)

        first, second = (json.loads((self.store / f"r-{i:03d}.json").read_text()) for i in (0, 1))
        self.assertEqual(first["games"], {"first": 0, "count": 3})
        self.assertEqual(second["games"], {"first": 3, "count": 2})
        self.assertEqual(second["command"], FIRST[-1])  # carried over from the run's first shard
        self.assertEqual(second["seed"], 7)
        self.assertGreater(first["kept_positions"], 0)
        self.assertLess(first["kept_positions"], first["plies"])
        self.assertIn("2 shards of 1 runs: 5 games", self.store_py("verify", "--deep").stdout)

        # The pool holds the run's records exactly.
        subprocess.run([ENGINE, "convert", str(run), str(self.root / "run.abin")], check=True, capture_output=True)
        self.store_py("pool", str(self.root / "pool.abin"))
        self.assertEqual((self.root / "pool.abin").read_bytes(), (self.root / "run.abin").read_bytes())

    def test_verify_reports_damage(self):
        run = self.root / "run.agame"
        datagen(run, 2)
        self.store_py("add", str(run), "--run", "r", *FIRST)
        shard = self.store / "r-000.apack"
        data = bytearray(shard.read_bytes())
        data[len(data) // 2] ^= 0xFF
        shard.write_bytes(bytes(data))
        damaged = self.store_py("verify", check=False)
        self.assertNotEqual(damaged.returncode, 0)
        self.assertIn("r-000.apack: sha256 differs from its manifest", damaged.stdout)

        (self.store / "stray.apack").write_bytes(b"x")
        shard.unlink()
        missing = self.store_py("verify", check=False).stdout
        self.assertIn("r-000.apack: missing", missing)
        self.assertIn("stray.apack: no manifest", missing)

    def test_a_new_run_needs_its_description(self):
        run = self.root / "run.agame"
        datagen(run, 1)
        done = self.store_py("add", str(run), "--run", "r", check=False)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("needs --generation", done.stderr)

    def test_a_new_run_needs_a_seed_of_its_own(self):
        run = self.root / "run.agame"
        datagen(run, 1)
        self.store_py("add", str(run), "--run", "r", *FIRST)
        # A second run with the first one's seed (say, on a machine that replaced the
        # first one's) would replay its games: refused, with a seed that is free.
        again = self.store_py("add", str(run), "--run", "r2", *FIRST, check=False)
        self.assertNotEqual(again.returncode, 0)
        self.assertIn("seed 7 is run r's; a new run needs a seed of its own (for example 8)", again.stderr)
        self.assertFalse((self.store / "r2-000.json").exists())
        # (The store takes the command line's word for the seed.)
        other_seed = FIRST[:-1] + [FIRST[-1].replace("--seed 7", "--seed 8")]
        self.store_py("add", str(run), "--run", "r2", *other_seed)
        self.assertEqual(json.loads((self.store / "r2-000.json").read_text())["seed"], 8)

    def test_options_are_never_abbreviated(self):
        run = self.root / "run.agame"
        datagen(run, 1)
        # --engine after the action is the engine, not the start of --engine-commit.
        self.store_py("add", str(run), "--run", "r", *FIRST, "--engine", ENGINE)
        self.assertEqual(json.loads((self.store / "r-000.json").read_text())["engine_commit"], "0000000")
        datagen(run, 2)
        short = self.store_py("add", str(run), "--run", "r", "--engine-comm", "1111111", check=False)
        self.assertNotEqual(short.returncode, 0)
        self.assertIn("unrecognized arguments: --engine-comm", short.stderr)
        self.assertFalse((self.store / "r-001.json").exists())

    def test_a_recipe_names_the_shards_and_the_net_refined(self):
        run = self.root / "run.agame"
        datagen(run, 2)
        self.store_py("add", str(run), "--run", "r", *FIRST)
        nets = self.root / "nets"
        nets.mkdir()
        (nets / "start.anet").write_bytes(b"a net's bytes")
        out = self.root / "new.recipe.json"
        train = "--hidden 128 --lr 1e-3 --seed 1"
        self.store_py("recipe", str(out), "--net", "new.anet", "--nets", str(nets), "--init-from", "start.anet",
                      "--train", train)
        recipe = json.loads(out.read_text())
        manifest = json.loads((self.store / "r-000.json").read_text())
        self.assertEqual(recipe["net"], "new.anet")
        self.assertEqual(recipe["shards"], [{"file": "r-000.apack", "sha256": manifest["sha256"]}])
        self.assertEqual(recipe["init_from"], {"file": "start.anet", "sha256": hashlib.sha256(b"a net's bytes").hexdigest()})
        self.assertEqual(recipe["train"], train.split())
        self.assertNotIn("sha256", recipe)  # rebuild.py --record writes it once the net is trained

        # A ref that is not a commit, or a commit that does not hold the shards, is refused.
        unknown = self.store_py("recipe", str(out), "--net", "n", "--train", train, "--commit", "no-such-ref",
                                check=False)
        self.assertNotEqual(unknown.returncode, 0)
        self.assertIn("no-such-ref is not a commit", unknown.stderr)
        uncommitted = self.store_py("recipe", str(out), "--net", "n", "--train", train, "--commit", "HEAD",
                                    check=False)
        self.assertNotEqual(uncommitted.returncode, 0)
        self.assertIn("r-000.apack is not committed at HEAD", uncommitted.stderr)
        # A manifest whose shard is committed under its name with other bytes is refused
        # too (here: the repository's first shard, under a manifest that is not its own).
        committed = sorted((ROOT / "nets" / "data").glob("*.apack"))[0].name
        manifest["file"] = committed
        (self.store / "r-000.json").write_text(json.dumps(manifest))
        other = self.store_py("recipe", str(out), "--net", "n", "--train", train, "--commit", "HEAD", check=False)
        self.assertNotEqual(other.returncode, 0)
        self.assertIn(f"{committed} at HEAD is not the shard its manifest describes", other.stderr)
        absent = self.store_py("recipe", str(out), "--net", "n", "--train", train, "--nets", str(nets),
                               "--init-from", "absent.anet", check=False)
        self.assertNotEqual(absent.returncode, 0)
        self.assertIn("absent.anet: not in", absent.stderr)


if __name__ == "__main__":
    ENGINE = sys.argv.pop(1)
    unittest.main()

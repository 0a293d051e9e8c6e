#!/usr/bin/env python3
"""Rebuilds a net from the repository alone: its recipe names the self-play shards of
nets/data/ it was trained on (by file and sha256) and the trainer's settings.

    python3 scripts/nnue/rebuild.py nets/<net>.recipe.json [--out rebuilt.anet] [--work DIR] [--record]

Steps, each said on standard output: check every shard against the recipe's sha256
(a shard that has left the working tree is read from the commit the recipe names, as
`git show COMMIT:nets/data/FILE`), and the net it refines if it names one (from nets/
or that commit, also by sha256); pool them with `arbiter convert` into one .abin (every
game once); train with `scripts/nnue/train.py` and the recipe's flags; quantise and
write the net. At the end: the new net's sha256 beside the recipe's. Training on the
CPU with more than one thread repeats itself on one machine (gen5-r9 did), but other
hardware or another PyTorch may sum in another order, so the two may differ; the net's
worth is then judged by games against the committed one (nets/README.md says how). A
new net is trained the same way, from a recipe that `store.py recipe` wrote: `--record`
then writes the net's sha256 into it.

A recipe (JSON):
    {"net": "arbiter-010.anet", "sha256": "...", "commit": "<the commit that holds the shards>",
     "shards": [{"file": "gen5-4801-000.apack", "sha256": "..."}, ...],
     "init_from": {"file": "arbiter-009.anet", "sha256": "..."},     (a refinement only)
     "train": ["--hidden", "384", "--buckets", "8", ...]}
"""
import argparse
import hashlib
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
NETS = ROOT / "nets"
STORE = NETS / "data"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def stored_bytes(folder: pathlib.Path, tracked: str, name: str, commit: str | None) -> bytes:
    """A file from the working tree's `folder`, or else from the recipe's commit, where
    the repository keeps it as `tracked`/`name` (nets/data for shards, nets for nets)."""
    path = folder / name
    if path.exists():
        return path.read_bytes()
    if not commit:
        raise FileNotFoundError(f"{name}: not in {tracked}/ and the recipe names no commit")
    done = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{tracked}/{name}"], capture_output=True)
    if done.returncode != 0:
        raise FileNotFoundError(f"{name}: not in {tracked}/ nor at commit {commit}")
    return done.stdout


def checked_copy(folder: pathlib.Path, tracked: str, entry: dict, commit: str | None, work: pathlib.Path) -> str:
    """The recipe's file `entry` ({"file", "sha256"}) copied into `work` once its bytes
    match; raises ValueError (or FileNotFoundError) with the reason otherwise."""
    data = stored_bytes(folder, tracked, entry["file"], commit)
    if sha256_bytes(data) != entry["sha256"]:
        raise ValueError(f"{entry['file']}: sha256 differs from the recipe's")
    path = work / entry["file"]
    path.write_bytes(data)
    return str(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("recipe")
    ap.add_argument("--out", default="rebuilt.anet")
    ap.add_argument("--work", help="folder for the pooled data and the training log (default: a temporary one)")
    ap.add_argument("--engine", default=str(ROOT / "build" / "arbiter"))
    ap.add_argument("--store", default=str(STORE), help="the shards' folder (default: nets/data)")
    ap.add_argument("--nets", default=str(NETS), help="the nets' folder, for the net a recipe refines (default: nets)")
    ap.add_argument("--record", action="store_true",
                    help="a new net: write its sha256 into the recipe (which must not have one yet)")
    args = ap.parse_args(argv)
    recipe = json.loads(pathlib.Path(args.recipe).read_text())
    if args.record and recipe.get("sha256"):
        print(f"rebuild.py: {args.recipe} already names its net's sha256; --record is for a new net", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="arbiter-rebuild-") as scratch:
        work = pathlib.Path(args.work or scratch)
        work.mkdir(parents=True, exist_ok=True)
        commit = recipe.get("commit")
        try:
            shards = [checked_copy(pathlib.Path(args.store), "nets/data", shard, commit, work)
                      for shard in recipe["shards"]]
            start = recipe.get("init_from")
            start_net = checked_copy(pathlib.Path(args.nets), "nets", start, commit, work) if start else None
        except (FileNotFoundError, ValueError) as error:
            print(f"rebuild.py: {error}", file=sys.stderr)
            return 1
        print(f"shards: {len(shards)} checked against the recipe", flush=True)
        if start_net:
            print(f"start: {start['file']} checked against the recipe", flush=True)
        pool = work / "pool.abin"
        if subprocess.run([args.engine, "convert", *shards, str(pool)]).returncode != 0:
            print("rebuild.py: arbiter convert failed", file=sys.stderr)
            return 1
        train = [sys.executable, str(ROOT / "scripts" / "nnue" / "train.py"), "--data", str(pool), "--out", args.out,
                 "--log", str(work / "train.log"), *recipe["train"]]
        if start_net:
            train += ["--init-from", start_net]
        print("$ " + " ".join(train), flush=True)
        if subprocess.run(train).returncode != 0:
            print("rebuild.py: training failed", file=sys.stderr)
            return 1
        digest = sha256_bytes(pathlib.Path(args.out).read_bytes())
        if args.record:
            recipe["sha256"] = digest
            pathlib.Path(args.recipe).write_text(json.dumps(recipe, indent=2) + "\n")
            print(f"recorded {args.out}: sha256 {digest} in {args.recipe}")
            return 0
        same = digest == recipe.get("sha256")
        print(f"rebuilt {args.out}: sha256 {digest}")
        print(f"the recipe's {recipe['net']}: sha256 {recipe.get('sha256')}"
              f" ({'the same bytes' if same else 'other bytes: judge it by games against the committed net'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

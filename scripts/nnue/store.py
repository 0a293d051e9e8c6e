#!/usr/bin/env python3
"""The self-play store of nets/data/: packed shards of datagen runs, each with a manifest.

Self-play is the scarce resource of a 2-core project, so every game is kept in the
repository as it is made (nets/README.md, "Self-play data"). A datagen run writes an
`.agame` file; `add` packs the complete games the store does not hold yet into the next
shard of that run (`arbiter pack`, about 1.7 bytes a ply) and writes its manifest;
`verify` checks every shard against its manifest; `pool` converts all of them into one
`.abin` training file (`arbiter convert`, every game once); `recipe` writes a new net's
recipe naming the shards it is trained on (scripts/nnue/rebuild.py trains it).

    store.py add RUN.agame --run gen5-4801 --generation gen5 --engine-commit 85a0cb4 \\
        --net "arbiter-009.anet (gen4h-r7)" --command "arbiter datagen ..."
    store.py add RUN.agame --run gen5-4801        # later shards: the rest from the last
    store.py verify [--deep]
    store.py pool OUT.abin
    store.py recipe nets/arbiter-010.recipe.json --net arbiter-010.anet --commit HEAD \
        --init-from arbiter-009.anet --train "--hidden 384 --buckets 8 ..."

A shard is `<run>-<NNN>.apack` with `<run>-<NNN>.json` beside it: the run, its
generation, the engine commit and net that played, the datagen command line and seed,
the games it holds (the first one's number in the run, and how many), plies, kept
positions (those `convert` writes), bytes, bytes a kept position, sha256 and the date.
"""
import argparse
import datetime
import hashlib
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
STORE = ROOT / "nets" / "data"
BUDGET_BYTES = 300 * 1000 * 1000  # what the repository may hold of self-play
RUN_FIELDS = ("generation", "engine_commit", "net", "command")
SUMMARY = re.compile(r"games (\d+) \(from (\d+)\)  plies (\d+)  kept positions (\d+)  bytes (\d+)")


def sha256(path: pathlib.Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def manifests(store: pathlib.Path) -> list:
    return [json.loads(p.read_text()) for p in sorted(store.glob("*.json"))]


def seed_of(command: str):
    match = re.search(r"--seed (\d+)", command)
    return int(match.group(1)) if match else None


def add(args) -> int:
    store = pathlib.Path(args.store)
    store.mkdir(parents=True, exist_ok=True)
    shards = [m for m in manifests(store) if m["run"] == args.run]
    fields = {f: getattr(args, f) for f in RUN_FIELDS}
    for f in RUN_FIELDS:
        if fields[f] is None:
            if not shards:
                sys.exit(f"store.py: the first shard of run {args.run} needs --{f.replace('_', '-')}")
            fields[f] = shards[-1][f]
    seed = seed_of(fields["command"])
    if not shards and seed is not None:
        # Game i of a run depends only on the settings, the seed and i: a run with another
        # run's seed and settings replays its games (convert drops them again, but the
        # hours spent on them are lost). No two runs share a seed, whatever their settings:
        # seeds are plentiful. A machine that replaces one whose files are gone starts a
        # new run with a new seed (nets/README.md).
        other = [m for m in manifests(store) if m["seed"] == seed]
        if other:
            unused = max(m["seed"] or 0 for m in manifests(store)) + 1
            sys.exit(f"store.py: seed {seed} is run {other[0]['run']}'s; a new run needs a seed of its own "
                     f"(for example {unused})")
    skip = sum(m["games"]["count"] for m in shards)
    name = f"{args.run}-{len(shards):03d}"
    shard = store / f"{name}.apack"
    command = [args.engine, "pack", args.agame, str(shard), "--skip", str(skip)]
    if args.games:
        command += ["--games", str(args.games)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        sys.exit(f"store.py: {' '.join(command)} failed")
    match = SUMMARY.search(done.stderr)
    if not match:
        sys.exit(f"store.py: unexpected output of arbiter pack: {done.stderr.strip()}")
    games, first, plies, kept, size = (int(x) for x in match.groups())
    manifest = {
        "file": shard.name,
        "run": args.run,
        **fields,
        "seed": seed,
        "games": {"first": first, "count": games},
        "plies": plies,
        "kept_positions": kept,
        "bytes": size,
        "bytes_per_kept_position": round(size / max(kept, 1), 3),
        "sha256": sha256(shard),
        "date": datetime.date.today().isoformat(),
    }
    (store / f"{name}.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"{shard.name}: games {first}-{first + games - 1}, {plies} plies, {kept} kept positions, "
          f"{size} bytes ({manifest['bytes_per_kept_position']} a kept position)")
    return 0


def verify(args) -> int:
    store = pathlib.Path(args.store)
    problems, totals = [], {"shards": 0, "games": 0, "plies": 0, "kept": 0, "bytes": 0}
    runs = {}
    for m in manifests(store):
        shard = store / m["file"]
        if not shard.exists():
            problems.append(f"{m['file']}: missing")
            continue
        if sha256(shard) != m["sha256"]:
            problems.append(f"{m['file']}: sha256 differs from its manifest")
        if shard.stat().st_size != m["bytes"]:
            problems.append(f"{m['file']}: {shard.stat().st_size} bytes, the manifest says {m['bytes']}")
        expected_first = runs.get(m["run"], 0)
        if m["games"]["first"] != expected_first:
            problems.append(f"{m['file']}: starts at game {m['games']['first']}, the run's shards end at {expected_first}")
        runs[m["run"]] = m["games"]["first"] + m["games"]["count"]
        if args.deep:
            out = store / (m["file"] + ".check.agame")
            done = subprocess.run([args.engine, "unpack", str(shard), str(out)], capture_output=True, text=True)
            out.unlink(missing_ok=True)
            if done.returncode != 0 or f"games {m['games']['count']}" not in done.stderr:
                problems.append(f"{m['file']}: unpack: {done.stderr.strip()}")
        totals["shards"] += 1
        totals["games"] += m["games"]["count"]
        totals["plies"] += m["plies"]
        totals["kept"] += m["kept_positions"]
        totals["bytes"] += m["bytes"]
    orphans = {p.name for p in store.glob("*.apack")} - {m["file"] for m in manifests(store)}
    problems += [f"{name}: no manifest" for name in sorted(orphans)]
    if totals["bytes"] > BUDGET_BYTES:
        problems.append(f"the store holds {totals['bytes']} bytes, over the budget of {BUDGET_BYTES}")
    print(f"{totals['shards']} shards of {len(runs)} runs: {totals['games']} games, {totals['plies']} plies, "
          f"{totals['kept']} kept positions, {totals['bytes']} bytes "
          f"({totals['bytes'] / max(totals['kept'], 1):.3f} a kept position; "
          f"{100 * totals['bytes'] / BUDGET_BYTES:.1f}% of the budget)")
    for problem in problems:
        print(f"problem: {problem}")
    return 1 if problems else 0


def pool(args) -> int:
    store = pathlib.Path(args.store)
    shards = [str(store / m["file"]) for m in manifests(store)]
    if args.generation:
        shards = [str(store / m["file"]) for m in manifests(store) if m["generation"] in args.generation]
    if not shards:
        sys.exit("store.py: no shards to pool")
    return subprocess.run([args.engine, "convert", *shards, args.output]).returncode


def recipe(args) -> int:
    """A recipe for rebuild.py: every shard of the store (or of the generations named)
    by file and sha256, the commit that holds them, the net refined, the trainer's flags.
    The net's own sha256 is left out: `rebuild.py --record` writes it once trained."""
    store = pathlib.Path(args.store)
    shards = [m for m in manifests(store) if not args.generation or m["generation"] in args.generation]
    if not shards:
        sys.exit("store.py: no shards for the recipe")
    written = {"net": args.net}
    if args.commit:
        done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", args.commit + "^{commit}"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"store.py: {args.commit} is not a commit of this repository")
        written["commit"] = done.stdout.strip()
        for m in shards:
            committed = subprocess.run(["git", "-C", str(ROOT), "show", f"{written['commit']}:nets/data/{m['file']}"],
                                       capture_output=True)
            if committed.returncode != 0:
                sys.exit(f"store.py: {m['file']} is not committed at {args.commit} (commit the shards first)")
            if hashlib.sha256(committed.stdout).hexdigest() != m["sha256"]:
                sys.exit(f"store.py: {m['file']} at {args.commit} is not the shard its manifest describes")
    written["shards"] = [{"file": m["file"], "sha256": m["sha256"]} for m in shards]
    if args.init_from:
        start = pathlib.Path(args.nets) / args.init_from
        if not start.exists():
            sys.exit(f"store.py: {args.init_from}: not in {args.nets}")
        written["init_from"] = {"file": args.init_from, "sha256": sha256(start)}
    written["train"] = shlex.split(args.train)
    pathlib.Path(args.output).write_text(json.dumps(written, indent=2) + "\n")
    kept = sum(m["kept_positions"] for m in shards)
    print(f"{args.output}: {len(shards)} shards, {kept} kept positions")
    return 0


def main() -> int:
    # No abbreviations: argparse would read `add ... --engine X` as --engine-commit X and
    # write the binary's path into a manifest that is committed. --store and --engine are
    # taken before or after the action; given after it, they win.
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--store", default=str(STORE), help="the store's folder (default: nets/data)")
    parser.add_argument("--engine", default=str(ROOT / "build" / "arbiter"), help="the arbiter binary")
    common = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    common.add_argument("--store", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    common.add_argument("--engine", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="action", required=True)

    def action(name: str, text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, parents=[common], allow_abbrev=False)

    a = action("add", "pack a run's new complete games into its next shard")
    a.add_argument("agame")
    a.add_argument("--run", required=True, help="the run's name: the shards' common prefix")
    a.add_argument("--games", type=int, help="at most this many games (default: all complete ones)")
    for f in RUN_FIELDS:
        a.add_argument("--" + f.replace("_", "-"), dest=f, help="(default: the run's previous shard's)")
    v = action("verify", "check every shard against its manifest and the budget")
    v.add_argument("--deep", action="store_true", help="also unpack every shard")
    p = action("pool", "convert every shard into one .abin file")
    p.add_argument("output")
    p.add_argument("--generation", nargs="*", help="only these generations")
    r = action("recipe", "write a new net's recipe: the shards, the net it refines, the trainer's flags")
    r.add_argument("output")
    r.add_argument("--net", required=True, help="the net's file name in nets/")
    r.add_argument("--train", required=True, help="train.py's flags, as one string")
    r.add_argument("--commit", help="the commit that holds the shards (for example HEAD); checked")
    r.add_argument("--init-from", help="the net it refines, a file of --nets")
    r.add_argument("--nets", default=str(ROOT / "nets"), help="the nets' folder (default: nets)")
    r.add_argument("--generation", nargs="*", help="only these generations' shards")
    args = parser.parse_args()
    if args.action == "recipe":
        return recipe(args)
    if not os.path.exists(args.engine):
        sys.exit(f"store.py: no engine at {args.engine} (build it, or give --engine)")
    return {"add": add, "verify": verify, "pool": pool}[args.action](args)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The tournament-grade soak: thousands of games across the settings operators use, and
a count of everything that went wrong in them, setting by setting.

    scripts/soak.sh [--engine build/arbiter] [--dir soak] [--only NAME,...] [--scale 1.0] [--list]

Each setting of PLAN is played by scripts/match.py (fastchess or cutechess-cli, which
must be on PATH) in chunks of CHUNK games; a chunk is done when its log holds match.py's
report, so the same command continues an interrupted soak where it stopped (a chunk cut
off is played again). A progress line goes to standard output after every chunk and a
summary table at the end: per setting the games, Arbiter's W/D/L, and the time forfeits,
illegal moves, crashes or disconnects and protocol warnings, Arbiter's and the
opponent's apart. Exit status 0 when Arbiter had none of them in any game, 1 otherwise.

The settings cover both managers; 1+0.01, 5+0.05, 10+0.1 and 40/10 repeating; Threads 2;
pondering (cutechess-cli's `ponder`, match.py --ponder); Chess960 from a DFRC book (made here: each side's back
rank drawn apart); Syzygy tables (3-5 pieces from ../shared/data, skipped with a message
where they are missing); UCI_LimitStrength at 1500 and 2500; MultiPV 3; Hash 1 and 1024;
Move Overhead 0; opponents Debian's stockfish, toga2 and glaurung, and Arbiter itself.
--scale multiplies every setting's games (a quick run: --scale 0.05).
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import pathlib
import random
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
CHUNK = 50  # games per match.py run


@dataclasses.dataclass
class Setting:
    name: str
    tool: str
    tc: str
    games: int
    opponent: str  # a path, or "self" for Arbiter itself
    engine_options: tuple = ()
    opponent_options: tuple = ()
    concurrency: int = 2
    tool_args: tuple = ()
    chess960: bool = False
    ponder: bool = False  # both engines ponder (cutechess only)
    needs: tuple = ()  # files that must exist (tables)


SYZYGY = f"{SHARED / 'syzygy'}:{SHARED / 'syzygy5'}"
PLAN = [
    Setting("self-1+0.01-fastchess", "fastchess", "1+0.01", 500, "self"),
    Setting("stockfish-1+0.01-cutechess-hash1", "cutechess", "1+0.01", 370, "/usr/games/stockfish",
            engine_options=("Hash=1",)),
    Setting("self-dfrc-1+0.01-cutechess", "cutechess", "1+0.01", 300, "self", chess960=True),
    Setting("glaurung-1+0.01-cutechess-threads2", "cutechess", "1+0.01", 200, "/usr/games/glaurung",
            engine_options=("Threads=2",), concurrency=1),
    Setting("toga2-5+0.05-fastchess-multipv3", "fastchess", "5+0.05", 150, "/usr/games/toga2",
            engine_options=("MultiPV=3",)),
    Setting("toga2-5+0.05-fastchess-syzygy", "fastchess", "5+0.05", 100, "/usr/games/toga2",
            engine_options=(f"SyzygyPath={SYZYGY}",), needs=(SHARED / "syzygy5",)),
    Setting("stockfish1500-5+0.05-fastchess-limit1500", "fastchess", "5+0.05", 100, "/usr/games/stockfish",
            engine_options=("UCI_LimitStrength=true", "UCI_Elo=1500"),
            opponent_options=("UCI_LimitStrength=true", "UCI_Elo=1500")),
    Setting("glaurung-5+0.05-cutechess-limit2500", "cutechess", "5+0.05", 100, "/usr/games/glaurung",
            engine_options=("UCI_LimitStrength=true", "UCI_Elo=2500")),
    Setting("stockfish-5+0.05-cutechess-ponder", "cutechess", "5+0.05", 60, "/usr/games/stockfish",
            concurrency=1, ponder=True),
    Setting("self-40/10-fastchess-hash1024-overhead0", "fastchess", "40/10", 60, "self",
            engine_options=("Hash=1024", "Move Overhead=0"), opponent_options=("Hash=1024", "Move Overhead=0")),
    Setting("toga2-10+0.1-cutechess", "cutechess", "10+0.1", 60, "/usr/games/toga2"),
]
# Settings with time odds: the opponent's own control.
OPPONENT_TC: dict = {}

REPORT = re.compile(r"^time forfeits: (?P<e>\S+) (?P<et>\d+), (?P<o>\S+) (?P<ot>\d+); illegal moves: \S+ (?P<ei>\d+), "
                    r"\S+ (?P<oi>\d+); crashes/disconnects: \S+ (?P<ec>\d+), \S+ (?P<oc>\d+); protocol warnings: "
                    r"\S+ (?P<ew>\d+), \S+ (?P<ow>\d+)", re.MULTILINE)
WDL = re.compile(r"^W/D/L: (\d+)/(\d+)/(\d+)", re.MULTILINE)
GAMES = re.compile(r"^\S+ vs \S+, tc \S+, (\d+) games", re.MULTILINE)


def back_rank(number: int) -> str:
    """The Chess960 back rank of start position `number` (0-959, Scharnagl's numbering)."""
    rank = [""] * 8
    number, light = divmod(number, 4)
    rank[2 * light + 1] = "B"
    number, dark = divmod(number, 4)
    rank[2 * dark] = "B"
    number, queen = divmod(number, 6)
    empty = [i for i in range(8) if not rank[i]]
    rank[empty[queen]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][number]
    empty = [i for i in range(8) if not rank[i]]
    for k in knights:
        rank[empty[k]] = "N"
    for piece, i in zip("RKR", [i for i in range(8) if not rank[i]]):
        rank[i] = piece
    return "".join(rank)


def dfrc_book(path: pathlib.Path, count: int, seed: int) -> None:
    """`count` DFRC starts (White's and Black's back ranks drawn apart) as EPD lines with
    Shredder-FEN castling rights."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        white, black = back_rank(rng.randrange(960)), back_rank(rng.randrange(960))
        rooks = lambda rank: [i for i, p in enumerate(rank) if p == "R"]  # noqa: E731
        rights = "".join("ABCDEFGH"[i] for i in reversed(rooks(white))) + "".join(
            "abcdefgh"[i] for i in reversed(rooks(black)))
        lines.append(f"{black.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {rights} -")
    path.write_text("\n".join(lines) + "\n")


def match_command(setting: Setting, engine: str, games: int, seed: int, pgn: pathlib.Path, book) -> list[str]:
    opponent = engine if setting.opponent == "self" else setting.opponent
    cmd = [sys.executable, str(ROOT / "scripts" / "match.py"), "--engine", engine, "--engine-name", "arbiter",
           "--opponent", opponent, "--tc", setting.tc, "--games", str(games), "--concurrency",
           str(setting.concurrency), "--seed", str(seed), "--pgn", str(pgn), "--tool", setting.tool, "--quiet"]
    if setting.opponent == "self":
        cmd += ["--opponent-name", "arbiter-b", "--opponent-proto", "uci"]
    if setting.name in OPPONENT_TC:
        cmd += ["--opponent-tc", OPPONENT_TC[setting.name]]
    for option in setting.engine_options:
        cmd += ["--engine-option", option]
    for option in setting.opponent_options:
        cmd += ["--opponent-option", option]
    for arg in setting.tool_args:
        cmd.append(f"--tool-arg={arg}")
    if setting.chess960:
        cmd.append("--chess960")
    if setting.ponder:
        cmd.append("--ponder")
    if book:
        cmd += ["--book", str(book)]
    return cmd


def parse_report(text: str):
    """The figures of match.py's report in `text`, or None when the run did not finish."""
    found = REPORT.search(text)
    games = GAMES.search(text)
    if not found or not games:
        return None
    wdl = WDL.search(text)
    w, d, l = (int(x) for x in wdl.groups()) if wdl else (0, 0, 0)
    g = found.groupdict()
    return {"games": int(games.group(1)), "wins": w, "draws": d, "losses": l,
            "arbiter": {"time": int(g["et"]), "illegal": int(g["ei"]), "crash": int(g["ec"]), "warnings": int(g["ew"])},
            "opponent": {"time": int(g["ot"]), "illegal": int(g["oi"]), "crash": int(g["oc"]), "warnings": int(g["ow"])}}


def add(total: dict, part: dict) -> None:
    for key in ("games", "wins", "draws", "losses"):
        total[key] = total.get(key, 0) + part[key]
    for side in ("arbiter", "opponent"):
        into = total.setdefault(side, {})
        for key, value in part[side].items():
            into[key] = into.get(key, 0) + value


def summary(results: dict) -> str:
    head = f"{'setting':44} {'games':>5}  {'W/D/L':>13}  {'Arbiter t/i/c/w':>16}  {'opponent t/i/c/w':>16}"
    rows = [head, "-" * len(head)]
    total: dict = {}
    for name, r in results.items():
        if not r.get("games"):
            rows.append(f"{name:44} {'-':>5}  {r.get('note', 'not played'):>13}")
            continue
        a, o = r["arbiter"], r["opponent"]
        rows.append(f"{name:44} {r['games']:5d}  {r['wins']:>4}/{r['draws']}/{r['losses']:<4}  "
                    f"{a['time']:>4}/{a['illegal']}/{a['crash']}/{a['warnings']:<5}  "
                    f"{o['time']:>4}/{o['illegal']}/{o['crash']}/{o['warnings']:<5}")
        add(total, r)
    if total:
        a, o = total["arbiter"], total["opponent"]
        rows.append("-" * len(head))
        rows.append(f"{'total':44} {total['games']:5d}  {total['wins']:>4}/{total['draws']}/{total['losses']:<4}  "
                    f"{a['time']:>4}/{a['illegal']}/{a['crash']}/{a['warnings']:<5}  "
                    f"{o['time']:>4}/{o['illegal']}/{o['crash']}/{o['warnings']:<5}")
    rows.append("t/i/c/w: time forfeits / illegal moves / crashes and disconnects / protocol warnings")
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=str(ROOT / "build" / "arbiter"))
    ap.add_argument("--dir", default="soak", help="logs, PGNs and results (the same folder continues a soak)")
    ap.add_argument("--only", help="comma-separated setting names")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every setting's games")
    ap.add_argument("--list", action="store_true", help="list the settings and exit")
    args = ap.parse_args(argv)
    plan = PLAN
    if args.only:
        wanted = args.only.split(",")
        unknown = set(wanted) - {s.name for s in PLAN}
        if unknown:
            ap.error(f"unknown setting(s): {', '.join(sorted(unknown))}")
        plan = [s for s in PLAN if s.name in wanted]
    if args.list:
        for s in plan:
            print(f"{s.name:44} {s.tool:9} {s.tc:7} {s.games:5d} games, concurrency {s.concurrency}")
        print(f"{sum(s.games for s in plan)} games in all")
        return 0
    directory = pathlib.Path(args.dir)
    directory.mkdir(parents=True, exist_ok=True)
    book = directory / "dfrc.epd"
    if not book.exists():
        dfrc_book(book, 2000, seed=960)
    results: dict = {}
    chunks_total = sum(math.ceil(max(2, round(s.games * args.scale)) / CHUNK) for s in plan)
    chunks_done = 0
    for index, setting in enumerate(plan):
        missing = [str(n) for n in setting.needs if not pathlib.Path(n).exists()]
        tools_missing = shutil.which(setting.tool if setting.tool == "fastchess" else "cutechess-cli") is None
        if missing or tools_missing:
            why = f"needs {missing[0]}" if missing else f"{setting.tool} not on PATH"
            print(f"skipped {setting.name}: {why}", flush=True)
            results[setting.name] = {"note": "skipped"}
            continue
        games = max(2, round(setting.games * args.scale) // 2 * 2)
        total: dict = {}
        for chunk, start in enumerate(range(0, games, CHUNK)):
            count = min(CHUNK, games - start)
            log = directory / f"{setting.name.replace('/', '_')}-{chunk:03d}.log"
            pgn = log.with_suffix(".pgn")
            done = parse_report(log.read_text(errors="replace")) if log.exists() else None
            if done is None:
                pgn.unlink(missing_ok=True)
                cmd = match_command(setting, args.engine, count, seed=1000 * index + chunk, pgn=pgn,
                                    book=book if setting.chess960 else None)
                with open(log, "w") as out:
                    out.write("$ " + " ".join(cmd) + "\n")
                    out.flush()
                    subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
                done = parse_report(log.read_text(errors="replace"))
                if done is None:
                    print(f"{setting.name}: chunk {chunk} did not finish; see {log}", flush=True)
                    results[setting.name] = {"note": "unfinished", **total}
                    break
            add(total, done)
            chunks_done += 1
            a = total["arbiter"]
            print(f"[{chunks_done}/{chunks_total}] {setting.name}: {total['games']}/{games} games, "
                  f"Arbiter {total['wins']}/{total['draws']}/{total['losses']}, problems "
                  f"t{a['time']} i{a['illegal']} c{a['crash']} w{a['warnings']}", flush=True)
        else:
            results[setting.name] = total
    (directory / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    print()
    print(summary(results))
    bad = sum(r["arbiter"][k] for r in results.values() if r.get("games") for k in ("time", "illegal", "crash"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

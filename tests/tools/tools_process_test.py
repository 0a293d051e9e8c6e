#!/usr/bin/env python3
"""Process-level tests of the command-line tools: `arbiter analyse` on positions and
games, `arbiter epd`, and their answers to bad input. Searches are limited by depth or
nodes so the whole file costs a few seconds of CPU.

usage: tools_process_test.py path/to/arbiter path/to/tests/data

Prints one line per failure and a final `N passed, M failed`; exits non-zero when any failed.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uci"))
from uci_pipe import check, run_tests  # noqa: E402

TIMEOUT = 60
BINARY = DATA = None


def run(*args, env=None, stdin=subprocess.DEVNULL):
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([BINARY, *args], stdin=stdin, capture_output=True, text=True, timeout=TIMEOUT,
                          env=full_env)


def ok(result, what):
    check(result.returncode == 0, f"{what}: exit {result.returncode}, stderr {result.stderr[-400:]!r}")
    return result.stdout.splitlines()


def data(name):
    return os.path.join(DATA, name)


INFO = re.compile(r"^depth (\d+)/(\d+)(?:  multipv (\d+))?  score (\S+)  wdl (\d+) (\d+) (\d+)  nodes (\d+)"
                  r"  nps (\d+)  time (\d+\.\d\d)  pv (.*)$")


def test_analyse_start_position():
    lines = ok(run("analyse", "--depth", "6"), "analyse --depth 6")
    check(lines[0] == "Position: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", f"header {lines[0]!r}")
    check(lines[1] == "Search: depth 6, 1 thread, 16 MB hash", f"second line {lines[1]!r}")
    infos = [INFO.match(l) for l in lines[2:-1]]
    check(all(infos), f"unreadable info lines: {[l for l, m in zip(lines[2:-1], infos) if not m]}")
    check([int(m.group(1)) for m in infos][-1] == 6, "last depth is 6")
    for m in infos:
        check(int(m.group(5)) + int(m.group(6)) + int(m.group(7)) == 1000, f"wdl sums to 1000: {m.group(0)}")
        check(re.fullmatch(r"[+-]?\d+\.\d\d", m.group(4)), f"score in pawns: {m.group(4)}")
        check(m.group(11).startswith("1. "), f"PV with move numbers: {m.group(11)}")
    check(re.fullmatch(r"Best move: 1\. \S+ \([a-h][1-8][a-h][1-8]\)", lines[-1]), f"last line {lines[-1]!r}")


def test_analyse_with_tablebases():
    # KRvK with Black to move: a tablebase loss for Black, +TB from White's side.
    fen = "8/8/8/8/8/3k4/8/1K1R4 b - - 0 1"
    lines = ok(run("analyse", "--fen", fen, "--depth", "4", "--syzygy", data("syzygy")), "analyse --syzygy")
    infos = [INFO.match(l) for l in lines[2:-1]]
    check(infos and all(infos), f"unreadable info lines: {lines}")
    check(all(m.group(4) == "+TB" for m in infos), f"scores {[m.group(4) for m in infos if m]}")
    without = ok(run("analyse", "--fen", fen, "--depth", "4"), "analyse without tables")
    check("+TB" not in "\n".join(without), "a TB score without tables")
    bad = run("analyse", "--fen", fen, "--depth", "4", "--syzygy", "/no/such/folder")
    check(bad.returncode == 2 and not bad.stdout, f"missing folder: exit {bad.returncode}, stdout {bad.stdout!r}")
    check("/no/such/folder" in bad.stderr, f"missing folder message {bad.stderr!r}")


def test_analyse_mates_from_whites_side():
    # White mates in one: #1 and the PV in SAN with the mate sign.
    lines = ok(run("analyse", "--fen", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--depth", "5"), "white mates")
    last = INFO.match(lines[-2])
    check(last and last.group(4) == "#1" and last.group(11) == "1. Ra8#", f"white mate line {lines[-2]!r}")
    check(last.group(5, 6, 7) == ("1000", "0", "0"), "certain win in the WDL")
    check(lines[-1] == "Best move: 1. Ra8# (a1a8)", lines[-1])
    # Black mates in one, Black to move, FEN in separate words: #-1, WDL from White's side, "1...".
    lines = ok(run("analyse", "--fen", *"r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1".split(), "--depth", "5"), "black mates")
    last = INFO.match(lines[-2])
    check(last and last.group(4) == "#-1" and last.group(11) == "1... Ra1#", f"black mate line {lines[-2]!r}")
    check(last.group(5, 6, 7) == ("0", "0", "1000"), "certain loss for White in the WDL")
    # Checkmate on the board.
    lines = ok(run("analyse", "--fen", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "--depth", "3"), "mated")
    check(lines[-1] == "No legal move: checkmate", lines[-1])


def test_analyse_moves_and_multipv():
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    # Moves in SAN and in UCI notation mixed; after 3. Bb5 a6 White is to move at move 4.
    lines = ok(run("analyse", "--fen", fen, "--moves", "Bb5", "a7a6", "--depth", "5", "--multipv", "3"), "multipv")
    check(lines[0] == "Position: r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4", lines[0])
    infos = [INFO.match(l) for l in lines[2:-1]]
    check(all(infos), "info lines readable")
    last_depth = [m for m in infos if m.group(1) == "5"]
    check([m.group(3) for m in last_depth] == ["1", "2", "3"], f"three PVs at depth 5: {last_depth}")
    check(len({m.group(11).split()[1] for m in last_depth}) == 3, "three different first moves")
    check(all(m.group(11).startswith("4. ") for m in last_depth), "PVs numbered from move 4")
    # Black to move after 3... : the PV starts with "3...".
    lines = ok(run("analyse", "--fen", fen, "--moves", "Bb5", "--depth", "3"), "black to move")
    check(INFO.match(lines[-2]).group(11).startswith("3... "), lines[-2])


def test_analyse_multipv_after_a_stop():
    # A node limit stops an iteration part-way through its lines (as --movetime and
    # --infinite do, but reproducibly): the last line of each rank, what a reader is
    # left with, comes sorted by score, at the depth each was searched to, and the best
    # move is the first line's. Scores are from White's side and Black is to move.
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    for nodes in ("4000", "20000"):
        lines = ok(run("analyse", "--fen", fen, "--nodes", nodes, "--multipv", "3"), f"--nodes {nodes} --multipv 3")
        infos = [INFO.match(l) for l in lines[2:-1]]
        check(infos and all(infos), f"unreadable info lines: {lines}")
        last = {m.group(3): m for m in infos}
        final = [last[k] for k in ("1", "2", "3")]
        text = " | ".join(m.group(0) for m in final)
        # Black's best first: White's scores ascend (a bound's sign comes before the number).
        scores = [float(m.group(4).lstrip("<>=")) for m in final]
        check(scores == sorted(scores), f"--nodes {nodes}: lines out of order: {text}")
        # A line of the previous depth is kept as its completed iteration printed it.
        deepest = max(int(m.group(1)) for m in final)
        for m in final:
            if int(m.group(1)) < deepest:
                check(any(int(e.group(8)) < int(nodes) and e.group(1, 4, 11) == m.group(1, 4, 11) for e in infos),
                      f"--nodes {nodes}: {m.group(0)} is not as its iteration printed it")
        best = final[0].group(11).split()[1]
        check(lines[-1].startswith(f"Best move: 2... {best} ("), f"--nodes {nodes}: {lines[-1]!r} after {text}")


def test_analyse_infinite_ends_with_input():
    result = run("analyse", "--infinite", "--threads", "1")
    lines = ok(result, "--infinite with standard input closed")
    check(lines[-1].startswith("Best move: "), f"an infinite search stopped by the end of input: {lines[-1:]}")


def analyse_game(*extra):
    return run("analyse", "--pgn", data("engine-games-sample.pgn"), "--game", "1", "--depth", "6", *extra)


def read_pgn_moves(text):
    """SAN tokens of the main line (comments, variations and NAGs removed)."""
    body = text.split("\n\n", 1)[1]
    body = re.sub(r"\{[^}]*\}", " ", body)
    while "(" in body:
        body = re.sub(r"\([^()]*\)", " ", body)
    return [t for t in body.split() if not re.fullmatch(r"\d+\.(\.\.)?|\$\d+|1-0|0-1|1/2-1/2|\*", t)]


def test_analyse_game_annotated_pgn():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "annotated.pgn")
        result = analyse_game("--output", out)
        check(ok(result, "analyse --pgn --output") == [], f"nothing on stdout: {result.stdout[:200]!r}")
        text = open(out, encoding="utf-8").read()
    # The summary table is on stderr, after the progress bar's last line.
    lines = result.stderr.splitlines()
    lines = lines[next(i for i, l in enumerate(lines) if l.startswith("Game 1:")):]
    check(lines[0] == "Game 1: sf15.1-3190 - arbiter, 0-1", f"summary title {lines[:1]}")
    check(re.fullmatch(r"\s+side\s+accuracy\s+inaccuracies\s+mistakes\s+blunders\s+ACPL", lines[1]), lines[1])
    rows = {}
    for line in lines[2:4]:
        fields = line.split()
        rows[fields[0]] = fields[1:]
    check(set(rows) == {"White", "Black"}, f"a row per side: {lines}")
    for side, (accuracy, inaccuracies, mistakes, blunders, acpl) in rows.items():
        check(0 <= float(accuracy) <= 100, f"{side} accuracy {accuracy}")
        check(int(acpl) >= 0, f"{side} ACPL {acpl}")
    # The progress bar is on stderr only.
    check("22/22 positions" in result.stderr or "23/23 positions" in result.stderr, result.stderr[-200:])
    check("positions" not in result.stdout, "no progress on stdout")

    check('[Event "Fastchess Tournament"]' in text and '[Result "0-1"]' in text, "tags kept")
    check('[FEN "r1bqk2r/pp3ppp/2np1b2/4p3/4P3/2N5/PPP2PPP/RN1QKB1R w KQkq - 0 9"]' in text, "FEN kept")
    check(re.search(r'\[WhiteAccuracy "\d+\.\d"\]', text) and re.search(r'\[BlackACPL "\d+"\]', text),
          "accuracy tags")
    moves = read_pgn_moves(text)
    check(moves[:4] == ["Qd2", "Bg5", "Qd3", "O-O"] and moves[-1] == "Bf4#" and len(moves) == 22,
          f"main line kept: {moves[:4]} ... {moves[-1:]} ({len(moves)})")
    evals = re.findall(r"\[%eval (#-?\d+|-?\d+\.\d\d)\]", text)
    check(len(evals) == 21, f"an eval after every move but the mating one: {len(evals)}")
    check(evals[-1] == "#-1", f"before Bf4# Black mates in one: {evals[-1]}")
    # Each judged move: its NAG, a comment naming the best move, and a variation.
    total = sum(int(rows[s][i]) for s in rows for i in (1, 2, 3))
    flat = text.replace("\n", " ")
    nags = re.findall(r"\$(2|4|6) \{\[%eval [^]]+\] (Inaccuracy|Mistake|Blunder)\. \S+ was best\.", flat)
    check(len(nags) == total, f"{total} judgements in the summary, {len(nags)} in the PGN")
    for nag, name in nags:
        check({"6": "Inaccuracy", "2": "Mistake", "4": "Blunder"}[nag] == name, f"${nag} for {name}")
    check(text.count("(") >= total, "a variation per judged move")
    # The original comments stay after the eval.
    check("{[%eval" in text and "+0.22/18 1.034s}" in text, "engine comments kept")


def test_analyse_game_json():
    result = analyse_game("--json")
    lines = ok(result, "analyse --json")
    objects = [json.loads(l) for l in lines]
    positions = [o for o in objects if "ply" in o]
    summary = [o for o in objects if "summary" in o]
    check(len(positions) == 23 and len(summary) == 1, f"23 positions and a summary: {len(positions)}, {len(summary)}")
    check([o["ply"] for o in positions] == list(range(23)), "plies in order")
    check(positions[0]["played"] == "Qd2" and positions[1]["played"] == "Bg5", "played moves in SAN")
    check(positions[0]["move_number"] == 9 and positions[0]["side"] == "white", "move number and side")
    check(positions[0]["fen"] == "r1bqk2r/pp3ppp/2np1b2/4p3/4P3/2N5/PPP2PPP/RN1QKB1R w KQkq - 0 9", "fen")
    for o in positions[:-1]:
        check(sum(o["wdl"]) == 1000, f"wdl {o['wdl']}")
        check(o["best"] == o["pv"][0], "best is the PV's first move")
        check((o["cp"] is None) != (o["mate"] is None), "either cp or mate")
        check(o["judgement"] in (None, "Inaccuracy", "Mistake", "Blunder"), o["judgement"])
        check(o["loss"] >= 0, "loss is not negative")
        check((o["played"] == o["best"]) <= (o["loss"] == 0), "the engine's move loses nothing")
    # Checkmate at the end: no evaluation, as lichess writes none for a mated position.
    last = positions[-1]
    check(last["checkmate"] and last["eval"] is None and last["cp"] is None and last["mate"] is None,
          f"checkmate at the end: {last}")
    check(last["wdl"] == [0, 0, 1000] and last["side"] == "white", f"White mated: {last}")
    check(not any(o["checkmate"] for o in positions[:-1]), "no other checkmate")
    counts = summary[0]["summary"]
    for side in ("white", "black"):
        judged = [o["judgement"] for o in positions[:-1] if o["side"] == side]
        check(counts[side]["blunders"] == judged.count("Blunder"), f"{side} blunders")
        check(counts[side]["moves"] == 11, f"{side} moves")


def test_analyse_game_one_side():
    result = run("analyse", "--pgn", data("engine-games-sample.pgn"), "--game", "2", "--side", "black",
                 "--nodes", "3000", "--json")
    objects = [json.loads(l) for l in ok(result, "--side black")]
    positions = [o for o in objects if "ply" in o]
    check(all("judgement" not in o for o in positions if o["side"] == "white"), "White's moves not judged")
    check(any("judgement" in o for o in positions if o["side"] == "black"), "Black's moves judged")
    check(list(objects[-1]["summary"]) == ["black"], f"summary for Black only: {objects[-1]}")


def test_analyse_several_games_and_a_bad_one():
    pgn = ('[Event "a"]\n\n1. e4 e5 2. Nf3 *\n\n[Event "b"]\n\n1. e4 e5\n2. Ke3 *\n\n'
           '[Event "c"]\r\n\r\n1. d4 d5 *\r\n')
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.pgn")
        with open(path, "w", newline="") as f:
            f.write(pgn)
        result = run("analyse", "--pgn", path, "--depth", "3")
    check(result.returncode == 1, f"exit 1 after a bad game, got {result.returncode}")
    check("game 2, line 8, token 'Ke3'" in result.stderr, f"error names game, line, token: {result.stderr!r}")
    check(result.stdout.count("[Event ") == 2 and '[Event "a"]' in result.stdout and '[Event "c"]' in result.stdout,
          "the two good games are analysed")
    check("Game 1:" in result.stderr and "Game 3:" in result.stderr, "summaries numbered by place in the file")
    check("Game 1:" not in result.stdout, "no summary table in the PGN")


def test_plot():
    with tempfile.TemporaryDirectory() as tmp:
        # A stand-in plot script: keeps the data the engine passed and writes the "image".
        fake = os.path.join(tmp, "scripts")
        os.mkdir(fake)
        with open(os.path.join(fake, "plot_eval.py"), "w") as f:
            f.write("import shutil, sys\nshutil.copy(sys.argv[1], sys.argv[2])\n")
        png = os.path.join(tmp, "graph.png")
        result = run("analyse", "--pgn", data("engine-games-sample.pgn"), "--game", "1", "--depth", "4",
                     "--plot", png, env={"ARBITER_SCRIPTS_DIR": fake, "ARBITER_PYTHON": sys.executable})
        ok(result, "--plot with a stand-in script")
        plot = json.load(open(png))
        check(plot["white"] == "sf15.1-3190" and plot["result"] == "0-1", "players and result")
        check(len(plot["points"]) == 22 and plot["points"][0]["move"] == "9. Qd2", f"points: {plot['points'][:1]}")
        check(all(0 <= p["expected"] <= 1 for p in plot["points"]), "expected scores")
        # matplotlib missing: the script says so (exit 3) and the analysis still succeeds.
        with open(os.path.join(fake, "plot_eval.py"), "w") as f:
            f.write("import sys\nprint('matplotlib is not installed', file=sys.stderr)\nsys.exit(3)\n")
        result = run("analyse", "--pgn", data("engine-games-sample.pgn"), "--game", "1", "--depth", "2",
                     "--plot", png, env={"ARBITER_SCRIPTS_DIR": fake, "ARBITER_PYTHON": sys.executable})
        ok(result, "--plot without matplotlib")
        check("matplotlib is not installed" in result.stderr and "plot skipped" in result.stderr, result.stderr[-300:])
        # Reviewing Black's moves only: the start position is not evaluated, so the
        # graph has no start point (it used to begin at a made-up draw).
        with open(os.path.join(fake, "plot_eval.py"), "w") as f:
            f.write("import shutil, sys\nshutil.copy(sys.argv[1], sys.argv[2])\n")
        os.remove(png)
        result = run("analyse", "--pgn", data("engine-games-sample.pgn"), "--game", "1", "--depth", "2",
                     "--side", "black", "--plot", png,
                     env={"ARBITER_SCRIPTS_DIR": fake, "ARBITER_PYTHON": sys.executable})
        ok(result, "--plot --side black")
        plot = json.load(open(png))
        check(plot["start_expected"] is None, f"start point: {plot['start_expected']}")
        check(plot["white_accuracy"] is None and plot["black_accuracy"] is not None, "accuracies")
        # The real script through the default `python3`, which re-runs it under the system
        # Python when it lacks matplotlib (a pyenv shim on PATH, say). test.sh installs
        # python3-matplotlib, so the image must be written wherever that Python exists.
        real = os.path.join(tmp, "real.png")
        result = run("analyse", "--pgn", data("engine-games-sample.pgn"), "--game", "1", "--depth", "4",
                     "--side", "black", "--plot", real)
        ok(result, "--plot with the real script")
        if has_matplotlib(sys.executable) or has_matplotlib("/usr/bin/python3"):
            check(os.path.exists(real) and open(real, "rb").read(8) == b"\x89PNG\r\n\x1a\n",
                  f"a PNG file: {result.stderr[-300:]}")
        else:
            check("plot skipped" in result.stderr, result.stderr[-300:])


def has_matplotlib(python):
    """Whether `python` (a path) can import matplotlib."""
    if not os.path.exists(python):
        return False
    return subprocess.run([python, "-c", "import matplotlib"], capture_output=True).returncode == 0


def test_epd_suite():
    lines = ok(run("epd", data("wac-sample.epd"), "--nodes", "20000"), "epd")
    check(lines[0] == "WAC: 12 positions, 20000 nodes each, 1 thread, 16 MB hash", lines[0])
    rows = lines[1:-1]
    check(len(rows) == 12, f"one line per position: {len(rows)}")
    solved = 0
    for i, row in enumerate(rows, 1):
        m = re.fullmatch(r"(WAC\.\d{3})\s+(found|not found)\s+(\S+)\s+(\d+\.\d{3} s|-)\s+bm (.+)", row)
        check(m, f"row {row!r}")
        check(m.group(1) == f"WAC.{i:03}", "ids in order")
        found = m.group(2) == "found"
        check(found == (m.group(3) in m.group(5).split()), f"found exactly when the move is a bm: {row}")
        check(found == (m.group(4) != "-"), "a time to solution exactly when found")
        solved += found
    check(lines[-1] == f"WAC: {solved} / 12", f"last line {lines[-1]!r}")
    check(solved >= 6, f"most of the easy WAC positions solved at 20000 nodes: {solved}")


def test_epd_am_uci_and_bad_lines():
    epd = "\n".join([
        '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm a1a8; id "mate.uci";',
        '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 am Kf1 Kh1; id "avoid";',
        '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; am Kf1; id "both";',
        '',
        '# a comment line',
        '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qh5; id "bad move";',
        'not a fen at all',
        '6k1/5ppp/8/8/8/8/8/R5K1 w - - id "no operation";',
    ]) + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "mini.epd")
        open(path, "w").write(epd)
        result = run("epd", path, "--depth", "4")
    check(result.returncode == 1, f"exit 1 with skipped lines: {result.returncode}")
    err = result.stderr
    check(":6: bm 'Qh5' is not a legal move" in err, err)
    check(":7: " in err and ":8: no bm or am operation" in err, err)
    lines = result.stdout.splitlines()
    check(lines[0].startswith("mini: 3 positions, depth 4 each"), lines[0])
    check(re.match(r"mate\.uci\s+found\s+Ra8#\s+\d+\.\d{3} s\s+bm Ra8#$", lines[1]), lines[1])
    check(re.match(r"avoid\s+found\s+Ra8#\s+.*am Kf1 Kh1$", lines[2]), lines[2])
    check(re.match(r"both\s+found\s+Ra8#\s+.*bm Ra8#; am Kf1$", lines[3]), lines[3])
    check(lines[-1] == "mini: 3 / 3", lines[-1])


def test_shared_suites_parse():
    """Every position of the suites in ../shared/data/tactics reads, when they are there
    (a developer's checkout; CI has them too). One node per position."""
    shared = os.path.join(DATA, "..", "..", "..", "shared", "data", "tactics")
    if not os.path.isdir(shared):
        return
    for name in sorted(os.listdir(shared)):
        if name.endswith(".epd"):
            result = run("epd", os.path.join(shared, name), "--nodes", "1")
            check(result.returncode == 0 and result.stderr == "", f"{name}: {result.stderr[:300]!r}")


def test_bad_input():
    pgn = data("engine-games-sample.pgn")
    cases = [
        ("analyse", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"),
        ("analyse", "--fen"),
        ("analyse", "--moves", "e2e5"),
        ("analyse", "--moves", "e4", "e4"),
        ("analyse", "--depth", "x"),
        ("analyse", "--depth", "0"),
        ("analyse", "--nodes", "-5"),
        ("analyse", "--movetime", "1e3"),
        ("analyse", "--depth", "3", "--nodes", "100"),
        ("analyse", "--multipv", "0"),
        ("analyse", "--threads", "0"),
        ("analyse", "--hash", "100000000"),
        ("analyse", "--frobnicate"),
        ("analyse", "stray"),
        ("analyse", "--pgn"),
        ("analyse", "--pgn", "/nonexistent/games.pgn"),
        ("analyse", "--pgn", DATA),
        ("analyse", "--pgn", pgn, "--game", "7"),
        ("analyse", "--pgn", pgn, "--game", "zero"),
        ("analyse", "--pgn", pgn, "--side", "both"),
        ("analyse", "--pgn", pgn, "--infinite"),
        ("analyse", "--pgn", pgn, "--multipv", "2"),
        ("analyse", "--pgn", pgn, "--output", "/nonexistent/dir/out.pgn"),
        ("analyse", "--pgn", data("wac-sample.epd")),
        ("convert", pgn),
        ("convert", pgn, "/tmp/arbiter-bad-convert.abin", "--player"),
        ("convert", pgn, "/tmp/arbiter-bad-convert.abin", "--frobnicate", "x"),
        ("convert", "/nonexistent/games.pgn", "/tmp/arbiter-bad-convert.abin"),
        ("convert", pgn, "/nonexistent/dir/out.abin"),
        ("epd",),
        ("epd", "/nonexistent.epd"),
        ("epd", data("wac-sample.epd"), "--infinite"),
        ("epd", data("wac-sample.epd"), "--depth", "-1"),
        ("epd", data("wac-sample.epd"), "extra"),
        ("epd", data("wac-sample.epd"), "--multipv", "2"),
        ("epd", data("engine-games-sample.pgn")),
        ("bench", "x"),
        ("frobnicate",),
        ("--help", "extra"),
        ("--version", "extra"),
    ]
    for args in cases:
        result = run(*args)
        what = f"`arbiter {' '.join(args)}`"
        check(result.returncode != 0, f"{what} exited 0")
        check(result.stderr.strip() != "", f"{what} printed no message on stderr")
        check(result.stdout == "", f"{what} printed on stdout: {result.stdout[:200]!r}")
        check("Segmentation" not in result.stderr and result.returncode > 0, f"{what} crashed: {result.returncode}")


def test_messages_name_unit_and_range():
    for args, message in [(("analyse", "--movetime", "0"),
                           "arbiter analyse: --movetime needs milliseconds from 1 to 31536000000, not '0'"),
                          (("analyse", "--nodes", "0"),
                           "arbiter analyse: --nodes needs a number of nodes from 1 to 1000000000000, not '0'"),
                          (("datagen", "--output", "x.abin", "--games", "0"),
                           "arbiter datagen: --games needs a number from 1 to 1000000000, not '0'"),
                          (("perft", "3", "8/8/8 w"), "arbiter: invalid FEN: expected 6 fields (placement, side to "
                           "move, castling, en passant, halfmove clock, fullmove number; the two clocks may be left "
                           "out), found 2")]:
        result = run(*args)
        check(result.returncode == 2 and result.stderr == message + "\n",
              f"`arbiter {' '.join(args)}`: {result.returncode} {result.stderr!r}")


def test_convert_pgn():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "games.abin")
        result = run("convert", data("engine-games-sample.pgn"), out)
        check(result.returncode == 0 and result.stdout == "", f"convert: {result.returncode} {result.stderr}")
        summary = re.search(r"games (\d+) .*plies (\d+)  positions written (\d+)", result.stderr)
        check(summary is not None, f"convert: no summary in {result.stderr!r}")
        if summary:
            games, plies, written = (int(g) for g in summary.groups())
            check(games == 2 and 0 < written < plies, summary.group(0))
            check(os.path.getsize(out) == 32 * written, f"{os.path.getsize(out)} bytes for {written} records")
        result = run("convert", data("engine-games-sample.pgn"), out, "--player", "no such engine")
        check(result.returncode == 0 and "positions written 0" in result.stderr, result.stderr)
        check(os.path.getsize(out) == 0, "records of another player were written")


def test_help_and_version():
    for flag in ("--help", "-h", "help"):
        lines = ok(run(flag), flag)
        check(lines and lines[0].startswith("usage: arbiter "), f"{flag}: {lines[:1]}")
        for command in ("perft", "bench", "analyse", "epd", "datagen", "convert", "spsa"):
            check(any(f"arbiter {command}" in line for line in lines), f"{flag}: no line for {command}")
    uci = subprocess.run([BINARY], input="uci\nquit\n", capture_output=True, text=True, timeout=TIMEOUT)
    name = next(line for line in uci.stdout.splitlines() if line.startswith("id name "))
    for flag in ("--version", "version"):
        lines = ok(run(flag), flag)
        check(lines == [name.removeprefix("id name ")], f"{flag}: {lines} (UCI: {name!r})")
        check(re.fullmatch(r"Arbiter \d+\.\d+\.\d+", lines[0] if lines else ""), f"{flag}: {lines}")


def test_every_tool_through_one_door():
    # spsa, datagen and convert answer a bad command line as the other tools do: one
    # line naming the tool on stderr, exit status 2, nothing on stdout.
    for args, message in [(("spsa", "x"), "arbiter spsa: takes no arguments"),
                          (("datagen", "--output", "x.abin", "--games", "ten"),
                           "arbiter datagen: --games needs a number from 1 to "),
                          (("datagen", "--games", "1"), "arbiter datagen: --output FILE is required"),
                          (("convert", "only-one.agame"), "arbiter convert: expected one or more input .agame or .apack files")]:
        result = run(*args)
        what = f"`arbiter {' '.join(args)}`"
        check(result.returncode == 2, f"{what}: exit {result.returncode}")
        check(result.stdout == "", f"{what} printed on stdout: {result.stdout[:200]!r}")
        lines = result.stderr.splitlines()
        check(len(lines) == 1 and lines[0].startswith(message), f"{what}: {result.stderr[:300]!r}")
    lines = ok(run("spsa"), "spsa")
    check(lines and all(re.fullmatch(r"\w+, int, -?\d+, -?\d+, -?\d+, \d+, 0\.002", l) for l in lines),
          f"spsa: {lines[:3]}")
    # The bench depth is checked once, for the command line and UCI alike.
    for depth in ("0", "31", "x"):
        result = run("bench", depth)
        check(result.returncode == 2 and "from 1 to 30" in result.stderr, f"bench {depth}: {result.stderr!r}")
        uci = subprocess.run([BINARY], input=f"bench {depth}\nquit\n", capture_output=True, text=True,
                             timeout=TIMEOUT)
        check(uci.stdout.splitlines() == ["info string error: bench takes a depth from 1 to 30"],
              f"UCI bench {depth}: {uci.stdout!r}")


def test_perft_and_bench_drivers():
    lines = ok(run("perft", "3"), "perft 3")
    check(lines[-1] == "Nodes searched: 8902", lines[-1])
    lines = ok(run("bench", "3"), "bench 3")
    check(re.fullmatch(r"\d+ nodes \d+ nps", lines[-1]), lines[-1])


TESTS = [v for k, v in sorted(globals().items()) if k.startswith("test_")]


def main():
    global BINARY, DATA
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    BINARY = os.path.abspath(sys.argv[1])
    DATA = os.path.abspath(sys.argv[2])
    return run_tests(TESTS)


if __name__ == "__main__":
    sys.exit(main())

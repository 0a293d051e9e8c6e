#!/usr/bin/env python3
"""Process-level tests of the game review, `arbiter analyse --pgn`: lichess's accuracy on
a hand-written game, standard output that carries one format only, and the small things
a user meets (file errors, `e.p.` in moves, a mated position in JSON).

usage: game_review_test.py path/to/arbiter path/to/tests/data

Prints one line per failure and a final `N passed, M failed`; exits non-zero when any failed.
"""
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "uci"))
from uci_pipe import check, run_tests  # noqa: E402

TIMEOUT = 120
BINARY = DATA = None


def run(*args):
    return subprocess.run([BINARY, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=TIMEOUT)


def data(name):
    return os.path.join(DATA, name)


def json_lines(result):
    check(result.returncode == 0, f"exit {result.returncode}: {result.stderr[-400:]!r}")
    return [json.loads(line) for line in result.stdout.splitlines()]


# lichess's accuracy (lichess.org/page/accuracy), written again here from the published
# formulas, to check the engine's figures against.
def win_percent(cp):
    cp = max(-1000, min(1000, cp))
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


def move_accuracy(before, after):
    if after >= before:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411
    return max(0.0, min(100.0, raw + 1))


def lichess_accuracy(white_cps, white_first=True):
    wins = [win_percent(c) for c in white_cps]
    window = max(2, min(8, (len(white_cps) - 1) // 10))
    windows = [wins[:window]] * (min(window, len(wins)) - 2) + \
        [wins[i:i + window] for i in range(max(1, len(wins) - window + 1))]

    def deviation(xs):
        mean = sum(xs) / len(xs)
        return math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))

    weights = [max(0.5, min(12, deviation(w))) for w in windows]
    result = {}
    for side in ("white", "black"):
        accuracies, side_weights = [], []
        for i in range(len(wins) - 1):
            mover = "white" if (i % 2 == 0) == white_first else "black"
            if mover != side:
                continue
            before, after = (wins[i], wins[i + 1]) if side == "white" else (100 - wins[i], 100 - wins[i + 1])
            accuracies.append(move_accuracy(before, after))
            side_weights.append(weights[i])
        weighted = sum(a * w for a, w in zip(accuracies, side_weights)) / sum(side_weights)
        harmonic = len(accuracies) / sum(1 / max(1, a) for a in accuracies)
        result[side] = (weighted + harmonic) / 2
    return result


def white_centipawns(position):
    """A JSON position's evaluation as lichess's accuracy reads it: White's side, +-1000 at most."""
    if position.get("checkmate") or position.get("mate") == 0:
        return -1000 if position["side"] == "white" else 1000
    if position["mate"] is not None:
        return 1000 if position["mate"] > 0 else -1000
    return max(-1000, min(1000, position["cp"]))


def test_accuracy_of_a_hung_piece_and_a_mate():
    objects = json_lines(run("analyse", "--pgn", data("hand-blunder.pgn"), "--depth", "10", "--json"))
    positions = [o for o in objects if "ply" in o]
    summary = objects[-1]["summary"]
    check(len(positions) == 15, f"15 positions: {len(positions)}")
    # White hangs a knight (6. Ng5, hxg5 wins it) and allows mate in one (7. Nxf7 Qxf2#):
    # lichess's formula gives White a low accuracy (the old average of expected scores
    # kept gave 85.7 at this depth).
    check(summary["white"]["accuracy"] < 50, f"White's accuracy {summary['white']['accuracy']}")
    check(summary["white"]["blunders"] >= 2, f"White's blunders {summary['white']}")
    check(positions[12]["accuracy"] < 30 and positions[10]["accuracy"] < 50,
          f"the two bad moves: {positions[10]['accuracy']}, {positions[12]['accuracy']}")
    # The figures are lichess's formula applied to the evaluations the review printed.
    expected = lichess_accuracy([white_centipawns(p) for p in positions])
    for side in ("white", "black"):
        check(abs(summary[side]["accuracy"] - expected[side]) < 0.051,
              f"{side}: {summary[side]['accuracy']} against {expected[side]:.2f} from the evaluations")
    for i, p in enumerate(positions[:-1]):
        cps = [white_centipawns(positions[i]), white_centipawns(positions[i + 1])]
        sign = 1 if p["side"] == "white" else -1
        want = move_accuracy(win_percent(sign * cps[0]), win_percent(sign * cps[1]))
        check(abs(p["accuracy"] - want) < 0.051, f"ply {i}: accuracy {p['accuracy']} against {want:.2f}")


def test_file_errors_say_why():
    missing = run("analyse", "--pgn", "/nonexistent/games.pgn")
    check(missing.returncode == 2 and not missing.stdout, f"exit {missing.returncode}, stdout {missing.stdout!r}")
    check("cannot open '/nonexistent/games.pgn': No such file or directory" in missing.stderr, missing.stderr)
    # A path through a file (root reads any file, so a permission test would pass vacuously).
    through = run("analyse", "--pgn", data("hand-blunder.pgn") + "/games.pgn")
    check(through.returncode == 2 and "Not a directory" in through.stderr, through.stderr)
    unwritable = run("analyse", "--pgn", data("hand-blunder.pgn"), "--depth", "1", "--output", "/nonexistent/out.pgn")
    check(unwritable.returncode == 2 and "cannot write '/nonexistent/out.pgn': No such file or directory"
          in unwritable.stderr, unwritable.stderr)
    epd = run("epd", "/nonexistent/suite.epd")
    check(epd.returncode != 0 and "No such file or directory" in epd.stderr, epd.stderr)
    for args in (("convert", "/nonexistent/games.agame", "/tmp/arbiter-review-test.abin"),
                 ("convert", data("hand-blunder.pgn"), "/nonexistent/out.abin")):
        result = run(*args)
        check(result.returncode != 0 and "No such file or directory" in result.stderr, f"{args}: {result.stderr!r}")


def test_en_passant_suffix_in_moves():
    fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    after = "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    for moves in (["exf6e.p."], ["exf6", "e.p."], ["exf6e.p.+"], ["e5f6"]):
        result = run("analyse", "--fen", fen, "--moves", *moves, "--depth", "1")
        check(result.returncode == 0, f"--moves {moves}: {result.stderr!r}")
        check(result.stdout.startswith(f"Position: {after}\n"), f"--moves {moves}: {result.stdout[:120]!r}")
    for moves in (["d3e.p."], ["d3", "e.p."], ["e.p."]):
        result = run("analyse", "--fen", fen, "--moves", *moves, "--depth", "1")
        check(result.returncode == 2 and not result.stdout, f"--moves {moves} accepted: {result.stdout[:120]!r}")


def test_mated_position_in_json():
    objects = json_lines(run("analyse", "--pgn", data("hand-blunder.pgn"), "--depth", "4", "--json"))
    last = [o for o in objects if "ply" in o][-1]
    # lichess writes no evaluation for a mated position: no [%eval] after the mating
    # move, no entry in its analysis. Here: eval, cp and mate null, checkmate true.
    check(last["checkmate"] is True and last["eval"] is None and last["cp"] is None and last["mate"] is None,
          f"the mated position: {last}")
    check(last["wdl"] == [0, 0, 1000] and last["side"] == "white", f"White is mated: {last}")
    check("#-0" not in "".join(json.dumps(o) for o in objects), "no #-0 anywhere")


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

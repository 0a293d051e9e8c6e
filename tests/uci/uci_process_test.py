#!/usr/bin/env python3
"""Process-level tests of the built engine: the binary driven through pipes, as a GUI
or a script drives it.

usage: uci_process_test.py path/to/arbiter

Every read has a timeout, so a hang fails the test instead of blocking CTest. Prints
one line per failure and a final `N passed, M failed`; exits non-zero when any failed.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_pipe import START_FEN, TIMEOUT, Engine, check, run_tests  # noqa: E402


TABLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "syzygy")


def run_command_line(binary, *args, stdin_text=""):
    return subprocess.run([binary, *args], input=stdin_text, capture_output=True, text=True, timeout=TIMEOUT)


def test_handshake(binary):
    with Engine(binary) as e:
        e.send("uci")
        lines = e.read_until(lambda l: l == "uciok")
        check(any(l.startswith("id name Arbiter") for l in lines), f"no 'id name Arbiter' in {lines}")
        check(any(l.startswith("id author ") for l in lines), f"no 'id author' in {lines}")
        check("option name UCI_Chess960 type check default false" in lines, f"no UCI_Chess960 option in {lines}")
        e.send("isready")
        check(e.read_line() == "readyok", "isready after uci")


def test_position_and_d(binary):
    with Engine(binary) as e:
        e.send("position startpos moves e2e4")
        e.send("d")
        lines = e.read_until(lambda l: l.startswith("Winnable:"))
        fen = [l for l in lines if l.startswith("Fen: ")]
        check(fen == ["Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"], f"Fen line: {fen}")
        check(any(l.startswith("Key: ") for l in lines), "no Key line")
        check(any(l.startswith("Checkers:") for l in lines), "no Checkers line")
        check(lines[-2] == "Status: ongoing", f"status line: {lines[-2]}")


def test_go_perft(binary):
    with Engine(binary) as e:
        e.send("position startpos")
        e.send("go perft 2")
        lines = e.read_until(lambda l: l.startswith("Nodes searched"))
        check(lines[-1] == "Nodes searched: 400", f"total: {lines[-1]}")
        moves = lines[:-2]
        check(lines[-2] == "", "no empty line before the total")
        check(len(moves) == 20 and all(l.endswith(": 20") for l in moves), f"divide: {moves}")


def test_malformed_fen(binary):
    with Engine(binary) as e:
        e.send("position startpos moves d2d4")
        e.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1")
        line = e.read_line()
        check(line.startswith("info string error: "), f"expected an error line, got {line!r}")
        e.send("d")
        lines = e.read_until(lambda l: l.startswith("Winnable:"))
        check("Fen: rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1" in lines,
              "the previous position was not kept")


def test_illegal_move(binary):
    with Engine(binary) as e:
        e.send("position startpos moves e2e4 e7e5 e1e3")
        line = e.read_line()
        check(line.startswith("info string error: illegal move e1e3"), f"got {line!r}")


def test_flushed_promptly(binary):
    # stdin stays open: a reply stuck in a buffer would never arrive.
    with Engine(binary) as e:
        for _ in range(3):
            e.send("isready")
            check(e.read_line(timeout=5) == "readyok", "readyok")
        e.send("position startpos")
        e.send("go perft 1")
        lines = e.read_until(lambda l: l.startswith("Nodes searched"), timeout=5)
        check(lines[-1] == "Nodes searched: 20", f"total: {lines[-1]}")


def test_quit(binary):
    with Engine(binary) as e:
        e.send("isready")
        e.read_line()
        e.send("quit")
        check(e.proc.wait(timeout=TIMEOUT) == 0, "exit code after quit")


def test_eof_ends_cleanly(binary):
    with Engine(binary) as e:
        e.send("isready")
        check(e.read_line() == "readyok", "readyok")
        e.proc.stdin.close()
        check(e.proc.wait(timeout=TIMEOUT) == 0, f"exit code {e.proc.returncode} at end of input")
        check(e.proc.stderr.read() == "", "stderr output at end of input")


def test_garbage_does_not_crash(binary):
    garbage = "\n".join([
        "", "   ", "\t\r", "x" * 200000, "position fen " + "8/" * 5000, "go perft", "go perft 99",
        "setoption name", "setoption name Nope value 3", "position startpos moves " + "e2e4 " * 50,
        "\u00e9\u00e8\u2603", "position fen \u2603", "d",
    ]) + "\n"
    result = subprocess.run([binary], input=garbage.encode() + bytes(range(256)) + b"\nisready\n",
                            capture_output=True, timeout=TIMEOUT)
    check(result.returncode == 0, f"exit code {result.returncode}; stderr {result.stderr[-300:]!r}")
    check(result.stdout.decode(errors="replace").splitlines()[-1] == "readyok", "no readyok after the garbage")


def test_long_move_list(binary):
    with Engine(binary) as e:
        e.send("position startpos moves " + " ".join(["g1f3 g8f6 f3g1 f6g8"] * 1000))
        e.send("d")
        lines = e.read_until(lambda l: l.startswith("Winnable:"))
        check(f"Fen: {START_FEN[:-4]} 4000 2001" in lines, "position after 4000 plies")
        check(lines[-2] == "Status: fivefold-repetition", f"status: {lines[-2]}")


def test_command_line_perft(binary):
    result = run_command_line(binary, "perft", "3")
    check(result.returncode == 0, f"exit code {result.returncode}; stderr {result.stderr!r}")
    lines = result.stdout.splitlines()
    check("Nodes searched: 8902" in lines, f"no 'Nodes searched: 8902' in {lines[-3:]}")
    check(len([l for l in lines if ": " in l and not l.startswith("Nodes")]) == 20, "20 divide lines")

    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    result = run_command_line(binary, "perft", "2", kiwipete)
    check(result.returncode == 0 and "Nodes searched: 2039" in result.stdout.splitlines(), "kiwipete perft 2")
    # The FEN may also come as separate words, as a shell splits it.
    result = run_command_line(binary, "perft", "2", *kiwipete.split())
    check(result.returncode == 0 and "Nodes searched: 2039" in result.stdout.splitlines(),
          "kiwipete perft 2 with the FEN in separate arguments")
    # A Chess960 FEN is recognised from the command line.
    result = run_command_line(binary, "perft", "1", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w GBgb - 0 1")
    check(result.returncode == 0 and "d1g1: 1" in result.stdout.splitlines(), "Chess960 perft from the command line")


def test_syzygy_path(binary):
    """Bad SyzygyPath values give error lines and the engine goes on; good ones load."""
    with Engine(binary) as e:
        missing = os.path.join(TABLES, "missing")
        e.send(f"setoption name SyzygyPath value {missing}:{os.path.join(TABLES, 'KQvK.rtbw')}")
        lines = e.read_until(lambda l: l.startswith("info string Found"))
        check(len([l for l in lines if l.startswith("info string error: ")]) == 2, f"error lines: {lines}")
        check(lines[-1] == "info string Found 0 tablebases", f"found line: {lines[-1]}")
        e.send(f"setoption name SyzygyPath value {TABLES}")
        tables = len([f for f in os.listdir(TABLES) if f.endswith(".rtbw")])
        check(e.read_line() == f"info string Found {tables} tablebases", "good path")
        e.send("position fen 8/8/8/4k3/8/2r5/8/K5Q1 w - - 0 1")
        e.send("d")
        lines = e.read_until(lambda l: l.startswith("Winnable:"))
        tb = [l for l in lines if l.startswith("Tablebase: ")]
        check(len(tb) == 1 and tb[0].startswith("Tablebase: WDL win, DTZ "), f"Tablebase line: {tb}")
        e.send("go depth 6")
        lines = e.read_until(lambda l: l.startswith("bestmove"))
        check(any(" tbhits " in l for l in lines), "no tbhits in the info lines")
        e.send("isready")
        check(e.read_line() == "readyok", "isready after the search")


def test_command_line_errors(binary):
    cases = [
        ("perft", "3", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"),
        ("perft", "x"),
        ("perft", "0"),
        ("perft", "-1"),
        ("perft", "3x"),
        ("perft",),
        ("bogus",),
        ("--help-me",),
    ]
    for args in cases:
        result = run_command_line(binary, *args)
        check(result.returncode != 0, f"`arbiter {' '.join(args)}` exited 0")
        check(result.stderr.strip() != "", f"`arbiter {' '.join(args)}` printed no message on stderr")
        check(result.stdout == "", f"`arbiter {' '.join(args)}` printed on stdout: {result.stdout[:200]!r}")


TESTS = [
    test_handshake,
    test_position_and_d,
    test_go_perft,
    test_malformed_fen,
    test_illegal_move,
    test_flushed_promptly,
    test_quit,
    test_eof_ends_cleanly,
    test_garbage_does_not_crash,
    test_long_move_list,
    test_command_line_perft,
    test_command_line_errors,
    test_syzygy_path,
]


def main():
    if len(sys.argv) != 2:
        print("usage: uci_process_test.py path/to/arbiter", file=sys.stderr)
        return 2
    return run_tests(TESTS, os.path.abspath(sys.argv[1]))


if __name__ == "__main__":
    sys.exit(main())

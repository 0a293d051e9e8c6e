#!/usr/bin/env python3
"""Checks scripts/spsa.py: the parameter list, the SPSA schedule and update, and a whole
run against a fake game player (convergence, resuming, refusing another run's state,
iterations in flight, --r-end), writing a run's values into tunables.h, and a run's report."""
import argparse
import contextlib
import importlib.util
import io
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "spsa.py"
spec = importlib.util.spec_from_file_location("spsa_script", SCRIPT)
spsa = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = spsa
spec.loader.exec_module(spsa)

LIST = "aspiration_delta, int, 18, 5, 60, 3, 0.002\nlmr_base, int, 75, 0, 200, 10, 0.002\n"


def param(theta=10.0, low=0, high=50, c_end=2.0, r_end=0.1):
    return spsa.Param("p", int(theta), low, high, c_end, r_end, theta)


class ListTest(unittest.TestCase):
    def test_reads_the_engine_format(self):
        params = spsa.parse_spsa_list(LIST)
        self.assertEqual([p.name for p in params], ["aspiration_delta", "lmr_base"])
        first = params[0]
        self.assertEqual((first.default, first.low, first.high, first.c_end, first.r_end), (18, 5, 60, 3.0, 0.002))
        self.assertEqual(first.theta, 18.0)

    def test_refuses_malformed_lines(self):
        for bad in ("a, int, 1, 0, 2, 1\n",              # six fields
                    "a, float, 1, 0, 2, 1, 0.1\n",       # not int
                    "a, int, 3, 0, 2, 1, 0.1\n",         # default above max
                    "a, int, 1, 0, 2, 0, 0.1\n",         # c_end not positive
                    "a, int, x, 0, 2, 1, 0.1\n"):        # not a number
            with self.assertRaises(ValueError, msg=bad):
                spsa.parse_spsa_list(bad)


class ScheduleTest(unittest.TestCase):
    def test_ends_at_c_end_and_a_end(self):
        p = param(c_end=3.0, r_end=0.002)
        self.assertAlmostEqual(spsa.perturbation(p, 500, 500), 3.0, places=12)
        self.assertAlmostEqual(spsa.step(p, 500, 500), 0.002 * 9, places=12)

    def test_shrinks_with_k(self):
        p = param()
        self.assertGreater(spsa.perturbation(p, 1, 100), spsa.perturbation(p, 50, 100))
        self.assertGreater(spsa.step(p, 1, 100), spsa.step(p, 50, 100))
        # c_1 = c_end * N^gamma
        self.assertAlmostEqual(spsa.perturbation(p, 1, 100), 2.0 * 100 ** spsa.GAMMA, places=12)

    def test_perturbed_values_are_rounded_and_clamped(self):
        p = param(theta=49.0, low=0, high=50, c_end=2.0)
        plus, minus = spsa.perturbed([p], [1], 100, 100)  # c_k = 2
        self.assertEqual((plus, minus), ([50], [47]))
        plus, minus = spsa.perturbed([p], [-1], 100, 100)
        self.assertEqual((plus, minus), ([47], [50]))

    def test_signs_are_the_kth_block_of_one_stream(self):
        import random
        rng = random.Random(7)
        blocks = [[1 if rng.random() < 0.5 else -1 for _ in range(3)] for _ in range(6)]
        stream = spsa.SignStream(7, 3)
        self.assertEqual([stream.signs(k) for k in (1, 2, 4, 6)], [blocks[0], blocks[1], blocks[3], blocks[5]])
        resumed = spsa.SignStream(7, 3)  # a run resumed after iteration 4
        self.assertEqual(resumed.signs(5), blocks[4])
        with self.assertRaises(ValueError):
            resumed.signs(5)

    def test_update_moves_toward_the_winner_by_a_over_c(self):
        p = param(theta=10.0)
        expected = 10.0 + spsa.step(p, 7, 100) * 2 / spsa.perturbation(p, 7, 100)
        spsa.update([p], [1], 7, 100, 2.0)  # plus (theta + c) scored 2 points more
        self.assertAlmostEqual(p.theta, expected, places=12)
        q = param(theta=10.0)
        spsa.update([q], [-1], 7, 100, 2.0)  # plus was theta - c: move down
        self.assertAlmostEqual(q.theta, 10.0 - (expected - 10.0), places=12)
        r = param(theta=49.9, high=50)
        spsa.update([r], [1], 1, 100, 1000.0)
        self.assertEqual(r.theta, 50)


def ctrl_c():
    """What Ctrl-C does: SIGINT to this process; the pause lets the main thread's handler run."""
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.05)


def fake_games(target):
    """A game player whose `plus` wins both games when its first value is closer to target."""
    calls = []

    def play(args, plus, minus, params, k, scratch):
        calls.append(k)
        gap = abs(minus[0] - target) - abs(plus[0] - target)
        result = 2.0 if gap > 0 else -2.0 if gap < 0 else 0.0
        tally = spsa.match.Tally("plus", wins=int(result > 0) * 2, draws=int(result == 0) * 2,
                                 losses=int(result < 0) * 2)
        return result, tally
    return play, calls


class RunTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.original = spsa.play_pairs
        self.addCleanup(setattr, spsa, "play_pairs", self.original)

    def run_spsa(self, iterations=200, seed=5, state="state.json", in_flight=1, r_end=None):
        args = argparse.Namespace(iterations=iterations, pairs=1, seed=seed, in_flight=in_flight,
                                  state=pathlib.Path(self.dir.name) / state, r_end=r_end)
        params = [param(theta=10.0, low=0, high=50, c_end=2.0, r_end=0.1)]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            status = spsa.run(args, params, pathlib.Path(self.dir.name))
        return status, params[0].theta, args.state

    def test_converges_to_the_better_value(self):
        spsa.play_pairs, calls = fake_games(30)
        status, theta, state = self.run_spsa()
        self.assertEqual(status, 0)
        self.assertEqual(calls, list(range(1, 201)))
        self.assertLess(abs(theta - 30), 3.0)
        saved = json.loads(state.read_text())
        self.assertEqual(saved["k"], 200)
        self.assertEqual(saved["wins"] + saved["draws"] + saved["losses"], 400)

    def test_an_interrupted_run_continues_to_the_same_values(self):
        spsa.play_pairs, _ = fake_games(30)
        _, straight, _ = self.run_spsa(state="straight.json")

        play, calls = fake_games(30)

        def interrupted(args, plus, minus, params, k, scratch):
            if k == 77:
                ctrl_c()
            return play(args, plus, minus, params, k, scratch)
        spsa.play_pairs = interrupted
        status, _, state = self.run_spsa(state="resumed.json")
        self.assertEqual(status, 0)
        self.assertEqual(json.loads(state.read_text())["k"], 77)  # the iteration being played ended
        spsa.play_pairs = play
        _, resumed, _ = self.run_spsa(state="resumed.json")
        self.assertEqual(calls, list(range(1, 201)))
        self.assertEqual(resumed, straight)

    def test_iterations_in_flight_each_end_once_in_any_order(self):
        play, calls = fake_games(30)
        lock = threading.Lock()
        at_once = [0, 0]  # now, most

        def out_of_order(args, plus, minus, params, k, scratch):
            with lock:
                at_once[0] += 1
                at_once[1] = max(at_once)
            time.sleep(0.004 if k % 2 else 0.0)  # an odd iteration ends after the next one
            with lock:
                at_once[0] -= 1
                return play(args, plus, minus, params, k, scratch)
        spsa.play_pairs = out_of_order
        status, theta, state = self.run_spsa(in_flight=2)
        self.assertEqual(status, 0)
        self.assertEqual(sorted(calls), list(range(1, 201)))
        self.assertNotEqual(calls, list(range(1, 201)))  # some ended out of order
        self.assertEqual(at_once[1], 2)
        self.assertLess(abs(theta - 30), 3.0)
        saved = json.loads(state.read_text())
        self.assertEqual((saved["k"], saved["ahead"]), (200, []))
        self.assertEqual(saved["wins"] + saved["draws"] + saved["losses"], 400)

    def test_an_interrupted_run_in_flight_keeps_the_games_being_played(self):
        play, calls = fake_games(30)
        lock = threading.Lock()

        def interrupted(args, plus, minus, params, k, scratch):
            if k == 77:
                ctrl_c()
            time.sleep(0.001)
            with lock:
                return play(args, plus, minus, params, k, scratch)
        spsa.play_pairs = interrupted
        status, _, state = self.run_spsa(in_flight=2)
        self.assertEqual(status, 0)
        saved = json.loads(state.read_text())
        self.assertIn(saved["k"], (77, 78))  # 77 and the one in flight beside it ended
        self.assertEqual((set(calls), saved["ahead"]), (set(range(1, saved["k"] + 1)), []))
        first = len(calls)
        spsa.play_pairs = play
        status, _, state = self.run_spsa(in_flight=2)
        self.assertEqual(status, 0)
        self.assertEqual(sorted(calls[first:]), list(range(saved["k"] + 1, 201)))
        saved = json.loads(state.read_text())
        self.assertEqual((saved["k"], saved["ahead"]), (200, []))
        self.assertEqual(saved["wins"] + saved["draws"] + saved["losses"], 400)

    def test_a_failed_iteration_stops_the_run_with_status_3_and_a_resumed_run_fills_the_gap(self):
        play, calls = fake_games(30)
        lock = threading.Lock()

        def failing(args, plus, minus, params, k, scratch):
            if k == 5:
                time.sleep(0.2)  # the iteration in flight beside it ends first
                raise RuntimeError("fastchess failed (status 1)")
            with lock:
                return play(args, plus, minus, params, k, scratch)
        spsa.play_pairs = failing
        status, _, state = self.run_spsa(iterations=20, in_flight=2)
        self.assertEqual(status, 3)
        saved = json.loads(state.read_text())
        self.assertEqual(saved["k"], 4)
        self.assertEqual(saved["ahead"][:1], [6])  # played beside 5 while it failed
        self.assertEqual(set(calls), {1, 2, 3, 4} | set(saved["ahead"]))
        first = len(calls)
        spsa.play_pairs = play
        status, _, state = self.run_spsa(iterations=20, in_flight=2)
        self.assertEqual(status, 0)
        self.assertEqual(sorted(calls[first:]), sorted(set(range(5, 21)) - set(saved["ahead"])))
        saved = json.loads(state.read_text())
        self.assertEqual((saved["k"], saved["ahead"]), (20, []))
        self.assertEqual(saved["wins"] + saved["draws"] + saved["losses"], 40)

    def test_the_trajectory_is_saved_and_plotted(self):
        spsa.play_pairs, _ = fake_games(30)
        _, theta, state = self.run_spsa(iterations=35)
        saved = json.loads(state.read_text())
        self.assertEqual([point[0] for point in saved["trajectory"]], [0, 10, 20, 30, 35])
        self.assertEqual(saved["trajectory"][0][1], 10.0)
        self.assertAlmostEqual(saved["trajectory"][-1][1], theta, places=3)
        self.assertEqual(saved["bounds"], {"p": [10, 0, 50]})
        png = pathlib.Path(self.dir.name) / "trajectory.png"
        done = subprocess.run([sys.executable, str(SCRIPT), "--state", str(state), "--plot", str(png)],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(png.read_bytes()[:8], b"\x89PNG\r\n\x1a\n")

    def test_write_defaults_changes_only_the_defaults(self):
        text = ("#define T(X) \\\n"
                "    X(alpha, 9, 0, 50, 2)          \\\n"
                "    X(beta, 100, 40, 160, 6)       \\\n"
                "    /* X(alpha, 9, 0, 50, 2) in a comment is not a parameter */ \\\n"
                "    X(gamma, -3, -10, 10, 1)\n")
        written, changes = spsa.write_defaults(text, {"alpha": 10, "beta": 97, "gamma": -3})
        self.assertEqual(changes, [("alpha", 9, 10), ("beta", 100, 97)])
        lines = written.split("\n")
        self.assertEqual(lines[1], "    X(alpha, 10, 0, 50, 2)         \\")  # the backslash stays in its column
        self.assertEqual(lines[2], "    X(beta, 97, 40, 160, 6)        \\")
        self.assertEqual(lines[3], text.split("\n")[3])
        self.assertEqual(lines[4], "    X(gamma, -3, -10, 10, 1)")
        with self.assertRaisesRegex(ValueError, "delta"):
            spsa.write_defaults(text, {"alpha": 10, "delta": 1})

    def test_write_defaults_from_a_runs_state(self):
        spsa.play_pairs, _ = fake_games(30)
        _, theta, state = self.run_spsa(iterations=35)
        header = pathlib.Path(self.dir.name) / "tunables.h"
        header.write_text("#define T(X) \\\n    X(p, 10, 0, 50, 2)   \\\n    X(q, 4, 0, 8, 1)\n")
        done = subprocess.run([sys.executable, str(SCRIPT), "--state", str(state), "--write-defaults", str(header)],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(f"    X(p, {round(theta)}, 0, 50, 2)", header.read_text())
        self.assertIn("    X(q, 4, 0, 8, 1)", header.read_text())
        self.assertIn(f"p 10 -> {round(theta)}", done.stdout)
        header.write_text("#define T(X) \\\n    X(q, 4, 0, 8, 1)\n")  # the run's parameter is missing
        done = subprocess.run([sys.executable, str(SCRIPT), "--state", str(state), "--write-defaults", str(header)],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 2)
        self.assertIn("not a parameter of the file: p", done.stderr)
        self.assertEqual(header.read_text(), "#define T(X) \\\n    X(q, 4, 0, 8, 1)\n")

    def test_report_lists_every_parameter_farthest_first(self):
        state = {"params": ["near", "far", "still"], "iterations": 100, "k": 40, "ahead": [42],
                 "theta": {"near": 11.4, "far": 30.6, "still": 3.997}, "wins": 30, "draws": 42, "losses": 10,
                 "problems": 0, "bounds": {"near": [10, 0, 100], "far": [20, 0, 50], "still": [4, 0, 8]},
                 # saved before the trajectory was kept: it begins where the run was resumed
                 "trajectory": [[30, 11.0, 29.0, 4.0], [40, 11.2, 30.0, 4.0]]}
        lines = spsa.report(state).split("\n")
        self.assertEqual(lines[0], "40 of 100 iterations (and 1 beyond it), 82 games: plus W/D/L 30/42/10, problems 0")
        self.assertEqual(lines[2], "| parameter | start | end | unrounded | min | max | moved (share of range) |")
        self.assertEqual(lines[4:], ["| far | 20 | 31 | 30.6 | 0 | 50 | +21.2% |",
                                     "| near | 10 | 11 | 11.4 | 0 | 100 | +1.4% |",
                                     "| still | 4 | 4 | 4.0 | 0 | 8 | +0.0% |"])  # not -0.0%: too small to show
        path = pathlib.Path(self.dir.name) / "state.json"
        path.write_text(json.dumps(state))
        done = subprocess.run([sys.executable, str(SCRIPT), "--state", str(path), "--report"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout, spsa.report(state) + "\n")
        done = subprocess.run([sys.executable, str(SCRIPT), "--engine", "arbiter", "--iterations", "5", "--report"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 2)
        self.assertIn("play nothing", done.stderr)

    def test_refuses_another_runs_state(self):
        spsa.play_pairs, _ = fake_games(30)
        self.run_spsa(iterations=10, seed=5)
        with self.assertRaises(spsa.match.UsageError):
            self.run_spsa(iterations=10, seed=6)
        with self.assertRaises(spsa.match.UsageError):
            self.run_spsa(iterations=10, seed=5, r_end=0.3)

    def test_r_end_scales_every_step(self):
        # The fake player's verdict depends only on the signs (plus nearer 30 than
        # minus while theta is far below it), so both runs see the same results and
        # the larger r_end moves theta three times as far.
        spsa.play_pairs, _ = fake_games(30)
        _, listed, state = self.run_spsa(iterations=5, state="listed.json")
        _, tripled, tripled_state = self.run_spsa(iterations=5, state="tripled.json", r_end=0.3)
        self.assertGreater(listed, 10.0)
        self.assertAlmostEqual(tripled - 10.0, 3 * (listed - 10.0), places=6)
        self.assertIsNone(json.loads(state.read_text())["r_end"])
        self.assertEqual(json.loads(tripled_state.read_text())["r_end"], 0.3)

    def test_r_end_must_be_positive(self):
        done = subprocess.run([sys.executable, str(SCRIPT), "--engine", "arbiter", "--iterations", "5",
                               "--r-end", "0"], capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 2)
        self.assertIn("--r-end must be positive", done.stderr)


if __name__ == "__main__":
    unittest.main()

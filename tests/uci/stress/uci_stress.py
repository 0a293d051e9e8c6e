#!/usr/bin/env python3
"""Randomised stress test of the UCI loop: thousands of random commands, valid and
invalid, in random interleavings, sent to the engine through pipes.

usage: uci_stress.py --engine PATH [--commands N] [--seed S] [--max-rss-mb M]
                     [--oracle PATH] [--ready-ms MS] [--raw-latency] [--max-failures N]
                     [--transcript FILE]

This file is the runner: it starts the engine and its twin, sends the commands that
commands.py chooses, routes the engine's output to the checks of model.py, and
watches the process itself:
- the process never dies, writes nothing to standard error (where sanitizer reports go:
  the runner can drive a sanitizer build, see --oracle), and `quit` ends it with status 0;
- its resident memory (VmRSS in /proc/PID/status, sampled between commands, not in the
  middle of a Hash resize, where old and new table coexist) stays below --max-rss-mb,
  by default the largest Hash set so far + 64 MB + 8 MB per thread (largest Threads).

Each failure is printed with the seed and the recent command log; --transcript writes
the whole exchange. Exits 0 only if every check passed, 1 otherwise, 2 on bad usage.
CTest runs it as `uci_stress`; scripts/sanitizers.sh runs it on the ThreadSanitizer build.
"""
import argparse
import collections
import os
import queue
import random
import statistics
import subprocess
import sys
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))  # tests/uci: uci_pipe
from commands import CommandGenerator  # noqa: E402
from model import SLOW_READY, STOP_GRACE, Abort, Checker, Expect, Oracle, Pos, read_options, show  # noqa: E402
from uci_pipe import Engine  # noqa: E402


def runqueue_wait(pid, tid=None):
    """Seconds a thread (by default the process's main thread: the engine's input thread)
    has spent runnable but waiting for a CPU, from /proc/PID/task/TID/schedstat; None
    where that is not available."""
    try:
        with open(f"/proc/{pid}/task/{tid or pid}/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


class Stress(CommandGenerator, Checker):
    """One run: the engine, its twin, the model's state and the figures reported at the end."""

    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.t0 = time.monotonic()
        self.log = collections.deque(maxlen=40)
        self.transcript = open(args.transcript, "w") if args.transcript else None
        self.failures = []
        self.sent = 0
        before = set(threading.enumerate())
        self.e = Engine(args.engine)
        # The thread of uci_pipe.Engine that reads and time-stamps the engine's lines.
        self.reader_tid = next((t.native_id for t in threading.enumerate() if t not in before), None)
        # Standard error is read as it comes, so that a long sanitizer report cannot fill
        # the pipe and block the engine.
        self.stderr = []
        self.stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.stderr_reader.start()
        self.oracle = Oracle(args.oracle or args.engine)
        self.options = read_options(self.oracle.uci_lines)
        self.unicode_ok = (self.e.proc.stdin.encoding or "").lower().replace("-", "") == "utf8"
        # The model of the engine's state.
        self.chess960 = False
        self.pos = Pos(False, "startpos")
        self.multipv = int(self.options["multipv"][3])
        self.max_hash = int(self.options["hash"][3])
        self.max_threads = int(self.options["threads"][3])
        self.searches = collections.deque()  # accepted (or tentative) searches without bestmove yet
        self.expect = collections.deque()
        self.slow_pending = False
        self.sample_rss_ok = True
        self.last_search = None    # the newest search that has ended
        self.closed_search = None  # last_search as of the last wait: what 'continue' builds on
        # A search stays open, for the choice of the next command, from its go until the
        # driver waits for its bestmove: the command stream then does not depend on when
        # exactly a short search ended.
        self.open = False
        self.open_ponder = False
        self.search_serial = 0
        # Figures.
        self.searches_started = 0
        self.bestmoves = 0
        self.refused = 0
        self.latencies = []
        self.own_latencies = []
        self.slow_latencies = []
        self.peak_rss = 0.0
        self.peak_bound = 0.0
        self.rss_failed_bound = None
        self.last_rss_time = 0.0
        self.sequences_checked = 0
        self.counts = collections.Counter()  # coverage: what the run exercised
        self.epd = {name: self._read_epd(name) for name in ("standard.epd", "chess960.epd")}
        self.long_game = self._random_game(Pos(False, "startpos"), 400)

    # ----- infrastructure -------------------------------------------------------------

    def _read_stderr(self):
        try:
            for line in self.e.proc.stderr:
                self.stderr.append(line)
        except (OSError, ValueError):  # closed under us when the engine is killed
            pass

    @staticmethod
    def _read_epd(name):
        path = os.path.join(ROOT, "tests", "data", name)
        with open(path) as f:
            return [l.split(";")[0].strip() for l in f if l.strip() and not l.startswith("#")]

    def now(self):
        return time.monotonic() - self.t0

    def record(self, text):
        self.log.append(f"{self.now():9.3f} {show(text, 160)}")
        if self.transcript:
            self.transcript.write(f"{self.now():9.3f} {show(text, 100000)}\n")

    def fail(self, message, fatal=False):
        self.failures.append(message)
        print(f"FAIL #{len(self.failures)} (seed {self.args.seed}, after command {self.sent}, "
              f"t={self.now():.3f} s): {message}", flush=True)
        print("  recent log ('>' sent, '<' received):", flush=True)
        for entry in self.log:
            print(f"    {entry}", flush=True)
        if fatal or len(self.failures) >= self.args.max_failures:
            raise Abort(message)

    def send(self, text):
        if self.e.proc.poll() is not None:
            self.fail(f"the engine process died (exit status {self.e.proc.returncode})", fatal=True)
        try:
            sent = self.e.send(text)
        except (BrokenPipeError, OSError) as error:
            self.fail(f"cannot write to the engine ({error}); exit status {self.e.proc.poll()}", fatal=True)
        self.sent += 1
        self.record(f"> {text}")
        return sent

    def sample_rss(self, force=False):
        t = time.monotonic()
        if not self.sample_rss_ok or (not force and t - self.last_rss_time < 0.02):
            return
        self.last_rss_time = t
        rss = rss_mb(self.e.proc.pid)
        if rss is None:
            if self.e.proc.poll() is not None:
                self.fail(f"the engine process died (exit status {self.e.proc.returncode})", fatal=True)
            return
        bound = self.args.max_rss_mb or (self.max_hash + 64 + 8 * self.max_threads)
        if rss > self.peak_rss:
            self.peak_rss, self.peak_bound = rss, bound
        if rss > bound and bound != self.rss_failed_bound:
            self.rss_failed_bound = bound
            self.fail(f"resident memory {rss:.1f} MB exceeds the bound {bound:.0f} MB "
                      f"(largest Hash {self.max_hash} MB, largest Threads {self.max_threads})")

    def pump(self, timeout=0.0, until=None):
        """Handles engine output until until() holds (returns True) or timeout passes."""
        deadline = time.monotonic() + timeout
        while True:
            self.due()
            if until is not None and until():
                return True
            left = deadline - time.monotonic()
            try:
                if left > 0:
                    t, line = self.e.lines.get(timeout=min(left, 0.01))
                else:
                    t, line = self.e.lines.get_nowait()
            except queue.Empty:
                if left <= 0:
                    return until is None
                continue
            self.dispatch(t, line)
            self.sample_rss()

    def dispatch(self, t, line):
        if line is None:
            try:
                self.e.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
            self.fail(f"the engine closed its output (exit status {self.e.proc.returncode})", fatal=True)
        if not line.startswith("info depth ") or line.startswith("info depth 0 "):
            self.record(f"< {line}")
        if line.startswith("info depth ") or line.startswith("bestmove"):
            self.on_search_line(t, line)
        else:
            self.on_command_line(t, line)

    def cpu_waits(self):
        """Run-queue waits of the engine's input thread and of the reader thread here."""
        return (runqueue_wait(self.e.proc.pid), runqueue_wait(os.getpid(), self.reader_tid))

    def isready(self, timed=True):
        sent = self.send("isready")
        x = Expect("ready", "readyok", sent=sent, timed=timed and not self.slow_pending,
                   waited=self.cpu_waits())
        self.slow_pending = False
        self.expect.append(x)
        return x

    def sync(self, timed=True):
        x = self.isready(timed)
        if not self.pump(SLOW_READY if not x.timed else 10.0, until=lambda: x.done):
            self.fail(f"no readyok within {SLOW_READY if not x.timed else 10.0:.0f} s", fatal=True)

    # ----- the run --------------------------------------------------------------------

    def run(self):
        try:
            self.send("uci")
            self.expect.append(self.block("uci", self.oracle.uci_lines, lambda l: l == "uciok"))
            self.sync(timed=False)
            while self.sent < self.args.commands:
                self.step()
            self.stop()
            self.sync()
            self.pump(STOP_GRACE + 1, until=lambda: not self.searches)
            for s in self.searches:
                self.fail(f"no bestmove for search #{s.n} '{s.go}' after the final stop")
            self.sample_rss(force=True)
            if self.expect:
                self.fail(f"expected output never came: {[x.what for x in self.expect]}")
            self.send("quit")
            try:
                status = self.e.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.fail("the engine did not exit within 10 s of quit", fatal=True)
            if status != 0:
                self.fail(f"the engine exited with status {status} after quit")
            leftover = []
            try:
                while (line := self.e.lines.get(timeout=5)[1]) is not None:  # up to the end of output
                    leftover.append(line)
            except queue.Empty:
                pass
            if leftover:
                self.fail(f"output after quit: {leftover[:5]}")
        except Abort:
            pass
        except (AssertionError, RuntimeError, OSError) as error:
            # A twin that stops answering, a broken pipe, or a model that disagrees with the twin.
            self.failures.append(f"{type(error).__name__}: {error}")
            print(f"FAIL #{len(self.failures)} (seed {self.args.seed}, after command {self.sent}): "
                  f"{type(error).__name__}: {show(str(error), 600)}")
            print(traceback.format_exc())
            for entry in self.log:
                print(f"    {entry}")
        finally:
            if self.e.proc.poll() is not None:
                self.stderr_reader.join(timeout=2)
            self.e.close()
            self.oracle.close()
            if self.transcript:
                self.transcript.close()
        if self.stderr:
            self.failures.append("the engine wrote to standard error")
            print("FAIL: the engine wrote to standard error:\n" + "".join(self.stderr[:200]))
        return self.summary()

    def summary(self):
        elapsed = self.now()
        lat = sorted(self.latencies)
        own = sorted(self.own_latencies)
        print(f"uci_stress: seed {self.args.seed}, {self.sent} commands sent in {elapsed:.1f} s")
        print(f"  searches started {self.searches_started}, bestmoves {self.bestmoves}, "
              f"go/setoption/ucinewgame/bench refused while searching {self.refused}")
        if lat:
            print(f"  isready: {len(lat)} timed; readyok latency max {lat[-1] * 1000:.1f} ms, median "
                  f"{statistics.median(lat) * 1000:.2f} ms, 99th percentile "
                  f"{lat[int(0.99 * (len(lat) - 1))] * 1000:.1f} ms;")
            print(f"    less the run-queue waits of the engine's input thread and of the reader thread: "
                  f"max {own[-1] * 1000:.1f} ms, median {statistics.median(own) * 1000:.2f} ms")
            print(f"    (limit {self.args.ready_ms:.0f} ms on {'the raw' if self.args.raw_latency else 'the latter'}"
                  f" figure)")
        if self.slow_latencies:
            print(f"  isready after slow commands (Hash, Threads, ucinewgame, Clear Hash, perft): "
                  f"{len(self.slow_latencies)}, max {max(self.slow_latencies) * 1000:.1f} ms (no limit)")
        c = self.counts
        print("  searches with: " + ", ".join(f"{k} {c[k]}" for k in (
            "no legal move", "Chess960 root", "searchmoves", "infinite", "ponder", "MultiPV > 1", "stopped")))
        print(f"  position commands {c['position']} ({c['position refused or cut short']} refused or cut short by an "
              f"illegal move)")
        print(f"  move sequences checked by the twin: {self.sequences_checked}; twin queries {self.oracle.queries}")
        print(f"  peak RSS {self.peak_rss:.1f} MB (bound then {self.peak_bound:.0f} MB; largest Hash "
              f"{self.max_hash} MB, largest Threads {self.max_threads})")
        if self.failures:
            print(f"FAILED: {len(self.failures)} failure(s); reproduce with --seed {self.args.seed} "
                  f"--commands {self.args.commands}")
            return 1
        print("PASSED")
        return 0


def main():
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--engine", default=os.path.join(ROOT, "build", "arbiter"), help="the binary under test")
    parser.add_argument("--oracle", default=None,
                        help="the binary used as the twin (default: the engine itself)")
    parser.add_argument("--commands", type=int, default=3000, help="lines to send (default 3000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--max-rss-mb", type=float, default=None,
                        help="fixed RSS bound (default: largest Hash + 64 MB + 8 MB per thread)")
    parser.add_argument("--ready-ms", type=float, default=100.0, help="isready answer time limit")
    parser.add_argument("--raw-latency", action="store_true",
                        help="hold the raw readyok latency to --ready-ms, including time the engine's input "
                             "thread spent waiting for a CPU on a loaded machine")
    parser.add_argument("--transcript", default=None,
                        help="write every line sent and every non-info line received to this file")
    parser.add_argument("--max-failures", type=int, default=10, help="stop after this many failures")
    args = parser.parse_args()
    if not os.access(args.engine, os.X_OK):
        print(f"uci_stress: no engine at {args.engine}", file=sys.stderr)
        return 2
    return Stress(args).run()


if __name__ == "__main__":
    sys.exit(main())

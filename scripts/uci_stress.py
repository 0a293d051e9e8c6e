#!/usr/bin/env python3
"""Randomised stress test of the UCI loop: thousands of random commands, valid and
invalid, in random interleavings, sent to the engine through pipes.

usage: uci_stress.py --engine PATH [--commands N] [--seed S] [--max-rss-mb M]
                     [--oracle PATH] [--ready-ms MS] [--raw-latency] [--max-failures N]
                     [--transcript FILE]

What is sent: `go` with every limit and combinations of them (depth, nodes, movetime,
wtime/btime/winc/binc/movestogo, mate, infinite, ponder, searchmoves, bad values),
`stop` at random moments, `ponderhit`, `isready` during searches, `ucinewgame` and
`setoption` (Hash, Threads, MultiPV, UCI_Chess960, Clear Hash, ...) during searches,
`position` with legal and illegal move lists (start position, FENs from tests/data,
random Chess960 starts, mates, stalemates, positions with few moves, mutated FENs),
`d`, `eval`, `go perft`, `uci`, garbage, empty and very long lines. Searches are
short; an infinite or ponder search gets its `stop` (or `ponderhit`) within a second.

What is checked, each failure printed with the seed and the recent command log:
- every `isready` is answered by `readyok` within 100 ms (--ready-ms), during searches
  too. The time that the engine's input thread and this script's reader thread spent
  runnable but waiting for a CPU (run-queue wait, /proc/PID/task/TID/schedstat) is
  subtracted first: on a loaded machine (CTest runs tests in parallel; other processes)
  the OS, not the engine, decides that part; --raw-latency holds the raw figure to the
  limit instead. Both are printed. An `isready` sent right after a command that may
  legitimately take long (Hash resize, Threads, ucinewgame, Clear Hash, `go perft`) is
  timed but not held to the limit;
- every accepted `go` ends in exactly one `bestmove` (none missing, no duplicates, none
  for a `go` refused while searching, none before `stop`/`ponderhit` in an infinite or
  ponder search); with no legal move the engine prints `bestmove (none)` after
  `info depth 0 score mate 0` (checkmated) or `score cp 0` (stalemated);
- the bestmove is a legal move of the position searched (and one of `searchmoves`), the
  first move of the last principal variation printed; the ponder move is legal after it;
  every move of every `info ... pv` line and every `currmove` is legal;
- every error line is the one expected, in order: a `go`, `setoption`, `ucinewgame` or
  `bench` during a search is refused with an error line, and so on; the output of `d`,
  `eval`, `go perft`, `uci` and the errors of `position` are identical to those of a quiet
  twin process given the same position;
- the process never dies, writes nothing to standard error (where sanitizer reports go:
  the script can drive a sanitizer build, see --oracle), and `quit` ends it with status 0;
- its resident memory (VmRSS in /proc/PID/status, sampled between commands, not in the
  middle of a Hash resize, where old and new table coexist) stays below --max-rss-mb,
  by default the largest Hash set so far + 64 MB + 8 MB per thread (largest Threads).

The legality oracle is a second Arbiter process, the "twin": `position <the searched
position> moves <pv...>` followed by `isready` must give no `info string error` line
before `readyok`. This works because `position` applies its moves one by one through
parse_uci (src/uci/uci.cpp cmd_position, src/chess/notation.cpp), which accepts a move
exactly when it is one of legal_moves() of the position in UCI notation, and answers
the first one that is not with `info string error: illegal move ...`. The oracle is
therefore the engine's own rules core, which is verified separately by perft
(tests/data/*.epd, scripts/perft_suite.py). The twin also lists legal moves (`go perft
1`) to build random games. Python has no chess library here and none is needed.

The commands are a function of the seed and of the engine's answers. Two runs with the
same seed differ only through timing: where the scheduled stops fall, whether a `go` or
`setoption` sent while a short search may still run is refused, and which move a timed
search returns (a later position may continue the game with it). --transcript writes
the whole exchange. Exits 0 only if every check passed, 1 otherwise, 2 on bad usage.
"""
import argparse
import collections
import os
import queue
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "uci"))
from uci_pipe import START_FEN, Engine  # noqa: E402

COMMAND_WORDS = ("uci", "isready", "setoption", "ucinewgame", "position", "go", "stop", "ponderhit", "quit",
                 "d", "eval", "bench", "debug")
GO_KEYWORDS = ("searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate",
               "movetime", "infinite", "perft")
GO_NUMERIC = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime")
MAX_PLY = 128
ERROR = "info string error: "
BUSY_RE = re.compile(r"^info string error: .*while searching")
MOVE = r"[a-h][1-8][a-h][1-8][nbrq]?"
INFO_RE = re.compile(
    r"^info depth (?P<depth>\d+) seldepth \d+ multipv (?P<multipv>\d+) score (?:cp|mate) -?\d+"
    r"(?: lowerbound| upperbound)?(?: wdl \d+ \d+ \d+)? nodes \d+ nps \d+ hashfull \d+ tbhits \d+ time \d+"
    rf" pv(?P<pv>(?: {MOVE})+)$")
CURRMOVE_RE = re.compile(rf"^info depth \d+ currmove (?P<move>{MOVE}) currmovenumber \d+$")
DEPTH0_RE = re.compile(r"^info depth 0 score (?P<score>mate 0|cp 0)$")
BESTMOVE_RE = re.compile(rf"^bestmove (?P<best>{MOVE}|\(none\))(?: ponder (?P<ponder>{MOVE}))?$")
PERFT_LINE_RE = re.compile(r"^(\S+): \d+$")

STOP_GRACE = 5.0      # s from `stop` to `bestmove` before a search counts as hung
BOUND_GRACE = 10.0    # s past a search's own limit before it counts as overrunning
RELEASE_WITHIN = 0.95 # s: infinite and ponder searches get stop/ponderhit within this
SLOW_READY = 30.0     # s to wait for readyok after a slow command (Hash resize, ...)

SPECIAL_FENS = [
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",       # checkmated
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                      # stalemated
    "7k/8/8/8/8/8/6R1/K5R1 b - - 0 1",                                     # one legal move
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", # mate in 1
    "6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1",                               # mate in 1
    "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",                  # mate in 2
    "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",                                   # mate in 2
    "8/8/8/4k3/8/8/8/4K3 w - - 0 1",                                       # dead position
    "8/8/8/4k3/8/8/3QK3/8 w - - 99 120",                                   # fifty-move boundary
    "8/8/8/4k3/8/8/3QK3/8 b - - 150 200",                                  # past the 75-move rule
    "8/P6k/8/8/8/8/7p/K7 w - - 0 1",                                       # promotions
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",                                   # en passant out of check
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",                                # castling both ways
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq",                  # too few fields
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",                # clocks missing
]
MALFORMED_POSITIONS = [
    "position", "position foo", "position startpos e2e4", "position startpos fen", "position fen",
    "position fen moves e2e4", "position moves e2e4", "position Startpos", "position startpos moves",
    "position\tstartpos\tmoves\te2e4\te7e5", "position   startpos   moves   d2d4  ",
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1", "position fen 4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
    "position fen rnbqkknr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w - - 0 1",
    "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
    "position fen " + START_FEN + " moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1",
    "position fen " + START_FEN + " moves",
]
GARBAGE_WORDS = ["foo", "xyzzy", "goo", "isready?", "Isready", "STOP", "Go", "ponder", "hit", "setopt",
                 "ucinewgam", "quit?", "uciok", "readyok", "bestmove", "info", "register", "later", "copyprotection",
                 "e2e4", "12345", "-1", "name", "value", "moves", "fen", "startpos", "0000", "!@#$%^&*()",
                 "{}", "[]", "\"quoted\"", "back\\slash", "tab\x01char", "bell\x07", "esc\x1b[0m"]
UNICODE_WORDS = ["échec", "Läufer", "♞♛", "车", "ß", "\u00a0nbsp"]


class Abort(Exception):
    """A failure after which the run cannot go on (hung or dead engine)."""


def split_words(text):
    """The engine's split_words: runs of space, tab, CR and LF separate words."""
    return [w for w in re.split(r"[ \t\r\n]+", text) if w]


ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text):
    return text.translate(ASCII_LOWER)


def parse_int64(text):
    """std::from_chars for int64_t over the whole token, as the engine parses numbers."""
    if not re.fullmatch(r"-?[0-9]+", text):
        return None
    value = int(text)
    return value if -2**63 <= value < 2**63 else None


def show(text, limit=200):
    text = repr(text)[1:-1]
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} chars)"


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


@dataclass(frozen=True)
class Pos:
    """A position as the `position` command that sets it up; `chess960` is the value of
    UCI_Chess960 when the command was read (it decides how the FEN and moves parse)."""
    chess960: bool
    base: str  # "startpos" or "fen <fen>"
    moves: tuple = ()

    def command(self, extra=()):
        moves = self.moves + tuple(extra)
        return f"position {self.base}" + (" moves " + " ".join(moves) if moves else "")

    def then(self, *moves):
        return Pos(self.chess960, self.base, self.moves + tuple(moves))


@dataclass
class PosInfo:
    legal: list
    fen: str
    stm: str
    in_check: bool


class Oracle:
    """The twin process: legal moves, legality of move sequences, and the expected output
    of the commands whose output depends only on the position."""

    def __init__(self, binary):
        self.e = Engine(binary)
        self.chess960 = False
        self.cache = {}
        self.queries = 0
        self.e.send("uci")
        self.uci_lines = self.e.read_until(lambda l: l == "uciok")

    def _use(self, chess960):
        if chess960 != self.chess960:
            self.e.send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
            self.chess960 = chess960

    def info(self, pos):
        """PosInfo of a position, or None if the twin refuses its `position` command."""
        if pos in self.cache:
            return self.cache[pos]
        self.queries += 1
        self._use(pos.chess960)
        self.e.send(pos.command())
        self.e.send("d")
        self.e.send("go perft 1")
        lines = self.e.read_until(lambda l: l.startswith("Nodes searched"))
        if any(l.startswith(ERROR) for l in lines):
            result = None
        else:
            status = next(i for i, l in enumerate(lines) if l.startswith("Status:"))
            fen = next(l[5:] for l in lines[:status] if l.startswith("Fen: "))
            checkers = next(l for l in lines[:status] if l.startswith("Checkers:")).split()[1:]
            legal = [m.group(1) for l in lines[status + 1:] if (m := PERFT_LINE_RE.match(l))]
            result = PosInfo(legal, fen, fen.split()[1], bool(checkers))
        if len(self.cache) > 50000:
            self.cache.clear()
        self.cache[pos] = result
        return result

    def errors_of(self, chess960, command):
        """The lines the twin prints for one command (with UCI_Chess960 as given)."""
        self.queries += 1
        self._use(chess960)
        self.e.send(command)
        return self.e.sync()

    def output_of(self, pos, command, last):
        """The twin's output of `command` in `pos`, up to the line for which last() holds."""
        self.queries += 1
        self._use(pos.chess960)
        self.e.send(pos.command())
        self.e.send(command)
        return self.e.read_until(last)

    def after(self, pos, chess960, command):
        """The twin's `d` after `command` (read with UCI_Chess960 = chess960) given in pos."""
        self.queries += 1
        self._use(pos.chess960)
        self.e.send(pos.command())
        self._use(chess960)
        self.e.send(command)
        self.e.send("d")
        return self.e.read_until(lambda l: l.startswith("Winnable:"))

    def illegal(self, pos, sequences):
        """For each move sequence: the error lines the twin gives when it is played from pos."""
        self.queries += len(sequences)
        self._use(pos.chess960)
        for seq in sequences:
            self.e.send(pos.command(seq))
            self.e.send("isready")
        return [[l for l in self.e.read_until(lambda l: l == "readyok")[:-1]] for _ in sequences]

    def close(self):
        self.e.close()


class Expect:
    """One expected piece of output from the engine's command thread, in command order."""

    def __init__(self, kind, what, **fields):
        self.kind = kind  # ready | error | block | alt
        self.what = what
        self.done = False
        self.__dict__.update(fields)


@dataclass(eq=False)  # compared by identity
class Search:
    """One `go` the engine accepted (or, while tentative, may have accepted)."""
    n: int
    go: str
    pos: Pos
    info: PosInfo
    root: list
    multipv: int
    infinite: bool
    ponder: bool
    bound: float       # seconds it may run by its own limits once released; None: unbounded
    start: float
    stop_delay: float  # drawn at go time
    ponderhit_first: bool
    second_fraction: float
    tentative: bool = False
    ponder_active: bool = False
    run_start: float = 0.0
    stop_at: float = None
    stop_time: float = None
    release_time: float = None
    overran: bool = False
    lines: list = field(default_factory=list)  # (arrival time, line) of its output
    best: str = None
    ponder_move: str = None


class Stress:
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

    # ----- the engine's command-thread output, matched against expectations ----------

    def on_command_line(self, t, line):
        while True:
            if not self.expect:
                self.fail(f"unexpected line {show(line)!r}")
                return
            x = self.expect[0]
            if x.kind == "alt":
                self.expect.popleft()
                if BUSY_RE.match(line):
                    self.refused += 1
                    x.on_busy()
                    return
                x.on_ok()
                self.expect.extendleft(reversed(x.ok))
                continue
            if x.kind == "ready":
                if line != "readyok":
                    self.fail(f"unexpected line {show(line)!r} (expected readyok)")
                    return
                self.expect.popleft()
                x.done = True
                latency = t - x.sent
                if x.timed:
                    waited = self.cpu_waits()
                    starved = sum(b - a for a, b in zip(x.waited, waited) if a is not None and b is not None)
                    own = latency if self.args.raw_latency else max(0.0, latency - starved)
                    self.latencies.append(latency)
                    self.own_latencies.append(own)
                    if own > self.args.ready_ms / 1000:
                        self.fail(f"readyok took {latency * 1000:.1f} ms, {own * 1000:.1f} ms of it not spent "
                                  f"waiting for a CPU (limit {self.args.ready_ms:.0f} ms)")
                else:
                    self.slow_latencies.append(latency)
                return
            if x.kind == "error":
                if line.startswith(ERROR) and (x.exact == line if x.exact else x.regex.search(line)):
                    self.expect.popleft()
                    if x.busy:
                        self.refused += 1
                    return
                self.expect.popleft()
                if line.startswith(ERROR) and line != "readyok":
                    self.fail(f"error line {show(line)!r} where {x.what} was expected")
                    return
                self.fail(f"missing error line: {x.what}; got {show(line)!r}")
                continue
            if x.kind == "block":
                if x.broken:
                    if x.last(line) or line == "readyok":
                        self.expect.popleft()
                        if line == "readyok":
                            continue
                    return
                expected = x.lines[x.i]
                if line == expected:
                    x.i += 1
                    if x.i == len(x.lines):
                        self.expect.popleft()
                    return
                self.fail(f"{x.what}: line {x.i + 1} is {show(line)!r}; the twin printed {show(expected)!r}")
                x.broken = True
                if x.last(line) or line == "readyok":
                    self.expect.popleft()
                    if line == "readyok":
                        continue
                return

    def error(self, what, exact=None, regex=None, busy=False):
        return Expect("error", what, exact=exact, regex=re.compile(regex or "") if not exact else None, busy=busy)

    def block(self, what, lines, last):
        return Expect("block", what, lines=lines, last=last, i=0, broken=False)

    # ----- search bookkeeping ---------------------------------------------------------

    def search_state(self):
        """What the engine does with the next go/setoption/ucinewgame/bench: 'idle' and
        'stopping' (it waits for the stopped search): carries it out; 'running': refuses
        it; 'uncertain': the newest search may or may not have ended by its own limits."""
        if not self.searches:
            return "idle"
        s = self.searches[-1]
        if s.stop_time is not None:
            return "stopping"
        if s.infinite or s.ponder_active:
            return "running"
        return "uncertain"

    def idle_command(self, text, word, ok, on_ok=lambda: None, on_busy=lambda: None, slow=False, state=None):
        """Sends a command that the engine carries out only when not searching."""
        state = state or self.search_state()
        if state == "idle" and self.open:
            state = "uncertain"  # sync as if the search might still run: the same commands either way
        self.send(text)
        if state in ("idle", "stopping"):
            on_ok()
            self.expect.extend(ok)
            if slow:
                self.slow_pending = True
                self.sync(timed=False)
        elif state == "running":
            on_busy()
            self.expect.append(self.error(f"the error for '{word}' while searching", regex=BUSY_RE.pattern,
                                          busy=True))
        else:
            self.expect.append(Expect("alt", word, ok=ok, on_ok=on_ok, on_busy=on_busy))
            self.slow_pending = self.slow_pending or slow
            self.sync(timed=not slow)

    def stop(self):
        t = self.send("stop")
        for s in self.searches:
            if s.stop_time is None:
                s.stop_time = t
            if s.release_time is None:
                s.release_time = t
            s.ponder_active = False

    def ponderhit(self):
        t = self.send("ponderhit")
        if not self.searches:
            return
        s = self.searches[-1]
        if not s.ponder_active or s.stop_time is not None:
            return
        s.ponder_active = False
        s.run_start = t
        if not s.infinite:
            s.release_time = t
        if s.infinite or s.bound is None or s.bound > 1.0:
            s.stop_at = t + s.second_fraction * max(0.0, s.start + RELEASE_WITHIN - t)
        else:
            s.stop_at = None

    def due(self):
        """Sends the stop/ponderhit a search is due, and detects hung searches."""
        t = time.monotonic()
        for s in list(self.searches):
            if s.tentative:
                continue
            if s.stop_time is None and s.stop_at is not None and t >= s.stop_at:
                if s.ponder_active and s.ponderhit_first:
                    self.ponderhit()
                else:
                    self.stop()
            if s.stop_time is not None:
                if t > s.stop_time + STOP_GRACE:
                    self.fail(f"no bestmove within {STOP_GRACE:.0f} s of stop for search #{s.n} '{s.go}'",
                              fatal=True)
            elif (s.stop_at is None and not s.ponder_active and not s.infinite and s.bound is not None
                  and t > s.run_start + s.bound + BOUND_GRACE and not s.overran):
                s.overran = True
                self.fail(f"search #{s.n} '{s.go}' still running {t - s.run_start:.1f} s after it started "
                          f"(its limits allow about {s.bound:.1f} s); sending stop")
                self.stop()

    def on_search_line(self, t, line):
        if not self.searches:
            self.fail(f"search output while no search runs: {show(line)!r}")
            return
        s = self.searches[0]
        s.lines.append((t, line))
        if line.startswith("bestmove"):
            self.searches.popleft()
            self.bestmoves += 1
            self.finish(s, t, line)

    def finish(self, s, t, line):
        """Checks one search's output once its bestmove is in."""
        where = f"search #{s.n} '{show(s.go, 100)}' in {show(s.pos.command(), 300)}"
        if (s.infinite or s.ponder) and (s.release_time is None or t < s.release_time):
            self.fail(f"bestmove before stop/ponderhit: {where}")
        m = BESTMOVE_RE.match(line)
        if not m:
            self.fail(f"malformed bestmove line {show(line)!r}: {where}")
            return
        best, ponder = m.group("best"), m.group("ponder")
        sequences = []
        last_pv = None
        depth0 = []
        for _, l in s.lines[:-1]:
            if (d0 := DEPTH0_RE.match(l)):
                depth0.append(d0.group("score"))
            elif (cm := CURRMOVE_RE.match(l)):
                if cm.group("move") not in s.root:
                    self.fail(f"currmove {cm.group('move')} is not a legal root move: {where}")
            elif (info := INFO_RE.match(l)):
                pv = info.group("pv").split()
                multipv = int(info.group("multipv"))
                if multipv < 1 or multipv > min(s.multipv, max(1, len(s.root))):
                    self.fail(f"multipv {multipv} with MultiPV {s.multipv} and {len(s.root)} root moves: {where}")
                if pv[0] not in s.root:
                    self.fail(f"pv starts with {pv[0]}, not a legal root move: {show(l)} {where}")
                sequences.append(tuple(pv))
                if multipv == 1:
                    last_pv = pv
            else:
                self.fail(f"info line not in the documented shape: {show(l)!r} {where}")
        if not s.info.legal:
            expected = "mate 0" if s.info.in_check else "cp 0"
            if best != "(none)" or ponder:
                self.fail(f"no legal move, yet {show(line)!r}: {where}")
            if depth0 != [expected] or sequences:
                self.fail(f"no legal move: expected exactly 'info depth 0 score {expected}', got "
                          f"{[l for _, l in s.lines[:-1]]}: {where}")
        else:
            if depth0:
                self.fail(f"'info depth 0' although there are legal moves: {where}")
            if best not in s.root:
                self.fail(f"bestmove {best} is not legal here" +
                          (" (or not among searchmoves)" if s.root != s.info.legal else "") + f": {where}")
            elif last_pv is not None and best != last_pv[0]:
                self.fail(f"bestmove {best} is not the first move of the last pv printed "
                          f"({' '.join(last_pv)}): {where}")
            if ponder:
                sequences.append((best, ponder))
        # The twin checks every maximal sequence of two or more moves (one move is
        # checked against the legal list above).
        # In sorted order a sequence that is a prefix of another comes right before one of
        # its extensions.
        unique = sorted(set(q for q in sequences if len(q) >= 2))
        maximal = [q for q, o in zip(unique, unique[1:] + [()]) if o[:len(q)] != q]
        if maximal:
            self.sequences_checked += len(maximal)
            for seq, errors in zip(maximal, self.oracle.illegal(s.pos, maximal)):
                if errors:
                    self.fail(f"illegal move sequence {' '.join(seq)} ({show(errors[0])}): {where}")
        s.best, s.ponder_move = best, ponder
        self.last_search = s
        c = self.counts
        c["no legal move"] += not s.info.legal
        c["Chess960 root"] += s.pos.chess960
        c["searchmoves"] += s.root != s.info.legal
        c["infinite"] += s.infinite
        c["ponder"] += s.ponder
        c["MultiPV > 1"] += s.multipv > 1
        c["stopped"] += s.stop_time is not None

    # ----- positions ------------------------------------------------------------------

    def _random_game(self, pos, plies):
        moves = []
        for _ in range(plies):
            info = self.oracle.info(pos.then(*moves))
            if not info or not info.legal:
                break
            moves.append(self.rng.choice(info.legal))
        return moves

    def random_960_fen(self):
        r = self.rng
        rank = [None] * 8
        rank[r.choice((0, 2, 4, 6))] = "B"
        rank[r.choice((1, 3, 5, 7))] = "B"
        free = [i for i in range(8) if rank[i] is None]
        rank[r.choice(free)] = "Q"
        free = [i for i in range(8) if rank[i] is None]
        for i in r.sample(free, 2):
            rank[i] = "N"
        free = [i for i in range(8) if rank[i] is None]
        for i, piece in zip(free, "RKR"):
            rank[i] = piece
        back = "".join(rank)
        files = "abcdefgh"
        shredder = (files[free[2]].upper() + files[free[0]].upper() + files[free[2]] + files[free[0]])
        castling = r.choice([shredder, shredder, "KQkq", shredder[0] + shredder[2], "-"])
        return f"{back.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{back} w {castling} - 0 1"

    def random_base(self):
        r = self.rng
        if self.chess960:
            kind = r.choices(["startpos", "standard", "960", "960epd"], [2, 3, 3, 3])[0]
        else:
            kind = r.choices(["startpos", "standard", "960", "960epd", "special"], [3, 5, 1, 1, 2])[0]
        if kind == "startpos":
            return "startpos"
        if kind == "standard":
            fen = r.choice(self.epd["standard.epd"])
        elif kind == "960":
            fen = self.random_960_fen()
        elif kind == "960epd":
            fen = r.choice(self.epd["chess960.epd"])
        else:
            fen = r.choice(SPECIAL_FENS)
        if r.random() < 0.1:
            fen = " ".join(fen.split()[:4])  # clocks missing
        return f"fen {fen}"

    def mutated_fen(self):
        r = self.rng
        fen = r.choice(self.epd["standard.epd"] + SPECIAL_FENS)
        for _ in range(r.randint(1, 3)):
            i = r.randrange(len(fen))
            op = r.random()
            if op < 0.5:
                fen = fen[:i] + r.choice("pnbrqkPNBRQK012345678/ -wbKQkqaceh") + fen[i + 1:]
            elif op < 0.7:
                fen = fen[:i] + fen[i + 1:]
            elif op < 0.85:
                fen = fen[:i] + r.choice("pP1/ 8") + fen[i:]
            else:
                fields = fen.split()
                fen = " ".join(fields[:r.randint(1, len(fields))])
        return fen

    def illegal_token(self, legal):
        r = self.rng
        candidates = ["0000", "a1a1", "e2e9", "i2i4", "xyz", "e2-e4", "Nf3", "O-O", "e1g1", "e1c1", "e1h1", "e1a1",
                      "e8g8", "e8h8", "e7e8k", "e2e4q", "a7a8", "h2h1"]
        candidates += [m[:4] for m in legal if len(m) == 5]           # promotion without piece
        candidates += [m + "q" for m in legal if len(m) == 4][:3]     # piece on a non-promotion
        files, ranks = "abcdefgh", "12345678"
        for _ in range(4):
            candidates.append(r.choice(files) + r.choice(ranks) + r.choice(files) + r.choice(ranks))
        candidates = [c for c in candidates if ascii_lower(c) not in legal]
        return r.choice(candidates)

    def gen_position(self):
        r = self.rng
        kind = r.choices(["continue", "walk", "illegal", "mutated", "malformed", "long", "startpos", "special"],
                         [25, 25, 12, 7, 6, 1, 4, 5])[0]
        if kind == "continue" and self.closed_search and self.closed_search.best != "(none)":
            s = self.closed_search
            moves = [s.best] + ([s.ponder_move] if s.ponder_move and r.random() < 0.5 else [])
            return Pos(self.chess960, s.pos.base, s.pos.moves + tuple(moves)).command()
        if kind == "mutated":
            return "position fen " + self.mutated_fen()
        if kind == "malformed":
            return r.choice(MALFORMED_POSITIONS)
        if kind == "long":
            plies = r.randint(100, len(self.long_game))
            return Pos(self.chess960, "startpos", tuple(self.long_game[:plies])).command()
        if kind == "startpos":
            return r.choice(["position startpos", "position startpos moves e2e4",
                             "position  startpos \t moves  g1f3 "])
        if kind == "special":  # mates, stalemates, few moves, rule boundaries
            base = Pos(self.chess960, "fen " + r.choice(SPECIAL_FENS))
            return base.command(self._random_game(base, r.choice([0, 0, 1, 2])))
        base = Pos(self.chess960, self.random_base())
        if r.random() < 0.95:
            plies = r.choice([0, 0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 30, 40])
        else:
            plies = r.randint(50, 90)
        moves = self._random_game(base, plies)
        if kind == "illegal":
            info = self.oracle.info(base.then(*moves))
            bad = self.illegal_token(info.legal if info else [])
            tail = [r.choice(["e2e4", "e7e5", "g1f3", "a2a3", "zz"]) for _ in range(r.randint(0, 3))]
            return base.command(moves + [bad] + tail)
        return base.command(moves)

    def resolve_position(self, text):
        """The expected error lines of a `position` command and the position it leaves."""
        errors = self.oracle.errors_of(self.chess960, text)
        words = split_words(text)
        moves_at = next((i for i in range(1, len(words)) if words[i] == "moves"), len(words))
        base = None
        if len(words) >= 2 and words[1] == "startpos" and moves_at == 2:
            base = "startpos"
        elif len(words) >= 2 and words[1] == "fen":
            base = "fen " + " ".join(words[2:moves_at])
        tokens = words[moves_at + 1:]
        if not errors:
            if base is None:
                raise RuntimeError(f"the twin accepted {text!r}, which this script takes for malformed")
            return errors, Pos(self.chess960, base, tuple(tokens))
        new = self.pos
        if base is not None and self.oracle.info(Pos(self.chess960, base)) is not None:
            new = Pos(self.chess960, base)
            for tok in tokens:
                info = self.oracle.info(new)
                if not (4 <= len(tok.encode()) <= 5 and ascii_lower(tok) in info.legal):
                    break
                new = new.then(tok)
        # Cross-check the model: the twin, from the model's position, given the command.
        twin = self.oracle.after(self.pos, self.chess960, text)
        mine = self.oracle.output_of(new, "d", lambda l: l.startswith("Winnable:"))
        if [l for l in twin if not l.startswith(ERROR)] != mine:
            raise RuntimeError(f"script model of {text!r} disagrees with the twin")
        return errors, new

    # ----- command generators ---------------------------------------------------------

    def cmd_position(self):
        self.pos_text_command(self.gen_position())

    def pos_text_command(self, text):
        errors, new = self.resolve_position(text)
        self.counts["position"] += 1
        self.counts["position refused or cut short"] += bool(errors)
        self.send(text)
        for line in errors:
            self.expect.append(self.error(f"the twin's {show(line)!r}", exact=line))
        self.pos = new

    def cmd_go(self, kind=None):
        info = self.oracle.info(self.pos)
        text = self.gen_go(info.legal, kind)
        words = split_words(text)
        limits, errors = model_go(words, info.legal)
        r = self.rng
        root = [m for m in info.legal if m in limits["searchmoves"]] if limits["searchmoves"] else list(info.legal)
        bounds = []
        if not info.legal:
            bounds.append(0.0)
        if 0 < limits["depth"] <= 8:
            bounds.append(10.0)
        if 0 < limits["nodes"] <= 10**6:
            bounds.append(5.0)
        if limits["movetime"] > 0:
            bounds.append(limits["movetime"] / 1000)
        if info.stm in limits["time"]:
            bounds.append(limits["time"][info.stm] / 1000)
        self.search_serial += 1
        s = Search(n=self.search_serial, go=text, pos=self.pos, info=info, root=root, multipv=self.multipv,
                   infinite=limits["infinite"], ponder=limits["ponder"], bound=min(bounds) if bounds else None,
                   start=0.0, stop_delay=r.uniform(*r.choice([(0, 0.1), (0, 0.1), (0.1, 0.4), (0.4, 0.9)])),
                   ponderhit_first=r.random() < 0.5, second_fraction=r.random())
        ok = [self.error(f"an error about {show(w)!r}", regex=re.escape(w)) for w in errors]

        def accept():
            s.tentative = False
            self.searches_started += 1

        def refuse():
            if s in self.searches:
                if s.lines:
                    self.fail(f"output for a go that was refused while searching: {s.lines[0][1]!r}")
                self.searches.remove(s)
            elif s.start:
                self.fail(f"a bestmove for a go that was refused while searching ({s.go})")

        state = self.search_state()
        if state == "idle" and self.open:
            state = "uncertain"
        if state != "running":
            self.open = True
            self.open_ponder = s.ponder
            s.tentative = state == "uncertain"
            s.start = s.run_start = time.monotonic()
            s.ponder_active = s.ponder
            if s.infinite or s.ponder or s.bound is None or s.bound > 1.0:
                s.stop_at = s.start + s.stop_delay
            self.searches.append(s)
        self.idle_command(text, "go", ok, on_ok=accept, on_busy=refuse, state=state)

    def gen_go(self, legal, kind=None):
        r = self.rng

        def clock():
            def t():
                x = r.random()
                return r.randint(50, 3000) if x < 0.7 else r.randint(0, 50) if x < 0.9 else r.randint(-100, -1)
            groups = [["wtime", str(t())], ["btime", str(t())]]
            if r.random() < 0.1:
                groups.pop(r.randrange(2))  # one side's clock only: no limit for the other side
            if r.random() < 0.5:
                groups += [["winc", str(r.randint(0, 100))], ["binc", str(r.randint(0, 100))]]
            if r.random() < 0.3:
                groups.append(["movestogo", str(r.randint(1, 40))])
            return groups

        def bounded(which=None):
            which = which or r.choice(["depth", "nodes", "movetime", "clock"])
            if which == "depth":
                return [["depth", str(r.choice([1, 1, 2, 2, 3, 3, 4, 5, 6]))]]
            if which == "nodes":
                return [["nodes", str(int(10 ** r.uniform(0, 4.3)))]]
            if which == "movetime":
                return [["movetime", str(int(10 ** r.uniform(0, 2.2)))]]
            return clock()

        def searchmoves():
            group = ["searchmoves"] + (r.sample(legal, r.randint(1, min(4, len(legal)))) if legal else [])
            if not legal or r.random() < 0.2:
                group.append(r.choice(["zz", "a1a1", "e2e5", "0000"]))
            return group

        kind = kind or r.choices(["depth", "nodes", "movetime", "clock", "mate", "infinite", "ponder", "combo",
                                  "searchmoves", "bare", "bad", "long"],
                                 [14, 14, 14, 14, 4, 6, 7, 9, 6, 1, 5, 0.3])[0]
        groups, last = [], []
        if kind in ("depth", "nodes", "movetime", "clock"):
            groups = bounded(kind)
        elif kind == "mate":
            groups = [["mate", str(r.randint(1, 5))]] + (bounded() if r.random() < 0.7 else [])
        elif kind == "infinite":
            groups = [["infinite"]] + ([["depth", str(r.randint(1, 4))]] if r.random() < 0.3 else [])
        elif kind == "ponder":
            x = r.random()
            groups = [["ponder"]] + (clock() if x < 0.6 else bounded("movetime") if x < 0.75
                                     else bounded("depth") if x < 0.85 else [["infinite"]] if x < 0.92 else [])
        elif kind == "combo":
            for _ in range(r.randint(2, 3)):
                groups += bounded()
        elif kind == "searchmoves":
            groups = bounded() + [searchmoves()]
        elif kind == "bad":
            groups = bounded() + [r.choice([["depth", "x"], ["movetime", "1.5"], ["wtime", "+100"],
                                            ["nodes", "99999999999999999999"], ["foo"], ["Depth", "3"],
                                            ["depth", "-1"], ["movetime", "0"], ["nodes", "0"], ["mate", "-2"],
                                            ["searchmoves"], ["searchmoves", "zz9"]])]
            if r.random() < 0.3:
                last = [["nodes"]]  # a keyword without its value, at the end
        elif kind == "long":
            if legal and r.random() < 0.5:
                groups = [["searchmoves"] + legal * r.randint(20, 200), ["depth", "2"]]
            else:
                groups = [["depth", "1"]] * r.randint(500, 3000)
        r.shuffle(groups)
        words = ["go"] + [w for g in groups + last for w in g]
        sep = " " if r.random() < 0.9 else r.choice(["  ", "\t", " \t "])
        return sep.join(words)

    def gen_setoption(self):
        r = self.rng
        x = r.random()
        if x < 0.15:
            sizes = [128, 256] if r.random() < 0.05 else [1, 2, 4, 8, 16, 16, 32, 64]
            return f"setoption name Hash value {r.choice(sizes)}"
        if x < 0.27:
            return f"setoption name Threads value {r.choice([1, 1, 2, 2, 3, 4, 8])}"
        if x < 0.39:
            return f"setoption name MultiPV value {r.choice([1, 1, 1, 2, 3, 4, 8, 256])}"
        if x < 0.52:
            return f"setoption name UCI_Chess960 value {r.choice(['true', 'false'])}"
        if x < 0.57:
            return "setoption name Clear Hash"
        if x < 0.62:
            return f"setoption name UCI_ShowWDL value {r.choice(['true', 'false'])}"
        if x < 0.66:
            return f"setoption name Move Overhead value {r.choice([0, 10, 30, 100])}"
        if x < 0.69:
            return f"setoption name Ponder value {r.choice(['true', 'false'])}"
        return r.choice([
            "setoption name Hash value 0", "setoption name Hash value 65537", "setoption name Hash value -1",
            "setoption name Hash value abc", "setoption name Hash value", "setoption name Hash value 1e3",
            "setoption name Hash value +5", "setoption name Threads value 0", "setoption name Threads value 1025",
            "setoption name Threads value two", "setoption name MultiPV value 0", "setoption name MultiPV value 257",
            "setoption name UCI_Chess960 value yes", "setoption name UCI_Chess960 value 1",
            "setoption name Hashh value 16", "setoption name Foo Bar value 1", "setoption name Skill Level value 3",
            "setoption", "setoption name", "setoption Hash value 3", "setoption name value 3",
            "setoption name hash value 8", "setoption name THREADS value 2", "setoption name uci_chess960 value TRUE",
            "setoption name multipv value 2", "setoption name  Move   Overhead  value 20",
            "setoption name Clear Hash value now", "setoption name UCI_ShowWDL value"])

    def cmd_setoption(self, text=None):
        text = text or self.gen_setoption()
        error, effect = model_setoption(split_words(text), self.options)
        ok = [self.error(f"an error for {show(text)!r}", regex="")] if error else []
        slow = effect is not None and effect[0] in ("hash", "threads", "clear hash")

        def apply():
            if effect is None:
                return
            name, value = effect
            if name == "hash":
                self.max_hash = max(self.max_hash, value)
            elif name == "threads":
                self.max_threads = max(self.max_threads, value)
            elif name == "multipv":
                self.multipv = value
            elif name == "uci_chess960":
                self.chess960 = value

        # RSS is not sampled while a Hash resize may be in progress (old and new table
        # both exist for a moment).
        self.sample_rss_ok = not slow
        try:
            self.idle_command(text, "setoption", ok, on_ok=apply, slow=slow)
        finally:
            self.sample_rss_ok = True

    def cmd_garbage(self):
        r = self.rng
        pool = GARBAGE_WORDS + (UNICODE_WORDS if self.unicode_ok else [])
        while True:
            words = [r.choice(pool) for _ in range(r.randint(1, 6))]
            text = r.choice([" ", "  ", "\t", " \t"]).join(words)
            if r.random() < 0.2:
                text = r.choice([" ", "\t", "\r"]) + text
            if r.random() < 0.2:
                text += "\r"
            first = split_words(text)
            if first and first[0] not in COMMAND_WORDS:
                break
        self.send(text)
        self.expect.append(self.error(f"an error about {show(first[0])!r}", regex=re.escape(first[0])))

    def cmd_long(self):
        r = self.rng
        kind = r.choice(["word", "words", "setoption", "fen", "spaces", "position", "go"])
        if kind == "position":
            self.pos_text_command(Pos(self.chess960, "startpos", tuple(self.long_game)).command())
            return
        if kind == "go":
            self.cmd_go("long")
            return
        if kind == "spaces":
            self.send(" " * r.randint(1000, 100000))
            return
        if kind == "word":
            text = "x" * r.randint(1000, 200000)
            first = text
        elif kind == "words":
            words = [r.choice(GARBAGE_WORDS) for _ in range(r.randint(1000, 20000))]
            words[0] = "xyzzy"
            text, first = " ".join(words), "xyzzy"
        elif kind == "setoption":
            self.cmd_setoption("setoption name " + "x" * r.randint(1000, 50000) + " value 3")
            return
        else:
            self.pos_text_command("position fen " + "8/" * r.randint(500, 20000))
            return
        self.send(text)
        self.expect.append(self.error("an error about a long word", regex=re.escape(first[:50])))

    def cmd_d(self):
        lines = self.oracle.output_of(self.pos, "d", lambda l: l.startswith("Winnable:"))
        self.send(self.rng.choice(["d", "d", "d extra words"]))
        self.expect.append(self.block("d", lines, lambda l: l.startswith("Winnable:")))

    def cmd_eval(self):
        # The last line: "NNUE evaluation: ..." with a net, "Evaluation: ..." (after the
        # hand-crafted terms) without one or with Use NNUE false.
        def last(line):
            return line.startswith("Evaluation:") or line.startswith("NNUE evaluation:")

        lines = self.oracle.output_of(self.pos, "eval", last)
        self.send("eval")
        self.expect.append(self.block("eval", lines, last))

    def cmd_perft(self):
        r = self.rng
        depth = r.choice(["1", "1", "2", "2", "3", "0", "13", "x", ""])
        text = f"go perft {depth}".strip()
        if depth in ("1", "2", "3"):
            lines = self.oracle.output_of(self.pos, text, lambda l: l.startswith("Nodes searched"))
            ok = [self.block("go perft", lines, lambda l: l.startswith("Nodes searched"))]
        else:
            ok = [self.error("an error about the perft depth", regex="perft")]
        self.idle_command(text, "go", ok, slow=True)

    def cmd_uci(self):
        self.send("uci")
        self.expect.append(self.block("uci", self.oracle.uci_lines, lambda l: l == "uciok"))

    def cmd_bench_bad(self):
        text = self.rng.choice(["bench 0", "bench 31", "bench x", "bench -1"])
        self.idle_command(text, "bench", [self.error("an error about the bench depth", regex="bench")])

    def wait_searches(self):
        if self.pump(30.0, until=lambda: not self.searches):
            self.open = False
            self.closed_search = self.last_search

    # ----- the run --------------------------------------------------------------------

    def step(self):
        r = self.rng
        if self.open:
            actions = {"isready": 14, "stop": 7, "ponderhit": 6 if self.open_ponder else 1,
                       "position": 8, "d": 2, "eval": 1, "go": 4, "setoption": 4, "ucinewgame": 1, "garbage": 3,
                       "empty": 2, "long": 0.3, "perft": 1, "uci": 0.3, "debug": 0.3, "bench": 0.3,
                       "sleep": 8, "wait": 22}
        else:
            actions = {"position": 24, "go": 34, "setoption": 8, "ucinewgame": 2, "isready": 6, "garbage": 4,
                       "empty": 2, "long": 0.5, "d": 3, "eval": 2, "perft": 2, "uci": 0.3, "debug": 0.5,
                       "bench": 0.3, "stop": 1.5, "ponderhit": 1}
        action = r.choices(list(actions), list(actions.values()))[0]
        if action == "isready":
            self.isready()
        elif action == "stop":
            self.stop()
        elif action == "ponderhit":
            self.ponderhit()
        elif action == "position":
            self.cmd_position()
        elif action == "go":
            self.cmd_go()
        elif action == "setoption":
            self.cmd_setoption()
        elif action == "ucinewgame":
            self.idle_command("ucinewgame", "ucinewgame", [], slow=True)
        elif action == "garbage":
            self.cmd_garbage()
        elif action == "empty":
            self.send(r.choice(["", " ", "\t", "   \t  ", "\r"]))
        elif action == "long":
            self.cmd_long()
        elif action == "d":
            self.cmd_d()
        elif action == "eval":
            self.cmd_eval()
        elif action == "perft":
            self.cmd_perft()
        elif action == "uci":
            self.cmd_uci()
        elif action == "debug":
            self.send(r.choice(["debug on", "debug off", "debug"]))
        elif action == "bench":
            self.cmd_bench_bad()
        elif action == "sleep":
            self.pump(r.choice([0.001, 0.005, 0.02, 0.05]))
        elif action == "wait":
            self.wait_searches()
        self.pump()
        self.sample_rss(force=True)

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
        print(f"  searches with: " + ", ".join(f"{k} {c[k]}" for k in (
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


def model_go(words, legal):
    """The engine's reading of a `go` line (cmd_go): the limits, and the words that an
    error line will name, in order."""
    limits = {"depth": 0, "nodes": 0, "movetime": 0, "mate": 0, "time": {}, "infinite": False, "ponder": False,
              "searchmoves": []}
    errors = []
    i = 1
    while i < len(words):
        key = words[i]
        if key == "infinite":
            limits["infinite"] = True
        elif key == "ponder":
            limits["ponder"] = True
        elif key == "searchmoves":
            while i + 1 < len(words) and words[i + 1] not in GO_KEYWORDS:
                i += 1
                tok = words[i]
                if 4 <= len(tok.encode()) <= 5 and ascii_lower(tok) in legal:
                    limits["searchmoves"].append(ascii_lower(tok))
                else:
                    errors.append(tok)
        elif key in GO_NUMERIC:
            value = parse_int64(words[i + 1]) if i + 1 < len(words) else None
            if value is None:
                errors.append(key)
                if i + 1 < len(words) and words[i + 1] not in GO_KEYWORDS:
                    i += 1
                i += 1
                continue
            i += 1
            if value < 0 and key not in ("wtime", "btime"):  # only a clock may be negative
                errors.append(key)
                i += 1
                continue
            value = max(0, value)
            if key in ("wtime", "btime"):
                limits["time"][key[0]] = value
            elif key in ("depth", "nodes", "movetime", "mate"):
                limits[key] = min(value, {"depth": MAX_PLY - 1, "mate": MAX_PLY // 2}.get(key, value))
        else:
            errors.append(key)
        i += 1
    return limits, errors


OPTION_RE = re.compile(r"^option name (?P<name>.+?) type (?P<type>\w+)(?: default (?P<default>.*?))?"
                       r"(?: min (?P<min>-?\d+) max (?P<max>-?\d+))?$")


def read_options(uci_lines):
    """The options the engine declares in its `uci` answer:
    lower-case name -> (type, min, max, default)."""
    options = {}
    for line in uci_lines:
        if (m := OPTION_RE.match(line)):
            low, high = m.group("min"), m.group("max")
            options[ascii_lower(m.group("name"))] = (m.group("type"), int(low or 0), int(high or 0),
                                                     m.group("default"))
    return options


def model_setoption(words, options):
    """The engine's reading of a `setoption` line: (error expected, (option, value) or None)."""
    if len(words) < 3 or words[1] != "name":
        return True, None
    value_at = next((i for i in range(2, len(words)) if words[i] == "value"), len(words))
    name = ascii_lower(" ".join(words[2:value_at]))
    value = " ".join(words[value_at + 1:])
    if not name or name not in options:
        return True, None
    kind = options[name]
    if kind[0] == "check":
        if ascii_lower(value) not in ("true", "false"):
            return True, None
        return False, (name, ascii_lower(value) == "true")
    if kind[0] == "spin":
        number = parse_int64(value)
        if number is None or not kind[1] <= number <= kind[2]:
            return True, None
        return False, (name, number)
    return False, (name, None)


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

"""The model of the engine under the stress test, and the checks of its output.

The model: what the engine does with each command (model_go, model_setoption,
Checker.resolve_position), the state it is in (position, options, searches running),
and the twin (Oracle), a second Arbiter process that answers what the model cannot
know by itself: legal moves, the legality of move sequences, and the output of the
commands whose output depends only on the position.

The checks, each failure reported through the runner's fail() with the seed and the
recent command log:
- every `isready` is answered by `readyok` within --ready-ms (100 ms), during searches
  too. The time that the engine's input thread and the runner's reader thread spent
  runnable but waiting for a CPU (run-queue wait, /proc/PID/task/TID/schedstat) is
  subtracted first: on a loaded machine (CTest runs tests in parallel; other processes)
  the OS, not the engine, decides that part; --raw-latency holds the raw figure to the
  limit instead. An `isready` sent right after a command that may legitimately take
  long (Hash resize, Threads, ucinewgame, Clear Hash, `go perft`) is timed but not held
  to the limit;
- every accepted `go` ends in exactly one `bestmove` (none missing, no duplicates, none
  for a `go` refused while searching, none before `stop`/`ponderhit` in an infinite or
  ponder search); with no legal move the engine prints `bestmove (none)` after
  `info depth 0 score mate 0` (checkmated) or `score cp 0` (stalemated);
- the bestmove is a legal move of the position searched (and one of `searchmoves`), the
  first move of the last principal variation printed; the ponder move is legal after it;
  every move of every `info ... pv` line and every `currmove` is legal;
- every error line is the one expected, in order: a `go`, `setoption`, `ucinewgame` or
  `bench` during a search is refused with an error line, and so on; the output of `d`,
  `eval`, `go perft`, `uci` and the errors of `position` are identical to those of the
  twin given the same position.

The legality oracle is the twin: `position <the searched position> moves <pv...>`
followed by `isready` must give no `info string error` line before `readyok`. This works
because `position` applies its moves one by one through parse_uci (src/uci/uci.cpp
cmd_position, src/chess/notation.cpp), which accepts a move exactly when it is one of
legal_moves() of the position in UCI notation, and answers the first one that is not
with `info string error: illegal move ...`. The oracle is therefore the engine's own
rules core, which is verified separately by perft (tests/data/*.epd,
scripts/perft_suite.py). The twin also lists legal moves (`go perft 1`) to build random
games. Python has no chess library here and none is needed.

Checker is a mixin of the runner's Stress class: it uses the runner's send(), fail(),
pump(), sync(), isready() and its attributes (oracle, searches, expect, counts, ...).
"""
import re
import time
from dataclasses import dataclass, field

from uci_pipe import Engine

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


def model_go(words, legal):
    """The engine's reading of a `go` line (cmd_go): the limits, the words that an
    error line will name, in order, and whether a bad limit refuses the search."""
    limits = {"depth": 0, "nodes": 0, "movetime": 0, "mate": 0, "time": {}, "infinite": False, "ponder": False,
              "searchmoves": []}
    errors = []
    refused = False
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
                refused = True
                if i + 1 < len(words) and words[i + 1] not in GO_KEYWORDS:
                    i += 1
                i += 1
                continue
            i += 1
            if value < 0 and key not in ("wtime", "btime"):  # only a clock may be negative
                errors.append(key)
                refused = True
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
    return limits, errors, refused


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


class Checker:
    """The expectations on the engine's output and the bookkeeping of its searches."""

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

    def wait_searches(self):
        if self.pump(30.0, until=lambda: not self.searches):
            self.open = False
            self.closed_search = self.last_search

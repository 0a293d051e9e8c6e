"""The commands of the stress test: what to send next, drawn from the seeded random
generator, and for each command what the model expects.

What is sent: `go` with every limit and combinations of them (depth, nodes, movetime,
wtime/btime/winc/binc/movestogo, mate, infinite, ponder, searchmoves, bad values),
`stop` at random moments, `ponderhit`, `isready` during searches, `ucinewgame` and
`setoption` (Hash, Threads, MultiPV, UCI_Chess960, Clear Hash, ...) during searches,
`position` with legal and illegal move lists (start position, FENs from tests/data,
random Chess960 starts, mates, stalemates, positions with few moves, mutated FENs),
`d`, `eval`, `go perft`, `uci`, garbage, empty and very long lines. Searches are
short; an infinite or ponder search gets its `stop` (or `ponderhit`) within a second.

The commands are a function of the seed and of the engine's answers. Two runs with the
same seed differ only through timing: where the scheduled stops fall, whether a `go` or
`setoption` sent while a short search may still run is refused, and which move a timed
search returns (a later position may continue the game with it).

CommandGenerator is a mixin of the runner's Stress class: it sends through the runner
and registers what it expects through the Checker (model.py).
"""
import re
import time

from model import (COMMAND_WORDS, Pos, Search, ascii_lower, model_go, model_setoption, show,
                   split_words)
from uci_pipe import START_FEN

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


class CommandGenerator:
    """Chooses and sends the next command; each cmd_* method tells the model what to expect."""

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
        limits, errors, refused = model_go(words, info.legal)
        ok = [self.error(f"an error about {show(w)!r}", regex=re.escape(w)) for w in errors]
        if refused:  # a bad limit: the error lines and no search
            self.idle_command(text, "go", ok)
            return
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

    # ----- the next command ----------------------------------------------------------

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

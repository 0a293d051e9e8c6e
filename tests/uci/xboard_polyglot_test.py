#!/usr/bin/env python3
"""Arbiter under the xboard protocol, through polyglot with the settings file the README
documents (scripts/xboard/arbiter.ini): the handshake, the `egtpath` xboard sends for a
folder that does not exist, a game in which every move Arbiter sends back is legal, and
a Chess960 position. Legality is judged by a second Arbiter process in UCI mode (its
`position ... moves` refuses an illegal move; the rules core it uses is verified by
perft), as in tests/uci/stress/.

usage: xboard_polyglot_test.py path/to/arbiter
Exits 77 (CTest: skipped), saying so, only where polyglot is not installed
(`apt-get install polyglot`; scripts/test.sh installs it).
"""
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
INI = os.path.join(ROOT, "scripts", "xboard", "arbiter.ini")
sys.path.insert(0, HERE)
from uci_pipe import TIMEOUT, Engine, check, run_tests  # noqa: E402

MOVE = re.compile(r"^move (\S+)$")
# A position with castling both ways for both sides, Shredder-FEN rights (rooks on h and f).
CHESS960_FEN = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
PLIES = 6  # Arbiter's moves in the standard game


def find_polyglot():
    # Debian installs polyglot (and xboard) in /usr/games, which a root shell's PATH lacks.
    return shutil.which("polyglot", path=os.environ.get("PATH", "") + os.pathsep + "/usr/games")


class Polyglot(Engine):
    """polyglot with the README's settings file and `-ec` naming the binary under test,
    read through uci_pipe's time-stamped line queue."""

    def __init__(self, polyglot, arbiter):
        self.proc = subprocess.Popen([polyglot, INI, "-ec", arbiter], cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.last_time = 0.0
        threading.Thread(target=self._pump, daemon=True).start()

    def handshake(self):
        """xboard and protover 2; returns the feature lines up to `feature done=1`."""
        self.send("xboard")
        self.send("protover 2")
        return self.read_until(lambda l: l == "feature done=1")

    def ping(self, n):
        """The lines before `pong n`: everything the adapter printed up to now."""
        self.send(f"ping {n}")
        return self.read_until(lambda l: l == f"pong {n}")[:-1]

    def engine_move(self):
        """Waits for Arbiter's move and returns it. polyglot ends the game with a result
        line instead when the engine's move is illegal (it resigns for the engine)."""
        lines = self.read_until(lambda l: MOVE.match(l) or l.startswith(("1-0", "0-1", "1/2-1/2")))
        found = MOVE.match(lines[-1])
        check(found, f"no move but {lines[-1]!r}")
        return found.group(1)

    def quit(self):
        self.send("quit")
        return self.proc.wait(timeout=TIMEOUT)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()  # polyglot's end closes Arbiter's input, which ends Arbiter too
        self.proc.wait(timeout=TIMEOUT)
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass


class Oracle:
    """A second Arbiter in UCI mode: legal moves, and whether a move list is legal."""

    def __init__(self, arbiter):
        self.e = Engine(arbiter)
        self.e.send("uci")
        self.e.read_until(lambda l: l == "uciok")

    def chess960(self, on):
        self.e.send(f"setoption name UCI_Chess960 value {'true' if on else 'false'}")

    def legal_moves(self, position):
        self.e.send(position)
        self.e.send("go perft 1")
        lines = self.e.read_until(lambda l: l.startswith("Nodes searched"))
        check(not any(l.startswith("info string error") for l in lines), f"the oracle refused {position}: {lines}")
        return [l.split(":")[0] for l in lines if re.match(r"^[a-h][1-8][a-h][1-8][nbrq]?: \d+$", l)]

    def close(self):
        self.e.close()


# polyglot may write castling in Chess960 as O-O / O-O-O; UCI_Chess960 writes king
# takes rook. In CHESS960_FEN the kings are on g1 and g8, the rooks on f and h.
CASTLING_960 = {"w": {"O-O": "g1h1", "O-O-O": "g1f1"}, "b": {"O-O": "g8h8", "O-O-O": "g8f8"}}


def test_handshake(polyglot, arbiter):
    p = Polyglot(polyglot, arbiter)
    try:
        features = p.handshake()
        check('feature myname="Arbiter"' in features, f"no myname from the ini's EngineName: {features}")
        check("feature usermove=1" in features, "polyglot must ask for usermove")
        variants = next((l for l in features if l.startswith("feature variants=")), "")
        check("fischerandom" in variants, f"Chess960 not offered: {variants!r}")
        check('feature egt="syzygy"' in features, "SyzygyPath not offered to xboard as egt")
        check(p.quit() == 0, "polyglot did not exit with status 0 after quit")
    finally:
        p.close()


def test_missing_egtpath_is_harmless(polyglot, arbiter):
    """xboard sends `egtpath syzygy /EGT/Syzygy` (its default in /etc/xboard/xboard.conf)
    whether that folder exists or not; polyglot turns it into `setoption name SyzygyPath`,
    Arbiter answers with an error line, and polyglot shows the GUI nothing of it."""
    p = Polyglot(polyglot, arbiter)
    try:
        p.handshake()
        p.send("egtpath syzygy /nonexistent/EGT/Syzygy")
        shown = [l for l in p.ping(1) if not l.startswith("#")]
        check(shown == [], f"the GUI was shown {shown}")
        p.send("new")
        p.send("sd 3")
        p.send("go")
        p.engine_move()
        check(p.quit() == 0, "polyglot did not exit with status 0 after quit")
    finally:
        p.close()


def test_a_game_of_legal_moves(polyglot, arbiter):
    p, oracle = Polyglot(polyglot, arbiter), Oracle(arbiter)
    rng = random.Random(1)
    moves = []
    try:
        p.handshake()
        p.send("new")
        p.send("sd 4")
        p.send("go")  # Arbiter plays White
        for ply in range(PLIES):
            move = p.engine_move()
            legal = oracle.legal_moves("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            check(move in legal, f"Arbiter's move {move} after {moves or 'the start'} is not one of {legal}")
            moves.append(move)
            replies = oracle.legal_moves("position startpos moves " + " ".join(moves))
            if not replies:
                break
            reply = rng.choice(replies)
            p.send(f"usermove {reply}")
            moves.append(reply)
        check(len(moves) >= 2 * PLIES, f"only {moves}")
        check(p.quit() == 0, "polyglot did not exit with status 0 after quit")
    finally:
        p.close()
        oracle.close()


def test_chess960(polyglot, arbiter):
    p, oracle = Polyglot(polyglot, arbiter), Oracle(arbiter)
    try:
        p.handshake()
        for side_to_move in ("w", "b"):
            fen = CHESS960_FEN.replace(" w ", f" {side_to_move} ")
            p.send("new")
            p.send("variant fischerandom")
            p.send(f"setboard {fen}")
            p.send("sd 4")
            p.send("go")
            move = p.engine_move()
            oracle.chess960(True)
            legal = oracle.legal_moves(f"position fen {fen}")
            move = CASTLING_960[side_to_move].get(move, move)
            check(move in legal, f"Arbiter's move {move} in {fen} is not one of {legal}")
        check(p.quit() == 0, "polyglot did not exit with status 0 after quit")
    finally:
        p.close()
        oracle.close()


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    polyglot = find_polyglot()
    if not polyglot:
        print("SKIPPED: polyglot is not installed (apt-get install polyglot); the xboard route is untested")
        return 77
    arbiter = os.path.abspath(sys.argv[1])
    return run_tests([test_handshake, test_missing_egtpath_is_harmless, test_a_game_of_legal_moves, test_chess960],
                     polyglot, arbiter)


if __name__ == "__main__":
    sys.exit(main())

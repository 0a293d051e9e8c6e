#!/usr/bin/env python3
"""scripts/soak.py without playing: the Chess960 numbering of its DFRC book, the book's
lines, the commands it gives match.py, and the figures it reads back from match.py's
report and adds up into the summary."""
import importlib.util
import pathlib
import sys
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "soak.py"
spec = importlib.util.spec_from_file_location("soak_script", SCRIPT)
soak = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = soak
spec.loader.exec_module(soak)

REPORT = """arbiter vs stockfish, tc 1+0.01, 50 games
W/D/L: 10/15/25  score 35.0%  draws 30.0%  Elo -107.5 +/- 80.1 (95%)
LLR (elo0=0, elo1=10): -1.20 [-2.94, 2.94] continue
time forfeits: arbiter 0, stockfish 2; illegal moves: arbiter 0, stockfish 0; crashes/disconnects: arbiter 1, stockfish 0; protocol warnings: arbiter 0, stockfish 7
"""


class SoakTest(unittest.TestCase):
    def test_back_ranks_follow_the_standard_numbering(self):
        self.assertEqual(soak.back_rank(518), "RNBQKBNR")
        self.assertEqual(soak.back_rank(0), "BBQNNRKR")
        self.assertEqual(soak.back_rank(959), "RKRNNQBB")
        ranks = {soak.back_rank(n) for n in range(960)}
        self.assertEqual(len(ranks), 960)
        for rank in ranks:
            with self.subTest(rank=rank):
                self.assertEqual(sorted(rank), sorted("RNBQKBNR"))
                bishops = [i for i, p in enumerate(rank) if p == "B"]
                self.assertNotEqual(bishops[0] % 2, bishops[1] % 2)
                rooks = [i for i, p in enumerate(rank) if p == "R"]
                self.assertLess(rooks[0], rank.index("K"))
                self.assertLess(rank.index("K"), rooks[1])

    def test_the_dfrc_book(self):
        with tempfile.TemporaryDirectory() as d:
            path = pathlib.Path(d) / "dfrc.epd"
            soak.dfrc_book(path, 50, seed=1)
            lines = path.read_text().splitlines()
        self.assertEqual(len(lines), 50)
        differ = 0
        for line in lines:
            placement, side, rights, ep = line.split()
            ranks = placement.split("/")
            self.assertEqual((side, ep, ranks[1], ranks[6]), ("w", "-", "pppppppp", "PPPPPPPP"))
            white, black = ranks[7], ranks[0]
            differ += white.lower() != black
            files = [i for i, p in enumerate(white) if p == "R"]
            self.assertEqual(rights[:2], "".join("ABCDEFGH"[i] for i in reversed(files)))
            self.assertEqual(rights[2:], "".join("abcdefgh"[i] for i, p in enumerate(black) if p == "r")[::-1])
        self.assertGreater(differ, 40)

    def test_commands(self):
        setting = next(s for s in soak.PLAN if s.name == "stockfish-5+0.05-cutechess-ponder")
        cmd = soak.match_command(setting, "/e/arbiter", 50, seed=7, pgn=pathlib.Path("x.pgn"), book=None)
        self.assertIn("--ponder", cmd)
        self.assertEqual(cmd[cmd.index("--tool") + 1], "cutechess")
        soak.OPPONENT_TC["self-1+0.01-fastchess"] = "2+0.02"
        try:
            odds = next(s for s in soak.PLAN if s.name == "self-1+0.01-fastchess")
            cmd = soak.match_command(odds, "/e/arbiter", 50, seed=7, pgn=pathlib.Path("x.pgn"), book=None)
        finally:
            del soak.OPPONENT_TC["self-1+0.01-fastchess"]
        self.assertEqual(cmd[cmd.index("--opponent") + 1], "/e/arbiter")
        self.assertEqual(cmd[cmd.index("--opponent-tc") + 1], "2+0.02")
        self.assertGreaterEqual(sum(s.games for s in soak.PLAN), 2000)

    def test_reports_add_up(self):
        part = soak.parse_report(REPORT)
        self.assertEqual(part["games"], 50)
        self.assertEqual((part["wins"], part["draws"], part["losses"]), (10, 15, 25))
        self.assertEqual(part["arbiter"], {"time": 0, "illegal": 0, "crash": 1, "warnings": 0})
        self.assertEqual(part["opponent"], {"time": 2, "illegal": 0, "crash": 0, "warnings": 7})
        self.assertIsNone(soak.parse_report(REPORT.splitlines()[0]))
        total = {}
        soak.add(total, part)
        soak.add(total, part)
        self.assertEqual(total["games"], 100)
        self.assertEqual(total["opponent"]["warnings"], 14)
        table = soak.summary({"a": total, "b": {"note": "skipped"}})
        self.assertIn("total", table)
        self.assertIn("skipped", table)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""Checks scripts/match.py, its statistics (match_stats.py) and its reading of PGN and tool output
(match_results.py) against hand-computed values."""
import contextlib
import importlib.util
import io
import math
import pathlib
import sys
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "match.py"
spec = importlib.util.spec_from_file_location("match_script", SCRIPT)
match = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = match  # dataclasses look their module up while the class is built
spec.loader.exec_module(match)
sys.path.insert(0, str(SCRIPT.parent))
import match_results  # noqa: E402
import match_stats  # noqa: E402

# Expected score at +5 logistic Elo: 1 / (1 + 10^(-5/400)).
S5 = 0.5071950817090514


class EloTest(unittest.TestCase):
    def test_even_score_is_zero_elo(self):
        self.assertEqual(match_stats.elo_from_score(0.5), 0.0)

    def test_three_quarters_is_400_log10_3(self):
        # 0.75 = 1 / (1 + 10^(-d/400))  =>  d = 400 log10(3) = 190.8485...
        self.assertAlmostEqual(match_stats.elo_from_score(0.75), 190.8485, places=3)
        self.assertAlmostEqual(match_stats.elo_from_score(0.25), -190.8485, places=3)

    def test_extremes_are_infinite(self):
        self.assertEqual(match_stats.elo_from_score(1.0), math.inf)
        self.assertEqual(match_stats.elo_from_score(0.0), -math.inf)

    def test_score_from_elo_inverts(self):
        self.assertAlmostEqual(match_stats.score_from_elo(5.0), S5, places=12)
        self.assertAlmostEqual(match_stats.elo_from_score(match_stats.score_from_elo(-123.4)), -123.4, places=9)

    def test_interval_of_120_40_40(self):
        # s = 0.7, var = (120*0.09 + 40*0.04 + 40*0.49)/200 = 0.16,
        # half = 1.96 sqrt(0.16/200) = 0.055436: scores 0.644564 .. 0.755436.
        self.assertAlmostEqual(match_stats.game_variance(120, 40, 40), 0.16, places=12)
        elo, lower, upper = match_stats.elo_interval(120, 40, 40)
        self.assertAlmostEqual(elo, 147.19, places=2)
        self.assertAlmostEqual(lower, 103.40, places=2)
        self.assertAlmostEqual(upper, 195.92, places=2)
        self.assertAlmostEqual(match_stats.elo_margin(120, 40, 40), 46.26, places=2)

    def test_interval_is_symmetric_for_an_even_score(self):
        elo, lower, upper = match_stats.elo_interval(30, 40, 30)
        self.assertEqual(elo, 0.0)
        self.assertAlmostEqual(lower, -upper, places=9)

    def test_all_draws_have_no_spread(self):
        self.assertEqual(match_stats.elo_interval(0, 10, 0), (0.0, 0.0, 0.0))


class SprtTest(unittest.TestCase):
    def test_bounds(self):
        lower, upper = match_stats.sprt_bounds(0.05, 0.05)
        self.assertAlmostEqual(lower, math.log(0.05 / 0.95), places=12)
        self.assertAlmostEqual(upper, 2.944439, places=6)

    def test_even_match_value(self):
        # W=L=25, D=50: s = 0.5, var = 0.125, LLR = 100 (S5-0.5)(0.5-S5) / 0.25 = -400 (S5-0.5)^2.
        self.assertAlmostEqual(match_stats.sprt_llr(25, 50, 25, 0, 5), -0.0207077, places=6)

    def test_winning_match_value(self):
        # W/D/L 1200/2000/800: s = 0.55, var = 0.1225, LLR = 4000 (S5-0.5)(1.1-0.5-S5) / 0.245.
        self.assertAlmostEqual(match_stats.sprt_llr(1200, 2000, 800, 0, 5), 10.9019, places=3)
        self.assertEqual(match_stats.sprt_decision(10.9, 0.05, 0.05), "H1 accepted")

    def test_sign_flips_at_the_midpoint_score(self):
        # LLR is negative below (s0+s1)/2 and positive above it.
        self.assertLess(match_stats.sprt_llr(500, 1000, 500, 0, 5), 0)
        self.assertGreater(match_stats.sprt_llr(520, 1000, 480, 0, 5), 0)
        self.assertLess(match_stats.sprt_llr(480, 1000, 520, 0, 5), match_stats.sprt_llr(500, 1000, 500, 0, 5))

    def test_decisions_around_the_bounds(self):
        lower, upper = match_stats.sprt_bounds(0.05, 0.05)
        self.assertEqual(match_stats.sprt_decision(upper + 1e-9, 0.05, 0.05), "H1 accepted")
        self.assertEqual(match_stats.sprt_decision(upper - 1e-3, 0.05, 0.05), "continue")
        self.assertEqual(match_stats.sprt_decision(lower + 1e-3, 0.05, 0.05), "continue")
        self.assertEqual(match_stats.sprt_decision(lower - 1e-9, 0.05, 0.05), "H0 accepted")
        # An even match of 10,000 games does not yet reject +5 Elo, 20,000 games do.
        self.assertEqual(match_stats.sprt_decision(match_stats.sprt_llr(2500, 5000, 2500, 0, 5), 0.05, 0.05), "continue")
        self.assertEqual(match_stats.sprt_decision(match_stats.sprt_llr(5000, 10000, 5000, 0, 5), 0.05, 0.05),
                         "H0 accepted")

    def test_degenerate_records_stay_finite(self):
        self.assertEqual(match_stats.sprt_llr(0, 0, 0, 0, 5), 0.0)
        # 2/0/0: s = 1, var from (2, 0.5, 0.5) = 0.4375/3, LLR = 2 (S5-0.5)(2-0.5-S5) / (2 var).
        self.assertAlmostEqual(match_stats.sprt_llr(2, 0, 0, 0, 5), 0.0490, places=4)
        self.assertEqual(match_stats.sprt_decision(match_stats.sprt_llr(2, 0, 0, 0, 5), 0.05, 0.05), "continue")
        self.assertLess(match_stats.sprt_llr(0, 10, 0, 0, 5), 0)


PGN = r"""[Event "t"]
[White "Arbiter"]
[Black "Phalanx"]
[Result "1-0"]
[Termination "normal"]

1. f3 e5 2. g4 {a comment spanning lines
[Event "not a tag"]
} Qh4# {White mates} 1-0

[Event "t"]
[White "Phalanx"]
[Black "Arbiter"]
[Result "1-0"]
[Termination "time forfeit"]

1. e4 {+0.20/10 0.1s} e5 {-0.10/9 0.2s, Black loses on time} 1-0

[Event "t"]
[White "Arbiter"]
[Black "Phalanx"]
[Result "1/2-1/2"]

1. e4 e5 {Draw by 3-fold repetition} 1/2-1/2
[Event "t"]
[White "Phalanx"]
[Black "Arbiter"]
[Result "0-1"]
[Termination "illegal move"]

1. d4 {+0.3/5 0.1s} d5 {-0.2/6 0.1s, White makes an illegal move: d4d6} 0-1

[Event "t"]
[White "Arbiter"]
[Black "Phalanx"]
[Result "*"]
[Termination "unterminated"]

1. e4 * 

[Event "t"]
[White "Phalanx"]
[Black "Arbiter"]
[FEN "8/8/8/8/8/4k3/8/4K2Q w - - 0 1"]
[SetUp "1"]
[Result "1/2-1/2"]
[Termination "time forfeit"]

1. Qh2 Kd3 2. Qg3+ {Draw by timeout} 1/2-1/2

[Event "t"]
[White "Arbiter"]
[Black "Phalanx"]
[Result "1-0"]
[Termination "abandoned"]

1. e4 {Black disconnects} 1-0

[Event "t"]
[White "Stockfish"]
[Black "Phalanx"]
[Result "1-0"]

1. e4 1-0
"""


class PgnTest(unittest.TestCase):
    def setUp(self):
        self.tally = match_results.parse_pgn_results(PGN, "Arbiter")

    def test_games_are_split_at_tag_sections_only(self):
        self.assertEqual(len(match_results.split_pgn(PGN)), 8)

    def test_wdl_from_the_engine_point_of_view(self):
        # wins: games 1, 4, 7; losses: game 2; draws: games 3, 6; game 5 unfinished, game 8 not ours.
        t = self.tally
        self.assertEqual((t.wins, t.draws, t.losses), (3, 2, 1))
        self.assertEqual((t.unfinished, t.other), (1, 1))

    def test_problems_are_charged_to_the_offender(self):
        t = self.tally
        # Game 2 names Black in the comment; game 6 (cutechess' "Draw by timeout") names nobody:
        # 3 plies from White to move leave Black, Arbiter, on move with its flag down.
        self.assertEqual(t.problem_count("time", "Arbiter"), 2)
        self.assertEqual(t.problem_count("time", "Phalanx"), 0)
        self.assertEqual(t.problem_count("illegal", "Phalanx"), 1)
        self.assertEqual(t.problem_count("illegal", "Arbiter"), 0)
        self.assertEqual(t.problem_count("crash", "Phalanx"), 1)
        self.assertEqual(t.problem_count("crash", "Arbiter"), 0)

    def test_ply_count_skips_comments_numbers_and_variations(self):
        game = match_results.Game({}, "1. e4 {x} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 3... a6 1-0")
        self.assertEqual(game.ply_count(), 5)

    def test_offender_is_the_loser_without_a_named_side(self):
        game = match_results.Game({"Result": "0-1", "Termination": "time forfeit"}, "1. e4 e5 0-1")
        self.assertEqual(game.problem(), ("time", "White"))


class WarningTest(unittest.TestCase):
    def test_flags_warnings_but_not_lines_the_pgn_counts(self):
        lines = [
            "Started game 1 of 4 (Arbiter vs Phalanx)",
            "Warning: Phalanx: unknown feature",
            "Finished game 1 (Arbiter vs Phalanx): 0-1 {White makes an illegal move: e2e5}",
            "  Timeouts: 0",
            "  Crashed: 0",
            "Warning; Engine Arbiter didn't respond to uci.",
            "Engine Phalanx loses on time by 12ms",
            "Score of Arbiter vs Phalanx: 1 - 0 - 0",
            '   "Loss: White makes an illegal move: c8f8": 1',
        ]
        self.assertEqual(match_results.protocol_warnings(lines), ["Warning: Phalanx: unknown feature",
                                                          "Warning; Engine Arbiter didn't respond to uci."])

    def test_log_entries_count_once_without_their_context(self):
        console = ["Warning; Bestmove does not match beginning of last PV - move c1c6 from X"]
        log = [
            "[WARN  ] [08:51:00.900189] <                    > fastchess --- Warning; Bestmove does not "
            "match beginning of last PV - move c1c6 from X",
            "Info; info depth 13 score cp -320 pv c1c7",
            "Position; fen 8/8/8/8/8/8/8/K1k5 w - - 0 1",
            "[WARN  ] [08:51:02.000000] <      Thread 1      > fastchess --- Engine X did not respond "
            "to uciok in time.",
            "[WARN  ] [08:51:03.000000] <      Thread 1      > fastchess --- Engine X loses on time by 12ms",
        ]
        self.assertEqual(match_results.log_warnings(log, console), ["Engine X did not respond to uciok in time."])

    def test_warnings_are_charged_to_the_player_they_name(self):
        warnings = [
            "Warning; Bestmove does not match beginning of last PV - move e1d1 from SF-1500",
            "Warning; Bestmove does not match beginning of last PV - move b5c6 from SF-1500",
            "Engine Arbiter-1500 did not respond to uciok in time.",
            "Warning: unknown tool option",
            "Engine Arbiter-1500 vs SF-1500 stalled",
            # A name inside a longer one is not that name.
            "Warning; Engine SF-15000 said something",
        ]
        self.assertEqual(match_results.warnings_by_player(warnings, ["Arbiter-1500", "SF-1500"]),
                         {"Arbiter-1500": 1, "SF-1500": 2, "": 3})

    def test_the_report_names_each_players_warnings(self):
        tally = match_results.parse_pgn_results('[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 1-0\n', "A")
        text = match.report(tally, "B", "10+0.1", match.DEFAULT_SPRT, ["Warning; move e1d1 from B"])
        self.assertIn("protocol warnings: A 0, B 1", text)
        self.assertNotIn("unattributed", text)


def pgn_game(round_tag, white, black, result, fen="8/8/8/8/8/4k3/8/4K2Q w - - 0 1"):
    return (f'[Round "{round_tag}"]\n[White "{white}"]\n[Black "{black}"]\n[FEN "{fen}"]\n'
            f'[Result "{result}"]\n[TimeControl "-"]\n\n{result}\n\n')


class PentanomialTest(unittest.TestCase):
    def test_agrees_with_fastchess(self):
        # fastchess' reports (model logistic, [0, 10]) of the SPRTs of gen4g-r6 and gen4h-r7
        # against gen4e-r4 (2026-11-28):
        # pentanomial counts, Elo, its 95% margin and the LLR, each to the digits printed.
        for pairs, elo, margin, llr in (([120, 271, 419, 318, 122], 7.09, 10.75, 0.69),
                                        ([118, 269, 416, 315, 122], 7.57, 10.79, 0.85),
                                        ([33, 69, 140, 112, 51], 33.99, 19.03, 3.02)):
            with self.subTest(pairs=pairs):
                estimate, lower, upper = match_stats.pentanomial_interval(pairs)
                self.assertAlmostEqual(estimate, elo, delta=0.005)
                self.assertAlmostEqual((upper - lower) / 2, margin, delta=0.005)
                self.assertAlmostEqual(match_stats.pentanomial_llr(pairs, 0, 10), llr, delta=0.005)

    def test_closest_distribution_has_the_mean_asked_for(self):
        observed = [0.1, 0.2, 0.3, 0.25, 0.15]
        for mean in (0.3, 0.5, 0.5145, 0.7):
            with self.subTest(mean=mean):
                p = match_stats.closest_distribution(observed, match_stats.PAIR_CLASS_SCORES, mean)
                self.assertAlmostEqual(sum(p), 1.0)
                self.assertAlmostEqual(sum(x * a for x, a in zip(p, match_stats.PAIR_CLASS_SCORES)), mean)
        # The observed mean itself: the observed distribution is the closest.
        mean = sum(x * a for x, a in zip(observed, match_stats.PAIR_CLASS_SCORES))
        for x, y in zip(match_stats.closest_distribution(observed, match_stats.PAIR_CLASS_SCORES, mean), observed):
            self.assertAlmostEqual(x, y)

    def test_near_zero_the_normal_approximation_agrees(self):
        pairs = [160, 390, 600, 420, 160]
        s, var = match_stats.pair_score_and_variance(pairs)
        self.assertAlmostEqual(match_stats.pentanomial_llr(pairs, 0, 5),
                               match_stats.gsprt_llr(sum(pairs), s, var, 0, 5), delta=0.01)

    def test_by_hand(self):
        # Pairs scoring 0.5 and 1.5 points, one each: s = 1/2, var = (1/4)^2.
        self.assertEqual(match_stats.pair_score_and_variance([0, 1, 0, 1, 0]), (0.5, 0.0625))
        # 30 pairs of 1.5 points (3/4 per game) and 10 of 0.5 (1/4): s = 0.625, and var is that of
        # a two-valued variable half a point apart, 3/4 * 1/4 * (1/2)^2.
        s, var = match_stats.pair_score_and_variance([0, 10, 0, 30, 0])
        self.assertAlmostEqual(s, 0.625)
        self.assertAlmostEqual(var, 0.75 * 0.25 * 0.25)
        # On two values the only distribution of mean m puts (m - 1/4) / (1/2) on 3/4.
        for m in (0.3, 0.5, 0.625):
            q = (m - 0.25) / 0.5
            for x, y in zip(match_stats.closest_distribution([0.25, 0.75], (0.25, 0.75), m), [1 - q, q]):
                self.assertAlmostEqual(x, y)
        # So with only those two classes observed the LLR is nearly that of a two-valued
        # variable; the empty classes, a thousandth of a pair each, move it by 0.002 here.
        s0, s1 = match_stats.score_from_elo(0), S5
        q0, q1 = (s0 - 0.25) / 0.5, (s1 - 0.25) / 0.5
        by_hand = 30 * math.log(q1 / q0) + 10 * math.log((1 - q1) / (1 - q0))
        self.assertAlmostEqual(match_stats.pentanomial_llr([0, 10, 0, 30, 0], 0, 5), by_hand, delta=0.005)

    def test_symmetric_pairs_are_even(self):
        self.assertEqual(match_stats.pentanomial_interval([3, 5, 7, 5, 3])[0], 0.0)
        self.assertLess(match_stats.pentanomial_llr([3, 5, 7, 5, 3], 0, 5), 0.0)
        self.assertEqual(match_stats.pentanomial_llr([0, 0, 0, 0, 0], 0, 5), 0.0)

    def test_pairs_are_the_two_games_of_a_round(self):
        text = (pgn_game(1, "A", "B", "1-0") + pgn_game(1, "B", "A", "1/2-1/2")     # 1.5 points
                + pgn_game(2, "B", "A", "1-0") + pgn_game(2, "A", "B", "0-1")       # 0 points
                + pgn_game(3, "A", "B", "1-0")                                      # second game missing
                + pgn_game(4, "A", "B", "1-0") + pgn_game(4, "B", "A", "1-0", fen="8/8/8/8/8/3k4/8/4K2Q w - - 0 1")
                + pgn_game(5, "A", "B", "1-0") + pgn_game(5, "A", "B", "1-0")       # same colours
                + pgn_game(6, "A", "B", "1-0") + pgn_game(6, "B", "A", "*")         # unfinished
                + pgn_game(7, "A", "B", "1-0") + pgn_game(7, "C", "A", "1-0")       # two opponents
                + pgn_game(8, "A", "B", "1-0") + pgn_game(8, "B", "A", "1-0")       # the same seed
                + pgn_game(8, "A", "B", "1-0") + pgn_game(8, "B", "A", "1-0"))      # appended twice
        tally = match_results.parse_pgn_results(text, "A")
        self.assertEqual((tally.wins, tally.draws, tally.losses, tally.unfinished), (9, 1, 6, 1))
        self.assertEqual(tally.pairs, [1, 0, 0, 1, 0])
        report = match.report(tally, "B", "no clock", (0.0, 10.0, 0.05, 0.05), [])
        self.assertIn("pairs scoring 0/0.5/1/1.5/2: 1/0/0/1/0", report)
        self.assertIn("(pentanomial; trinomial", report)

    def test_without_pairs_the_report_is_trinomial(self):
        tally = match_results.parse_pgn_results('[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 1-0\n', "A")
        report = match.report(tally, "B", "10+0.1", match.DEFAULT_SPRT, [])
        self.assertNotIn("pairs", report)
        self.assertNotIn("pentanomial", report)


class TallyTest(unittest.TestCase):
    """--tally: a match continued over several runs, each a PGN file whose rounds start at 1."""

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.first = pathlib.Path(self.directory.name) / "first.pgn"
        self.second = pathlib.Path(self.directory.name) / "second.pgn"
        self.first.write_text(pgn_game(1, "A", "B", "1-0") + pgn_game(1, "B", "A", "0-1")
                              + pgn_game(2, "A", "B", "1/2-1/2"))
        self.second.write_text(pgn_game(1, "A", "B", "0-1") + pgn_game(2, "B", "A", "1/2-1/2")
                               + pgn_game(2, "A", "B", "1/2-1/2"))

    def tearDown(self):
        self.directory.cleanup()

    def run_main(self, argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = match.main(argv)
        return code, out.getvalue(), err.getvalue()

    def test_runs_are_joined_and_paired_file_by_file(self):
        code, out, _ = self.run_main(["--tally", str(self.first), str(self.second), "--engine-name", "A"])
        self.assertEqual(code, 0)
        self.assertIn("A vs B, tc no clock, 6 games", out)
        self.assertIn("W/D/L: 2/3/1", out)
        # Round 1 of the first file (2 points) and round 2 of the second (1 point); round 1 of
        # the second file does not pair with round 1 of the first.
        self.assertIn("pairs scoring 0/0.5/1/1.5/2: 0/0/1/0/1", out)

    def test_bad_input_is_reported(self):
        code, _, err = self.run_main(["--tally", str(self.first), "--engine-name", "C"])
        self.assertEqual(code, 3)
        self.assertIn("no finished game of 'C'", err)
        code, _, err = self.run_main(["--tally", str(self.first) + ".missing", "--engine-name", "A"])
        self.assertEqual(code, 2)
        self.assertIn("--tally", err)
        with self.assertRaises(SystemExit) as raised, contextlib.redirect_stderr(io.StringIO()):
            match.parse_args(["--engine", "/bin/true"])
        self.assertEqual(raised.exception.code, 2)


class CommandLineTest(unittest.TestCase):
    """The tool's command line, above all who gets which clock."""

    @staticmethod
    def plan(tc="10+0.1", opponent_tc=None):
        engines = (match.EngineSpec("A", "/bin/a", "uci", ["Hash=16"], []),
                   match.EngineSpec("B", "/bin/b", "uci", [], []))
        return match.MatchPlan(engines, tc, 5, None, 2, pathlib.Path("book.epd"), "epd", 7,
                               pathlib.Path("games.pgn"), False, [], opponent_tc)

    @staticmethod
    def engine_sections(cmd):
        """The arguments of each -engine, and those of -each (None without one)."""
        sections, each, current = [], None, None
        for arg in cmd[1:]:
            if arg.startswith("-"):
                current = [] if arg in ("-engine", "-each") else None
                if arg == "-engine":
                    sections.append(current)
                elif arg == "-each":
                    each = current
            elif current is not None:
                current.append(arg)
        return sections, each

    def test_one_control_goes_to_each(self):
        for build in (match.fastchess_command, match.cutechess_command):
            cmd = build("tool", self.plan(), pathlib.Path("log")) if build is match.fastchess_command \
                else build("tool", self.plan())
            sections, each = self.engine_sections(cmd)
            self.assertEqual(each, ["tc=10+0.1"])
            self.assertFalse(any(arg.startswith("tc=") for section in sections for arg in section))

    def test_time_odds_give_each_engine_its_own_control(self):
        plan = self.plan("8+0.08", "1+0.01")
        for cmd in (match.fastchess_command("tool", plan, pathlib.Path("log")),
                    match.cutechess_command("tool", plan)):
            sections, each = self.engine_sections(cmd)
            # A control under -each would override both engines' own (fastchess applies it last).
            self.assertIsNone(each)
            self.assertIn("tc=8+0.08", sections[0])
            self.assertIn("tc=1+0.01", sections[1])
            self.assertNotIn("tc=1+0.01", sections[0])
        self.assertEqual(plan.describe_tc(), "8+0.08 against 1+0.01")

    def test_fixed_nodes_use_an_infinite_clock(self):
        sections, each = self.engine_sections(
            match.fastchess_command("tool", self.plan("nodes=40000"), pathlib.Path("log")))
        self.assertEqual(each, ["tc=inf", "nodes=40000"])

    def test_pondering_goes_to_each_engine_and_needs_cutechess(self):
        plan = self.plan()
        plan.ponder = True
        sections, each = self.engine_sections(match.cutechess_command("tool", plan))
        self.assertEqual(each, ["tc=10+0.1"])  # cutechess-cli takes a single -each
        self.assertTrue(all("ponder" in section for section in sections))
        # cutechess-cli sets Ponder itself and warns about one set by hand: none is passed,
        # not even a known opponent's default. (A stand-in named glaurung: the opponent's
        # defaults go by the program's name, and Debian's may not be installed.)
        with tempfile.TemporaryDirectory() as directory:
            glaurung = pathlib.Path(directory) / "glaurung"
            glaurung.write_text("#!/bin/sh\n")
            glaurung.chmod(0o755)
            args = match.parse_args(["--opponent", str(glaurung), "--engine", "/bin/true", "--ponder",
                                     "--engine-option", "Ponder=true", "--engine-option", "Hash=8"])
            engine, opponent, _ = match.build_engines(args)
        self.assertEqual(engine.options, ["Hash=8"])
        self.assertFalse(any(o.lower().startswith("ponder") for o in opponent.options))
        self.assertIn("Threads=1", opponent.options)
        with contextlib.redirect_stderr(io.StringIO()) as err:
            status = match.main(["--opponent", "/bin/true", "--engine", "/bin/true", "--ponder",
                                 "--tool", "fastchess", "--games", "2"])
        self.assertEqual(status, 2)
        self.assertIn("--ponder needs cutechess-cli", err.getvalue())

    def test_opponent_control_is_checked(self):
        base = ["--opponent", "/bin/true", "--engine", "/bin/true"]
        self.assertEqual(match.parse_args(base + ["--tc", "8+0.08", "--opponent-tc", "1+0.01"]).opponent_tc,
                         "1+0.01")
        for bad in (["--opponent-tc", "fast"], ["--nodes", "1000", "--opponent-tc", "1+0.01"]):
            with self.subTest(bad=bad), self.assertRaises(SystemExit) as raised, \
                    contextlib.redirect_stderr(io.StringIO()):
                match.parse_args(base + bad)
            self.assertEqual(raised.exception.code, 2)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""Plays Arbiter against an opponent under fastchess or cutechess-cli and reports the result.

This is how strength claims are measured: a fixed number of games, or an SPRT, from an opening
book, with W/D/L, Elo and its 95% error, the SPRT log-likelihood ratio, and every time forfeit,
illegal move, crash and tournament-manager warning counted. Python 3 standard library only.

usage:
  scripts/match.py --opponent ENGINE [--engine build/arbiter] [--engine-name Arbiter]
                   [--engine-option NAME=VALUE ...] [--opponent-proto auto|uci|xboard]
                   [--opponent-option NAME=VALUE ...] [--opponent-arg ARG ...] [--opponent-name NAME]
                   [--tc 10+0.1 [--opponent-tc TC] | --nodes N]
                   [--games 200 | --sprt ELO0 ELO1 ALPHA BETA [--games MAX]]
                   [--concurrency 1] [--book FILE] [--seed N] [--pgn FILE] [--chess960]
                   [--tool fastchess|cutechess] [--tool-arg ARG ...] [--strict] [--quiet]
  scripts/match.py --tally PGN [PGN ...] [--engine-name Arbiter] [--sprt ELO0 ELO1 ALPHA BETA]

examples:
  # 200 games at 10+0.1 against Debian's Phalanx (xboard, so cutechess-cli runs it)
  scripts/match.py --opponent /usr/games/phalanx --tc 10+0.1 --games 200
  # 100 games against Fairy-Max: it cannot set up a FEN, so openings50.pgn is used by default
  scripts/match.py --opponent /usr/games/fairymax --games 100
  # a repeating control (40 moves in 10 s) and a very fast one
  scripts/match.py --opponent /usr/games/phalanx --tc 40/10 --games 100
  scripts/match.py --opponent /usr/games/phalanx --tc 1+0.01 --games 100
  # SPRT of a new build against the previous one (fastchess), games saved
  scripts/match.py --engine build/arbiter --opponent ../base/build/arbiter --opponent-name base \\
                   --tc 10+0.1 --sprt 0 5 0.05 0.05 --concurrency 2 --pgn sprt.pgn
  # the report of an SPRT stopped and continued with another seed and PGN file, as one match
  scripts/match.py --tally sprt.pgn sprt-2.pgn --engine-name Arbiter --sprt 0 5 0.05 0.05
  # time odds: Arbiter at 8+0.08 against Stockfish at one eighth of that
  scripts/match.py --opponent /usr/games/stockfish --tc 8+0.08 --opponent-tc 1+0.01 --games 100
  # Glaurung (UCI) needs these three options; the script adds them itself (see "Known
  # opponents"), this is the explicit form
  scripts/match.py --opponent /usr/games/glaurung \\
                   --opponent-option Threads=1 --opponent-option OwnBook=false --opponent-option Ponder=false

Tool: fastchess is preferred when both engines speak UCI; cutechess-cli is required as soon as one
speaks xboard (Debian's phalanx, fairymax, shamax, maxqi, sjeng). `--tool` forces one. With neither
on PATH the script says so and exits 2. The tool runs in a temporary directory (fastchess writes
config.json there), so every path given here is resolved against the current directory first.

Openings: default ../shared/data/openings/8moves_v3.epd beside the repository (3moves_FRC.epd.zip
with --chess960; openings50.pgn for opponents that cannot set up a FEN), random order with a
printed seed (`--seed` repeats a run), each opening played twice with colours reversed, so
--games must be even. A .pgn book is passed as PGN; a .zip book is unpacked into a temporary
directory outside the project first.

Time control: `10+0.1` (10 s plus 0.1 s per move), `1+0.01`, `40/10` (40 moves in 10 s, repeating),
`40/10+0.1`; cutechess' `40/1:30` is accepted too. The same control applies to both engines
unless `--opponent-tc` gives the opponent its own (time odds); the tool then gets each engine's
control in that engine's own arguments (`-engine ... tc=`) and none under `-each` (fastchess
applies `-each` after the engines' own settings, so a control there would override both).
`--nodes N` replaces the clock by N nodes per move (fastchess `tc=inf nodes=N`): the games then do
not depend on the machine's load, which suits pruning and move-ordering changes.

Known opponents (applied unless --no-opponent-defaults; explicit options come later and win):
  phalanx                    xboard, argument -l- (learning off: otherwise it learns across the
                             games of a match, which are then not independent)
  fairymax, shamax, maxqi    xboard, no setboard: default book openings50.pgn
  sjeng                      xboard
  glaurung                   uci, Threads=1 OwnBook=false Ponder=false (defaults are 2 threads,
                             own book and pondering: each one skews a match)
  toga2                      uci, OwnBook=false

Results come from the PGN the tool writes (always; a temporary file unless --pgn, which is appended
to and only the new games are counted), never from the tool's console summary:
  - W/D/L from Arbiter's point of view (the player named --engine-name), score, draw ratio;
  - Elo with a 95% interval: trinomial model, per-game variance
        var = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N,   s = (W + D/2) / N,
    score interval s +/- 1.96 sqrt(var/N), each end mapped to Elo with elo(s) = -400 log10(1/s - 1);
    printed as the Elo of s +/- half the width of the mapped interval;
  - SPRT: the generalised SPRT in its normal approximation (Michel Van den Bergh),
        LLR = N/2 * ((s - s0)^2 - (s - s1)^2) / var = N (s1 - s0) (2s - s0 - s1) / (2 var),
    where s0, s1 are the expected scores of logistic Elo elo0, elo1 (1 / (1 + 10^(-elo/400))) and
    var is computed with an empty W/D/L class counted as half a game (as a Jeffreys prior
    would), so that an all-win or all-draw start gives a finite, modest LLR. Bounds
    ln(beta/(1-alpha)) and ln((1-beta)/alpha): H0 is accepted at or below the lower, H1 at or
    above the upper, otherwise continue. Without --sprt
    the LLR for elo0=0 elo1=5 alpha=beta=0.05 is printed for information.
    In --sprt mode the tool stops the match itself (fastchess with model=logistic, the model
    above; cutechess-cli with its BayesElo model, which may stop a few games earlier or later),
    with --games as the maximum (default 50000).
  - Pentanomial: the two games of an opening (one Round tag, the same FEN, the same opponent,
    colours reversed) are a pair scoring 0, 0.5, 1, 1.5 or 2 points. The Elo interval above,
    with the pair as the sample (its points per game and their variance), is printed too,
    and the LLR as fastchess computes it (model logistic): by maximum likelihood,
        LLR = N sum_i f_i ln(p1_i / p0_i),
    f the observed frequencies of the five classes over N pairs (an empty class counted as a
    thousandth of a pair), p0 and p1 the distributions closest to f (likeliest for f) whose
    expected scores are s0 and s1 (Van den Bergh's proposition 1.1). The SPRT decision is then
    made on it, as fastchess makes it; the trinomial LLR stays beside it (cutechess-cli
    decides on its own BayesElo model). Near zero Elo the two forms of the LLR agree; at +34
    Elo after 810 games the normal approximation gave 3.13 where this gives 3.02.
  - Problems, per player: time forfeits ("time forfeit" / "loses on time"), illegal moves, and
    crashes ("abandoned", "disconnects", "stalls"), read from the Termination tag and the result
    comment; the offender is the side named in the comment, else the loser, else the side to move.
  - Protocol warnings: lines of the tool's output that contain "warning", "illegal",
    "disconnect", "crash" or "timeout", plus the entries of fastchess' warning log (-log
    level=warn) that its console did not show, except the per-game result lines and the
    forfeit/crash messages and tallies, which the PGN already counts. Counted per player: a
    warning belongs to the player it names (as a whole word); one naming neither or both is
    reported as unattributed.

`--tally PGN ...` plays nothing: it reports the games of these files as one match (a run stopped
and continued with another seed and PGN file), counted for --engine-name against whoever it met;
rounds pair only within their own file, since each run numbers its rounds from 1.

Exit status: 0 clean; 1 Arbiter lost a game on time, by an illegal move or by a crash (with
--strict also: any player did, or the tool printed a protocol warning); 2 usage error, missing
tool, engine or book; 3 the tool failed or no game finished.
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import math
import pathlib
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from match_results import (PROBLEM_KINDS, Tally, log_warnings, parse_pgn_results,  # noqa: E402
                           protocol_warnings, split_pgn, warnings_by_player)
from match_stats import (elo_interval, pentanomial_interval, pentanomial_llr, score_of,  # noqa: E402
                         sprt_bounds, sprt_decision, sprt_llr)

REPO = pathlib.Path(__file__).resolve().parent.parent
OPENINGS = REPO.parent / "shared" / "data" / "openings"
DEFAULT_BOOK = OPENINGS / "8moves_v3.epd"
DEFAULT_BOOK_960 = OPENINGS / "3moves_FRC.epd.zip"
DEFAULT_BOOK_NO_SETBOARD = OPENINGS / "openings50.pgn"
DEFAULT_SPRT = (0.0, 5.0, 0.05, 0.05)
SPRT_MAX_GAMES = 50000


# --- Engines, books, tool command lines ------------------------------------------------------

@dataclasses.dataclass
class EngineSpec:
    name: str
    cmd: str
    proto: str
    options: list[str]
    args: list[str]


# basename -> (display name, protocol, options, arguments, needs a PGN book)
KNOWN_ENGINES = {
    "phalanx": ("Phalanx", "xboard", [], ["-l-"], False),
    "fairymax": ("Fairy-Max", "xboard", [], [], True),
    "shamax": ("ShaMax", "xboard", [], [], True),
    "maxqi": ("MaxQi", "xboard", [], [], True),
    "sjeng": ("Sjeng", "xboard", [], [], False),
    "glaurung": ("Glaurung", "uci", ["Threads=1", "OwnBook=false", "Ponder=false"], [], False),
    "toga2": ("Toga2", "uci", ["OwnBook=false"], [], False),
    "stockfish": ("Stockfish", "uci", [], [], False),
}

TC_FORMAT = re.compile(r"^(\d+/)?(\d+:)?\d+(\.\d+)?(\+\d+(\.\d+)?)?$")


class UsageError(Exception):
    pass


def resolve_engine(command: str) -> str:
    path = pathlib.Path(command)
    if path.exists():
        return str(path.resolve())
    found = shutil.which(command) or shutil.which(command, path="/usr/games")
    if not found:
        raise UsageError(f"engine not found: {command}")
    return found


def check_option(option: str) -> str:
    if "=" not in option or not option.split("=", 1)[0].strip():
        raise UsageError(f"engine option must be NAME=VALUE: {option!r}")
    return option


def resolve_book(book: pathlib.Path, scratch: pathlib.Path) -> tuple[pathlib.Path, str]:
    """(file, "epd"|"pgn"); a .zip is unpacked into `scratch`, outside the project."""
    if not book.is_file():
        raise UsageError(f"opening book not found: {book}")
    if book.suffix.lower() == ".zip":
        with zipfile.ZipFile(book) as archive:
            members = [m for m in archive.namelist() if m.lower().endswith((".epd", ".pgn"))]
            if not members:
                raise UsageError(f"no .epd or .pgn file inside {book}")
            book = pathlib.Path(archive.extract(members[0], scratch))
    suffix = book.suffix.lower()
    if suffix not in (".epd", ".pgn"):
        raise UsageError(f"opening book must be .epd, .pgn or .zip: {book}")
    return book, suffix[1:]


def choose_tool(forced: str | None, protos: list[str]) -> tuple[str, str]:
    """(kind, executable): fastchess for UCI-only matches, cutechess-cli once xboard is involved."""
    fastchess, cutechess = shutil.which("fastchess"), shutil.which("cutechess-cli")
    needs_cutechess = "xboard" in protos
    if forced == "fastchess":
        if needs_cutechess:
            raise UsageError("fastchess speaks only UCI; an xboard engine needs --tool cutechess")
        if not fastchess:
            raise UsageError("fastchess is not on PATH")
        return "fastchess", fastchess
    if forced == "cutechess":
        if not cutechess:
            raise UsageError("cutechess-cli is not on PATH")
        return "cutechess", cutechess
    if fastchess and not needs_cutechess:
        return "fastchess", fastchess
    if cutechess:
        return "cutechess", cutechess
    if needs_cutechess:
        raise UsageError("an xboard engine needs cutechess-cli, which is not on PATH")
    raise UsageError("neither fastchess nor cutechess-cli is on PATH; install one of them")


@dataclasses.dataclass
class MatchPlan:
    engines: tuple[EngineSpec, EngineSpec]
    tc: str
    rounds: int  # each round is one opening played twice, colours reversed
    sprt: tuple[float, float, float, float] | None
    concurrency: int
    book: pathlib.Path
    book_format: str
    seed: int
    pgn: pathlib.Path
    chess960: bool
    tool_args: list[str]
    opponent_tc: str | None = None  # time odds: the opponent's own control
    ponder: bool = False  # both engines think on the opponent's time (cutechess-cli only)

    def engine_tcs(self) -> tuple[str, str] | None:
        """(engine's, opponent's) control when the opponent has its own, else None (one for both)."""
        return (self.tc, self.opponent_tc) if self.opponent_tc else None

    def describe_tc(self) -> str:
        return f"{self.tc} against {self.opponent_tc}" if self.opponent_tc else self.tc


def fastchess_command(exe: str, plan: MatchPlan, log: pathlib.Path) -> list[str]:
    cmd = [exe]
    own_tcs = plan.engine_tcs()
    for index, engine in enumerate(plan.engines):
        cmd += ["-engine", f"cmd={engine.cmd}", f"name={engine.name}"]
        if engine.args:
            cmd.append("args=" + " ".join(engine.args))
        cmd += [f"option.{option}" for option in engine.options]
        if own_tcs:
            cmd.append(f"tc={own_tcs[index]}")
    if not own_tcs:
        cmd += ["-each", *(["tc=inf", plan.tc] if plan.tc.startswith("nodes=") else [f"tc={plan.tc}"])]
    cmd += ["-openings", f"file={plan.book}", f"format={plan.book_format}", "order=random",
            "-srand", str(plan.seed), "-rounds", str(plan.rounds), "-games", "2", "-repeat",
            "-concurrency", str(plan.concurrency),
            "-pgnout", f"file={plan.pgn}", "append=true",
            "-log", f"file={log}", "level=warn", "append=false"]
    if plan.sprt:
        elo0, elo1, alpha, beta = plan.sprt
        cmd += ["-sprt", f"elo0={elo0:g}", f"elo1={elo1:g}", f"alpha={alpha:g}", f"beta={beta:g}",
                "model=logistic"]
    if plan.chess960:
        cmd += ["-variant", "fischerandom"]
    return cmd + plan.tool_args


def cutechess_command(exe: str, plan: MatchPlan) -> list[str]:
    cmd = [exe]
    own_tcs = plan.engine_tcs()
    for index, engine in enumerate(plan.engines):
        cmd += ["-engine", f"name={engine.name}", f"cmd={engine.cmd}", f"proto={engine.proto}"]
        cmd += [f"arg={arg}" for arg in engine.args]
        cmd += [f"option.{option}" for option in engine.options]
        if own_tcs:
            cmd.append(f"tc={own_tcs[index]}")
        if plan.ponder:
            cmd.append("ponder")
    if not own_tcs:
        cmd += ["-each", f"tc={plan.tc}"]
    cmd += ["-openings", f"file={plan.book}", f"format={plan.book_format}", "order=random",
            "-srand", str(plan.seed), "-rounds", str(plan.rounds), "-games", "2", "-repeat",
            "-concurrency", str(plan.concurrency), "-pgnout", str(plan.pgn)]
    if plan.sprt:
        elo0, elo1, alpha, beta = plan.sprt
        cmd += ["-sprt", f"elo0={elo0:g}", f"elo1={elo1:g}", f"alpha={alpha:g}", f"beta={beta:g}"]
    if plan.chess960:
        cmd += ["-variant", "fischerandom"]
    return cmd + plan.tool_args


def run_tool(cmd: list[str], cwd: pathlib.Path, quiet: bool) -> tuple[int | None, list[str]]:
    """Runs the tool, echoing its output unless quiet; (exit code or None if interrupted, lines)."""
    lines: list[str] = []
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True, errors="replace", bufsize=1)
    try:
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if not quiet:
                print(line, end="", flush=True)
        return proc.wait(), lines
    except KeyboardInterrupt:
        # A Ctrl-C at the terminal reached the tool too; a SIGINT sent to this script alone did
        # not. Either way the tool gets the chance to stop cleanly and finish the PGN.
        try:
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGINT)
                proc.wait(timeout=30)
            lines += [line.rstrip("\n") for line in proc.stdout]
        except (KeyboardInterrupt, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        return None, lines


# --- Report -----------------------------------------------------------------------------------

def format_elo(value: float) -> str:
    return f"{value:+.1f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def format_interval(interval: tuple[float, float, float]) -> str:
    """`+7.1 +/- 10.8`: the estimate and half the width of (elo, lower, upper)."""
    elo, lower, upper = interval
    margin = (upper - lower) / 2.0
    return f"{format_elo(elo)} +/- {margin:.1f}" if math.isfinite(margin) else f"{format_elo(elo)} +/- inf"


def report(tally: Tally, opponent: str, tc: str, sprt: tuple[float, float, float, float],
           warnings: list[str]) -> str:
    w, d, l, n = tally.wins, tally.draws, tally.losses, tally.games
    lines = [f"{tally.engine} vs {opponent}, tc {tc}, {n} games"
             + (f" ({tally.unfinished} unfinished)" if tally.unfinished else "")]
    if n:
        lines.append(f"W/D/L: {w}/{d}/{l}  score {100 * score_of(w, d, l):.1f}%  draws {100 * d / n:.1f}%"
                     f"  Elo {format_interval(elo_interval(w, d, l))} (95%)")
    if any(tally.pairs):
        lines.append(f"pairs scoring 0/0.5/1/1.5/2: {'/'.join(map(str, tally.pairs))}"
                     f"  Elo {format_interval(pentanomial_interval(tally.pairs))} (95%, pentanomial)")
    elo0, elo1, alpha, beta = sprt
    trinomial = sprt_llr(w, d, l, elo0, elo1)
    lower, upper = sprt_bounds(alpha, beta)
    if any(tally.pairs):  # decided as fastchess decides, on pairs
        llr = pentanomial_llr(tally.pairs, elo0, elo1)
        llr_text = f"{llr:.2f} (pentanomial; trinomial {trinomial:.2f})"
    else:
        llr, llr_text = trinomial, f"{trinomial:.2f}"
    lines.append(f"LLR (elo0={elo0:g}, elo1={elo1:g}): {llr_text} [{lower:.2f}, {upper:.2f}] "
                 f"{sprt_decision(llr, alpha, beta)}")

    def per_player(kind: str) -> str:
        return f"{tally.engine} {tally.problem_count(kind, tally.engine)}, " \
               f"{opponent} {tally.problem_count(kind, opponent)}"

    by_player = warnings_by_player(warnings, [tally.engine, opponent])
    unattributed = f", unattributed {by_player['']}" if by_player[""] else ""
    lines.append(f"time forfeits: {per_player('time')}; illegal moves: {per_player('illegal')}; "
                 f"crashes/disconnects: {per_player('crash')}; protocol warnings: {tally.engine} "
                 f"{by_player[tally.engine]}, {opponent} {by_player[opponent]}{unattributed}")
    lines += ["  " + game for game in tally.problem_games[:20]]
    lines += ["  warning: " + line.strip() for line in warnings[:20]]
    if len(warnings) > 20:
        lines.append(f"  ... and {len(warnings) - 20} more warnings")
    return "\n".join(lines)


# --- Command line -----------------------------------------------------------------------------

def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Play Arbiter against an opponent under fastchess or cutechess-cli and report "
                    "W/D/L, Elo with its 95% error, the SPRT LLR and every forfeit. See the module "
                    "docstring (head scripts/match.py) for formulas and examples.")
    parser.add_argument("--engine", default=str(REPO / "build" / "arbiter"),
                        help="engine under test (default: <repo>/build/arbiter)")
    parser.add_argument("--engine-name", default="Arbiter")
    parser.add_argument("--engine-proto", choices=("uci", "xboard"), default="uci")
    parser.add_argument("--engine-option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--opponent", help="opponent engine: a path or a name on PATH (required unless --tally)")
    parser.add_argument("--opponent-name", help="default: from the known-opponent table or the file name")
    parser.add_argument("--opponent-proto", choices=("auto", "uci", "xboard"), default="auto",
                        help="auto: xboard for Debian's phalanx, fairymax, shamax, maxqi, sjeng; else uci")
    parser.add_argument("--opponent-option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--opponent-arg", action="append", default=[], metavar="ARG",
                        help="command-line argument for the opponent")
    parser.add_argument("--no-opponent-defaults", action="store_true",
                        help="do not apply the known-opponent options, arguments and book")
    parser.add_argument("--tc", default="10+0.1", help="10+0.1, 1+0.01, 40/10 (repeating) ...")
    parser.add_argument("--opponent-tc", metavar="TC",
                        help="the opponent's own control, for time odds (default: --tc for both)")
    parser.add_argument("--nodes", type=int, metavar="N",
                        help="fixed nodes per move instead of a clock (fastchess only): results do not "
                             "depend on machine load, for pruning and ordering changes")
    parser.add_argument("--games", type=int, help=f"games to play, even (default 200; with --sprt the "
                                                  f"maximum, default {SPRT_MAX_GAMES})")
    parser.add_argument("--sprt", nargs=4, type=float, metavar=("ELO0", "ELO1", "ALPHA", "BETA"))
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--book", help="opening book .epd, .pgn or .zip (default: "
                                       "../shared/data/openings/8moves_v3.epd beside the repository)")
    parser.add_argument("--seed", type=int, help="seed of the random opening order (default: random)")
    parser.add_argument("--pgn", help="append the games to this file (default: a temporary file)")
    parser.add_argument("--chess960", action="store_true")
    parser.add_argument("--ponder", action="store_true",
                        help="both engines ponder (cutechess-cli only: fastchess has no pondering)")
    parser.add_argument("--tool", choices=("fastchess", "cutechess"))
    parser.add_argument("--tool-arg", action="append", default=[], metavar="ARG",
                        help="extra argument passed to the tool as is (use --tool-arg=-recover)")
    parser.add_argument("--strict", action="store_true",
                        help="also exit 1 on the opponent's problems and on any protocol warning")
    parser.add_argument("--quiet", action="store_true", help="do not echo the tool's output")
    parser.add_argument("--tally", nargs="+", metavar="PGN",
                        help="play nothing: report the games of these PGN files (one match continued "
                             "over several runs) from the point of view of --engine-name")
    args = parser.parse_args(argv)
    if args.tally is None and args.opponent is None:
        parser.error("--opponent is required unless --tally")
    if args.sprt:
        elo0, elo1, alpha, beta = args.sprt
        if not (0 < alpha < 1 and 0 < beta < 1 and elo0 < elo1):
            parser.error("--sprt needs elo0 < elo1 and 0 < alpha, beta < 1")
    games = args.games if args.games is not None else (SPRT_MAX_GAMES if args.sprt else 200)
    if games < 2 or games % 2:
        parser.error("--games must be even and at least 2: each opening is played twice")
    args.games = games
    if args.nodes is None and not TC_FORMAT.match(args.tc):
        parser.error(f"--tc {args.tc!r}: expected seconds+increment (10+0.1) or moves/seconds (40/10)")
    if args.opponent_tc is not None and not TC_FORMAT.match(args.opponent_tc):
        parser.error(f"--opponent-tc {args.opponent_tc!r}: expected seconds+increment (1+0.01) or "
                     f"moves/seconds (40/10)")
    if args.concurrency < 1:
        parser.error("--concurrency must be at least 1")
    if args.nodes is not None:
        if args.opponent_tc is not None:
            parser.error("--opponent-tc gives a clock; it does not combine with --nodes")
        if args.nodes < 1:
            parser.error("--nodes must be at least 1")
        if args.tool == "cutechess":
            parser.error("--nodes needs fastchess")
        args.tool = "fastchess"
        args.tc = f"nodes={args.nodes}"
    return args


def build_engines(args: argparse.Namespace) -> tuple[EngineSpec, EngineSpec, bool]:
    """(engine, opponent, opponent needs a PGN book)."""
    # --ponder: cutechess-cli sets each engine's Ponder option itself (and warns about one
    # set by hand), so no Ponder option is passed then, a known default's included.
    def kept(options: list[str]) -> list[str]:
        return [o for o in options if not (args.ponder and o.split("=")[0].strip().lower() == "ponder")]

    engine = EngineSpec(args.engine_name, resolve_engine(args.engine), args.engine_proto,
                        kept([check_option(o) for o in args.engine_option]), [])
    opponent_cmd = resolve_engine(args.opponent)
    known = None if args.no_opponent_defaults else KNOWN_ENGINES.get(pathlib.Path(opponent_cmd).name)
    name, proto, options, extra_args, needs_pgn = known or (
        pathlib.Path(opponent_cmd).name.capitalize(), "uci", [], [], False)
    if args.opponent_proto != "auto":
        proto = args.opponent_proto
    name = args.opponent_name or name
    if name == engine.name:
        name += "-2"  # the tools tell players apart by name
    opponent = EngineSpec(name, opponent_cmd, proto, kept(options + [check_option(o) for o in args.opponent_option]),
                          extra_args + args.opponent_arg)
    return engine, opponent, needs_pgn


def tally_main(args: argparse.Namespace) -> int:
    """--tally: the report over games already played, counted file by file (each file's rounds
    pair only among themselves: two runs of one match number their rounds from 1 each)."""
    tally = Tally(args.engine_name)
    opponents: collections.Counter = collections.Counter()
    controls: set[str] = set()
    for name in args.tally:
        try:
            text = pathlib.Path(name).read_text(errors="replace")
        except OSError as error:
            print(f"match.py: --tally {name}: {error.strerror}", file=sys.stderr)
            return 2
        tally.add(parse_pgn_results(text, args.engine_name))
        for game in split_pgn(text):
            white, black = game.tags.get("White", "?"), game.tags.get("Black", "?")
            if args.engine_name in (white, black):
                opponents[black if white == args.engine_name else white] += 1
                control = game.tags.get("TimeControl", "?")
                controls.add("no clock" if control == "-" else control)
    if tally.games == 0:
        print(f"match.py: no finished game of {args.engine_name!r} in {', '.join(args.tally)} "
              f"(--engine-name names the player)", file=sys.stderr)
        return 3
    print(report(tally, " + ".join(name for name, _ in opponents.most_common()),
                 " / ".join(sorted(controls)), args.sprt or DEFAULT_SPRT, []))
    return 0


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.tally is not None:
        return tally_main(args)
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="arbiter-match-"))
    try:
        engine, opponent, needs_pgn = build_engines(args)
        if args.ponder and args.tool == "fastchess":
            raise UsageError("--ponder needs cutechess-cli (fastchess does not ponder)")
        tool, exe = choose_tool("cutechess" if args.ponder else args.tool, [engine.proto, opponent.proto])
        if args.book:
            book = pathlib.Path(args.book).resolve()
        elif args.chess960:
            book = DEFAULT_BOOK_960
        else:
            book = DEFAULT_BOOK_NO_SETBOARD if needs_pgn else DEFAULT_BOOK
        book, book_format = resolve_book(book, scratch)
        pgn = pathlib.Path(args.pgn).resolve() if args.pgn else scratch / "games.pgn"
        plan = MatchPlan((engine, opponent), args.tc, args.games // 2,
                         tuple(args.sprt) if args.sprt else None, args.concurrency, book, book_format,
                         args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 31),
                         pgn, args.chess960, args.tool_arg, args.opponent_tc, args.ponder)
    except UsageError as error:
        shutil.rmtree(scratch, ignore_errors=True)
        print(f"match.py: {error}", file=sys.stderr)
        return 2

    try:
        log = scratch / "fastchess-warnings.log"
        cmd = fastchess_command(exe, plan, log) if tool == "fastchess" else cutechess_command(exe, plan)
        print(f"{tool}: {engine.name} vs {opponent.name} ({opponent.proto}), tc {plan.describe_tc()}, "
              f"{'SPRT ' + ' '.join(f'{x:g}' for x in plan.sprt) + ', max ' if plan.sprt else ''}"
              f"{2 * plan.rounds} games, book {book.name} seed {plan.seed}, concurrency {plan.concurrency}",
              flush=True)
        print("$ " + " ".join(cmd), flush=True)
        pgn_offset = pgn.stat().st_size if pgn.exists() else 0
        exit_code, output = run_tool(cmd, scratch, args.quiet)

        warnings = protocol_warnings(output)
        if log.exists():
            warnings += log_warnings(log.read_text(errors="replace").splitlines(), output)
        text = ""
        if pgn.exists():
            with open(pgn, "rb") as file:
                file.seek(pgn_offset)
                text = file.read().decode(errors="replace")
        tally = parse_pgn_results(text, engine.name)
        sprt = plan.sprt or DEFAULT_SPRT
        print()
        print(report(tally, opponent.name, plan.describe_tc(), sprt, warnings))
        if args.pgn:
            print(f"games appended to {pgn}")

        arbiter_problems = sum(tally.problem_count(kind, engine.name) for kind in PROBLEM_KINDS)
        any_problems = sum(tally.problem_count(kind) for kind in PROBLEM_KINDS)
        if arbiter_problems or (args.strict and (any_problems or warnings)):
            return 1
        if exit_code is None:
            print("match.py: interrupted", file=sys.stderr)
            return 3
        if exit_code != 0 or tally.games == 0:
            print(f"match.py: {tool} exited with status {exit_code} after {tally.games} finished games",
                  file=sys.stderr)
            return 3
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

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

REPO = pathlib.Path(__file__).resolve().parent.parent
OPENINGS = REPO.parent / "shared" / "data" / "openings"
DEFAULT_BOOK = OPENINGS / "8moves_v3.epd"
DEFAULT_BOOK_960 = OPENINGS / "3moves_FRC.epd.zip"
DEFAULT_BOOK_NO_SETBOARD = OPENINGS / "openings50.pgn"
DEFAULT_SPRT = (0.0, 5.0, 0.05, 0.05)
SPRT_MAX_GAMES = 50000
Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal


# --- Statistics: pure functions --------------------------------------------------------------

def score_of(wins: float, draws: float, losses: float) -> float:
    """Mean points per game, 0.5 when no game was played."""
    n = wins + draws + losses
    return (wins + 0.5 * draws) / n if n else 0.5


def elo_from_score(score: float) -> float:
    """Logistic Elo difference of an expected score; +/-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score of a logistic Elo difference (inverse of elo_from_score)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def game_variance(wins: float, draws: float, losses: float) -> float:
    """Variance of one game's points under the trinomial model fitted to W/D/L."""
    n = wins + draws + losses
    if not n:
        return 0.0
    s = score_of(wins, draws, losses)
    return (wins * (1.0 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n


def score_interval_in_elo(samples: int, score: float, variance: float, z: float) -> tuple[float, float, float]:
    """(elo, lower, upper): the normal-approximation interval of a mean score over `samples`
    samples of `variance` each, mapped to Elo. The ends are +/-inf when the interval leaves
    (0, 1), and both are the point estimate when the variance is zero."""
    half = z * math.sqrt(variance / samples) if samples else math.inf
    return elo_from_score(score), elo_from_score(score - half), elo_from_score(score + half)


def elo_interval(wins: int, draws: int, losses: int, z: float = Z95) -> tuple[float, float, float]:
    """(elo, lower, upper) of the games' score (all games the same result: no spread)."""
    return score_interval_in_elo(wins + draws + losses, score_of(wins, draws, losses),
                                 game_variance(wins, draws, losses), z)


def elo_margin(wins: int, draws: int, losses: int, z: float = Z95) -> float:
    """Half the width of elo_interval, the `+/-` figure."""
    _, lower, upper = elo_interval(wins, draws, losses, z)
    return (upper - lower) / 2.0


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's LLR bounds: (ln(beta/(1-alpha)), ln((1-beta)/alpha))."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def gsprt_llr(samples: int, score: float, variance: float, elo0: float, elo1: float) -> float:
    """GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0), logistic Elo, normal approximation.

    LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var), with N samples (games or game pairs) of mean
    score s (points per game) and variance var per sample, s0, s1 the expected scores at elo0
    and elo1.
    """
    if not samples or variance <= 0.0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return samples * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float) -> float:
    """Trinomial GSPRT log-likelihood ratio (gsprt_llr over single games).

    An empty class counts as half a game in var only, which keeps the ratio finite and small
    before all three results have occurred (two straight wins must not accept H1).
    """
    var = game_variance(*(c if c else 0.5 for c in (wins, draws, losses)))
    return gsprt_llr(wins + draws + losses, score_of(wins, draws, losses), var, elo0, elo1)


# A game pair (one opening, colours reversed) scores 0, 0.5, 1, 1.5 or 2 points: the five classes
# of the pentanomial model, counted in that order; per game that is 0, 1/4, 1/2, 3/4, 1.
PAIR_CLASS_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def pair_score_and_variance(pairs: list[float]) -> tuple[float, float]:
    """(mean points per game, variance of a pair's points per game) of pentanomial counts."""
    n = sum(pairs)
    if not n:
        return 0.5, 0.0
    s = sum(count * x for count, x in zip(pairs, PAIR_CLASS_SCORES)) / n
    return s, sum(count * (x - s) ** 2 for count, x in zip(pairs, PAIR_CLASS_SCORES)) / n


def pentanomial_interval(pairs: list[int], z: float = Z95) -> tuple[float, float, float]:
    """(elo, lower, upper) as elo_interval, with the game pair as the sample: the spread that
    the shared opening takes out of the two games is not counted twice."""
    return score_interval_in_elo(sum(pairs), *pair_score_and_variance(pairs), z)


def closest_distribution(observed: list[float], scores: tuple[float, ...], mean: float) -> list[float]:
    """The distribution over `scores` with expectation `mean` under which the observed
    frequencies are likeliest: observed_i / (1 + theta (score_i - mean)), theta the root of
    sum observed_i (score_i - mean) / (1 + theta (score_i - mean)) = 0 (Van den Bergh,
    "Comparing the approximations for the generalized log likelihood ratio of a multinomial
    distribution", proposition 1.1). The sum falls from +inf to -inf as theta crosses the
    interval where every denominator is positive, so bisection finds the root. `mean` must lie
    strictly between the lowest and the highest score.
    """
    def excess(theta: float) -> float:
        return sum(p * (a - mean) / (1.0 + theta * (a - mean)) for p, a in zip(observed, scores))

    low, high = -1.0 / (scores[-1] - mean), -1.0 / (scores[0] - mean)
    for _ in range(100):  # far more halvings than a double's precision needs
        middle = (low + high) / 2.0
        if excess(middle) > 0.0:
            low = middle
        else:
            high = middle
    theta = (low + high) / 2.0
    return [p / (1.0 + theta * (a - mean)) for p, a in zip(observed, scores)]


def pentanomial_llr(pairs: list[int], elo0: float, elo1: float) -> float:
    """Pentanomial GSPRT log-likelihood ratio by maximum likelihood, the statistic fastchess
    stops on (model logistic): N sum f_i log(p1_i / p0_i) over the N pairs' classes of
    frequency f_i, with p0, p1 the distributions closest to f of expected score s0, s1. An
    empty class counts as a thousandth of a pair, as fastchess counts it, which keeps every
    logarithm finite. Near zero Elo it equals the normal approximation (gsprt_llr); farther
    out they part (at +34 after 405 pairs: 3.02 here and in fastchess, 3.13 approximated).
    """
    if not any(pairs):
        return 0.0
    counts = [c if c else 1e-3 for c in pairs]
    total = sum(counts)
    observed = [c / total for c in counts]
    p0 = closest_distribution(observed, PAIR_CLASS_SCORES, score_from_elo(elo0))
    p1 = closest_distribution(observed, PAIR_CLASS_SCORES, score_from_elo(elo1))
    return total * sum(f * math.log(b / a) for f, a, b in zip(observed, p0, p1))


def sprt_decision(llr: float, alpha: float, beta: float) -> str:
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1 accepted"
    if llr <= lower:
        return "H0 accepted"
    return "continue"


# --- PGN results ------------------------------------------------------------------------------

TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
DECISIVE = {"1-0": "White", "0-1": "Black"}
# Checked in this order: fastchess' illegal-move comment also names the move, never a clock.
PROBLEM_WORDS = (
    ("illegal", ("illegal",)),
    ("time", ("time forfeit", "loses on time", "timeout")),
    ("crash", ("abandoned", "disconnect", "stall", "crash")),
)
PROBLEM_KINDS = tuple(kind for kind, _ in PROBLEM_WORDS)
OFFENDER = re.compile(r"\b(white|black)(?:'s connection stalls| loses on time| makes an illegal move"
                      r"| disconnects)")


@dataclasses.dataclass
class Game:
    tags: dict[str, str]
    movetext: str

    @property
    def result(self) -> str:
        return self.tags.get("Result", "*")

    def last_comment(self) -> str:
        comments = re.findall(r"\{([^}]*)\}", self.movetext)
        return comments[-1].strip() if comments else ""

    def ply_count(self) -> int:
        if self.tags.get("PlyCount", "").isdigit():
            return int(self.tags["PlyCount"])
        text = re.sub(r"\{[^}]*\}|;[^\n]*", " ", self.movetext)
        while True:  # variations may nest: strip the innermost until none is left
            stripped = re.sub(r"\([^()]*\)", " ", text)
            if stripped == text:
                break
            text = stripped
        text = re.sub(r"\$\d+|\d+\.+|1-0|0-1|1/2-1/2|\*", " ", text)
        return len(text.split())

    def side_to_move_at_end(self) -> str:
        fen = self.tags.get("FEN", "").split()
        black_starts = len(fen) > 1 and fen[1] == "b"
        return "Black" if black_starts ^ (self.ply_count() % 2 == 1) else "White"

    def problem(self) -> tuple[str, str] | None:
        """(kind, offending colour) when the game ended by a forfeit, illegal move or crash."""
        comment = self.last_comment().lower()
        text = self.tags.get("Termination", "").lower() + " | " + comment
        for kind, words in PROBLEM_WORDS:
            if any(word in text for word in words):
                named = OFFENDER.search(comment)
                if named:
                    return kind, named.group(1).capitalize()
                if self.result in DECISIVE:  # the offender lost
                    return kind, "Black" if DECISIVE[self.result] == "White" else "White"
                return kind, self.side_to_move_at_end()  # e.g. cutechess' "Draw by timeout"
        return None


def split_pgn(text: str) -> list[Game]:
    """Games of a PGN text; a tag line inside a multi-line comment is not a tag."""
    games: list[Game] = []
    tags: dict[str, str] = {}
    moves: list[str] = []
    depth = 0
    for line in text.splitlines():
        match = TAG.match(line) if depth == 0 else None
        if match:
            if moves and any(m.strip() for m in moves):
                games.append(Game(tags, "\n".join(moves)))
                tags, moves = {}, []
            tags[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
            continue
        if line.startswith("%"):
            continue
        moves.append(line)
        depth = max(0, depth + line.count("{") - line.count("}"))
    if tags:
        games.append(Game(tags, "\n".join(moves)))
    return games


@dataclasses.dataclass
class Tally:
    """Results from one engine's point of view, and problems per player name."""
    engine: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    other: int = 0  # games the engine did not play
    problems: dict[str, collections.Counter] = dataclasses.field(
        default_factory=lambda: {kind: collections.Counter() for kind in PROBLEM_KINDS})
    problem_games: list[str] = dataclasses.field(default_factory=list)
    pairs: list[int] = dataclasses.field(default_factory=lambda: [0] * len(PAIR_CLASS_SCORES))

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, other: Tally) -> None:
        """Counts another run's games too (another PGN file: its pairs stay its own)."""
        self.wins, self.draws, self.losses = (self.wins + other.wins, self.draws + other.draws,
                                              self.losses + other.losses)
        self.unfinished += other.unfinished
        self.other += other.other
        for kind in PROBLEM_KINDS:
            self.problems[kind].update(other.problems[kind])
        self.problem_games += other.problem_games
        self.pairs = [a + b for a, b in zip(self.pairs, other.pairs)]

    def problem_count(self, kind: str, player: str | None = None) -> int:
        counts = self.problems[kind]
        return counts[player] if player is not None else sum(counts.values())


def parse_pgn_results(text: str, engine: str) -> Tally:
    """W/D/L of the player named `engine`, its game pairs, and every forfeit, illegal move and
    crash by player.

    A pair is the two games of one Round tag (both tools give the two games of an opening
    the same round) from the same position against the same opponent, the engine once on
    each side. Games without a partner (the match stopped between the two), or more than two
    (runs appended to one file with the same seed), count in W/D/L only.
    """
    tally = Tally(engine)
    rounds: dict[tuple[str, str, str], list[tuple[bool, float]]] = collections.defaultdict(list)
    for number, game in enumerate(split_pgn(text), 1):
        white, black = game.tags.get("White", "?"), game.tags.get("Black", "?")
        if engine not in (white, black):
            tally.other += 1
            continue
        result = game.result
        if result == "1/2-1/2":
            tally.draws += 1
            points = 0.5
        elif result in DECISIVE:
            if (DECISIVE[result] == "White") == (white == engine):
                tally.wins += 1
                points = 1.0
            else:
                tally.losses += 1
                points = 0.0
        else:
            tally.unfinished += 1
            continue
        if "Round" in game.tags:
            opponent = black if white == engine else white
            rounds[game.tags["Round"], game.tags.get("FEN", ""), opponent].append((white == engine, points))
        problem = game.problem()
        if problem:
            kind, colour = problem
            player = white if colour == "White" else black
            tally.problems[kind][player] += 1
            tally.problem_games.append(f"game {number} ({white} vs {black}) {result} "
                                       f"[{game.tags.get('Termination', '')}] {{{game.last_comment()}}}")
    for games in rounds.values():
        if len(games) == 2 and games[0][0] != games[1][0]:
            tally.pairs[round(2 * (games[0][1] + games[1][1]))] += 1
    return tally


# --- Tool output ------------------------------------------------------------------------------

WARNING_WORDS = re.compile(r"warning|illegal|disconnect|crash|timeout", re.IGNORECASE)
# Already counted from the PGN: per-game result lines, forfeit/crash log lines, and the per-player
# totals both tools print at the end (fastchess `Timeouts: 0`, cutechess `"Loss: ...": 1`).
COUNTED_IN_PGN = re.compile(r"^\s*Finished game|loses on time|disconnects|stalls|stalled / disconnected"
                            r"|^\s*(Timeouts|Crashed):\s*\d+\s*$|^\s*\"(Win|Loss|Draw): .*\":\s*\d+\s*$",
                            re.IGNORECASE)


LOG_ENTRY = re.compile(r"^\[[A-Z]+\s*\]\s*(?:\[[^\]]*\]\s*)?(?:<[^>]*>\s*)?(?:\S+ --- )?(.*)$")


def protocol_warnings(lines: list[str]) -> list[str]:
    """Lines of tool output that signal a protocol problem not already counted from the PGN."""
    return [line for line in lines
            if line.strip() and WARNING_WORDS.search(line) and not COUNTED_IN_PGN.search(line)]


def log_warnings(log_lines: list[str], console: list[str]) -> list[str]:
    """Entries of fastchess' warning log, less those its console output already showed.

    An entry is a `[WARN  ] [time] <thread> fastchess --- message` line; the lines after it that
    carry no such prefix are its context (last info line, position, moves) and are not counted.
    """
    shown = {line.strip() for line in console}
    messages = []
    for line in log_lines:
        entry = LOG_ENTRY.match(line)
        if entry and entry.group(1).strip() not in shown and not COUNTED_IN_PGN.search(entry.group(1)):
            messages.append(entry.group(1).strip())
    return messages


def warnings_by_player(warnings: list[str], players: list[str]) -> dict[str, int]:
    """How many warnings name each player (as a whole word), and under "" those naming none or both."""
    counts = dict.fromkeys([*players, ""], 0)
    patterns = {name: re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])") for name in players}
    for warning in warnings:
        named = [name for name in players if patterns[name].search(warning)]
        counts[named[0] if len(named) == 1 else ""] += 1
    return counts


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

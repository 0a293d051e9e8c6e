"""A match's results, read from what the tournament manager writes.

From the PGN: W/D/L of one engine, its game pairs, and every time forfeit, illegal move and
crash by player. From the manager's console output and fastchess' warning log: the protocol
warnings the PGN does not already count. Used by scripts/match.py and scripts/spsa.py; the
rules are set out in match.py's docstring. Python 3 standard library only.
"""
from __future__ import annotations

import collections
import dataclasses
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from match_stats import PAIR_CLASS_SCORES  # noqa: E402


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

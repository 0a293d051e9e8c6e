#!/usr/bin/env python3
"""Process-level tests of the search protocol: the built engine driven through pipes
the way a GUI or a tournament manager drives it (go, stop, ponderhit, isready during a
search, searchmoves, MultiPV, Chess960 output, bad input, mate scores).

usage: uci_search_process_test.py path/to/arbiter

Every read has a timeout, so a hang fails the test instead of blocking CTest. Time
limits leave room for a loaded CI machine; the measured figures are printed as `note:`
lines. Prints one line per failure and a final `N passed, M failed`; exits non-zero
when any failed.
"""
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_pipe import START_FEN, TIMEOUT, Engine, check, run_tests  # noqa: E402
MATE_IN_1 = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"  # Qxf7#
BACK_RANK_MATE_IN_1 = "6k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 0 1"  # Rb8#
MATE_IN_2 = "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1"  # 1...Rg1+ 2.Kxg1 Rxf1#
MORPHY_MATE_IN_2 = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1"  # 1.Ra6! bxa6 (else Rxa7#) 2.b7#
MATE_IN_3 = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1"  # 1...Bc5+ 2.Kxc5 Qb6+ 3.Kd5 Qd6#
CHECKMATED = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"  # fool's mate
STALEMATED = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"

INFO_RE = re.compile(
    r"^info depth (?P<depth>\d+) seldepth (?P<seldepth>\d+) multipv (?P<multipv>\d+)"
    r" score (?P<kind>cp|mate) (?P<score>-?\d+)(?: (?P<bound>lowerbound|upperbound))?"
    r"(?: wdl (?P<w>\d+) (?P<d>\d+) (?P<l>\d+))?"
    r" nodes (?P<nodes>\d+) nps (?P<nps>\d+) hashfull (?P<hashfull>\d+) tbhits (?P<tbhits>\d+) time (?P<time>\d+)"
    r" pv(?P<pv>(?: [a-h][1-8][a-h][1-8][nbrq]?)+)$")
UCI_MOVE_RE = re.compile(r"^[a-h][1-8][a-h][1-8][nbrq]?$")
notes = []


def note(text):
    notes.append(text)


def errors_in(lines):
    return [l for l in lines if l.startswith("info string error")]


def infos(lines):
    """The parsed per-iteration info lines (depth >= 1) among lines; a line that starts
    like one but does not have the documented shape fails the test."""
    parsed = []
    for line in lines:
        if not line.startswith("info depth ") or " currmove " in line or line.startswith("info depth 0 "):
            continue
        m = INFO_RE.match(line)
        check(m is not None, f"info line not in the documented shape: {line!r}")
        d = m.groupdict()
        info = {k: int(d[k]) for k in ("depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time")}
        info.update(kind=d["kind"], bound=d["bound"], pv=d["pv"].split(), line=line)
        if d["w"] is not None:
            info["wdl"] = (int(d["w"]), int(d["d"]), int(d["l"]))
        parsed.append(info)
    return parsed


def best_move_of(line):
    words = line.split()
    check(len(words) in (2, 4) and words[0] == "bestmove", f"bestmove line {line!r}")
    if len(words) == 4:
        check(words[2] == "ponder" and UCI_MOVE_RE.match(words[3]), f"bestmove line {line!r}")
    return words[1]


def legal_from(e, position, moves):
    """Asks the engine whether `moves` can be played from `position` (a `position`
    command without a move list): no error line and the side to move matches. Returns
    the resulting FEN. The engine's own move generator is the referee (perft-tested)."""
    check(" moves" not in position, "legal_from takes a position without moves")
    e.send(f"{position} moves {' '.join(moves)}" if moves else position)
    e.send("d")
    lines = e.read_until(lambda l: l.startswith("Winnable:"))
    check(not errors_in(lines), f"{' '.join(moves)} is not legal from {position}: {errors_in(lines)}")
    fen = [l[5:] for l in lines if l.startswith("Fen: ")]
    check(len(fen) == 1, f"no Fen line in {lines[-4:]}")
    root_fen = START_FEN if position == "position startpos" else position.split(" fen ", 1)[1]
    root_side = root_fen.split()[1]
    expected = root_side if len(moves) % 2 == 0 else ("b" if root_side == "w" else "w")
    check(fen[0].split()[1] == expected, f"side to move after {moves}: {fen[0]}")
    return fen[0]


# --- handshake and options --------------------------------------------------------

def test_handshake_lists_all_options(binary):
    with Engine(binary) as e:
        e.send("uci")
        lines = e.read_until(lambda l: l == "uciok")
        expected = [
            "option name Hash type spin default 16 min 1 max 65536",
            "option name Threads type spin default 1 min 1 max 1024",
            "option name MultiPV type spin default 1 min 1 max 256",
            "option name Ponder type check default false",
            "option name Clear Hash type button",
            "option name UCI_Chess960 type check default false",
            "option name UCI_ShowWDL type check default false",
        ]
        for option in expected:
            check(option in lines, f"no {option!r} in the uci answer")
        check(any(re.fullmatch(r"option name Move Overhead type spin default 10 min \d+ max \d+", l) for l in lines),
              "no 'option name Move Overhead type spin default 10 ...'")
        check(lines[0].startswith("id name Arbiter "), f"first line {lines[0]!r}")


def test_option_names_case_insensitive(binary):
    with Engine(binary) as e:
        for command in ["setoption name hash value 32", "setoption name HASH value 8", "setoption name threads value 1",
                        "setoption name move overhead value 20", "setoption name clear hash",
                        "setoption name uci_showwdl value true", "setoption name ponder value false",
                        "setoption name multipv value 2"]:
            extra = e.sync()
            check(extra == [], f"`isready` before {command!r} answered {extra}")
            e.send(command)
            extra = e.sync()
            check(extra == [], f"{command!r} answered {extra}")
        # The lower-case names took effect: two PV lines, each with WDL.
        e.send("position startpos")
        lines, _ = e.search("go depth 3")
        last = [i for i in infos(lines) if i["depth"] == 3]
        check(sorted(i["multipv"] for i in last) == [1, 2], f"multipv at depth 3: {[i['line'] for i in last]}")
        check(all("wdl" in i for i in last), "no wdl after 'setoption name uci_showwdl value true'")


# --- isready, stop latency, infinite -----------------------------------------------

def test_isready_and_stop_during_go_infinite(binary):
    with Engine(binary) as e:
        e.send("position startpos")
        e.send("go infinite")
        lines = e.read_for(0.3)
        latencies = []
        for _ in range(8):
            sent = e.send("isready")
            lines += e.read_until(lambda l: l == "readyok", timeout=5)
            latencies.append((e.last_time - sent) * 1000)
            lines += e.read_for(0.05)
        check(not any(l.startswith("bestmove") for l in lines), "bestmove during go infinite before stop")
        median = statistics.median(latencies)
        note(f"isready during go infinite: readyok after median {median:.1f} ms, max {max(latencies):.1f} ms")
        check(median < 100, f"readyok took a median of {median:.1f} ms (limit 100 ms): {latencies}")
        check(max(latencies) < 300, f"a readyok took {max(latencies):.1f} ms (limit 300 ms): {latencies}")
        sent = e.send("stop")
        lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
        stop_ms = (e.last_time - sent) * 1000
        note(f"stop latency after go infinite (startpos): {stop_ms:.1f} ms")
        check(stop_ms < 200, f"bestmove came {stop_ms:.1f} ms after stop (limit 200 ms)")
        best = best_move_of(lines[-1])
        legal_from(e, "position startpos", [best])
        after = e.sync()
        check(not any(l.startswith("bestmove") for l in after), f"a second bestmove after stop: {after}")


def test_stop_latency_repeated(binary):
    with Engine(binary) as e:
        e.send("position fen r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 1")
        figures = []
        for wait in (0.05, 0.2, 0.5):
            e.send("go infinite")
            check(not any(l.startswith("bestmove") for l in e.read_for(wait)), "bestmove before stop")
            sent = e.send("stop")
            lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
            figures.append((e.last_time - sent) * 1000)
            check(len([l for l in lines if l.startswith("bestmove")]) == 1, "more than one bestmove")
            check(e.sync() == [], "output after the bestmove")
        note(f"stop latency (middlegame, after 50/200/500 ms): {', '.join(f'{f:.1f}' for f in figures)} ms")
        check(max(figures) < 200, f"stop latencies {figures} ms (limit 200 ms)")


def test_go_infinite_holds_bestmove_after_mate_found(binary):
    with Engine(binary) as e:
        e.send(f"position fen {MATE_IN_1}")
        e.send("go infinite")
        lines = e.read_for(1.0)
        check(any(i["kind"] == "mate" and i["score"] == 1 for i in infos(lines)), "mate 1 not reported within 1 s")
        check(not any(l.startswith("bestmove") for l in lines), "bestmove before stop after a mate was found")
        sent = e.send("stop")
        lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
        note(f"stop latency after a mate was found under go infinite: {(e.last_time - sent) * 1000:.1f} ms")
        check(best_move_of(lines[-1]) == "h5f7", f"bestmove {lines[-1]!r}, expected h5f7")


# --- go depth / nodes / movetime / mate ---------------------------------------------

def test_go_depth_info_lines_and_legal_pvs(binary):
    root = "position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    with Engine(binary) as e:
        e.send(root)
        lines, last = e.search("go depth 5")
        parsed = infos(lines)
        check(parsed, "no info lines")
        check(sorted({i["depth"] for i in parsed}) == [1, 2, 3, 4, 5], f"depths {[i['depth'] for i in parsed]}")
        check([i["depth"] for i in parsed] == sorted(i["depth"] for i in parsed), "depths not increasing")
        check(all(i["multipv"] == 1 for i in parsed), "multipv other than 1 with MultiPV 1")
        check(all(i["seldepth"] >= 1 for i in parsed), "seldepth 0")
        check(all(0 <= i["hashfull"] <= 1000 for i in parsed), "hashfull outside 0..1000")
        nodes = [i["nodes"] for i in parsed]
        check(nodes == sorted(nodes), f"node counts fall: {nodes}")
        check(parsed[-1]["depth"] == 5 and parsed[-1]["bound"] is None, f"last line {parsed[-1]['line']!r}")
        best = best_move_of(last)
        check(best == parsed[-1]["pv"][0], f"bestmove {best} but the last PV starts {parsed[-1]['pv'][0]}")
        words = last.split()
        if len(words) == 4 and len(parsed[-1]["pv"]) >= 2:
            check(words[3] == parsed[-1]["pv"][1], f"ponder {words[3]} but the PV goes on {parsed[-1]['pv'][1]}")
        # Every distinct PV is legal from the root (the engine as referee).
        for pv in {tuple(i["pv"]) for i in parsed}:
            legal_from(e, root, list(pv))
        if len(words) == 4:
            legal_from(e, root, [words[1], words[3]])


def test_go_nodes(binary):
    with Engine(binary) as e:
        e.send("position startpos moves d2d4 g8f6 c2c4 e7e6")
        lines, last = e.search("go nodes 5000")
        parsed = infos(lines)
        check(parsed, "no info lines")
        best_move_of(last)
        note(f"go nodes 5000: last info nodes {parsed[-1]['nodes']} at depth {parsed[-1]['depth']}")
        check(parsed[-1]["nodes"] <= 5000 + 256, f"last info reports {parsed[-1]['nodes']} nodes for go nodes 5000")
        # A node limit below one iteration still completes it: the move is the one of
        # `go depth 1` from the same empty table, and the last info line shows it.
        opening = ["e2e4", "e7e5", "g1f3"]
        root = f"position startpos moves {' '.join(opening)}"
        moves = {}
        for go in ("go depth 1", "go nodes 1"):
            e.send("ucinewgame")
            e.send(root)
            lines, last = e.search(go)
            parsed = infos(lines)
            check(parsed and parsed[-1]["depth"] == 1, f"{go}: no info line for depth 1")
            moves[go] = best_move_of(last)
            check(parsed[-1]["pv"][0] == moves[go], f"{go}: bestmove {moves[go]} is not the PV's first move")
            legal_from(e, "position startpos", opening + [moves[go]])
        check(moves["go nodes 1"] == moves["go depth 1"], f"go nodes 1 played {moves['go nodes 1']}, "
              f"go depth 1 {moves['go depth 1']}")


def test_go_movetime(binary):
    with Engine(binary) as e:
        e.send("position startpos moves e2e4 c7c5 g1f3")
        sent = e.send("go movetime 300")
        lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=10)
        elapsed = (e.last_time - sent) * 1000
        note(f"go movetime 300: bestmove after {elapsed:.0f} ms")
        check(250 <= elapsed <= 1500, f"go movetime 300 took {elapsed:.0f} ms (expected 250 to 1500)")
        check(infos(lines), "no info lines")


def test_go_mate(binary):
    cases = [(MATE_IN_1, 1, "h5f7"), (BACK_RANK_MATE_IN_1, 1, "b1b8"), (MATE_IN_2, 2, "g2g1"),
             (MATE_IN_3, 3, "f8c5")]
    with Engine(binary) as e:
        for fen, n, move in cases:
            e.send("ucinewgame")
            e.send(f"position fen {fen}")
            sent = e.send(f"go mate {n}")
            lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=10)
            note(f"go mate {n}: bestmove after {(e.last_time - sent) * 1000:.0f} ms")
            parsed = infos(lines)
            check(parsed, f"go mate {n}: no info lines")
            last = parsed[-1]
            check((last["kind"], last["score"]) == ("mate", n),
                  f"go mate {n} on {fen}: last score {last['kind']} {last['score']}, expected mate {n}")
            check(best_move_of(lines[-1]) == move, f"go mate {n} on {fen}: {lines[-1]!r}, expected {move}")
            check(len(last["pv"]) == 2 * n - 1, f"mate in {n} with a PV of {len(last['pv'])} plies: {last['pv']}")
            legal_from(e, f"position fen {fen}", last["pv"])


def test_mate_in_n_with_go_depth(binary):
    cases = [(MATE_IN_1, 1, "h5f7"), (MATE_IN_2, 2, "g2g1"), (MATE_IN_3, 3, "f8c5")]
    with Engine(binary) as e:
        for fen, n, move in cases:
            e.send("ucinewgame")
            e.send(f"position fen {fen}")
            lines, last = e.search("go depth 10")
            final = infos(lines)[-1]
            check((final["kind"], final["score"]) == ("mate", n),
                  f"{fen} at depth 10: score {final['kind']} {final['score']}, expected mate {n}")
            check(best_move_of(last) == move, f"{fen}: {last!r}, expected {move}")


def test_side_being_mated_gets_negative_mate(binary):
    cases = [
        # After 1.Ra6 in Morphy's problem every Black move allows mate at once.
        ("position fen kbK5/pp6/RP6/8/8/8/8/8 b - - 1 1", -1),
        # The mate-in-3 position after 1...Bc5+: White, to move, is mated in 2.
        (f"position fen {MATE_IN_3} moves f8c5", -2),
    ]
    with Engine(binary) as e:
        for position, n in cases:
            e.send("ucinewgame")
            e.send(position)
            lines, _ = e.search("go depth 8")
            final = infos(lines)[-1]
            check((final["kind"], final["score"]) == ("mate", n),
                  f"{position} go depth 8: score {final['kind']} {final['score']}, expected mate {n}")


def test_proven_mate_ends_the_deepening(binary):
    # Once a mate is proven, deeper iterations only repeat it in a moment each: the
    # search used to race to depth 127 and print every depth (GUIs showed M1/127).
    with Engine(binary) as e:
        e.send("ucinewgame")
        e.send(f"position fen {MATE_IN_2}")
        lines, last = e.search("go depth 60")
        depths = [i["depth"] for i in infos(lines)]
        check(depths == sorted(depths) and max(depths) <= 12, f"go depth 60 on a mate in 2 printed depths {depths}")
        final = infos(lines)[-1]
        check((final["kind"], final["score"]) == ("mate", 2), f"last line {final['line']}")
        check(best_move_of(last) == "g2g1", f"{last!r}, expected g2g1")

        # A movetime far beyond this test's read timeout: the search returns with the mate.
        e.send("ucinewgame")
        e.send(f"position fen {MATE_IN_1}")
        lines, last = e.search("go movetime 600000")
        depths = [i["depth"] for i in infos(lines)]
        check(max(depths) <= 4, f"go movetime on a mate in 1 printed depths {depths}")
        check(best_move_of(last) == "h5f7", f"{last!r}, expected h5f7")

        # go infinite and go mate keep the search going (bestmove waits for stop under
        # go infinite), but print no depth the search did not reach.
        for go in ("go infinite", "go mate 1"):
            e.send("ucinewgame")
            e.send(f"position fen {MATE_IN_2}")
            e.send(go)
            lines = e.read_for(0.5) if go == "go infinite" else []
            if go == "go infinite":
                check(not any(l.startswith("bestmove") for l in lines), "bestmove before stop under go infinite")
                e.send("stop")
            lines += e.read_until(lambda l: l.startswith("bestmove"))
            depths = [i["depth"] for i in infos(lines)]
            check(max(depths) <= 12, f"{go} on a mate in 2 printed depths {depths}")
            check(best_move_of(lines[-1]) == "g2g1", f"{go}: {lines[-1]!r}, expected g2g1")


# --- ponder -------------------------------------------------------------------------

def test_ponder_then_ponderhit(binary):
    with Engine(binary) as e:
        e.send("setoption name Ponder value true")
        e.send("position startpos moves e2e4 e7e5")
        e.send("go ponder wtime 2000 btime 2000")
        lines = e.read_for(0.8)
        check(not any(l.startswith("bestmove") for l in lines), "bestmove while pondering, before ponderhit")
        check(infos(lines), "no info lines while pondering")
        sent = e.send("ponderhit")
        lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
        elapsed = (e.last_time - sent) * 1000
        note(f"ponderhit with 2000 ms on the clock: bestmove after {elapsed:.0f} ms")
        check(elapsed < 1000, f"bestmove {elapsed:.0f} ms after ponderhit with 2 s on the clock")
        legal_from(e, "position startpos", ["e2e4", "e7e5", best_move_of(lines[-1])])
        check(e.sync() == [], "output after the bestmove")


def test_ponder_holds_bestmove_at_depth_limit(binary):
    # Even when the pondering search is complete (depth reached), bestmove waits.
    with Engine(binary) as e:
        e.send(f"position fen {MATE_IN_1}")
        e.send("go ponder depth 3")
        lines = e.read_for(0.5)
        check(not any(l.startswith("bestmove") for l in lines), "bestmove before ponderhit")
        sent = e.send("ponderhit")
        lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
        note(f"ponderhit after a finished ponder search: bestmove after {(e.last_time - sent) * 1000:.1f} ms")
        check(best_move_of(lines[-1]) == "h5f7", f"{lines[-1]!r}")


def test_ponder_then_stop(binary):
    with Engine(binary) as e:
        e.send("position startpos moves d2d4")
        e.send("go ponder wtime 60000 btime 60000")
        check(not any(l.startswith("bestmove") for l in e.read_for(0.5)), "bestmove while pondering")
        sent = e.send("stop")
        lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
        note(f"stop during go ponder: bestmove after {(e.last_time - sent) * 1000:.1f} ms")
        legal_from(e, "position startpos", ["d2d4", best_move_of(lines[-1])])
        after = e.sync()
        check(not any(l.startswith("bestmove") for l in after), f"a second bestmove: {after}")
        # A ponderhit after the stop changes nothing.
        e.send("ponderhit")
        check(e.sync() == [], "output after a late ponderhit")


# --- no legal move ------------------------------------------------------------------

def test_mated_and_stalemated_root(binary):
    with Engine(binary) as e:
        for fen, score in ((CHECKMATED, "mate 0"), (STALEMATED, "cp 0")):
            e.send(f"position fen {fen}")
            lines, last = e.search("go depth 5", timeout=5)
            check(lines == [f"info depth 0 score {score}", "bestmove (none)"],
                  f"{fen}: {lines}, expected ['info depth 0 score {score}', 'bestmove (none)']")
            lines, last = e.search("go wtime 1000 btime 1000", timeout=5)
            check(last == "bestmove (none)", f"{fen} with a clock: {last!r}")


def test_mated_root_under_go_infinite_waits_for_stop(binary):
    with Engine(binary) as e:
        e.send(f"position fen {CHECKMATED}")
        e.send("go infinite")
        lines = e.read_for(0.5)
        check(lines == ["info depth 0 score mate 0"], f"before stop: {lines}")
        e.send("stop")
        check(e.read_line(timeout=5) == "bestmove (none)", "bestmove (none) after stop")
        check(e.sync() == [], "output after the bestmove")


# --- searchmoves --------------------------------------------------------------------

def test_searchmoves(binary):
    with Engine(binary) as e:
        e.send("position startpos")
        lines, last = e.search("go depth 6 searchmoves a2a3 h2h3")
        check(best_move_of(last) in ("a2a3", "h2h3"), f"{last!r} not among the searchmoves")
        check(all(i["pv"][0] in ("a2a3", "h2h3") for i in infos(lines)), "a PV outside the searchmoves")
        check(not errors_in(lines), f"errors: {errors_in(lines)}")
        # searchmoves followed by another limit
        lines, last = e.search("go searchmoves g1f3 depth 4")
        check(best_move_of(last) == "g1f3", f"{last!r}, expected g1f3 as the only searchmove")


def test_searchmoves_with_illegal_move(binary):
    with Engine(binary) as e:
        e.send("position startpos")
        lines, last = e.search("go depth 4 searchmoves e2e4 e2e5")
        check(len(errors_in(lines)) == 1, f"expected one error line, got {errors_in(lines)}")
        check(best_move_of(last) == "e2e4", f"{last!r}, expected e2e4 (the one legal searchmove)")
        # Only illegal searchmoves: an error each, and still a legal bestmove.
        lines, last = e.search("go depth 3 searchmoves e1e2")
        check(len(errors_in(lines)) == 1, f"expected one error line, got {errors_in(lines)}")
        legal_from(e, "position startpos", [best_move_of(last)])
        check(e.sync() == [], "output after the bestmove")
        # UCI moves are lower case: a capitalised searchmove is refused like any other.
        e.send("position startpos")
        lines, last = e.search("go depth 3 searchmoves E2E4 d2d4")
        errors = errors_in(lines)
        check(len(errors) == 1 and "illegal move E2E4 (UCI moves are lower case)" in errors[0],
              f"expected one error line about E2E4, got {errors}")
        check(best_move_of(last) == "d2d4", f"{last!r}, expected d2d4 (the one legal searchmove)")


# --- MultiPV ------------------------------------------------------------------------

def test_multipv(binary):
    with Engine(binary) as e:
        e.send("setoption name MultiPV value 3")
        e.send("position startpos")
        lines, last = e.search("go depth 6")
        parsed = infos(lines)
        for depth in range(1, 7):
            at = [i for i in parsed if i["depth"] == depth and i["bound"] is None]
            check(sorted({i["multipv"] for i in at}) == [1, 2, 3], f"depth {depth}: {[i['line'] for i in at]}")
            final = {i["multipv"]: i for i in at}  # the last line of each rank at this depth
            firsts = [final[k]["pv"][0] for k in (1, 2, 3)]
            check(len(set(firsts)) == 3, f"depth {depth}: first moves {firsts} are not distinct")
            scores = [final[k]["score"] for k in (1, 2, 3)]
            check(scores == sorted(scores, reverse=True), f"depth {depth}: multipv scores {scores} not in order")
        check(best_move_of(last) == [i for i in parsed if i["multipv"] == 1][-1]["pv"][0], "bestmove is not multipv 1")
        for i in parsed[-3:]:
            legal_from(e, "position startpos", i["pv"])


def ranking_value(info):
    """An info line's score as one number that orders cp and mate scores."""
    if info["kind"] == "cp":
        return info["score"]
    return 100_000 - info["score"] if info["score"] > 0 else -100_000 - info["score"]


def test_multipv_after_an_interrupted_iteration(binary):
    # A node limit stops an iteration part-way through its lines, as `stop` does
    # in a GUI, but at a point a single thread reproduces after ucinewgame. What the
    # GUI is left with (the last line of each rank) must be sorted, each line with
    # the depth it was searched to, and bestmove must be the first line's move.
    mixed = 0
    with Engine(binary) as e:
        e.send("setoption name MultiPV value 3")
        for nodes in (4000, 9000, 20000, 45000, 100000):
            e.send("ucinewgame")
            e.send("position startpos moves e2e4 e7e5 g1f3")
            lines, last = e.search(f"go nodes {nodes}")
            parsed = infos(lines)
            completed = {i["depth"]: i for i in parsed if i["nodes"] < nodes}  # whole iterations
            shown = {}
            for i in parsed:
                shown[i["multipv"]] = i
            check(sorted(shown) == [1, 2, 3], f"go nodes {nodes}: multipv ranks {sorted(shown)}")
            final = [shown[k] for k in (1, 2, 3)]
            text = " | ".join(i["line"] for i in final)
            values = [ranking_value(i) for i in final]
            check(values == sorted(values, reverse=True), f"go nodes {nodes}: lines out of order: {text}")
            check(len({i["pv"][0] for i in final}) == 3, f"go nodes {nodes}: repeated moves: {text}")
            check(best_move_of(last) == final[0]["pv"][0], f"go nodes {nodes}: {last!r} after {text}")
            deepest = max(completed)
            for i in final:
                check(i["depth"] <= deepest + 1, f"go nodes {nodes}: depth beyond the search: {i['line']}")
                if i["depth"] <= deepest:
                    same = [j for j in parsed if j["depth"] == i["depth"] and j["nodes"] < nodes
                            and j["pv"] == i["pv"] and j["score"] == i["score"] and j["kind"] == i["kind"]]
                    check(same, f"go nodes {nodes}: {i['line']} is not as its iteration reported it")
            mixed += len({i["depth"] for i in final}) > 1
    check(mixed > 0, "no node limit left lines of two depths: the test does not reach its case")


def test_multipv_more_than_legal_moves(binary):
    with Engine(binary) as e:
        e.send("setoption name MultiPV value 10")
        e.send("position fen 7k/8/8/8/8/8/8/K7 w - - 0 1")  # three king moves
        lines, _ = e.search("go depth 3")
        ranks = {i["multipv"] for i in infos(lines) if i["depth"] == 3}
        check(ranks == {1, 2, 3}, f"multipv ranks {sorted(ranks)} with three legal moves")


def test_multipv_mate_ranked_first(binary):
    # With every root move searched, the mate in 2 must be ranked first.
    with Engine(binary) as e:
        e.send("setoption name MultiPV value 16")
        e.send(f"position fen {MORPHY_MATE_IN_2}")
        lines, last = e.search("go depth 8")
        final = {i["multipv"]: i for i in infos(lines) if i["depth"] == 8 and i["bound"] is None}
        ranked = [(k, final[k]["pv"][0], final[k]["kind"], final[k]["score"]) for k in sorted(final)]
        mates = [r for r in ranked if r[2] == "mate" and r[3] > 0]
        check(mates and mates[0][0] == 1, f"depth 8 multipv ranking (rank, move, kind, score): {ranked}")
        check(best_move_of(last) == "a1a6", f"{last!r}, expected a1a6")


# --- Chess960 -----------------------------------------------------------------------

def test_chess960_castling_output(binary):
    fen960 = "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w GBgb - 0 1"
    with Engine(binary) as e:
        # Composed positions: Black's pawns stand on their starting squares, its king
        # and rooks hold their rights, so no Black man can have made the last move.
        e.send("setoption name Allow Unreachable Positions value true")
        e.send("setoption name UCI_Chess960 value true")
        e.send(f"position fen {fen960}")
        lines, last = e.search("go depth 4 searchmoves d1g1")
        check(best_move_of(last) == "d1g1", f"{last!r}, expected bestmove d1g1 (king takes rook)")
        check(not errors_in(lines), f"errors: {errors_in(lines)}")
        lines, last = e.search("go depth 4 searchmoves d1b1")
        check(best_move_of(last) == "d1b1", f"{last!r}, expected bestmove d1b1 (queenside)")
        fen = legal_from(e, f"position fen {fen960}", ["d1g1"])
        check(fen.startswith("1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b "), f"after d1g1: {fen}")
        # A standard position under UCI_Chess960 castles king-takes-rook too.
        standard = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
        e.send(f"position fen {standard}")
        lines, last = e.search("go depth 4 searchmoves e1h1")
        check(best_move_of(last) == "e1h1", f"Chess960 on, standard start: {last!r}, expected e1h1")
        # And in standard chess castling is the king's two-square move.
        e.send("setoption name UCI_Chess960 value false")
        e.send(f"position fen {standard}")
        lines, last = e.search("go depth 4 searchmoves e1g1")
        check(best_move_of(last) == "e1g1", f"standard chess: {last!r}, expected e1g1")
        check(not errors_in(lines), f"errors: {errors_in(lines)}")


def test_castling_in_pv_printed_per_mode(binary):
    # Black to move castles in the PV after a forced first move. Kings and rooks alone
    # with their rights are composed (no last move): allowed by the option.
    with Engine(binary) as e:
        e.send("setoption name Allow Unreachable Positions value true")
        for chess960, castle in (("false", "e8g8"), ("true", "e8h8")):
            e.send(f"setoption name UCI_Chess960 value {chess960}")
            e.send("position fen 4k2r/8/8/8/8/8/8/4K2R w Kk - 0 1")
            lines, _ = e.search(f"go depth 3 searchmoves e1f1")
            check(e.sync() == [], "output after the bestmove")
            e.send("position fen 4k2r/8/8/8/8/8/8/4K2R b Kk - 0 1")
            lines, last = e.search(f"go depth 3 searchmoves {castle}")
            check(best_move_of(last) == castle, f"UCI_Chess960 {chess960}: {last!r}, expected {castle}")
            check(all(i["pv"][0] == castle for i in infos(lines)), f"PV does not start with {castle}")


# --- bad input ----------------------------------------------------------------------

def expect_one_error(e, command):
    e.send(command)
    lines = e.sync(timeout=5)
    check(len(errors_in(lines)) == 1, f"{command!r}: expected one 'info string error:' line, got {lines}")
    check(all(l.startswith("info string error: ") for l in errors_in(lines)), f"{command!r}: {lines}")


def test_bad_commands_and_options(binary):
    with Engine(binary) as e:
        for command in ["foo", "foo bar baz", "Go depth 3", "setoption", "setoption name",
                        "setoption value 3", "setoption name Nope value 3", "setoption name Hash value 0",
                        "setoption name Hash value 65537", "setoption name Threads value 0",
                        "setoption name Threads value 1025", "setoption name MultiPV value 0",
                        "setoption name MultiPV value 257", "setoption name Hash value abc",
                        "setoption name Hash value 12.5", "setoption name Hash", "setoption name Ponder value yes",
                        "setoption name UCI_Chess960 value 1", "position", "position fen",
                        "position startpos e2e4", "go perft", "go perft x", "bench x"]:
            expect_one_error(e, command)
        # None of the bad values was taken: still one PV line per depth.
        e.send("position startpos")
        lines, _ = e.search("go depth 3")
        check({i["multipv"] for i in infos(lines)} == {1}, "a bad MultiPV value was applied")


def test_go_with_a_bad_limit_does_not_search(binary):
    # A malformed, missing, too large or negative limit gives its error line and no
    # search at all: no info, no bestmove, and the engine takes the next `go` at once.
    # (A search started anyway would either refuse that `go` as busy, add a second
    # bestmove or go deeper than depth 1.)
    with Engine(binary) as e:
        e.send("position startpos")
        for command, error in [("go wtime abc", "go wtime needs a number, not 'abc'"),
                               ("go movetime xyz depth 3", "go movetime needs a number, not 'xyz'"),
                               ("go depth 1.5", "go depth needs a number, not '1.5'"),
                               ("go depth", "go depth needs a number"),
                               ("go nodes depth 3", "go nodes needs a number"),
                               ("go nodes 99999999999999999999", "go nodes: 99999999999999999999 is out of range"),
                               ("go movetime -5 depth 3", "go movetime needs a number of 0 or more, not -5"),
                               ("go nodes -1 depth 3", "go nodes needs a number of 0 or more, not -1"),
                               ("go depth 3 mate -2", "go mate needs a number of 0 or more, not -2"),
                               ("go depth 3 winc -10", "go winc needs a number of 0 or more, not -10")]:
            e.send(command)
            e.send("go depth 1")
            lines = e.read_until(lambda l: l.startswith("bestmove") or "while searching" in l, timeout=10)
            lines += e.sync()
            check(errors_in(lines) == [f"info string error: {error}; not searching"],
                  f"{command!r}: {errors_in(lines)}")
            check(len([l for l in lines if l.startswith("bestmove")]) == 1, f"{command!r}: not one bestmove: {lines}")
            check(max(i["depth"] for i in infos(lines)) == 1,
                  f"{command!r}: searched deeper than the next go's depth 1")
            legal_from(e, "position startpos", [best_move_of(next(l for l in lines if l.startswith("bestmove")))])
            e.send("position startpos")


def test_go_with_negative_clock_searches(binary):
    with Engine(binary) as e:
        # Clock times below zero are what some GUIs send when the clock is nearly out:
        # taken as zero, without an error, and the engine still moves.
        e.send("position startpos")
        lines, last = e.search("go wtime -20 btime 1000", timeout=10)
        check(not errors_in(lines), f"errors for a negative wtime: {errors_in(lines)}")
        legal_from(e, "position startpos", [best_move_of(last)])


def test_unknown_go_word_is_left_out(binary):
    # UCI: an unknown token is ignored and the rest of the line still read.
    with Engine(binary) as e:
        e.send("position startpos")
        lines, last = e.search("go frobnicate depth 2", timeout=10)
        check(errors_in(lines) == ["info string error: go: unknown parameter 'frobnicate'"], f"{errors_in(lines)}")
        check(max(i["depth"] for i in infos(lines)) == 2, "depth 2 not honoured after an unknown word")
        legal_from(e, "position startpos", [best_move_of(last)])


def test_go_before_position(binary):
    with Engine(binary) as e:
        lines, last = e.search("go depth 3")
        check(not errors_in(lines), f"errors: {errors_in(lines)}")
        legal_from(e, "position startpos", [best_move_of(last)])
        check(infos(lines)[-1]["pv"][0] in {"a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3",
                                             "e2e4", "f2f3", "f2f4", "g2g3", "g2g4", "h2h3", "h2h4", "b1a3", "b1c3",
                                             "g1f3", "g1h3"}, "not a start-position move")


def test_commands_during_search(binary):
    with Engine(binary) as e:
        e.send("position startpos")
        e.send("go infinite")
        e.read_for(0.2)
        for command in ["go depth 3", "ucinewgame", "setoption name Hash value 32", "setoption name MultiPV value 3",
                        "go infinite"]:
            expect_one_error(e, command)
        lines = e.read_for(0.3)
        check(not any(l.startswith("bestmove") for l in lines), "bestmove before stop")
        check(all(i["multipv"] == 1 for i in infos(lines)), "MultiPV changed during the search")
        e.send("stop")
        lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
        legal_from(e, "position startpos", [best_move_of(lines[-1])])
        after = e.sync()
        check(not any(l.startswith("bestmove") for l in after), f"a second bestmove: {after}")
        # After the search the same commands are accepted.
        e.send("setoption name Hash value 32")
        e.send("ucinewgame")
        check(e.sync() == [], "setoption/ucinewgame after the search gave output")


def test_position_during_search_does_not_change_it(binary):
    with Engine(binary) as e:
        e.send("position startpos")
        e.send("go infinite")
        e.read_for(0.2)
        e.send(f"position fen {MATE_IN_1}")
        check(errors_in(e.sync()) == [], "position during a search gave an error")
        e.send("stop")
        lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
        legal_from(e, "position startpos", [best_move_of(lines[-1])])


def test_thousands_of_plies(binary):
    with Engine(binary) as e:
        # 4000 plies of knight shuffling, then 2 more moves to leave the repetition.
        moves = " ".join(["g1f3 g8f6 f3g1 f6g8"] * 1000) + " e2e4 e7e5"
        e.send(f"position startpos moves {moves}")
        check(e.sync() == [], "the long move list gave output")
        sent = time.monotonic()
        lines, last = e.search("go depth 3", timeout=10)
        note(f"go depth 3 after 4002 plies: {(e.last_time - sent) * 1000:.0f} ms")
        check(not errors_in(lines), f"errors: {errors_in(lines)}")
        fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2002"
        legal_from(e, f"position fen {fen}", [best_move_of(last)])
        # An 8000-ply list in one line.
        e.send("position startpos moves " + " ".join(["b1c3 b8c6 c3b1 c6b8"] * 2000))
        lines, last = e.search("go depth 3", timeout=10)
        check(not errors_in(lines), f"errors: {errors_in(lines)}")
        best_move_of(last)


# --- races --------------------------------------------------------------------------

def test_rapid_fire_go_depth_2(binary):
    # Regression: output was duplicated when reading stdin raced the search thread.
    rounds = 300
    with Engine(binary) as e:
        start = time.monotonic()
        bestmoves = errors = duplicates = 0
        for _ in range(rounds):
            e.send("position startpos moves e2e4")
            e.send("go depth 2")
            lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=10)
            bestmoves += sum(l.startswith("bestmove") for l in lines)
            errors += len(errors_in(lines))
            duplicates += len(lines) - len(set(lines))
            depths = [i["depth"] for i in infos(lines) if i["bound"] is None]
            check(depths == [1, 2], f"round {_ + 1}: info depths {depths}: {lines}")
        tail = e.sync(timeout=5)
        bestmoves += sum(l.startswith("bestmove") for l in tail)
        errors += len(errors_in(tail))
        note(f"rapid fire: {rounds} x go depth 2 in {time.monotonic() - start:.1f} s")
        check(bestmoves == rounds, f"{bestmoves} bestmove lines for {rounds} searches")
        check(errors == 0, f"{errors} error lines")
        check(duplicates == 0, f"{duplicates} duplicated lines")


def test_go_right_after_stop(binary):
    # A GUI may send `stop` and the next `go` back to back (a ponder miss): the `go`
    # belongs to a new search, not to the one being stopped.
    rounds = 50
    with Engine(binary) as e:
        e.send("position startpos")
        e.send("\n".join(["go infinite\nstop"] * rounds))
        e.send("isready")
        lines = e.read_until(lambda l: l == "readyok", timeout=20) + e.read_for(0.3)
        bestmoves = [l for l in lines if l.startswith("bestmove")]
        check(len(errors_in(lines)) == 0 and len(bestmoves) == rounds,
              f"{rounds} x 'go infinite' + 'stop' sent at once: {len(bestmoves)} bestmoves and "
              f"{len(errors_in(lines))} error lines (first: {errors_in(lines)[:1]}); expected {rounds} and 0")


def test_go_stop_waiting_for_each_bestmove(binary):
    rounds = 100
    with Engine(binary) as e:
        e.send("position startpos")
        count = 0
        for _ in range(rounds):
            e.send("go infinite")
            e.send("stop")
            lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
            count += 1
            check(not errors_in(lines), f"errors: {errors_in(lines)}")
        tail = e.sync()
        check(not any(l.startswith("bestmove") for l in tail), f"extra bestmove lines: {tail}")


def test_threads_search_races(binary):
    # Lazy SMP: helper threads must not print, and each search gives one bestmove.
    with Engine(binary) as e:
        e.send("setoption name Threads value 4")
        e.send("position startpos moves e2e4 c7c5")
        for _ in range(30):
            lines, last = e.search("go depth 4")
            check(len([l for l in lines if l.startswith("bestmove")]) == 1, "not one bestmove")
            check(len(lines) == len(set(lines)), f"duplicated lines: {lines}")
        check(best_move_of(last) == infos(lines)[-1]["pv"][0], "bestmove is not the last PV's first move")
        legal_from(e, "position startpos", ["e2e4", "c7c5"] + infos(lines)[-1]["pv"])
        e.send("position startpos moves e2e4 c7c5")
        figures = []
        for _ in range(10):
            e.send("go infinite")
            e.read_for(0.03)
            sent = e.send("stop")
            e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
            figures.append((e.last_time - sent) * 1000)
        check(e.sync() == [], "output after the last bestmove")
        note(f"stop latency with 4 threads: max {max(figures):.1f} ms over {len(figures)} searches")
        check(max(figures) < 200, f"stop latencies with 4 threads {figures} ms (limit 200 ms)")


def test_currmove_after_three_seconds(binary):
    with Engine(binary) as e:
        e.send("position fen r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 1")
        e.send("go infinite")
        # currmove lines start once the search has run 3 s and move to the next root
        # move; on a loaded machine that can take a while, so wait up to 15 s for one.
        lines = e.read_until(lambda l: " currmove " in l, timeout=15)
        e.send("stop")
        lines += e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
        current = [l for l in lines if " currmove " in l]
        check(current, "no currmove line within 15 s of go infinite")
        for line in current:
            check(re.fullmatch(r"info depth \d+ currmove [a-h][1-8][a-h][1-8][nbrq]? currmovenumber \d+", line),
                  f"currmove line {line!r}")


# --- quit and end of input ----------------------------------------------------------

def test_quit_during_go_infinite(binary):
    with Engine(binary) as e:
        e.send("position startpos")
        e.send("go infinite")
        e.read_for(0.3)
        sent = e.send("quit")
        code = e.proc.wait(timeout=5)
        elapsed = (time.monotonic() - sent) * 1000
        note(f"quit during go infinite: exit after {elapsed:.0f} ms")
        check(code == 0, f"exit code {code}")
        check(elapsed < 1000, f"exit took {elapsed:.0f} ms")


def test_eof_during_search(binary):
    for go in ("go infinite", "go wtime 100000 btime 100000"):
        with Engine(binary) as e:
            e.send("position startpos")
            e.send(go)
            e.read_for(0.3)
            closed = time.monotonic()
            e.proc.stdin.close()
            code = e.proc.wait(timeout=5)
            elapsed = (time.monotonic() - closed) * 1000
            note(f"end of input during {go!r}: exit after {elapsed:.0f} ms")
            check(code == 0, f"exit code {code} at end of input during {go!r}")
            check(elapsed < 1000, f"exit took {elapsed:.0f} ms after end of input during {go!r}")
            check(e.proc.stderr.read() == "", "stderr output")


# --- WDL ----------------------------------------------------------------------------
def test_infinite_with_node_limit_waits_for_stop(binary):
    # The node limit ends the search, but `go infinite` still holds bestmove until stop.
    with Engine(binary) as e:
        e.send("position startpos")
        e.send("go infinite nodes 500")
        lines = e.read_for(0.5)
        check(not any(l.startswith("bestmove") for l in lines), "bestmove before stop under go infinite nodes 500")
        e.send("isready")
        check(e.read_until(lambda l: l == "readyok", timeout=5)[-1] == "readyok", "no readyok while holding")
        sent = e.send("stop")
        lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
        check((e.last_time - sent) * 1000 < 200, "bestmove late after stop")
        legal_from(e, "position startpos", [best_move_of(lines[-1])])


def test_limited_strength(binary):
    # UCI_LimitStrength: valid info lines, the last PV starts with the bestmove, a
    # legal move every time; with a clock it thinks a while but `stop` ends that at
    # once; under ponder the bestmove waits for ponderhit.
    with Engine(binary) as e:
        e.send("uci")
        lines = e.read_until(lambda l: l == "uciok")
        check("option name UCI_LimitStrength type check default false" in lines, "no UCI_LimitStrength option")
        check("option name UCI_Elo type spin default 1500 min 1320 max 3000" in lines, "no UCI_Elo option")
        for bad in ["setoption name UCI_Elo value 1319", "setoption name UCI_Elo value 3001",
                    "setoption name UCI_Elo value strong", "setoption name UCI_LimitStrength value yes"]:
            e.send(bad)
            answer = e.sync()
            check(len(answer) == 1 and answer[0].startswith("info string error: "), f"{bad!r} answered {answer}")
        e.send("setoption name UCI_LimitStrength value true")
        moves = []
        for elo in [1320, 2200, 3000]:
            e.send(f"setoption name UCI_Elo value {elo}")
            e.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
            lines, last = e.search("go wtime 3000 btime 3000 winc 30 binc 30")
            parsed = infos(lines)
            check(parsed, f"no info lines at UCI_Elo {elo}")
            best = best_move_of(last)
            check(parsed and parsed[-1]["pv"][0] == best, f"UCI_Elo {elo}: bestmove {best}, last PV {parsed[-1:]}")
            moves.append(best)
            legal_from(e, "position startpos", moves)
        e.send("setoption name UCI_Elo value 1320")
        e.send("position startpos")
        e.send("go wtime 600000 btime 600000")
        e.read_for(0.3)
        sent = e.send("stop")
        lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
        stop_ms = (e.last_time - sent) * 1000
        note(f"limited strength, stop while thinking with 10 minutes on the clock: bestmove after {stop_ms:.1f} ms")
        check(stop_ms < 200, f"bestmove {stop_ms:.1f} ms after stop")
        e.send("go ponder wtime 2000 btime 2000")
        lines = e.read_for(0.5)
        check(not any(l.startswith("bestmove") for l in lines), "bestmove while pondering, before ponderhit")
        e.send("ponderhit")
        lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
        legal_from(e, "position startpos", [best_move_of(lines[-1])])
        check(e.sync() == [], "output after the bestmove")



def test_wdl(binary):
    with Engine(binary) as e:
        e.send("position startpos")
        lines, _ = e.search("go depth 3")
        check(all("wdl" not in i for i in infos(lines)), "wdl printed with UCI_ShowWDL off")
        e.send("setoption name UCI_ShowWDL value true")
        for position in ("position startpos", f"position fen {MATE_IN_1}",
                         "position fen 4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
                         "position fen 4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1"):
            e.send(position)
            lines, _ = e.search("go depth 4")
            parsed = infos(lines)
            check(parsed and all("wdl" in i for i in parsed), f"{position}: info lines without wdl")
            for i in parsed:
                check(sum(i["wdl"]) == 1000, f"{position}: W+D+L != 1000 in {i['line']!r}")
            last = parsed[-1]
            if last["kind"] == "mate":
                check(last["wdl"] == (1000, 0, 0), f"mate score with wdl {last['wdl']}")
            elif last["score"] > 400:
                check(last["wdl"][0] > last["wdl"][2], f"winning score with wdl {last['wdl']}")
            elif last["score"] < -400:
                check(last["wdl"][2] > last["wdl"][0], f"losing score with wdl {last['wdl']}")


TESTS = [
    test_handshake_lists_all_options,
    test_option_names_case_insensitive,
    test_isready_and_stop_during_go_infinite,
    test_stop_latency_repeated,
    test_go_infinite_holds_bestmove_after_mate_found,
    test_go_depth_info_lines_and_legal_pvs,
    test_go_nodes,
    test_go_movetime,
    test_go_mate,
    test_mate_in_n_with_go_depth,
    test_side_being_mated_gets_negative_mate,
    test_proven_mate_ends_the_deepening,
    test_ponder_then_ponderhit,
    test_ponder_holds_bestmove_at_depth_limit,
    test_ponder_then_stop,
    test_mated_and_stalemated_root,
    test_mated_root_under_go_infinite_waits_for_stop,
    test_searchmoves,
    test_searchmoves_with_illegal_move,
    test_multipv,
    test_multipv_after_an_interrupted_iteration,
    test_multipv_more_than_legal_moves,
    test_multipv_mate_ranked_first,
    test_chess960_castling_output,
    test_castling_in_pv_printed_per_mode,
    test_bad_commands_and_options,
    test_go_with_a_bad_limit_does_not_search,
    test_go_with_negative_clock_searches,
    test_unknown_go_word_is_left_out,
    test_go_before_position,
    test_commands_during_search,
    test_position_during_search_does_not_change_it,
    test_thousands_of_plies,
    test_rapid_fire_go_depth_2,
    test_go_right_after_stop,
    test_go_stop_waiting_for_each_bestmove,
    test_threads_search_races,
    test_currmove_after_three_seconds,
    test_quit_during_go_infinite,
    test_eof_during_search,
    test_wdl,
    test_infinite_with_node_limit_waits_for_stop,
    test_limited_strength,
]


def main():
    if len(sys.argv) < 2 or len(sys.argv) > 3:
        print("usage: uci_search_process_test.py path/to/arbiter [test-name-substring]", file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    selected = [t for t in TESTS if len(sys.argv) < 3 or sys.argv[2] in t.__name__]
    return run_tests(selected, binary, notes=notes)


if __name__ == "__main__":
    sys.exit(main())

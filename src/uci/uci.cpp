#include "uci/uci.h"

#include <fmt/format.h>

#include <algorithm>
#include <istream>
#include <ostream>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/perft.h"
#include "eval/evaluate.h"
#include "eval/nnue/accumulator.h"
#include "search/bench.h"
#include "search/strength.h"
#include "search/tunable.h"
#include "search/wdl.h"
#include "syzygy/probe.h"
#include "util/parse.h"
#include "util/strings.h"
#include "winnability/winnability.h"

#ifndef ARBITER_VERSION
#define ARBITER_VERSION "dev"
#endif

namespace arbiter::uci {

namespace {

// Why a move token with capitals is refused: UCI spells moves in lower case only.
std::string_view case_hint(std::string_view token) {
    const bool upper = std::any_of(token.begin(), token.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
    return upper ? " (UCI moves are lower case)" : "";
}

// `wdl W D L` per mille, from the side to move's point of view (search/wdl.h).
std::string wdl_text(const search::Engine& engine, const search::SearchInfo& line) {
    const search::Wdl wdl = search::line_wdl(engine.game(), line.score, line.pv.empty() ? Move() : line.pv.front(),
                                             engine.tablebases(), engine.tb_fifty_move_rule());
    return fmt::format("{} {} {}", wdl.win, wdl.draw, wdl.loss);
}

std::string score_text(search::Score score) {
    if (search::is_mate(score)) return fmt::format("mate {}", search::mate_moves(score));
    return fmt::format("cp {}", score);
}

bool is_go_keyword(std::string_view word) {
    static constexpr std::string_view Keywords[] = {"searchmoves", "ponder",    "wtime", "btime", "winc",
                                                    "binc",        "movestogo", "depth", "nodes", "mate",
                                                    "movetime",    "infinite",  "perft"};
    for (std::string_view k : Keywords)
        if (word == k) return true;
    return false;
}

}  // namespace

Session::Session(std::ostream& out) : out_(out) {
    declare_options();
    // The callbacks run on the search thread: they read the engine's game, which stays
    // unchanged until the search thread has ended, never Session::game_.
    engine_.set_listener({
        [this](const std::vector<search::SearchInfo>& lines) { print_iteration(lines); },
        [this](Move move, int number, int depth) {
            println(fmt::format("info depth {} currmove {} currmovenumber {}", depth,
                                to_uci(move, engine_.game().position().chess960()), number));
        },
        [this](Move best, Move ponder) { print_best_move(best, ponder); },
    });
}

Session::~Session() {
    engine_.stop();
    engine_.wait();
}

void Session::declare_options() {
    // The single declaration of every option: `uci` prints these, `setoption` applies them.
    options_.add_spin("Hash", 16, 1, 65536, [this](int mb) {
        if (!engine_.set_hash_mb(size_t(mb)))
            error(fmt::format("cannot allocate {} MB for the hash table; keeping {} MB", mb, engine_.tt().size_mb()));
    });
    options_.add_spin("Threads", 1, 1, 1024, [this](int threads) { engine_.set_threads(threads); });
    options_.add_spin("MultiPV", 1, 1, 256, [this](int lines) { engine_.set_multipv(lines); });
    options_.add_check("Ponder", false, [](bool) {});
    options_.add_spin("Move Overhead", 10, 0, 5000, [this](int ms) { engine_.set_move_overhead(ms); });
    options_.add_button("Clear Hash", [this] { engine_.clear_hash(); });
    options_.add_check("UCI_Chess960", false, [this](bool on) { chess960_ = on; });
    // Playing strength: UCI_Elo applies while UCI_LimitStrength is on (search/strength.h).
    options_.add_check("UCI_LimitStrength", false, [this](bool on) { engine_.set_limit_strength(on); });
    options_.add_spin("UCI_Elo", 1500, search::MinLimitedElo, search::MaxLimitedElo,
                      [this](int elo) { engine_.set_elo(elo); });
    options_.add_check("UCI_ShowWDL", false, [this](bool on) { show_wdl_ = on; });
    // A tuning build (cmake -DARBITER_TUNE=ON) exposes every search parameter of
    // search/tunables.h as a spin option of its own name, for an SPSA tuner.
    for (const search::TunableInfo& t : search::tunables())
        if (t.value)
            options_.add_spin(std::string(t.name), t.default_value, t.min, t.max, [&t](int v) { *t.value = v; });
    // Composed problems and test suites hold positions that no game reaches.
    options_.add_check("Allow Unreachable Positions", false,
                       [this](bool on) { fen_check_ = on ? FenCheck::Playable : FenCheck::Reachable; });
    // The default names the net embedded at build time; any other value is a file path.
    // A file that fails validation keeps the net in use.
    const std::string default_net{eval::nnue::default_network_name()};
    options_.add_string("EvalFile", default_net, [this, default_net](const std::string& v) {
        if (v == default_net || v.empty() || v == "<default>") {
            engine_.use_default_network();
            if (!eval::nnue::default_network())
                error(fmt::format("this build has no embedded network ({}); using the hand-crafted evaluation",
                                  eval::nnue::default_network_error()));
        } else if (const std::string message = engine_.load_network(v); !message.empty()) {
            error(fmt::format("{}; keeping the current network", message));
        } else {
            println(fmt::format("info string EvalFile {} loaded", v));
        }
    });
    options_.add_check("Use NNUE", true, [this](bool on) { engine_.set_use_nnue(on); });
    // Syzygy tablebases, with Stockfish's option names (GUIs and testers set these).
    options_.add_string("SyzygyPath", "", [this](const std::string& v) {
        const bool had_tables = !engine_.tablebases().empty();
        const syzygy::LoadReport report = engine_.load_tablebases(v);
        for (const std::string& problem : report.problems) error(problem);
        if (!v.empty() && v != "<empty>") println(fmt::format("info string Found {} tablebases", report.tables));
        else if (had_tables) println("info string Tablebases unloaded");
    });
    options_.add_spin("SyzygyProbeDepth", 1, 1, 100, [this](int depth) { engine_.set_tb_probe_depth(depth); });
    options_.add_check("Syzygy50MoveRule", true, [this](bool on) { engine_.set_tb_fifty_move_rule(on); });
    options_.add_spin("SyzygyProbeLimit", 7, 0, 7, [this](int men) { engine_.set_tb_probe_limit(men); });
}

void Session::println(std::string_view text) {
    std::lock_guard lock(out_mutex_);
    out_ << text << '\n';
    out_.flush();
}

void Session::error(std::string_view message) { println(fmt::format("info string error: {}", message)); }

void Session::run(std::istream& in) {
    std::string line;
    while (std::getline(in, line))
        if (!handle(line)) break;
    engine_.stop();
    engine_.wait();
}

bool Session::handle(std::string_view line) {
    const std::vector<std::string_view> words = split_words(line);
    if (words.empty()) return true;
    const std::string_view command = words[0];
    bool busy = engine_.searching();
    // A search that was told to stop ends within milliseconds: commands that need an
    // idle engine wait for it instead of being refused (GUIs send `stop` then `go`).
    if (busy && engine_.stopping() && command != "isready") {
        engine_.wait();
        busy = false;
    }
    if (command == "quit") {
        engine_.stop();
        engine_.wait();
        return false;
    }
    if (command == "isready") println("readyok");
    else if (command == "stop") engine_.stop();
    else if (command == "ponderhit") engine_.ponderhit();
    else if (command == "uci") cmd_uci();
    else if (command == "debug") {
    }  // accepted; Arbiter has no extra debug output
    else if (command == "position")
        cmd_position(words);
    else if (command == "d") cmd_display();
    else if (command == "eval") cmd_eval();
    else if (busy && (command == "setoption" || command == "ucinewgame" || command == "go" || command == "bench"))
        error(fmt::format("'{}' is not possible while searching; send 'stop' first", command));
    else if (command == "setoption") cmd_setoption(words);
    else if (command == "ucinewgame") engine_.new_game();
    else if (command == "go") cmd_go(words);
    else if (command == "bench") cmd_bench(words);
    else error(fmt::format("unknown command '{}'", command));
    return true;
}

void Session::cmd_uci() {
    println(fmt::format("id name Arbiter {}", ARBITER_VERSION));
    println("id author the Arbiter developers");
    for (const std::string& line : options_.describe()) println(line);
    println("uciok");
}

void Session::cmd_setoption(const std::vector<std::string_view>& words) {
    // setoption name <name, may contain spaces> [value <value, may contain spaces>]
    if (words.size() < 3 || words[1] != "name") {
        error("setoption needs 'name <option>'");
        return;
    }
    size_t value_at = 2;
    while (value_at < words.size() && words[value_at] != "value") ++value_at;
    const std::string name = join_words(words, 2, value_at);
    const std::string value = join_words(words, value_at + 1, words.size());
    if (name.empty()) {
        error("setoption needs 'name <option>'");
        return;
    }
    if (const std::string message = options_.set(name, value); !message.empty()) error(message);
}

void Session::cmd_position(const std::vector<std::string_view>& words) {
    size_t moves_at = 1;
    while (moves_at < words.size() && words[moves_at] != "moves") ++moves_at;
    FenResult start;
    if (words.size() >= 2 && words[1] == "startpos") {
        start = Position::from_fen(Position::StartFen, chess960_);
        if (moves_at != 2) {
            error("position startpos takes no more than a move list");
            return;
        }
    } else if (words.size() >= 2 && words[1] == "fen") {
        start = Position::from_fen(join_words(words, 2, moves_at), chess960_, fen_check_);
    } else {
        error("position needs 'startpos' or 'fen <fen>'");
        return;
    }
    if (!start.position) {
        error(start.error);
        return;
    }
    game_ = Game(*start.position);
    for (size_t i = moves_at + 1; i < words.size(); ++i) {
        const std::optional<Move> move = parse_uci(game_.position(), words[i]);
        if (!move) {
            error(
                fmt::format("illegal move {}{} in position {}", words[i], case_hint(words[i]), game_.position().fen()));
            return;
        }
        game_.play(*move);
    }
}

void Session::cmd_go(const std::vector<std::string_view>& words) {
    search::SearchLimits limits;
    // A bad limit refuses the whole command: searching without it could run for ever
    // (`go wtime abc` has no limit left) or far longer than meant, so the error line
    // is the only answer, with no bestmove, and the engine waits for the next command.
    // Unknown words and illegal searchmoves are left out as UCI asks, and the search
    // goes on without them.
    bool bad_limit = false;
    for (size_t i = 1; i < words.size(); ++i) {
        const std::string_view key = words[i];
        if (key == "perft") {
            const ParsedNumber<int> depth =
                i + 1 < words.size() ? parse_number<int>(words[i + 1], 1, MaxPerftDepth) : NumberError::NotANumber;
            if (!depth) error(fmt::format("go perft needs a depth from 1 to {}", MaxPerftDepth));
            else cmd_perft(*depth);
            return;
        }
        if (key == "infinite") limits.infinite = true;
        else if (key == "ponder") limits.ponder = true;
        else if (key == "searchmoves") {
            while (i + 1 < words.size() && !is_go_keyword(words[i + 1])) {
                const std::optional<Move> m = parse_uci(game_.position(), words[++i]);
                if (m) limits.search_moves.push_back(*m);
                else error(fmt::format("searchmoves: illegal move {}{}", words[i], case_hint(words[i])));
            }
        } else if (key == "wtime" || key == "btime" || key == "winc" || key == "binc" || key == "movestogo" ||
                   key == "depth" || key == "nodes" || key == "mate" || key == "movetime") {
            const bool has_value = i + 1 < words.size() && !is_go_keyword(words[i + 1]);
            const ParsedNumber<int64_t> value =
                has_value ? parse_number<int64_t>(words[i + 1]) : NumberError::NotANumber;
            if (!value) {
                bad_limit = true;
                if (!has_value) error(fmt::format("go {} needs a number; not searching", key));
                else if (value.error() == NumberError::OutOfRange)
                    error(fmt::format("go {}: {} is out of range; not searching", key, words[i + 1]));
                else error(fmt::format("go {} needs a number, not '{}'; not searching", key, words[i + 1]));
                i += has_value;  // skip the bad value
                continue;
            }
            ++i;
            // Some GUIs send negative times when the clock is nearly out: treat as zero.
            // Every other limit below zero is a mistake.
            const bool is_clock = key == "wtime" || key == "btime";
            if (*value < 0 && !is_clock) {
                bad_limit = true;
                error(fmt::format("go {} needs a number of 0 or more, not {}; not searching", key, *value));
                continue;
            }
            const int64_t v = std::max<int64_t>(0, *value);
            if (key == "wtime") limits.time[White] = v;
            else if (key == "btime") limits.time[Black] = v;
            else if (key == "winc") limits.increment[White] = v;
            else if (key == "binc") limits.increment[Black] = v;
            else if (key == "movestogo") limits.moves_to_go = int(std::min<int64_t>(v, 1000));
            else if (key == "depth") limits.depth = int(std::min<int64_t>(v, search::MaxPly - 1));
            else if (key == "nodes") limits.nodes = uint64_t(v);
            else if (key == "mate") limits.mate = int(std::min<int64_t>(v, search::MaxPly / 2));
            else limits.movetime = v;
        } else {
            error(fmt::format("go: unknown parameter '{}'", key));
        }
    }
    if (bad_limit) return;
    engine_.set_game(game_);
    if (!engine_.go(limits)) error("already searching");
}

void Session::print_iteration(const std::vector<search::SearchInfo>& lines) {
    const bool chess960 = engine_.game().position().chess960();
    for (const search::SearchInfo& info : lines) {
        if (info.depth == 0) {
            println(fmt::format("info depth 0 score {}", score_text(info.score)));
            continue;
        }
        std::string text = fmt::format("info depth {} seldepth {} multipv {} score {}", info.depth, info.seldepth,
                                       info.multipv, score_text(info.score));
        if (info.bound == search::BoundKind::Lower) text += " lowerbound";
        if (info.bound == search::BoundKind::Upper) text += " upperbound";
        if (show_wdl_) text += fmt::format(" wdl {}", wdl_text(engine_, info));
        const int64_t nps = info.time_ms > 0 ? int64_t(info.nodes * 1000 / uint64_t(info.time_ms)) : 0;
        text += fmt::format(" nodes {} nps {} hashfull {} tbhits {} time {} pv", info.nodes, nps, info.hashfull,
                            info.tb_hits, info.time_ms);
        for (Move m : info.pv) {
            text += ' ';
            text += to_uci(m, chess960);
        }
        println(text);
    }
}

void Session::print_best_move(Move best, Move ponder) {
    const bool chess960 = engine_.game().position().chess960();
    if (best.is_null()) println("bestmove (none)");
    else if (ponder.is_null()) println(fmt::format("bestmove {}", to_uci(best, chess960)));
    else println(fmt::format("bestmove {} ponder {}", to_uci(best, chess960), to_uci(ponder, chess960)));
}

void Session::cmd_perft(int depth) {
    std::string report = divide_report(game_.position(), depth);
    report.pop_back();  // println ends the line
    println(report);
}

void Session::cmd_display() {
    const Position& pos = game_.position();
    std::string checkers;
    for (Square s : squares(pos.checkers())) checkers += square_name(s) + " ";
    if (!checkers.empty()) checkers.pop_back();
    // FIDE 6.9: a side whose flag falls loses unless the opponent cannot checkmate by
    // any series of legal moves; `Winnable` tells an arbiter or a GUI which side can.
    const winnability::Winnability w = winnability::decide(pos);
    const auto word = [](winnability::Winnable x) {
        return x == winnability::Winnable::Yes ? "yes" : x == winnability::Winnable::No ? "no" : "unknown";
    };
    // The tables' verdict from the side to move's view, when the position is in them.
    // It comes before Winnable, which stays the last line (scripts read up to it).
    std::string tablebase;
    if (const std::optional<syzygy::Wdl> wdl = syzygy::probe_wdl(engine_.tablebases(), pos)) {
        const std::optional<int> dtz = syzygy::probe_dtz(engine_.tablebases(), pos);
        tablebase = fmt::format("Tablebase: WDL {}, DTZ {}\n", syzygy::wdl_token(*wdl),
                                dtz ? std::to_string(*dtz) : std::string("unknown"));
    }
    println(fmt::format("{}\nFen: {}\nKey: {:016X}\nCheckers: {}\nStatus: {}\n{}Winnable: white {}, black {}",
                        board_diagram(game_.position()), pos.fen(), pos.key(), checkers,
                        status_token(game_.status(w.dead())), tablebase, word(w.white), word(w.black)));
}

void Session::cmd_eval() {
    const Position& pos = game_.position();
    if (const eval::nnue::Network* net = engine_.active_network()) {
        const int score = eval::nnue::evaluate(*net, pos);
        println(fmt::format("NNUE evaluation: {} cp (White's view), {} cp (side to move)",
                            pos.side_to_move() == White ? score : -score, score));
        return;
    }
    const eval::Breakdown b = eval::breakdown(pos);
    println(
        fmt::format("term             mg      eg    (White's view)\n"
                    "material+psqt {:6} {:7}\nmobility      {:6} {:7}\npawns         {:6} {:7}\n"
                    "pieces        {:6} {:7}\nking safety   {:6}\nphase {}/24\n"
                    "Evaluation: {} cp (White's view), {} cp (side to move)",
                    b.material_psqt_mg, b.material_psqt_eg, b.mobility_mg, b.mobility_eg, b.pawns_mg, b.pawns_eg,
                    b.pieces_mg, b.pieces_eg, b.king_safety_mg, b.phase, b.total, eval::evaluate(pos)));
}

void Session::cmd_bench(const std::vector<std::string_view>& words) {
    const std::optional<int> depth =
        search::bench_depth(words.size() >= 2 ? std::optional<std::string_view>(words[1]) : std::nullopt);
    if (!depth) {
        error(fmt::format("bench takes a depth from 1 to {}", search::MaxBenchDepth));
        return;
    }
    const search::BenchResult result = search::run_bench(
        *depth, [this](const std::string& line) { println(line); }, &engine_);
    println(fmt::format("{} nodes {} nps", result.nodes, result.nps()));
}

std::string board_diagram(const Position& pos) {
    const std::string border = " +---+---+---+---+---+---+---+---+\n";
    std::string text = border;
    for (int rank = 7; rank >= 0; --rank) {
        for (int file = 0; file < 8; ++file) {
            const Piece p = pos.piece_on(make_square(File(file), Rank(rank)));
            text += fmt::format(" | {}", p == NoPiece ? ' ' : piece_letter(p));
        }
        text += fmt::format(" | {}\n", rank + 1);
        text += border;
    }
    text += "   a   b   c   d   e   f   g   h\n";
    return text;
}

}  // namespace arbiter::uci

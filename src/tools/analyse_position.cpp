// `arbiter analyse [--fen FEN] [--moves m1 m2 ...] [limits]`: one position searched,
// one line per principal variation each time the search deepens, for a person to read.
//
//   depth 14/21  score +0.31  wdl 113 832 55  nodes 1048576  nps 1650000  time 0.64  pv 1. e4 e5 2. Nf3
//
// Scores and WDL are from White's side whoever is to move; the PV is in SAN. A line
// of a search that was stopped may carry a bound (`score >=+0.31`, `score <=-0.12`):
// its move was searched that deep, but not to an exact score. Lines come sorted; after
// a stop some may keep the previous depth (search/iteration.cpp).

#include <fmt/format.h>

#include <iostream>
#include <mutex>
#include <ostream>

#include "chess/game.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "search/engine.h"
#include "tools/format.h"
#include "tools/tools.h"

namespace arbiter::tools {

namespace {

constexpr int64_t DefaultMovetimeMs = 10000;

int fail(std::ostream& err, std::string_view message) {
    err << "arbiter analyse: " << message << '\n';
    err.flush();
    return 2;
}

std::string info_line(const search::Engine& engine, const search::SearchInfo& info, bool show_multipv) {
    const Position& root = engine.game().position();
    const Color stm = root.side_to_move();
    const search::Score white = white_score(info.score, stm);
    // The bound is the side to move's: from White's side, Black's lower bound is an upper one.
    const bool lower = info.bound == (stm == White ? search::BoundKind::Lower : search::BoundKind::Upper);
    const std::string_view bound = info.bound == search::BoundKind::Exact ? "" : lower ? ">=" : "<=";
    search::Wdl wdl = search::line_wdl(engine.game(), info.score, info.pv.empty() ? Move() : info.pv.front(),
                                       engine.tablebases(), engine.tb_fifty_move_rule());
    if (stm == Black) wdl = wdl.flipped();
    const uint64_t nps = info.time_ms > 0 ? info.nodes * 1000 / uint64_t(info.time_ms) : info.nodes * 1000;
    std::string text = fmt::format("depth {}/{}", info.depth, info.seldepth);
    if (show_multipv) text += fmt::format("  multipv {}", info.multipv);
    text += fmt::format("  score {}{}  wdl {} {} {}  nodes {}  nps {}  time {:.2f}  pv {}", bound, format_score(white),
                        wdl.win, wdl.draw, wdl.loss, info.nodes, nps, double(info.time_ms) / 1000.0,
                        san_line(root, info.pv));
    return text;
}

}  // namespace

int analyse_position_main(const Args& args, std::ostream& out, std::ostream& err) {
    SearchOptions options;
    std::string fen(Position::StartFen);
    std::vector<std::string_view> move_texts;
    ArgReader reader(args);
    while (!reader.done()) {
        const std::string_view flag = reader.next();
        std::string error;
        if (flag == "--fen") {
            const std::vector<std::string_view> words = reader.values();
            if (words.empty()) return fail(err, "--fen needs a FEN");
            fen.clear();
            for (std::string_view w : words) {
                if (!fen.empty()) fen += ' ';
                fen += w;
            }
        } else if (flag == "--moves") {
            move_texts = reader.values();
        } else if (read_search_flag(reader, flag, options, true, error)) {
            if (!error.empty()) return fail(err, error);
        } else {
            return fail(err, flag.starts_with("--") ? fmt::format("unknown option '{}'", flag)
                                                    : fmt::format("unexpected argument '{}'", flag));
        }
    }
    if (!options.limited) options.limits.movetime = DefaultMovetimeMs;

    const FenResult start = read_any_fen(fen);
    if (!start.position) return fail(err, fmt::format("{} ('{}')", start.error, fen));
    Game game(*start.position);
    for (std::string_view text : move_texts) {
        // "exf6 e.p." given as two arguments: the note belongs to the capture before it.
        if (text == "e.p." && !game.moves().empty() && game.moves().back().kind() == Move::EnPassant) continue;
        const std::optional<Move> move = parse_move(game.position(), text);
        if (!move) return fail(err, fmt::format("illegal move '{}' in position {}", text, game.position().fen()));
        game.play(*move);
    }
    const Position root = game.position();

    search::Engine engine;
    if (const std::optional<std::string> problem = configure_engine(engine, options, err)) return fail(err, *problem);
    const int legal = int(count_legal_moves(root));
    engine.set_multipv(std::max(1, std::min(options.multipv, legal)));
    engine.set_game(game);

    out << fmt::format("Position: {}\n", root.fen());
    out << fmt::format("Search: {}, {} thread{}, {} MB hash{}\n", describe_limit(options.limits), options.threads,
                       options.threads == 1 ? "" : "s", options.hash_mb,
                       options.multipv > 1 ? fmt::format(", multipv {}", options.multipv) : "");
    out.flush();
    if (legal == 0) {
        out << (root.in_check() ? "No legal move: checkmate\n" : "No legal move: stalemate\n");
        out.flush();
        return 0;
    }

    Move best;
    engine.set_listener({
        [&](const std::vector<search::SearchInfo>& lines) {
            for (const search::SearchInfo& info : lines) out << info_line(engine, info, options.multipv > 1) << '\n';
            out.flush();
        },
        nullptr,
        [&](Move best_move, Move) { best = best_move; },
    });
    if (options.limits.infinite) err << "Searching until a line is entered or standard input ends.\n" << std::flush;
    engine.go(options.limits);
    if (options.limits.infinite) {
        std::string line;
        std::getline(std::cin, line);
        engine.stop();
    }
    engine.wait();
    if (!best.is_null())
        out << fmt::format("Best move: {} ({})\n", san_line(root, std::span(&best, 1)), to_uci(best, root.chess960()));
    out.flush();
    return 0;
}

int analyse_main(const Args& args, std::ostream& out, std::ostream& err) {
    for (std::string_view a : args)
        if (a == "--pgn") return analyse_game_main(args, out, err);
    return analyse_position_main(args, out, err);
}

}  // namespace arbiter::tools

#include "tools/format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "chess/movegen.h"
#include "chess/notation.h"

namespace arbiter::tools {

namespace {

// Centipawns as pawns with two decimals, in integer arithmetic (so never "-0.00").
std::string pawns(int centipawns) {
    const int magnitude = std::abs(centipawns);
    return fmt::format("{}{}.{:02}", centipawns < 0 ? "-" : "", magnitude / 100, magnitude % 100);
}

// `#0` / `#-0`: Black / White is checkmated on the board.
std::string mate_text(search::Score white) {
    const int moves = white_mate_moves(white);
    return moves == 0 && white < 0 ? "#-0" : fmt::format("#{}", moves);
}

}  // namespace

int white_mate_moves(search::Score white) {
    const int plies = search::Mate - std::abs(white);
    const int moves = (plies + 1) / 2;
    return white > 0 ? moves : -moves;
}

std::string format_score(search::Score white) {
    if (search::is_mate(white)) return mate_text(white);
    if (search::is_decisive(white)) return white > 0 ? "+TB" : "-TB";
    return white > 0 ? fmt::format("+{}", pawns(white)) : pawns(white);
}

std::string lichess_eval(search::Score white) {
    if (search::is_mate(white)) return mate_text(white);
    if (search::is_decisive(white)) return white > 0 ? "100.00" : "-100.00";
    return pawns(white);
}

std::string san_line(const Position& start, std::span<const Move> moves) {
    std::string text;
    Position pos = start;
    bool first = true;
    for (Move m : moves) {
        if (!is_legal(pos, m)) break;
        if (!first) text += ' ';
        if (pos.side_to_move() == White) text += fmt::format("{}. ", pos.fullmove_number());
        else if (first) text += fmt::format("{}... ", pos.fullmove_number());
        text += to_san(pos, m);
        pos = pos.apply(m);
        first = false;
    }
    return text;
}

int clamped_centipawns(search::Score score) {
    if (search::is_decisive(score)) return score > 0 ? 1000 : -1000;
    return std::clamp(score, -1000, 1000);
}

}  // namespace arbiter::tools

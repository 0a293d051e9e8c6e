#include "chess/perft.h"

#include <fmt/format.h>

#include "chess/movegen.h"
#include "chess/notation.h"

namespace arbiter {

uint64_t perft(const Position& pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return count_legal_moves(pos);
    uint64_t nodes = 0;
    for (Move m : legal_moves(pos)) nodes += perft(pos.apply(m), depth - 1);
    return nodes;
}

std::vector<std::pair<Move, uint64_t>> divide(const Position& pos, int depth) {
    std::vector<std::pair<Move, uint64_t>> result;
    for (Move m : legal_moves(pos)) result.emplace_back(m, perft(pos.apply(m), depth - 1));
    return result;
}

std::string divide_report(const Position& pos, int depth) {
    std::string text;
    uint64_t total = 0;
    for (const auto& [move, nodes] : divide(pos, depth)) {
        text += fmt::format("{}: {}\n", to_uci(move, pos.chess960()), nodes);
        total += nodes;
    }
    text += fmt::format("\nNodes searched: {}\n", total);
    return text;
}

}  // namespace arbiter

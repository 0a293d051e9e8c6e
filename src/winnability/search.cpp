#include "winnability/search.h"

#include <algorithm>
#include <array>

#include "chess/movegen.h"

namespace arbiter::winnability {

namespace {

constexpr size_t TableSize = size_t(1) << 16;

HelpmateSearch::Table& shared_table() {
    static thread_local HelpmateSearch::Table table;
    return table;
}

}  // namespace

// The winner brings its pieces towards the loser's king and takes pawns that wall it
// off; the loser walks its king towards the winner's forces, brings its pieces next
// to its own king to block flight squares and avoids taking the winner's pieces.
int helpmate_order(const Position& pos, Move m, Color winner) {
    const Color loser = ~winner;
    const Square from = m.from(), to = m.to();
    const PieceType moved = type_of(pos.piece_on(from));
    const Square loser_king = pos.king_square(loser);
    const bool capture = pos.is_capture(m);
    int score = 0;
    if (pos.side_to_move() == winner) {
        if (m.kind() == Move::Promotion) score += m.promotion() == Queen ? 600 : -200;
        if (capture) score += 150;
        score += 16 * (square_distance(from, loser_king) - square_distance(to, loser_king));
    } else {
        if (capture) score += type_of(pos.piece_on(to)) == Pawn || m.kind() == Move::EnPassant ? 40 : -400;
        if (m.kind() == Move::Promotion) score += 100;
        const Square winner_king = pos.king_square(winner);
        if (moved == King && m.kind() != Move::Castling) {
            score += 12 * (square_distance(from, winner_king) - square_distance(to, winner_king));
        } else if (moved != Pawn) {
            score += 8 * (square_distance(from, loser_king) - square_distance(to, loser_king));
        }
    }
    return score;
}

// One sort of 64-bit keys, (order, index, move): the index keeps it stable, and it
// costs n log n where the insertion sort it replaced cost up to n squared (a tenth of
// the slowest searches' time went into sorting).
void order_moves(const Position& pos, MoveList& moves, Color winner, bool best_first) {
    std::array<int64_t, 256> keys;
    const size_t n = moves.size();
    for (size_t i = 0; i < n; ++i) {
        const int64_t order = helpmate_order(pos, moves[i], winner);
        keys[i] = (best_first ? -order : order) * (int64_t(1) << 32) | int64_t(i << 16 | moves[i].raw());
    }
    std::sort(keys.begin(), keys.begin() + n);
    for (size_t i = 0; i < n; ++i) moves[i] = Move::from_raw(uint16_t(keys[i] & 0xFFFF));
}

bool mates(const Position& pos, Move m, const Position::CheckSquares& checks) {
    return pos.gives_check(m, checks) && !has_legal_move(pos.apply(m));
}

HelpmateSearch::HelpmateSearch(Color winner, uint64_t budget, int max_plies)
        : winner_(winner), budget_(budget), max_plies_(max_plies), table_(shared_table()) {
    if (table_.entries.empty()) table_.entries.resize(TableSize);
    if (++table_.stamp == 0) {
        std::fill(table_.entries.begin(), table_.entries.end(), Entry{});
        table_.stamp = 1;
    }
}

bool HelpmateSearch::find(const Position& root) {
    for (int depth = root.side_to_move() == winner_ ? 1 : 2; depth <= max_plies_; depth += 2) {
        if (search(root, depth)) return true;
        if (aborted_) return false;
    }
    return false;
}

// A lost table entry only costs time, never a wrong answer: Yes is only ever given
// for a line that was played to mate.
bool HelpmateSearch::search(const Position& pos, int depth) {
    const bool winner_moves = pos.side_to_move() == winner_;
    if (!winner_moves && depth < 2) return false;
    MoveList moves = legal_moves(pos);
    // A node costs one unit per move it plays.
    nodes_ += 1 + moves.size();
    if (nodes_ > budget_) {
        aborted_ = true;
        return false;
    }
    const Position::CheckSquares checks = pos.check_squares();
    if (winner_moves && depth == 1) {
        for (Move m : moves) {
            if (mates(pos, m, checks)) return true;
        }
        return false;
    }

    order_moves(pos, moves, winner_, true);
    for (Move m : moves) {
        // The child's check information only once the table does not settle it.
        Position next = pos.apply_board(m);
        if (winner_moves && mates(pos, m, checks)) return true;
        Entry& entry = table_.entries[next.key() & (TableSize - 1)];
        if (entry.stamp == table_.stamp && entry.key == next.key() && entry.depth >= depth - 1) continue;
        next.add_check_info();
        if (search(next, depth - 1)) return true;
        if (aborted_) return false;
        entry = {next.key(), depth - 1, table_.stamp};
    }
    return false;
}

}  // namespace arbiter::winnability

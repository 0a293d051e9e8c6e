#pragma once
// Move-ordering memory of one search thread:
// - killer moves per ply (quiet moves that caused a cutoff at that ply);
// - the butterfly history of quiet moves, by side, origin and destination;
// - continuation history: how a quiet move (piece, destination) fared after the move
//   one and two plies earlier (piece, destination), which captures follow-ups;
// - countermoves: the quiet move that last refuted a given previous move.

#include <array>
#include <cstdlib>
#include <memory>

#include "chess/move.h"
#include "search/score.h"

namespace arbiter::search {

// A move's context for continuation history: the moving piece and its destination.
// -1 stands for "no move" (the root, or a null move).
using ContinuationIndex = int;
constexpr ContinuationIndex NoContinuation = -1;
constexpr ContinuationIndex continuation_index(Piece moved, Square to) {
    return (color_of(moved) * 6 + type_of(moved)) * 64 + to;
}

class History {
public:
    static constexpr int Max = 16384;
    static constexpr int ContinuationSize = 12 * 64;

    History() : continuation_(std::make_unique<ContinuationTable>()) { clear(); }

    void clear() {
        for (auto& side : quiet_)
            for (auto& from : side) from.fill(0);
        for (auto& row : *continuation_) row.fill(0);
        for (auto& row : counter_) row.fill(Move());
        for (auto& k : killers_) k = {};
    }

    int quiet(Color c, Move m) const { return quiet_[c][m.from()][m.to()]; }
    int continuation(ContinuationIndex previous, ContinuationIndex current) const {
        return previous == NoContinuation ? 0 : (*continuation_)[previous][current];
    }

    void update_quiet(Color c, Move m, int bonus) { apply_bonus(quiet_[c][m.from()][m.to()], bonus); }
    void update_continuation(ContinuationIndex previous, ContinuationIndex current, int bonus) {
        if (previous != NoContinuation) apply_bonus((*continuation_)[previous][current], bonus);
    }

    const std::array<Move, 2>& killers(int ply) const { return killers_[ply]; }
    void add_killer(int ply, Move m) {
        if (killers_[ply][0] == m) return;
        killers_[ply][1] = killers_[ply][0];
        killers_[ply][0] = m;
    }
    void clear_killers(int ply) { killers_[ply] = {}; }

    Move counter(ContinuationIndex previous) const {
        return previous == NoContinuation ? Move() : counter_[previous / 64 % 12][previous % 64];
    }
    void set_counter(ContinuationIndex previous, Move m) {
        if (previous != NoContinuation) counter_[previous / 64 % 12][previous % 64] = m;
    }

    static int bonus(int depth) { return std::min(depth * depth * 16 + 32, 1600); }

private:
    // Gravity update: the value moves toward +-Max, more slowly the closer it is.
    static void apply_bonus(int16_t& h, int bonus) { h = int16_t(h + bonus - h * std::abs(bonus) / Max); }

    using ContinuationTable = std::array<std::array<int16_t, ContinuationSize>, ContinuationSize>;

    std::array<std::array<std::array<int16_t, 64>, 64>, 2> quiet_{};
    std::unique_ptr<ContinuationTable> continuation_;  // 1.2 MB: on the heap
    std::array<std::array<Move, 64>, 12> counter_{};
    std::array<std::array<Move, 2>, MaxPly + 2> killers_{};
};

} // namespace arbiter::search

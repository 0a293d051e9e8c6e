#pragma once
// Correction history: how far the static evaluation has recently been from the
// search's result in positions that share a feature with this one, learnt during the
// search and added to the static evaluation that pruning decisions read. Three
// features, one table each:
// - the pawn structure (the position's pawn key), per side to move;
// - each side's non-pawn pieces (a hash of their bitboards), per side to move;
// - the last two moves (continuation), per side to move through the piece colours.
// Each entry is nudged toward the error seen (a gravity update, as for histories);
// the correction is the tables' weighted sum.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "chess/position.h"
#include "search/history.h"
#include "search/tunable.h"

namespace arbiter::search {

class CorrectionHistory {
public:
    static constexpr int Size = 16384;  // entries per side to move and feature
    static constexpr int Limit = 1024;  // entries lie in [-Limit, Limit], in 1/8 cp

    CorrectionHistory() : continuation_(std::make_unique<ContinuationTable>()) { clear(); }

    void clear() {
        for (auto& side : pawn_) side.fill(0);
        for (auto& side : non_pawn_)
            for (auto& colour : side) colour.fill(0);
        for (auto& row : *continuation_) row.fill(0);
    }

    // The correction to add to the static evaluation of `pos`, in centipawns.
    int correction(const Position& pos, const ContinuationContext& context) const {
        const Color us = pos.side_to_move();
        const int weighted = tune::corr_pawn_weight * pawn_[us][pawn_index(pos)] +
                             tune::corr_non_pawn_weight * (non_pawn_[us][White][non_pawn_index(pos, White)] +
                                                           non_pawn_[us][Black][non_pawn_index(pos, Black)]) +
                             tune::corr_continuation_weight * continuation(context);
        return weighted / (8 * 128);
    }

    // The search found `error` = result - corrected static evaluation (centipawns) at `depth`.
    void update(const Position& pos, const ContinuationContext& context, int error, int depth) {
        const int bonus = std::clamp(error * 8 * depth / 8, -Limit / 4, Limit / 4);
        const Color us = pos.side_to_move();
        apply(pawn_[us][pawn_index(pos)], bonus);
        apply(non_pawn_[us][White][non_pawn_index(pos, White)], bonus);
        apply(non_pawn_[us][Black][non_pawn_index(pos, Black)], bonus);
        if (context.back1 != NoContinuation && context.back2 != NoContinuation)
            apply((*continuation_)[context.back1][context.back2], bonus);
    }

private:
    static void apply(int16_t& entry, int bonus) { entry = int16_t(entry + bonus - entry * std::abs(bonus) / Limit); }
    static size_t pawn_index(const Position& pos) { return pos.pawn_key() % Size; }
    // A hash of one side's knights, bishops, rooks, queens and king.
    static size_t non_pawn_index(const Position& pos, Color c) {
        uint64_t h = 0;
        for (PieceType t : {Knight, Bishop, Rook, Queen, King}) h = (h ^ pos.pieces(c, t)) * 0x9E3779B97F4A7C15ULL + t;
        h ^= h >> 29;
        return size_t(h % Size);
    }
    int continuation(const ContinuationContext& context) const {
        if (context.back1 == NoContinuation || context.back2 == NoContinuation) return 0;
        return (*continuation_)[context.back1][context.back2];
    }

    using ContinuationTable = std::array<std::array<int16_t, History::ContinuationSize>, History::ContinuationSize>;
    std::array<std::array<int16_t, Size>, 2> pawn_{};
    std::array<std::array<std::array<int16_t, Size>, 2>, 2> non_pawn_{};
    std::unique_ptr<ContinuationTable> continuation_;
};

} // namespace arbiter::search

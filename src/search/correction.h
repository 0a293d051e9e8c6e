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

    // Where a position's entries lie: computed once a node, then used to prefetch,
    // to read and to update.
    struct Keys {
        Color us;
        uint32_t pawn;
        uint32_t non_pawn[2];
    };
    static Keys keys_of(const Position& pos) {
        return {pos.side_to_move(), pawn_index(pos), {non_pawn_index(pos, White), non_pawn_index(pos, Black)}};
    }

    // Starts loading the entries correction() reads: issued before the transposition
    // table's probe, their cache misses overlap its miss instead of following it (in
    // `perf`, nearly all of correction()'s time was spent waiting for these loads).
    void prefetch(const Keys& keys, const ContinuationContext& context) const {
        __builtin_prefetch(&pawn_[keys.us][keys.pawn]);
        __builtin_prefetch(&non_pawn_[keys.us][White][keys.non_pawn[White]]);
        __builtin_prefetch(&non_pawn_[keys.us][Black][keys.non_pawn[Black]]);
        if (context.back1 != NoContinuation && context.back2 != NoContinuation)
            __builtin_prefetch(&(*continuation_)[context.back1][context.back2]);
    }

    // The correction to add to the static evaluation of the position of `keys`, in centipawns.
    int correction(const Keys& keys, const ContinuationContext& context) const {
        const int weighted = tune::corr_pawn_weight * pawn_[keys.us][keys.pawn] +
                             tune::corr_non_pawn_weight * (non_pawn_[keys.us][White][keys.non_pawn[White]] +
                                                           non_pawn_[keys.us][Black][keys.non_pawn[Black]]) +
                             tune::corr_continuation_weight * continuation(context);
        return weighted / (8 * 128);
    }

    // The search found `error` = result - corrected static evaluation (centipawns) at `depth`.
    void update(const Keys& keys, const ContinuationContext& context, int error, int depth) {
        const int bonus = std::clamp(error * 8 * depth / 8, -Limit / 4, Limit / 4);
        apply(pawn_[keys.us][keys.pawn], bonus);
        apply(non_pawn_[keys.us][White][keys.non_pawn[White]], bonus);
        apply(non_pawn_[keys.us][Black][keys.non_pawn[Black]], bonus);
        if (context.back1 != NoContinuation && context.back2 != NoContinuation)
            apply((*continuation_)[context.back1][context.back2], bonus);
    }

private:
    static void apply(int16_t& entry, int bonus) { entry = int16_t(entry + bonus - entry * std::abs(bonus) / Limit); }
    static uint32_t pawn_index(const Position& pos) { return uint32_t(pos.pawn_key() % Size); }
    // A hash of one side's knights, bishops, rooks, queens and king.
    static uint32_t non_pawn_index(const Position& pos, Color c) {
        uint64_t h = 0;
        for (PieceType t : {Knight, Bishop, Rook, Queen, King}) h = (h ^ pos.pieces(c, t)) * 0x9E3779B97F4A7C15ULL + t;
        h ^= h >> 29;
        return uint32_t(h % Size);
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

}  // namespace arbiter::search

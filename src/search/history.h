#pragma once
// Move-ordering memory of one search thread:
// - killer moves per ply (quiet moves that caused a cutoff at that ply);
// - the butterfly history of quiet moves, by side, origin and destination, kept
//   apart by whether the opponent attacks the origin and the destination (a move
//   that saves a piece and one that walks into an attack are judged separately);
// - continuation history: how a quiet move (piece, destination) fared after the
//   moves one, two and four plies earlier (piece, destination), which captures
//   follow-ups and plans;
// - capture history: how a capture (piece, destination, captured type) fared;
// - countermoves: the quiet move that last refuted a given previous move.
// Every table is updated by the same gravity rule, which keeps values in
// [-Max, Max] and lets recent results outweigh old ones.

#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>

#include "chess/position.h"
#include "search/score.h"
#include "search/tunable.h"

namespace arbiter::search {

// A move's context for continuation history: the moving piece and its destination.
// -1 stands for "no move" (the root, or a null move).
using ContinuationIndex = int;
constexpr ContinuationIndex NoContinuation = -1;
constexpr ContinuationIndex continuation_index(Piece moved, Square to) {
    return (color_of(moved) * 6 + type_of(moved)) * 64 + to;
}

// The type of the piece `m` captures: Pawn for en passant, NoPieceType for castling.
// A promotion that captures nothing also gets Pawn (an empty square's type bits): its
// ordering and capture history treat it as winning a pawn besides the promotion.
inline PieceType captured_type(const Position& pos, Move m) {
    if (m.kind() == Move::EnPassant) return Pawn;
    return m.kind() == Move::Castling ? NoPieceType : type_of(pos.piece_on(m.to()));
}

// The continuation contexts a move is judged in: the moves 1, 2 and 4 plies back.
struct ContinuationContext {
    ContinuationIndex back1 = NoContinuation, back2 = NoContinuation, back4 = NoContinuation;
};

class History {
public:
    static constexpr int Max = 16384;
    static constexpr int ContinuationSize = 12 * 64;

    History() : continuation_(std::make_unique<ContinuationTable>()) { clear(); }

    void clear() {
        for (auto& side : quiet_)
            for (auto& from_threat : side)
                for (auto& to_threat : from_threat)
                    for (auto& from : to_threat) from.fill(0);
        for (auto& row : *continuation_) row.fill(0);
        for (auto& piece : capture_)
            for (auto& to : piece) to.fill(0);
        for (auto& row : counter_) row.fill(Move());
        for (auto& k : killers_) k = {};
    }

    // `threats`: the squares the opponent attacks (Threats::any).
    int quiet(Color c, Move m, Bitboard threats) const { return butterfly(c, m, threats); }
    int continuation(ContinuationIndex previous, ContinuationIndex current) const {
        return previous == NoContinuation ? 0 : (*continuation_)[previous][current];
    }
    // Butterfly plus the continuation terms: the quiet move's ordering score.
    int quiet_score(Color c, Move m, Bitboard threats, ContinuationIndex current,
                    const ContinuationContext& context) const {
        return quiet(c, m, threats) + continuation(context.back1, current) + continuation(context.back2, current) +
               continuation(context.back4, current);
    }
    // `captured` is the captured piece's type (captured_type; NoPieceType maps to Pawn).
    int capture(Piece moved, Square to, PieceType captured) const {
        return capture_[piece_index(moved)][to][captured_index(captured)];
    }

    void update_quiet(Color c, Move m, Bitboard threats, ContinuationIndex current, const ContinuationContext& context,
                      int bonus) {
        apply_bonus(butterfly(c, m, threats), bonus);
        update_continuation(current, context, bonus);
    }
    // The continuation terms alone: how the move fared after these earlier moves.
    void update_continuation(ContinuationIndex current, const ContinuationContext& context, int bonus) {
        for (ContinuationIndex previous : {context.back1, context.back2, context.back4})
            if (previous != NoContinuation) apply_bonus((*continuation_)[previous][current], bonus);
    }
    // The butterfly table alone: a judgement of the move itself, not of its context.
    void update_butterfly(Color c, Move m, Bitboard threats, int bonus) {
        apply_bonus(butterfly(c, m, threats), bonus);
    }
    void update_capture(Piece moved, Square to, PieceType captured, int bonus) {
        apply_bonus(capture_[piece_index(moved)][to][captured_index(captured)], bonus);
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

    // The reward for a move that caused a cutoff at `depth` (and the penalty for the
    // moves tried before it): linear in depth, capped.
    static int bonus(int depth) {
        return std::clamp(tune::history_bonus_mult * depth - tune::history_bonus_offset, 0, tune::history_bonus_max);
    }

private:
    // Gravity update: the value moves toward +-Max, more slowly the closer it is.
    static void apply_bonus(int16_t& h, int bonus) {
        bonus = std::clamp(bonus, -Max, Max);
        h = int16_t(h + bonus - h * std::abs(bonus) / Max);
    }
    static bool attacked(Bitboard threats, Square s) { return threats & square_bb(s); }
    int16_t& butterfly(Color c, Move m, Bitboard threats) {
        return quiet_[c][attacked(threats, m.from())][attacked(threats, m.to())][m.from()][m.to()];
    }
    int16_t butterfly(Color c, Move m, Bitboard threats) const {
        return quiet_[c][attacked(threats, m.from())][attacked(threats, m.to())][m.from()][m.to()];
    }
    static int piece_index(Piece p) { return color_of(p) * 6 + type_of(p); }
    static int captured_index(PieceType t) { return t == NoPieceType ? Pawn : t; }

    using ContinuationTable = std::array<std::array<int16_t, ContinuationSize>, ContinuationSize>;

    // [side][origin attacked][destination attacked][origin][destination]: 32 KB.
    using Butterfly = std::array<std::array<int16_t, 64>, 64>;
    std::array<std::array<std::array<Butterfly, 2>, 2>, 2> quiet_{};
    std::unique_ptr<ContinuationTable> continuation_;  // 1.2 MB: on the heap
    std::array<std::array<std::array<int16_t, 6>, 64>, 12> capture_{};
    std::array<std::array<Move, 64>, 12> counter_{};
    std::array<std::array<Move, 2>, MaxPly + 2> killers_{};
};

}  // namespace arbiter::search

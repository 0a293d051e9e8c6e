#include "chess/piece_changes.h"

namespace arbiter {

PieceChanges piece_changes(const Position& before, Move m) {
    PieceChanges changes;
    const auto lift = [&](Piece p, Square s) { changes.removed[changes.removed_count++] = {p, s}; };
    const auto place = [&](Piece p, Square s) { changes.added[changes.added_count++] = {p, s}; };
    const Color us = before.side_to_move();
    const Square from = m.from(), to = m.to();
    const Piece moving = before.piece_on(from);

    switch (m.kind()) {
    case Move::Castling: {
        // `to` holds the castling rook ("king takes own rook").
        const bool king_side = to > from;
        lift(moving, from);
        lift(before.piece_on(to), to);
        place(moving, relative_square(us, king_side ? G1 : C1));
        place(before.piece_on(to), relative_square(us, king_side ? F1 : D1));
        break;
    }
    case Move::EnPassant: {
        const Square victim = Square(to - pawn_push(us));
        lift(moving, from);
        lift(before.piece_on(victim), victim);
        place(moving, to);
        break;
    }
    case Move::Promotion:
    case Move::Normal:
        lift(moving, from);
        if (before.piece_on(to) != NoPiece) lift(before.piece_on(to), to);
        place(m.kind() == Move::Promotion ? make_piece(us, m.promotion()) : moving, to);
        break;
    }
    return changes;
}

}  // namespace arbiter

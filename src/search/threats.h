#pragma once
// The squares the opponent of the side to move attacks, by the cheapest class of
// attacker. Move ordering uses them: a piece attacked by a cheaper one should move,
// and a quiet move's history is kept apart by whether it leaves or enters an
// attacked square.

#include "chess/position.h"

namespace arbiter::search {

struct Threats {
    Bitboard by_pawn = 0;   // attacked by a pawn
    Bitboard by_minor = 0;  // by a pawn, knight or bishop
    Bitboard by_rook = 0;   // by a pawn, minor piece or rook
    Bitboard any = 0;       // by any piece, the king included
};

inline Threats threats_against_side_to_move(const Position& pos) {
    const Color them = ~pos.side_to_move();
    const Bitboard occupied = pos.occupied();
    Threats t;
    t.by_pawn = pawn_attacks_bb(them, pos.pieces(them, Pawn));
    Bitboard minor = t.by_pawn;
    for (Square s : squares(pos.pieces(them, Knight))) minor |= knight_attacks(s);
    for (Square s : squares(pos.pieces(them, Bishop))) minor |= bishop_attacks(s, occupied);
    t.by_minor = minor;
    Bitboard rook = minor;
    for (Square s : squares(pos.pieces(them, Rook))) rook |= rook_attacks(s, occupied);
    t.by_rook = rook;
    Bitboard any = rook;
    for (Square s : squares(pos.pieces(them, Queen))) any |= queen_attacks(s, occupied);
    any |= king_attacks(pos.king_square(them));
    t.any = any;
    return t;
}

}  // namespace arbiter::search

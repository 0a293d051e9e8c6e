#include "chess/dead_position.h"

namespace arbiter {

namespace {

// No mating material: bare kings, a single minor piece, or bishops only that all
// stand on squares of one colour (however many, on either side).
bool insufficient_material(const Position& pos) {
    if (pos.pieces(Pawn) | pos.pieces(Rook) | pos.pieces(Queen)) return false;
    const Bitboard minors = pos.pieces(Knight) | pos.pieces(Bishop);
    if (!more_than_one(minors)) return true;
    if (pos.pieces(Knight)) return false;
    return !(minors & LightSquares) || !(minors & DarkSquares);
}

// Squares the king of `us` can ever walk to: it cannot enter squares holding pawns
// or attacked by enemy pawns. Valid only while no pawn can move.
Bitboard king_region(const Position& pos, Color us, Bitboard enemy_pawn_attacks) {
    const Bitboard passable = ~pos.pieces(Pawn) & ~enemy_pawn_attacks;
    Bitboard region = square_bb(pos.king_square(us));
    for (;;) {
        Bitboard grown = region;
        for (Square s : squares(region)) grown |= king_attacks(s) & passable;
        if (grown == region) return region;
        region = grown;
    }
}

// Kings and pawns only, every pawn blocked for ever: each has a pawn straight in front
// of it and no pawn can capture another. Then no pawn ever moves, so pawns give no
// check (a king never steps into a pawn's attack) and neither king can ever be
// checked. The one way out is a king capturing a pawn that no enemy pawn protects;
// if neither king can reach such a pawn, the position is dead.
bool blocked_pawn_fortress(const Position& pos) {
    const Bitboard pawns = pos.pieces(Pawn);
    if (pawns != (pos.occupied() & ~pos.pieces(King))) return false;
    if (pos.ep_square() != NoSquare || pos.in_check()) return false;

    const Bitboard white = pos.pieces(White, Pawn), black = pos.pieces(Black, Pawn);
    if (shift<North>(white) & ~pawns) return false;
    if (shift<South>(black) & ~pawns) return false;
    const Bitboard white_attacks = pawn_attacks_bb<White>(white);
    const Bitboard black_attacks = pawn_attacks_bb<Black>(black);
    if ((white_attacks & black) || (black_attacks & white)) return false;

    for (Color us : {White, Black}) {
        const Bitboard enemy_attacks = us == White ? black_attacks : white_attacks;
        const Bitboard region = king_region(pos, us, enemy_attacks);
        Bitboard reach = 0;
        for (Square s : squares(region)) reach |= king_attacks(s);
        if (reach & pos.pieces(~us, Pawn) & ~enemy_attacks) return false;
    }
    return true;
}

}  // namespace

bool is_dead_position(const Position& pos) { return insufficient_material(pos) || blocked_pawn_fortress(pos); }

}  // namespace arbiter

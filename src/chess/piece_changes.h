#pragma once
// What a move changes on the board, as pieces lifted and pieces placed. The NNUE
// accumulator consumes this to update incrementally; the rules core computes it and
// knows nothing of who uses it (src/README.md, principle 3).
//
// At most two pieces leave and two arrive: a capture lifts the mover and the victim
// and places the mover; a promotion places the new piece instead of the pawn; en
// passant lifts the pawn beside the destination; castling lifts and places king and
// rook (in Chess960 one of them may land where it stood, which lifts and places the
// same piece on the same square: harmless for a sum).

#include <cstdint>

#include "chess/position.h"

namespace arbiter {

struct PieceSquare {
    Piece piece;
    Square square;
};

struct PieceChanges {
    PieceSquare removed[2];
    PieceSquare added[2];
    uint8_t removed_count = 0;
    uint8_t added_count = 0;
};

// The changes `move` makes to `before`. The move must be legal in `before`.
PieceChanges piece_changes(const Position& before, Move move);

}  // namespace arbiter

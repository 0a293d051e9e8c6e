#pragma once
// Positions no last move can lead to: retrograde tests that refuse a FEN which is
// well formed but cannot arise in a game.
//
// The side to move is in check only through the opponent's last move (before it, the
// opponent was to move, and its opponent's king could not stand in check). That move
// either put a piece on a checking square (its origin a square it can move from), or
// uncovered a slider by leaving the line between it and the king, or both at once (a
// double check). An en passant capture vacates two squares and so can uncover two
// lines; an en passant field in the FEN says the last move was a double pawn push.
//
// A pawn's check comes only from that pawn's own move (it attacked the king before any
// other move too), and so only with a halfmove clock of 0.
//
// Beyond checks, some man of the side that just moved must be able to have made the
// last move from a legal position (src/chess/last_move_retraction.h): pawns on their
// starting squares, a king and rooks that hold castling rights and pieces shut in
// cannot, and with a halfmove clock other than 0 the move was neither a pawn move nor
// a capture.
//
// The tests are sound: each refuses only positions for which no last move exists, by
// an argument written beside it, and gives the reason.

#include <string>

#include "chess/position.h"

namespace arbiter {

// Why no last move can lead to `pos`, or an empty string when one can. `ep_field` is
// the en passant square the FEN names (NoSquare for '-'), which claims that the last
// move was a double push, whether or not an en passant capture is legal now; the
// halfmove clock must then be 0, and the position before the double step legal.
std::string impossible_last_move_reason(const Position& pos, Square ep_field);

}  // namespace arbiter

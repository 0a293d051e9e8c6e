#pragma once
// Checks that no last move could have given: retrograde tests that refuse a FEN which
// is well formed but cannot arise in a game.
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
// The tests are sound: each refuses only positions for which no last move exists, by
// an argument written beside it, and gives the reason.

#include <string>

#include "chess/position.h"

namespace arbiter {

// Why the checks on the side to move cannot come from any last move, or an empty
// string when they can. `ep_field` is the en passant square the FEN names (NoSquare
// for '-'), which claims that the last move was a double push, whether or not an en
// passant capture is legal now; `halfmove_clock` must then be 0.
std::string impossible_check_reason(const Position& pos, Square ep_field);

} // namespace arbiter

#pragma once
// Retraction: taking back the last move. A position a game reaches (other than the
// initial one, which has White to move) came from one move of the side not to move
// now, played in a legal position: one in which the side to move now was not in
// check, since the other side was to move then. When no move of that side can be
// taken back into such a position, no game reaches the position.
//
// The search is exact in the direction that matters: it tries every move the last
// one can have been (a superset of them where a detail is left open, as the castling
// origins of Chess960) and refuses only when none of them leads back to a legal
// position, so a reachable position is never refused. It does not look further
// back than one move.

#include "chess/position.h"

namespace arbiter {

// The men of the side that just moved, and the occupied squares, as they stood a
// move ago: all that decides whether the other side's king stood in check then.
struct BoardBefore {
    Bitboard men[6];  // of the side that just moved, by piece type
    Bitboard occupied;

    explicit BoardBefore(const Position& pos);
    // The man now on `to` (of type `now`) back on `from` as a `before` (a pawn for a
    // promotion); `to` is left empty: a caller that takes back a capture fills it.
    void move_back(PieceType now, Square to, PieceType before, Square from);
    // The men of the side that just moved that attacked `king` then.
    Bitboard attackers(Square king, Color king_color) const;
};

enum class Retraction {
    Legal,      // some last move was played in a legal position
    IntoCheck,  // moves can be taken back, but each leaves the other king in check
    None,       // no man of the side that just moved can have made the last move
};

// Whether the side not to move in `pos` can have made the last move. `quiet_only`:
// the halfmove clock is not 0, so the last move was neither a pawn move nor a capture.
Retraction retract_last_move(const Position& pos, bool quiet_only);

}  // namespace arbiter

#pragma once
// The static evaluation: the single entry point search calls. Today a hand-crafted
// tapered evaluation; the NNUE replaces what is behind this interface, not the
// interface.

#include "chess/position.h"

namespace arbiter::eval {

// Centipawns from the side to move's point of view. Never reaches mate scores.
int evaluate(const Position& pos);

// Material values for search heuristics (SEE, MVV-LVA, futility), indexed by PieceType.
inline constexpr int PieceValue[7] = {100, 320, 330, 500, 950, 0, 0};

// The evaluation broken into its terms from White's point of view, for `eval`.
struct Breakdown {
    int material_psqt_mg = 0, material_psqt_eg = 0;
    int mobility_mg = 0, mobility_eg = 0;
    int pawns_mg = 0, pawns_eg = 0;
    int king_safety_mg = 0;
    int pieces_mg = 0, pieces_eg = 0;
    int phase = 0;  // 24 = all pieces on, 0 = pawn endgame
    int total = 0;  // White's point of view, tapered, with tempo
};
Breakdown breakdown(const Position& pos);

}  // namespace arbiter::eval

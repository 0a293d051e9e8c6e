#pragma once
// A static proof for the winnability decider (winnability.h, step 3): a side whose
// king and pieces can never move has nothing left but its pawn moves, a number of
// moves bounded in advance, and the other side must answer each of them. The game is
// then a race between those moves and the loser's king walking into a mating net: a
// search over the pawns of both sides, with the loser's king (and the one piece it
// may promote) known only as the set of squares it may stand on, finds every position
// the race can reach. If no move of the winner's can mate a king on any square of its
// set before the winner runs out of moves, the winner can never mate. The sketch
// (sketch.h) counts no tempo and finds a mating picture in such
// positions. The reasoning is in the .cpp file.

#include "chess/position.h"

namespace arbiter::winnability {

// Whether `winner` can be shown never to mate by the race above. False claims
// nothing (the position does not qualify, or the search found a possible mate, a
// promotion of the winner's or something else it does not model, or ran out of its
// budget).
bool pawn_race_cannot_mate(const Position& pos, Color winner);

}  // namespace arbiter::winnability

#pragma once
// A static proof for the winnability decider (winnability.h, step 3): a side left with
// its king and one knight or bishop, or bishops all on one colour, and no pawn mates
// only where the loser's own men plug the flight squares and none of them can take
// the checker or block the check. Every such mating picture is tried; finding none
// proves that the side can never mate. The reasoning is in the .cpp file.

#include "chess/position.h"

namespace arbiter::winnability {

// Whether `side` has, besides its king, one knight or bishop, or only bishops all on
// squares of one colour (so no pawn, nothing to promote: for ever).
bool has_lone_minors(const Position& pos, Color side);

// Whether `winner` (with has_lone_minors()) can be shown never to mate. False claims
// nothing; always false without lone minors.
bool lone_minor_cannot_mate(const Position& pos, Color winner);

}  // namespace arbiter::winnability

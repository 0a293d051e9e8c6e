#pragma once
// Static exchange evaluation: the material outcome of the capture sequence on one
// square, both sides always recapturing with their least valuable attacker and
// free to stop. Pins are ignored, as usual: SEE guides ordering and pruning only.

#include "chess/position.h"

namespace arbiter::search {

// Whether the exchange started by `m` wins at least `threshold` centipawns.
bool see_ge(const Position& pos, Move m, int threshold);

}  // namespace arbiter::search

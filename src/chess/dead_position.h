#pragma once
// FIDE 5.2.2 / 6.9 dead positions: no sequence of legal moves can end in checkmate.
// The detector is sound and incomplete: it never calls a live position dead, and
// recognises the positions it can prove dead cheaply.

#include "chess/position.h"

namespace arbiter {

bool is_dead_position(const Position& pos);

}  // namespace arbiter

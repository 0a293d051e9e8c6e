#pragma once
// Move path enumeration, for testing the move generator against published counts.

#include <cstdint>
#include <utility>
#include <vector>

#include "chess/position.h"

namespace arbiter {

// Leaf nodes at `depth`; the last ply is bulk-counted without making its moves.
uint64_t perft(const Position& pos, int depth);

// perft of each legal move's child at depth - 1, in generation order.
std::vector<std::pair<Move, uint64_t>> divide(const Position& pos, int depth);

} // namespace arbiter

#pragma once
// Move path enumeration, for testing the move generator against published counts.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "chess/position.h"

namespace arbiter {

// Leaf nodes at `depth`; the last ply is bulk-counted without making its moves.
uint64_t perft(const Position& pos, int depth);

// perft of each legal move's child at depth - 1, in generation order.
std::vector<std::pair<Move, uint64_t>> divide(const Position& pos, int depth);

// The deepest divide `go perft` and `arbiter perft` accept.
constexpr int MaxPerftDepth = 12;

// The divide as `go perft` and `arbiter perft` print it: `<move>: <count>` per legal
// move, an empty line, then `Nodes searched: <total>`, each line ended by '\n'.
std::string divide_report(const Position& pos, int depth);

}  // namespace arbiter

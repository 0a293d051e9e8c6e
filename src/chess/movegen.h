#pragma once
// Legal move generation from check and pin masks: every generated move is legal,
// nothing is filtered afterwards.

#include <cstdint>

#include "chess/move.h"
#include "chess/position.h"

namespace arbiter {

// Noisy = captures (en passant included) and all promotions; Quiet = everything
// else, castling included. Noisy and Quiet partition All.
enum class GenKind { All, Noisy, Quiet };

template <GenKind Kind>
void generate(const Position& pos, MoveList& list);

inline MoveList legal_moves(const Position& pos) {
    MoveList list;
    generate<GenKind::All>(pos, list);
    return list;
}

// The number of legal moves, counted with popcounts where the generator would loop
// over target squares; perft's bulk counting at the last ply.
uint64_t count_legal_moves(const Position& pos);

inline bool has_legal_move(const Position& pos) { return count_legal_moves(pos) != 0; }

// Whether `m` is one of the legal moves of `pos`.
bool is_legal(const Position& pos, Move m);

}  // namespace arbiter

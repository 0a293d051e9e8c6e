#pragma once
// The static half of the winnability decider: a proof that one side can never
// checkmate, found by reasoning about the pawn structure instead of playing moves.
//
// A position is abstracted into a *sketch*: the pawns exactly, and for every other
// piece the set of squares it could ever stand on while the pawns stay where they are
// (its region). Every change of the pawn structure (a push, a capture by or of a pawn,
// a promotion, en passant) is an *event* that leads to another sketch. The sketches
// reachable by events over-approximate every position reachable by legal moves:
// pieces are never obstacles, captured pieces are kept, regions only grow. If no
// reachable sketch admits a mating pattern (a square of the loser's king region that
// the winner can attack, each flight square covered by the winner or plugged by a
// distinct piece of the loser), no series of legal moves can mate. A king's capture
// that always stalemates the other side is no event (the game ends there). Where no
// event can ever happen and the loser has only its king to move, a mate needs its king
// to have stepped next to the mating square first, which the winner may be unable to
// answer (tempo_proves_no_mate() in the .cpp file).

#include <cstdint>

#include "chess/position.h"

namespace arbiter::winnability {

// Whether the sketch analysis proves that `winner` can never checkmate from `pos`.
// Gives up (false) after exploring `max_sketches` sketches with the pawns exact,
// then `loose_sketches` more with loose pairs (pawns facing each other on a file,
// each free to stand anywhere between) folded into ranges. False never claims
// anything; true is a proof. Adds to `*work`, if given, the number of sketches it
// expanded (none when the answer was cached).
bool sketch_proves_no_mate(const Position& pos, Color winner, int max_sketches, int loose_sketches = 0,
                           uint64_t* work = nullptr);

// Empties this thread's cache of recent proofs (the sketches they started from and
// their outcomes), so that what happens next does not depend on earlier questions.
void forget_proofs();

// The squares where the loser's king might be mated while the pawns stand as they
// do now: a guide for the helpmate search, not a proof of anything.
Bitboard sketch_mate_squares(const Position& pos, Color winner);

}  // namespace arbiter::winnability

#pragma once
// Winnability (FIDE 6.9, and 5.2.2 for both sides at once): can a side still checkmate
// by *some* series of legal moves, both players cooperating (a helpmate)?
//
// The decider is sound and bounded: Yes comes with a mating line actually played on
// the board, No with a proof, and Unknown whenever the budget runs out first. It never
// answers No where a mate exists. The 50- and 75-move rules and repetitions are not
// considered: a No holds even when the game could go on for ever, and a Yes line may in
// principle be longer than those rules allow (the reference vectors count it as a win).
//
// Methods, after the ideas of Miguel Ambrona's Chess Unwinnability Analyzer (CHA):
// 1. a static proof on an abstraction of the pawn structure (sketch.h):
//    piece regions, colour complexes and locked pawns, mating patterns per square,
//    king captures that stalemate, and the tempo a loser with only king moves lacks;
//    and, for a lone knight or bishop (or bishops all on one colour), every mating
//    picture with the loser's own men on the flight squares, none of which may take
//    the checker or block its check; and, for a side whose king and pieces can never
//    move, a race of its pawn moves against the loser's king walking into a mating
//    net (tempo.h);
// 2. a helpmate search with iterative deepening, a transposition table and move
//    ordering that steers both sides towards a mate of the loser;
// 3. goal-directed helpmate playouts towards a chosen mating square
//    (helpmate.h), each ending in a small full-width search
//    (search.h) once the kings have met there, and, where few men
//    stand, playouts towards a composed mating position (template.h),
//    taking turns with
// 4. an exhaustive search over all legal continuations that stops where the static
//    proof applies (exhaustive.h); finishing it within the budget proves
//    No. decide() runs one such search for both sides at once;
// 5. for a side still undecided, the static proof once more with more sketches.
//
// A library above the rules core: `chess` knows nothing of it (its own dead-position
// test, chess/dead_position.h, is the cheap and incomplete one). Whoever wants the full
// verdict on a game asks decide() and passes it on (Game::status(current_dead)).

#include <cstdint>

#include "chess/position.h"

namespace arbiter::winnability {

enum class Winnable { Yes, No, Unknown };

// Node budget of the helpmate and exhaustive searches for one side (a node is one
// move made, and the static proofs of the exhaustive search count their work too);
// the default keeps decide() for both sides within 50 ms on every CHA vector
// (33-39 ms the slowest, 0.9 ms the median, on an idle 2-core test machine). More
// nodes win little now: 280,000, 320,000 and 360,000 gave 1,660, 1,662 and 1,666
// exact answers where 270,000 gave 1,660 (before the later static rules).
constexpr uint64_t DefaultBudget = 270000;

// Whether `winner` can still deliver checkmate. A position that is already mate
// counts as won by the side that delivered it; a stalemate is won by nobody.
Winnable can_win(const Position& pos, Color winner, uint64_t budget = DefaultBudget);

struct Winnability {
    Winnable white, black;
    // Neither side can ever mate: a dead position (FIDE 5.2.2).
    bool dead() const { return white == Winnable::No && black == Winnable::No; }
};

// Both sides' answers at once, sharing one exhaustive search (cheaper than two can_win).
Winnability decide(const Position& pos, uint64_t budget = DefaultBudget);

}  // namespace arbiter::winnability

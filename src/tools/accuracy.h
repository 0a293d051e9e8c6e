#pragma once
// Accuracy as lichess publishes it (lichess.org/page/accuracy), for the game review.
//
// Win percentage of a side from an evaluation e in centipawns from that side's point of
// view, clamped to +-1000 (a mate counts as +-1000):
//
//     win%(e) = 50 + 50 * (2 / (1 + exp(-0.00368208 * e)) - 1)
//
// A move's accuracy, from the mover's win% before it (the evaluation of the position it
// was played in) and after it (the evaluation of the position it led to):
//
//     100                                                         when win% did not drop
//     103.1668100711649 * exp(-0.04354415386753951 * drop) - 3.166924740191411 + 1
//                                                                 else, clamped to 0..100
//
// (the +1 is lichess's allowance for imperfect analysis). A side's accuracy over a game
// is the mean of two means of its moves' accuracies:
// - the volatility-weighted mean: a move's weight is the standard deviation (of the
//   population) of White's win% over a window of w consecutive positions, clamped to
//   0.5..12, with w = plies / 10 (integer division) clamped to 2..8. The window of the
//   move from position i to i + 1 is positions i + 2 - w .. i + 1; the first w - 2 moves,
//   whose window would start before the game, all use positions 0 .. w - 1. So a move
//   made in a calm stretch weighs little, one in a sharp stretch much.
// - the harmonic mean, each accuracy counted as at least 1: one very bad move pulls it
//   far down, which is what makes a lost piece show.
// Position 0 is the start of the game. lichess does not analyse it and takes +0.15 for
// it; the review uses its own search of it when it has one (StartCentipawns otherwise).

#include <optional>
#include <span>
#include <vector>

#include "chess/types.h"

namespace arbiter::tools {

// lichess's evaluation of a start position it did not analyse (White's side).
inline constexpr int StartCentipawns = 15;

// A side's win percentage, 0 to 100, from an evaluation from its own point of view.
double win_percent(int centipawns);

// A move's accuracy, 0 to 100, from the mover's win percentages before and after it.
double move_accuracy(double win_before, double win_after);

struct GameAccuracy {
    std::optional<double> white, black;  // nullopt for a side without a move
};

// Both sides' accuracies over a game. `white_centipawns[i]` is the evaluation of the
// position after i plies, from White's point of view (index 0: the start); the first
// ply is made by `first_mover`.
GameAccuracy game_accuracy(std::span<const int> white_centipawns, Color first_mover);

// The accuracy of each ply (index i: the move from position i to i + 1), each from its
// mover's point of view, as game_accuracy uses them.
std::vector<double> move_accuracies(std::span<const int> white_centipawns, Color first_mover);

}  // namespace arbiter::tools

#pragma once
// Win/draw/loss chances per mille, for `UCI_ShowWDL` and the command-line tools. Output
// only: the search never reads them (the bench node count does not depend on them).
//
// What is certain is reported as certain: a mate or tablebase score, a checkmate,
// stalemate, dead position, fivefold repetition or 75-move draw in the game (the rules
// core's Game::status), and the tablebases' verdict on a position they hold. The rest
// comes from a model of the score and the material on the board, the form of Stockfish's
// WDL model fitted to Arbiter's own self-play:
//
//   m = pawns + 3 (knights + bishops) + 5 rooks + 9 queens, both sides, clamped to
//       [WdlMinMaterial, WdlMaxMaterial];  x = m / 58
//   a(x) = ((A0 x + A1) x + A2) x + A3,  b(x) = ((B0 x + B1) x + B2) x + B3
//   win = 1 / (1 + exp((a - s) / b)),  loss = 1 / (1 + exp((a + s) / b)),  draw = the rest
//
// for a score s in centipawns from the side to move's point of view. a is the score at
// which a win is as likely as not; b how quickly the chances turn with the score.
//
// Fitted by scripts/fit_wdl.py (its header gives the method: maximum likelihood of the
// game results, per material value and then the polynomials on every position) on
// 2026-11-29 to gen4h-r7's self-play in gen5-4801.agame (`arbiter datagen --soft-nodes
// 2000 --nodes 8000 --seed 4801`, 3% Chess960 and 2% DFRC starts): its first 7,137
// games, 559,488 positions after `arbiter convert`'s filters, the last 10% held out.
// Mean log-likelihood of a held-out result: -0.559, against -0.688 for the fixed model
// (a = 140, b = 80, no material) it replaces. At an equal score the model gives 284 per
// mille of draws with all the pieces on the board and 908 with a pawn or two each and
// nothing else; +1.00 wins 515 in the opening and 134 in such an ending. The scores come
// from searches of 2,000 to 8,000 nodes, so the model is a little less sure than a long
// analysis would deserve; the draws include the self-play's adjudicated ones (scores
// within 10 cp for 12 plies from ply 80).

#include <optional>

#include "chess/game.h"
#include "chess/position.h"
#include "search/score.h"
#include "syzygy/tablebases.h"

namespace arbiter::search {

struct Wdl {
    int win = 0, draw = 0, loss = 0;  // per mille, summing to 1000

    // The same chances seen from the other side.
    constexpr Wdl flipped() const { return {loss, draw, win}; }
    // Expected score (a win 1, a draw 1/2) from 0 to 1.
    constexpr double expected_score() const { return (win + draw / 2.0) / 1000.0; }
    constexpr bool operator==(const Wdl&) const = default;
};

inline constexpr Wdl CertainWin{1000, 0, 0}, CertainDraw{0, 1000, 0}, CertainLoss{0, 0, 1000};

// The model's material range and coefficients (see above).
inline constexpr int WdlMinMaterial = 10, WdlMaxMaterial = 78;
inline constexpr double WdlNormalisingMaterial = 58;
inline constexpr double WdlA[4] = {-336.929, 906.212, -821.174, 375.789};
inline constexpr double WdlB[4] = {-262.197, 562.468, -250.41, 113.087};

// The model's material count of `pos` (not clamped).
int wdl_material(const Position& pos);

// The model for a score from the side to move's point of view; a mate or tablebase
// score is certain.
Wdl wdl_of(Score score, int material);

// What the game and the tablebases prove about the game's current position, from its
// side to move's point of view; nullopt when nothing is proven. Under the fifty-move
// rule a cursed win or blessed loss is a draw, and a table's win or loss counts only when
// its distance to zeroing fits in the plies the rule leaves.
std::optional<Wdl> proven_wdl(const Game& game, const syzygy::Tablebases& tables, bool fifty_move_rule);

// The chances of a searched line from `root`'s side to move's point of view: what is
// proven after the line's first move (or at the root when `first` is null), else the
// model of `score` with the root's material.
Wdl line_wdl(const Game& root, Score score, Move first, const syzygy::Tablebases& tables, bool fifty_move_rule);

}  // namespace arbiter::search

#pragma once
// Ranking the root moves by the tables, so that the search converts won endings
// within the fifty-move rule and never gives up a draw.
//
// Each move is first reduced to its outcome for the mover: the result, and the
// plies from the root until the next capture, pawn move or mate with best play
// (the move itself counted; never fewer than the game will take, so a table's
// rounding to whole moves is allowed for). The game's fifty-move counter then says how many of those
// plies the rule still allows (`plies_left = 100 - counter`), and ranks follow,
// higher better:
// - SureWinRank: a win whose zeroing comes within plies_left, while no position
//   since the last zeroing move has repeated. All such moves are equal: the search
//   chooses among them, and plays the quickest mate it sees.
// - SureWinRank - (counter + plies): every other win, the shortest way first, so
//   after a repetition the game moves on. A cursed win counts 100 plies more (the
//   rule stops it somewhere further on), which puts it below win_rank_bound(true).
// - 0: a draw, by the tables, the fifty-move rule or a threefold repetition.
// - -SureWinRank + (counter + plies): a loss the rule may save (blessed losses
//   count 100 plies more), the longest resistance first.
// - -SureWinRank: a loss the opponent can convert within plies_left.
// The ranks are the same with and without the fifty-move rule (Syzygy50MoveRule);
// what changes is which ranks count as wins and losses (win_rank_bound).

#include <optional>
#include <span>
#include <vector>

#include "chess/game.h"
#include "syzygy/tablebases.h"

namespace arbiter::syzygy {

// Above any counter plus distance a table can give (DTZ50 distances of seven
// pieces stay near a thousand plies), so every win ranks above zero.
constexpr int SureWinRank = 1 << 14;

// The smallest rank that is a win the fifty-move rule cannot spoil (and its
// negation the largest rank of a certain loss).
constexpr int win_rank_bound(bool fifty_move_rule) { return fifty_move_rule ? SureWinRank - 100 : 1; }

// The ranks of `moves` (legal in the game's current position), in their order;
// nullopt when the root or a position after a move is not in the tables. By DTZ,
// honouring the game's repetitions and fifty-move counter.
std::optional<std::vector<int>> rank_root_moves(const Tablebases& tables, const Game& game,
                                                std::span<const Move> moves);

// The same from WDL alone, for a material whose DTZ table is missing: wins,
// draws and losses, without distances (a cursed win ranks between a draw and
// win_rank_bound(true), a blessed loss likewise below zero).
// Without the fifty-move rule, cursed wins and blessed losses rank as wins and losses.
std::optional<std::vector<int>> rank_root_moves_by_wdl(const Tablebases& tables, const Game& game,
                                                       std::span<const Move> moves, bool fifty_move_rule);

}  // namespace arbiter::syzygy

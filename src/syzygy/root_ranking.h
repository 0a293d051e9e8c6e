#pragma once
// Ranking the root moves by the tables, so that the search converts won endings
// within the fifty-move rule and never gives up a draw.
//
// Ranks, higher better:
// - MaxDtz: a win that zeroes soon enough to beat the fifty-move counter (and no
//   position since the last zeroing move has repeated); all such moves are equal,
//   so the search picks among them and plays the quickest mate it sees;
// - MaxDtz - (plies to zeroing + counter): a win needing more care: the shortest
//   distance first (and so always after a repetition, so the game moves on);
// - 0: a draw;
// - -MaxDtz + (distance + counter): a loss that the fifty-move rule may save; the
//   longest resistance first; -MaxDtz for a loss the rule cannot save.
// The ranks are the same with and without the fifty-move rule (Syzygy50MoveRule);
// what changes is which ranks count as wins and losses (win_rank_bound).

#include <optional>
#include <span>
#include <vector>

#include "chess/game.h"
#include "syzygy/tablebases.h"

namespace arbiter::syzygy {

constexpr int MaxDtz = 1 << 18;

// The smallest rank that is a win the fifty-move rule cannot spoil (and its
// negation the largest rank of a certain loss).
constexpr int win_rank_bound(bool fifty_move_rule) { return fifty_move_rule ? MaxDtz - 100 : 1; }

// The ranks of `moves` (legal in the game's current position), in their order;
// nullopt when the root or a position after a move is not in the tables. By DTZ,
// honouring the game's repetitions and fifty-move counter.
std::optional<std::vector<int>> rank_root_moves(const Tablebases& tables, const Game& game,
                                                std::span<const Move> moves);

// The same from WDL alone, for a material whose DTZ table is missing: wins,
// draws and losses, without distances.
// Without the fifty-move rule, cursed wins and blessed losses rank as wins and losses.
std::optional<std::vector<int>> rank_root_moves_by_wdl(const Tablebases& tables, const Game& game,
                                                       std::span<const Move> moves, bool fifty_move_rule);

} // namespace arbiter::syzygy

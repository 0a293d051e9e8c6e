#pragma once
// Search scores in centipawns, with mate scores at the extremes: a side that mates
// in n plies from the root scores Mate - n. Below the mates and above any
// evaluation lie the tablebase wins: a position the tables call won, n plies from
// the root, scores TbWin - n.

#include <cstdint>

namespace arbiter::search {

using Score = int;

constexpr int MaxPly = 128;
constexpr Score Infinite = 32001;
constexpr Score Mate = 32000;
constexpr Score MateInMaxPly = Mate - MaxPly;
constexpr Score NoScore = -32002;
constexpr Score TbWin = MateInMaxPly - 1;
constexpr Score TbWinInMaxPly = TbWin - MaxPly;

constexpr bool is_mate(Score s) { return s >= MateInMaxPly || s <= -MateInMaxPly; }
// A mate or a tablebase win or loss: a proven result, not an estimate.
constexpr bool is_decisive(Score s) { return s >= TbWinInMaxPly || s <= -TbWinInMaxPly; }
constexpr Score mated_in(int ply) { return -Mate + ply; }
constexpr Score mate_in(int ply) { return Mate - ply; }
// Full moves to mate as UCI prints it: positive when we mate, negative when mated.
constexpr int mate_moves(Score s) { return s > 0 ? (Mate - s + 1) / 2 : -(Mate + s) / 2; }

}  // namespace arbiter::search

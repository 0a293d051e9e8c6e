#pragma once
// How long to think: a pure function of the limits and the clock, no threads, no
// clock reads, so it can be tested with made-up numbers.
//
// The soft limit is checked between iterations (do not start another); the hard
// limit is checked inside the search (stop now). Both count from the moment the
// search started, or from `ponderhit`.

#include <cstdint>
#include <limits>

#include "chess/types.h"
#include "search/limits.h"

namespace arbiter::search {

struct TimeBudget {
    static constexpr int64_t Unlimited = std::numeric_limits<int64_t>::max();
    int64_t soft_ms = Unlimited;
    int64_t hard_ms = Unlimited;
    // Whether the soft limit comes from the clock and may move with the search's
    // signals (not under `movetime`, which is a fixed time).
    bool scalable = false;
};

// What the completed iterations say about how settled the search is.
struct IterationSignals {
    int best_move_stability = 0;           // iterations in a row that ended with the same best move
    double best_move_node_fraction = 0.5;  // share of the root's nodes spent under the best move
    int score_drop = 0;                    // cp the best score fell since the last iteration (< 0: rose)
};

// The factor applied to the soft limit: above 1 while the best move keeps changing,
// takes few of the nodes or its score falls; below 1 once it is settled.
double soft_limit_scale(const IterationSignals& signals);

// The number of moves a sudden-death clock is planned over at `game_ply` (plies
// played since the game's first position, 0 at the start): one move gets
// 1/horizon of the pool. Between tm_horizon_min and tm_horizon_max (5 and 50 by
// default, search/tunables.h).
int64_t sudden_death_horizon(int game_ply, int share_base, int share_growth);

// `overhead_ms` is the UCI option Move Overhead: time lost between the GUI and us,
// reserved on every move. `game_ply` as above.
TimeBudget plan_time(const SearchLimits& limits, Color us, int64_t overhead_ms, int game_ply = 0);

}  // namespace arbiter::search

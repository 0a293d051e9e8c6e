#include "search/time_manager.h"

#include <algorithm>
#include <cmath>

#include "search/tunable.h"

namespace arbiter::search {

int64_t sudden_death_horizon(int game_ply, int share_base, int share_growth) {
    const double share = share_base + share_growth * std::sqrt(double(std::max(game_ply, 0)));
    return std::clamp<int64_t>(std::llround(10'000.0 / std::max(share, 1.0)), 5, 50);
}

TimeBudget plan_time(const SearchLimits& limits, Color us, int64_t overhead_ms, int game_ply) {
    TimeBudget budget;
    if (limits.movetime > 0) {
        const int64_t t = std::max<int64_t>(1, limits.movetime - overhead_ms);
        budget.soft_ms = budget.hard_ms = t;
    }
    if (!limits.time[us]) return budget;

    // Plan over a horizon of moves: the moves left in this time control, or in sudden
    // death a number that may shrink as the game goes on (tunables.h). The pool is
    // what the clock will have over that horizon, with the increments to come and the
    // Move Overhead of every one of those moves set aside; this move gets its share.
    // Clocks beyond a few decades mean "plenty"; capping them keeps every product
    // below int64 overflow whatever a GUI sends (found by tests/fuzz/uci_fuzz).
    constexpr int64_t MaxClockMs = int64_t(1) << 40;  // about 35 years
    const int64_t time = std::min(*limits.time[us], MaxClockMs);
    const int64_t increment = std::clamp<int64_t>(limits.increment[us], 0, MaxClockMs);
    const int64_t horizon = limits.moves_to_go > 0 ? std::min(limits.moves_to_go, 50)
                                                   : sudden_death_horizon(game_ply, tune::tm_share_base,
                                                                          tune::tm_share_growth);
    const int64_t pool = std::max<int64_t>(1, time + increment * (horizon - 1) - overhead_ms * (horizon + 1));
    const int64_t now_left = std::max<int64_t>(1, time - overhead_ms);

    int64_t soft = std::max<int64_t>(1, pool / horizon);
    int64_t hard = horizon == 1 ? now_left * 6 / 10 : std::min(soft * 4, now_left / 4);
    hard = std::clamp<int64_t>(hard, 1, std::max<int64_t>(1, now_left * 8 / 10));
    soft = std::clamp<int64_t>(soft, 1, hard);

    budget.soft_ms = std::min(budget.soft_ms, soft);
    budget.hard_ms = std::min(budget.hard_ms, hard);
    budget.scalable = limits.movetime <= 0;
    return budget;
}

double soft_limit_scale(const IterationSignals& signals) {
    // A best move that has just changed deserves time to be confirmed or refuted.
    static constexpr double Stability[] = {1.7, 1.35, 1.1, 0.95, 0.85, 0.75};
    const double stability = Stability[std::clamp(signals.best_move_stability, 0, 5)];
    // Most nodes under the best move: the alternatives are refuted quickly.
    const double nodes = std::clamp((1.5 - signals.best_move_node_fraction) * 1.35, 0.5, 2.0);
    // A falling score: something was found against the move we would play.
    const double score = std::clamp(1.0 + signals.score_drop / 120.0, 0.8, 1.6);
    return stability * nodes * score;
}

} // namespace arbiter::search

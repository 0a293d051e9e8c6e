#include "search/time_manager.h"

#include <algorithm>
#include <cmath>

#include "search/tunable.h"

namespace arbiter::search {

namespace {

// Shares of the time left (tunables.h) are in percent; the soft limit's scale factors in hundredths.
constexpr int64_t Percent = 100;
constexpr double Hundredths = 100.0;
// The sudden-death share is in ten-thousandths of the pool.
constexpr double ShareUnit = 10'000.0;

}  // namespace

int64_t sudden_death_horizon(int game_ply, int share_base, int share_growth) {
    const double share = share_base + share_growth * std::sqrt(double(std::max(game_ply, 0)));
    return std::clamp<int64_t>(std::llround(ShareUnit / std::max(share, 1.0)), tune::tm_horizon_min,
                               tune::tm_horizon_max);
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
    const int64_t horizon = limits.moves_to_go > 0
                                ? std::min(limits.moves_to_go, tune::tm_horizon_max)
                                : sudden_death_horizon(game_ply, tune::tm_share_base, tune::tm_share_growth);
    const int64_t pool = std::max<int64_t>(1, time + increment * (horizon - 1) - overhead_ms * (horizon + 1));
    const int64_t now_left = std::max<int64_t>(1, time - overhead_ms);

    int64_t soft = std::max<int64_t>(1, pool / horizon);
    int64_t hard = horizon == 1
                       ? now_left * tune::tm_last_move_hard / Percent
                       : std::min(soft * tune::tm_hard_soft_ratio / Percent, now_left * tune::tm_hard_share / Percent);
    hard = std::clamp<int64_t>(hard, 1, std::max<int64_t>(1, now_left * tune::tm_hard_max / Percent));
    soft = std::clamp<int64_t>(soft, 1, hard);

    budget.soft_ms = std::min(budget.soft_ms, soft);
    budget.hard_ms = std::min(budget.hard_ms, hard);
    budget.scalable = limits.movetime <= 0;
    return budget;
}

double soft_limit_scale(const IterationSignals& signals) {
    // A best move that has just changed deserves time to be confirmed or refuted.
    const int stability_scale[] = {tune::tm_stability_0, tune::tm_stability_1, tune::tm_stability_2,
                                   tune::tm_stability_3, tune::tm_stability_4, tune::tm_stability_5};
    const int last = int(std::size(stability_scale)) - 1;
    const double stability = stability_scale[std::clamp(signals.best_move_stability, 0, last)] / Hundredths;
    // Most nodes under the best move: the alternatives are refuted quickly.
    const double nodes = std::clamp(
        (tune::tm_node_base / Hundredths - signals.best_move_node_fraction) * (tune::tm_node_mult / Hundredths),
        tune::tm_node_scale_min / Hundredths, tune::tm_node_scale_max / Hundredths);
    // A falling score: something was found against the move we would play.
    const double score = std::clamp(1.0 + signals.score_drop / double(tune::tm_score_drop_divisor),
                                    tune::tm_score_scale_min / Hundredths, tune::tm_score_scale_max / Hundredths);
    return stability * nodes * score;
}

}  // namespace arbiter::search

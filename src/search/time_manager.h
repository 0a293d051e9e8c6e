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
};

// `overhead_ms` is the UCI option Move Overhead: time lost between the GUI and us,
// reserved on every move.
TimeBudget plan_time(const SearchLimits& limits, Color us, int64_t overhead_ms);

} // namespace arbiter::search

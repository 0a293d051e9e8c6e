#pragma once
// Search parameters, each declared once in search/tunables.h with its default, range
// and SPSA step. A release build makes every one a `constexpr int` (the compiler folds
// it as if it were written in place); a tuning build (`cmake -DARBITER_TUNE=ON`) makes
// it a variable that the UCI layer exposes as a spin option of the same name, so an
// SPSA tuner can set it. `arbiter spsa` prints the list in the format OpenBench's SPSA
// reads (`name, int, default, min, max, step, learning rate`).

#include <span>
#include <string_view>

#include "search/tunables.h"

namespace arbiter::search {

#ifdef ARBITER_TUNE
constexpr bool TuningBuild = true;
#else
constexpr bool TuningBuild = false;
#endif

namespace tune {
#define ARBITER_CHECK_RANGE(name, value, min, max, step) \
    static_assert((min) <= (value) && (value) <= (max) && (step) > 0, "tunable " #name " out of range");
ARBITER_SEARCH_TUNABLES(ARBITER_CHECK_RANGE)
#undef ARBITER_CHECK_RANGE

#ifdef ARBITER_TUNE
#define ARBITER_DECLARE_TUNABLE(name, value, min, max, step) inline int name = value;
#else
#define ARBITER_DECLARE_TUNABLE(name, value, min, max, step) constexpr int name = value;
#endif
ARBITER_SEARCH_TUNABLES(ARBITER_DECLARE_TUNABLE)
#undef ARBITER_DECLARE_TUNABLE
}  // namespace tune

struct TunableInfo {
    std::string_view name;
    int* value;  // the variable a tuner sets; nullptr in a release build
    int default_value, min, max, step;
};

// Every tunable of search/tunables.h, in declaration order.
std::span<const TunableInfo> tunables();

}  // namespace arbiter::search

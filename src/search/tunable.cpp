#include "search/tunable.h"

namespace arbiter::search {

std::span<const TunableInfo> tunables() {
#ifdef ARBITER_TUNE
#define ARBITER_TUNABLE_INFO(name, value, min, max, step) {#name, &tune::name, value, min, max, step},
#else
#define ARBITER_TUNABLE_INFO(name, value, min, max, step) {#name, nullptr, value, min, max, step},
#endif
    static const TunableInfo list[] = {ARBITER_SEARCH_TUNABLES(ARBITER_TUNABLE_INFO)};
#undef ARBITER_TUNABLE_INFO
    return list;
}

}  // namespace arbiter::search

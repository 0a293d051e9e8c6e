// The list of search parameters (search/tunables.h) as an SPSA tuner and the UCI
// layer read it: names that work as option names and in OpenBench's comma-separated
// format, each once, and steps that suit a long run.

#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "search/tunable.h"

using namespace arbiter::search;

TEST_CASE("every tunable has a distinct name usable as a UCI option and in a list", "[search][tunable]") {
    std::set<std::string> names;
    for (const TunableInfo& t : tunables()) {
        const std::string name(t.name);
        INFO(name);
        CHECK(names.insert(name).second);
        REQUIRE_FALSE(name.empty());
        CHECK(name.front() >= 'a');
        CHECK(name.front() <= 'z');
        for (char c : name) CHECK(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'));
    }
    CHECK(names.size() > 50);
}

TEST_CASE("every tunable's step suits a long SPSA run", "[search][tunable]") {
    // About a twentieth of the range (OpenBench's c_end): small enough to keep each
    // perturbation inside sensible values, large enough to be measured in games. A
    // range of a few plies or units has no step finer than one.
    constexpr int Steps = 20;
    for (const TunableInfo& t : tunables()) {
        INFO(t.name << " in [" << t.min << ", " << t.max << "] step " << t.step);
        CHECK(t.min <= t.default_value);
        CHECK(t.default_value <= t.max);
        const int range = t.max - t.min;
        if (range < Steps) {
            CHECK(t.step == 1);
        } else {
            CHECK(t.step * Steps * 2 >= range);
            CHECK(t.step * Steps / 2 <= range);
        }
    }
}

TEST_CASE("a tuning build's tunables are variables holding their defaults", "[search][tunable]") {
    for (const TunableInfo& t : tunables()) {
        INFO(t.name);
        if constexpr (TuningBuild) {
            REQUIRE(t.value != nullptr);
            CHECK(*t.value == t.default_value);
        } else {
            CHECK(t.value == nullptr);
        }
    }
}

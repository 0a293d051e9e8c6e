// The time manager as the pure function it is: made-up clocks in, soft and hard
// limits out. Properties rather than exact numbers, so retuning the formulas does not
// break the tests, but a budget that could flag or never stop does.

#include <catch2/catch.hpp>

#include <cstdint>

#include "search/time_manager.h"

using namespace arbiter;
using namespace arbiter::search;

namespace {

constexpr int64_t Unlimited = TimeBudget::Unlimited;

SearchLimits clock(Color us, int64_t time_ms, int64_t increment_ms = 0, int moves_to_go = 0) {
    SearchLimits limits;
    limits.time[us] = time_ms;
    limits.increment[us] = increment_ms;
    limits.moves_to_go = moves_to_go;
    return limits;
}

// What every budget planned from a clock must satisfy.
void check_sane(const TimeBudget& b, int64_t time_ms, int64_t overhead_ms) {
    INFO("time " << time_ms << " overhead " << overhead_ms << " -> soft " << b.soft_ms << " hard " << b.hard_ms);
    CHECK(b.soft_ms >= 1);
    CHECK(b.hard_ms >= 1);
    CHECK(b.soft_ms <= b.hard_ms);
    if (time_ms > overhead_ms) CHECK(b.hard_ms <= time_ms - overhead_ms);
    else CHECK(b.hard_ms <= 1);
}

}  // namespace

TEST_CASE("sudden death without increment", "[time]") {
    for (int64_t time : {100, 1000, 10'000, 60'000, 600'000, 3'600'000}) {
        const TimeBudget b = plan_time(clock(White, time), White, 10);
        check_sane(b, time, 10);
        INFO("time " << time);
        CHECK(b.soft_ms < b.hard_ms);
        // Sudden death must leave room for many more moves.
        CHECK(b.hard_ms <= time / 2);
        CHECK(b.soft_ms <= time / 10);
    }
}

TEST_CASE("sudden death with increment", "[time]") {
    for (int64_t time : {50, 200, 1000, 10'000, 60'000}) {
        for (int64_t inc : {10, 100, 1000, 5000}) {
            const TimeBudget b = plan_time(clock(Black, time, inc), Black, 10);
            check_sane(b, time, 10);
            const TimeBudget without = plan_time(clock(Black, time), Black, 10);
            INFO("time " << time << " inc " << inc);
            // The increment is spent, never held back.
            CHECK(b.soft_ms >= without.soft_ms);
            CHECK(b.hard_ms >= without.hard_ms);
        }
    }
}

TEST_CASE("repeating controls with movestogo counting down", "[time]") {
    for (int64_t time : {1000, 10'000, 60'000}) {
        TimeBudget previous{1, 1};
        for (int mtg = 40; mtg >= 1; --mtg) {
            const TimeBudget b = plan_time(clock(White, time, 0, mtg), White, 10);
            check_sane(b, time, 10);
            INFO("time " << time << " movestogo " << mtg << " soft " << b.soft_ms << " hard " << b.hard_ms);
            // Fewer moves to the next control on the same clock: no less time per move.
            CHECK(b.soft_ms >= previous.soft_ms);
            CHECK(b.hard_ms >= previous.hard_ms);
            // Spread over the moves left, with a margin of at most twice the even share.
            CHECK(b.soft_ms <= 2 * (time - 10) / mtg + 1);
            previous = b;
        }
        // The last move before the control may use more, but never the whole clock.
        const TimeBudget last = plan_time(clock(White, time, 0, 1), White, 10);
        INFO("time " << time << " movestogo 1: hard " << last.hard_ms);
        CHECK(last.hard_ms <= (time - 10) * 9 / 10);
        CHECK(last.hard_ms >= (time - 10) / 4);
    }
}

TEST_CASE("a simulated game never runs out of time", "[time]") {
    struct Control {
        int64_t time, inc;
        int moves_to_go;  // per control; 0 for sudden death
        int64_t lag;      // time really lost per move, at most the overhead
    };
    const int64_t overhead = 10;
    // Without increment a sudden-death clock must run out eventually when every move
    // loses time outside the search, so only controls that refill the clock. At
    // 1+0.01 the increment only just covers the overhead; the GUI's real lag is less.
    // 40 moves in 1 s with 10 ms lost per move leaves 600 ms to think: the overhead
    // must be reserved for every move still to come, not only for this one.
    for (const Control c : {Control{10'000, 100, 0, 10}, Control{1000, 10, 0, 5}, Control{10'000, 0, 40, 10},
                            Control{1000, 0, 40, 10}, Control{60'000, 0, 10, 10}, Control{300, 20, 0, 10}}) {
        int64_t clock_ms = c.time;
        for (int move = 0; move < 300; ++move) {
            const int mtg = c.moves_to_go ? c.moves_to_go - move % c.moves_to_go : 0;
            const TimeBudget b = plan_time(clock(White, clock_ms, c.inc, mtg), White, overhead);
            // Iterations usually end soon after the soft limit; now and then a move runs
            // into the hard limit.
            clock_ms -= (move % 8 == 3 ? b.hard_ms : b.soft_ms) + c.lag;
            INFO("control " << c.time << "+" << c.inc << " mtg " << c.moves_to_go << " move " << move);
            REQUIRE(clock_ms > 0);
            clock_ms += c.inc;
            if (c.moves_to_go && mtg == 1) clock_ms += c.time;
        }
    }
}

TEST_CASE("movetime is honoured exactly, minus the overhead", "[time]") {
    SearchLimits limits;
    limits.movetime = 1000;
    TimeBudget b = plan_time(limits, White, 10);
    CHECK(b.soft_ms == 990);
    CHECK(b.hard_ms == 990);
    b = plan_time(limits, Black, 0);
    CHECK(b.soft_ms == 1000);
    CHECK(b.hard_ms == 1000);

    limits.movetime = 5;
    b = plan_time(limits, White, 10);
    CHECK(b.soft_ms == 1);
    CHECK(b.hard_ms == 1);

    // With a clock as well, the tighter of the two wins.
    limits.movetime = 5000;
    limits.time[White] = 1000;
    b = plan_time(limits, White, 10);
    CHECK(b.hard_ms <= 990);
    CHECK(b.soft_ms <= b.hard_ms);
    limits.time[White] = 3'600'000;
    b = plan_time(limits, White, 10);
    CHECK(b.hard_ms <= 4990);
}

TEST_CASE("depth, nodes, mate and infinite searches have no time limit", "[time]") {
    SearchLimits depth;
    depth.depth = 12;
    SearchLimits nodes;
    nodes.nodes = 100'000;
    SearchLimits mate;
    mate.mate = 3;
    SearchLimits infinite;
    infinite.infinite = true;
    SearchLimits nothing;
    for (const SearchLimits& limits : {depth, nodes, mate, infinite, nothing}) {
        for (Color us : {White, Black}) {
            const TimeBudget b = plan_time(limits, us, 10);
            CHECK(b.soft_ms == Unlimited);
            CHECK(b.hard_ms == Unlimited);
        }
    }
}

TEST_CASE("tiny clocks give a budget of at least 1 ms and at most the clock", "[time]") {
    for (int64_t time : {1, 2, 5, 9, 10, 11, 15, 20, 30}) {
        for (int64_t overhead : {0, 10, 50}) {
            for (int mtg : {0, 1, 2, 40}) {
                for (int64_t inc : {0, 100}) {
                    const TimeBudget b = plan_time(clock(White, time, inc, mtg), White, overhead);
                    INFO("time " << time << " overhead " << overhead << " mtg " << mtg << " inc " << inc << " -> soft "
                                 << b.soft_ms << " hard " << b.hard_ms);
                    CHECK(b.soft_ms >= 1);
                    CHECK(b.hard_ms >= 1);
                    CHECK(b.soft_ms <= b.hard_ms);
                    CHECK(b.hard_ms <= time);
                }
            }
        }
    }
    // A clock already below zero (some GUIs send it) still gives a usable budget.
    const TimeBudget b = plan_time(clock(White, -50), White, 10);
    CHECK(b.soft_ms == 1);
    CHECK(b.hard_ms == 1);
}

TEST_CASE("the side to move's own clock is used", "[time]") {
    SearchLimits limits;
    limits.time[White] = 100'000;
    limits.time[Black] = 1000;
    limits.increment[White] = 1000;
    limits.increment[Black] = 0;
    const TimeBudget white = plan_time(limits, White, 10);
    const TimeBudget black = plan_time(limits, Black, 10);
    check_sane(white, 100'000, 10);
    check_sane(black, 1000, 10);
    CHECK(black.hard_ms < white.soft_ms);

    // Only the opponent's clock given: nothing to plan with, so no time limit.
    SearchLimits theirs;
    theirs.time[Black] = 1000;
    const TimeBudget b = plan_time(theirs, White, 10);
    CHECK(b.soft_ms == Unlimited);
    CHECK(b.hard_ms == Unlimited);
}

TEST_CASE("more time never gives less budget", "[time]") {
    for (int mtg : {0, 1, 5, 40}) {
        for (int64_t inc : {0, 50, 1000}) {
            TimeBudget previous{0, 0};
            for (int64_t time = 1; time <= 2'000'000; time = time * 5 / 4 + 1) {
                const TimeBudget b = plan_time(clock(Black, time, inc, mtg), Black, 10);
                INFO("time " << time << " inc " << inc << " mtg " << mtg);
                CHECK(b.soft_ms >= previous.soft_ms);
                CHECK(b.hard_ms >= previous.hard_ms);
                previous = b;
            }
        }
    }
    // More increment on the same clock: no less either.
    TimeBudget previous{0, 0};
    for (int64_t inc = 0; inc <= 5000; inc += 250) {
        const TimeBudget b = plan_time(clock(White, 10'000, inc), White, 10);
        CHECK(b.soft_ms >= previous.soft_ms);
        CHECK(b.hard_ms >= previous.hard_ms);
        previous = b;
    }
    // More overhead: no more budget.
    previous = {Unlimited, Unlimited};
    for (int64_t overhead = 0; overhead <= 1000; overhead += 50) {
        const TimeBudget b = plan_time(clock(White, 10'000, 100), White, overhead);
        CHECK(b.soft_ms <= previous.soft_ms);
        CHECK(b.hard_ms <= previous.hard_ms);
        previous = b;
    }
}

TEST_CASE("absurdly large clocks plan a sane budget without overflow", "[time]") {
    // Found by tests/fuzz/uci_fuzz: `go wtime 9223372036854775807` overflowed int64.
    constexpr int64_t Huge = INT64_MAX;
    for (int moves_to_go : {0, 1, 40})
        for (int64_t increment : {int64_t(0), int64_t(1000), Huge}) {
            const TimeBudget b = plan_time(clock(White, Huge, increment, moves_to_go), White, 10);
            INFO("movestogo " << moves_to_go << " increment " << increment);
            CHECK(b.soft_ms >= 1);
            CHECK(b.soft_ms <= b.hard_ms);
            CHECK(b.hard_ms < Huge);
        }
    const TimeBudget small_clock_huge_increment = plan_time(clock(White, 1000, Huge), White, 10);
    CHECK(small_clock_huge_increment.hard_ms <= 1000);
}

TEST_CASE("only a clock's soft limit moves with the search", "[time]") {
    CHECK(plan_time(clock(White, 60000, 0), White, 10).scalable);
    SearchLimits fixed;
    fixed.movetime = 1000;
    CHECK_FALSE(plan_time(fixed, White, 10).scalable);
}

TEST_CASE("the soft limit grows while the search is unsettled and shrinks once it is settled", "[time]") {
    const auto scale = [](int stability, double fraction, int drop) {
        return soft_limit_scale(IterationSignals{stability, fraction, drop});
    };
    // A best move that keeps its place needs less time, one that just changed more.
    for (int s = 0; s < 8; ++s) CHECK(scale(s + 1, 0.6, 0) <= scale(s, 0.6, 0));
    CHECK(scale(0, 0.6, 0) > 1.0);
    CHECK(scale(8, 0.95, 0) < 0.75);
    // The more nodes the best move takes, the less time.
    for (double f = 0.1; f < 1.0; f += 0.1) CHECK(scale(3, f + 0.1, 0) <= scale(3, f, 0));
    // A falling score asks for more time, a rising one for no more than a steady one.
    CHECK(scale(3, 0.6, 60) > scale(3, 0.6, 0));
    CHECK(scale(3, 0.6, -60) <= scale(3, 0.6, 0));
    // Bounded: the hard limit caps it anyway, but the factor itself stays sane.
    CHECK(scale(0, 0.0, 1000) <= 6.0);
    CHECK(scale(100, 1.0, -1000) >= 0.25);
}

TEST_CASE("the sudden-death horizon shrinks as the game goes on, within bounds", "[time]") {
    // Without growth the horizon is the same at every ply: 10000 / base moves.
    for (int ply : {0, 1, 40, 300}) {
        CHECK(sudden_death_horizon(ply, 400, 0) == 25);
        CHECK(sudden_death_horizon(ply, 250, 0) == 40);
    }
    // With growth, every later ply gets at least the earlier one's share.
    for (int growth : {4, 20, 60}) {
        int64_t previous = sudden_death_horizon(0, 400, growth);
        CHECK(previous == 25);
        for (int ply = 1; ply <= 600; ++ply) {
            const int64_t horizon = sudden_death_horizon(ply, 400, growth);
            INFO("growth " << growth << " ply " << ply);
            CHECK(horizon <= previous);
            CHECK(horizon >= 5);
            previous = horizon;
        }
        CHECK(sudden_death_horizon(600, 400, growth) < 25);
    }
    // Bounds: from 5 to 50 moves whatever the parameters; a negative ply counts as 0.
    CHECK(sudden_death_horizon(0, 100, 0) == 50);
    CHECK(sudden_death_horizon(10'000, 800, 60) == 5);
    CHECK(sudden_death_horizon(-5, 400, 60) == 25);
}

TEST_CASE("a later move never gets less of a sudden-death clock", "[time]") {
    for (int64_t time : {1000, 10'000, 60'000}) {
        for (int64_t inc : {0, 100}) {
            const TimeBudget first = plan_time(clock(White, time, inc), White, 10, 0);
            for (int ply : {20, 60, 120, 400}) {
                const TimeBudget later = plan_time(clock(White, time, inc), White, 10, ply);
                INFO("time " << time << " inc " << inc << " ply " << ply);
                check_sane(later, time, 10);
                CHECK(later.soft_ms >= first.soft_ms);
            }
        }
    }
    // moves_to_go plans over the moves left, whatever the ply.
    CHECK(plan_time(clock(White, 60'000, 0, 20), White, 10, 0).soft_ms ==
          plan_time(clock(White, 60'000, 0, 20), White, 10, 200).soft_ms);
}

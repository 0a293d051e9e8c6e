// Limited playing strength (UCI_LimitStrength, UCI_Elo): the levels, the choice
// among lines, and limited searches through the engine facade. Limited searches here
// have no clock, so they end by their node budget: Engine::wait() cannot hang.

#include <catch2/catch.hpp>

#include <cmath>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "test_support.h"
#include "chess/chess960.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "search/engine.h"
#include "search/strength.h"

using namespace arbiter;
using namespace arbiter::search;

namespace {

struct LimitedResult {
    Move best;
    uint64_t nodes = 0;
    std::vector<size_t> lines_shown;  // lines of each info report
    std::vector<std::vector<Move>> pvs;
};

LimitedResult limited_search(Engine& engine, const Position& root, int elo, uint64_t seed) {
    LimitedResult result;
    std::mutex mutex;
    Engine::Listener listener;
    listener.on_iteration = [&](const std::vector<SearchInfo>& infos) {
        std::lock_guard lock(mutex);
        result.lines_shown.push_back(infos.size());
        for (const SearchInfo& info : infos) result.pvs.push_back(info.pv);
    };
    listener.on_best_move = [&](Move best, Move) {
        std::lock_guard lock(mutex);
        result.best = best;
    };
    engine.set_listener(listener);
    engine.new_game();
    engine.set_limit_strength(true);
    engine.set_elo(elo);
    engine.seed_strength(seed);
    engine.set_game(Game(root));
    REQUIRE(engine.go(SearchLimits{}));
    engine.wait();
    result.nodes = engine.last_search_nodes();
    engine.set_listener({});
    return result;
}

}  // namespace

TEST_CASE("strength levels grow with the Elo and are clamped to the option's range", "[strength]") {
    StrengthLevel previous = strength_level(MinLimitedElo);
    CHECK(strength_level(MinLimitedElo - 500).nodes == previous.nodes);
    CHECK(strength_level(MaxLimitedElo + 500).nodes == strength_level(MaxLimitedElo).nodes);
    for (int elo = MinLimitedElo + 10; elo <= MaxLimitedElo; elo += 10) {
        const StrengthLevel level = strength_level(elo);
        INFO("Elo " << elo);
        CHECK(level.nodes >= previous.nodes);
        CHECK(level.temperature <= previous.temperature);
        CHECK(level.max_loss <= previous.max_loss);
        CHECK(level.lines >= 1);
        previous = level;
    }
    CHECK(strength_level(MaxLimitedElo).nodes > 100 * strength_level(MinLimitedElo).nodes);
}

TEST_CASE("the choice among lines follows exp(-loss / temperature) within the loss bound", "[strength]") {
    StrengthLevel level;
    level.temperature = 50;
    level.max_loss = 120;
    const std::vector<Score> scores = {30, 30 - 50, 30 - 100, 30 - 121, -Mate + 3};
    // Count the choices over a fine grid of the uniform number.
    std::vector<int> counts(scores.size());
    constexpr int Steps = 100000;
    for (int i = 0; i < Steps; ++i) ++counts[choose_line(scores, level, (i + 0.5) / Steps)];
    CHECK(counts[3] == 0);  // 121 cp worse: beyond the bound
    CHECK(counts[4] == 0);
    const double e = std::exp(1.0);
    CHECK(double(counts[0]) / counts[1] == Approx(e).epsilon(0.01));
    CHECK(double(counts[1]) / counts[2] == Approx(e).epsilon(0.01));

    SECTION("no temperature or a single line: always the best") {
        level.temperature = 0;
        for (double u : {0.0, 0.5, 0.999}) CHECK(choose_line(scores, level, u) == 0);
        level.temperature = 50;
        const std::vector<Score> one = {10};
        CHECK(choose_line(one, level, 0.99) == 0);
    }
    SECTION("a line without the mate the best line has is never chosen") {
        const std::vector<Score> mate = {Mate - 5, 200, 150};
        for (double u : {0.0, 0.3, 0.6, 0.999}) CHECK(choose_line(mate, level, u) == 0);
    }
}

TEST_CASE("a limited search keeps its node budget, shows MultiPV's lines and repeats per seed", "[strength]") {
    Engine engine;
    const Position root = test::parse_fen(Position::StartFen);
    for (int elo : {1320, 1800, 2200}) {
        INFO("Elo " << elo);
        const LimitedResult a = limited_search(engine, root, elo, 7);
        const LimitedResult b = limited_search(engine, root, elo, 7);
        CHECK(is_legal(root, a.best));
        CHECK(a.best == b.best);
        CHECK(a.nodes == b.nodes);
        // As with `go nodes`: the nodes entered after the stop was raised return at once.
        CHECK(a.nodes <= strength_level(elo).nodes + 64);
        REQUIRE_FALSE(a.lines_shown.empty());
        for (size_t lines : a.lines_shown) CHECK(lines == 1);
        for (const std::vector<Move>& pv : a.pvs) {
            Position pos = root;
            for (Move m : pv) {
                REQUIRE(is_legal(pos, m));
                pos = pos.apply(m);
            }
        }
        // The last line shown starts with the move played.
        REQUIRE_FALSE(a.pvs.back().empty());
        CHECK(a.pvs.back().front() == a.best);
    }
    engine.set_multipv(2);
    const LimitedResult two = limited_search(engine, root, 1320, 7);
    CHECK(two.lines_shown.front() == 2);
}

TEST_CASE("a low level varies its moves with the seed, none hangs a queen", "[strength]") {
    Engine engine;
    const Position start = test::parse_fen(Position::StartFen);
    std::set<uint16_t> moves;
    for (uint64_t seed = 1; seed <= 12; ++seed) moves.insert(limited_search(engine, start, 1320, seed).best.raw());
    CHECK(moves.size() >= 3);

    // Rxd5 wins a free queen; every other move loses the rook to ...Qxd1+.
    const Position queen = test::parse_fen("6k1/5ppp/8/3q4/8/8/5PPP/3R2K1 w - - 0 1");
    const Move capture = *parse_uci(queen, "d1d5");
    for (int elo : {1320, 1800, 2200})
        for (uint64_t seed = 1; seed <= 6; ++seed) {
            INFO("Elo " << elo << " seed " << seed);
            CHECK(limited_search(engine, queen, elo, seed).best == capture);
        }
}

TEST_CASE("limited play works in Chess960", "[strength]") {
    Engine engine;
    for (int index : {0, 518, 959}) {
        const Position root = test::parse_fen(chess960_start_fen(index), true);
        const Move best = limited_search(engine, root, 1700, uint64_t(index)).best;
        INFO("start " << index);
        CHECK(is_legal(root, best));
    }
}

// The engine with tablebases: root moves ranked by DTZ, WDL probes in the search
// counted as tbhits and scored as tablebase wins, and no change at all where the
// tables cannot apply.

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>

#include <unistd.h>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "search/engine.h"
#include "syzygy/probe.h"

using namespace arbiter;
using namespace arbiter::search;
using namespace std::chrono_literals;

namespace {

const std::string TableFolder = std::string(ARBITER_TEST_DATA) + "/syzygy";

// Runs one search to its end and keeps the last iteration's lines and the best move.
struct Outcome {
    std::vector<SearchInfo> last;
    Move best;
};

Outcome search_to_end(Engine& engine, const std::string& fen, SearchLimits limits) {
    std::mutex mutex;
    std::condition_variable done;
    Outcome outcome;
    bool finished = false;
    engine.set_listener({[&](const std::vector<SearchInfo>& infos) {
                             std::lock_guard lock(mutex);
                             outcome.last = infos;
                         },
                         nullptr,
                         [&](Move best, Move) {
                             std::lock_guard lock(mutex);
                             outcome.best = best;
                             finished = true;
                             done.notify_all();
                         }});
    engine.set_game(Game(*Position::from_fen(fen, false, FenCheck::Playable).position));
    REQUIRE(engine.go(limits));
    {
        std::unique_lock lock(mutex);
        REQUIRE(done.wait_for(lock, 60s, [&] { return finished; }));
    }
    engine.wait();
    engine.set_listener({});
    return outcome;
}

SearchLimits depth(int d) {
    SearchLimits limits;
    limits.depth = d;
    return limits;
}

}  // namespace

TEST_CASE("at a won root the engine plays a winning move and shows a tablebase win", "[engine][syzygy]") {
    Engine engine;
    REQUIRE(engine.load_tablebases(TableFolder).tables > 0);
    for (const std::string fen :
         {"8/8/8/4k3/8/2r5/8/K5Q1 w - - 0 1", "8/2k5/8/8/8/8/8/KBN5 w - - 0 1", "4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"}) {
        INFO(fen);
        const Position root = *Position::from_fen(fen).position;
        REQUIRE(syzygy::probe_wdl(engine.tablebases(), root) == syzygy::Wdl::Win);
        const Outcome outcome = search_to_end(engine, fen, depth(6));
        REQUIRE_FALSE(outcome.best.is_null());
        const Position child = root.apply(outcome.best);
        CHECK(syzygy::probe_wdl(engine.tablebases(), child) == syzygy::Wdl::Loss);
        REQUIRE_FALSE(outcome.last.empty());
        CHECK(outcome.last[0].score >= TbWinInMaxPly);
        CHECK(outcome.last[0].tb_hits >= legal_moves(root).size());
    }
}

TEST_CASE("ranked by DTZ the root's probes are the only ones, ranked by WDL the search probes too",
          "[engine][syzygy]") {
    const std::string fen = "8/8/8/4k3/8/2r5/8/K5Q1 w - - 0 1";
    const Position root = *Position::from_fen(fen).position;
    SECTION("with DTZ tables the ranks settle every result") {
        Engine engine;
        REQUIRE(engine.load_tablebases(TableFolder).tables > 0);
        const Outcome outcome = search_to_end(engine, fen, depth(8));
        REQUIRE_FALSE(outcome.last.empty());
        CHECK(outcome.last[0].tb_hits == legal_moves(root).size());
        CHECK(syzygy::probe_wdl(engine.tablebases(), root.apply(outcome.best)) == syzygy::Wdl::Loss);
    }
    SECTION("with WDL tables alone the root is ranked by result and the search keeps probing") {
        namespace fs = std::filesystem;
        const fs::path folder = fs::temp_directory_path() / ("arbiter_wdl_only_" + std::to_string(::getpid()));
        fs::create_directories(folder);
        for (const auto& entry : fs::directory_iterator(TableFolder))
            if (entry.path().extension() == ".rtbw") fs::copy_file(entry.path(), folder / entry.path().filename());
        {
            Engine engine;
            REQUIRE(engine.load_tablebases(folder.string()).tables > 0);
            REQUIRE_FALSE(syzygy::probe_dtz(engine.tablebases(), root));
            const Outcome outcome = search_to_end(engine, fen, depth(8));
            REQUIRE_FALSE(outcome.last.empty());
            CHECK(syzygy::probe_wdl(engine.tablebases(), root.apply(outcome.best)) == syzygy::Wdl::Loss);
            CHECK(outcome.last[0].score >= TbWinInMaxPly);
            CHECK(outcome.last[0].tb_hits > legal_moves(root).size());
        }
        std::error_code ec;
        fs::remove_all(folder, ec);
    }
}

TEST_CASE("at a drawn root the engine keeps the draw", "[engine][syzygy]") {
    Engine engine;
    REQUIRE(engine.load_tablebases(TableFolder).tables > 0);
    // In check from the rook: Kd2 or Ke2 answers Rxd1 with Kxd1; Kf2 loses the queen.
    const std::string fen = "4k3/8/8/8/8/8/8/3QK2r w - - 0 1";
    const Position root = *Position::from_fen(fen, false, FenCheck::Playable).position;
    const Outcome outcome = search_to_end(engine, fen, depth(6));
    REQUIRE_FALSE(outcome.best.is_null());
    CHECK(syzygy::probe_wdl(engine.tablebases(), root.apply(outcome.best)) == syzygy::Wdl::Draw);
    CHECK(outcome.last[0].score == 0);
}

TEST_CASE("MultiPV lines at a tablebase root come in rank order", "[engine][syzygy]") {
    Engine engine;
    REQUIRE(engine.load_tablebases(TableFolder).tables > 0);
    engine.set_multipv(3);
    const std::string fen = "4k3/8/8/8/8/8/8/3QK2r w - - 0 1";
    const Position root = *Position::from_fen(fen, false, FenCheck::Playable).position;
    const Outcome outcome = search_to_end(engine, fen, depth(5));
    REQUIRE(outcome.last.size() == 3);
    // Two drawing moves, then the losing one, each line scored as the tables say.
    for (size_t i = 0; i < 3; ++i) {
        const Position child = root.apply(outcome.last[i].pv.at(0));
        const syzygy::Wdl wdl = *syzygy::probe_wdl(engine.tablebases(), child);
        INFO(i << ": " << to_uci(outcome.last[i].pv[0], false));
        CHECK(wdl == (i < 2 ? syzygy::Wdl::Draw : syzygy::Wdl::Win));
        CHECK((i < 2 ? outcome.last[i].score == 0 : outcome.last[i].score <= -TbWinInMaxPly));
    }
}

TEST_CASE("the search probes positions reached by captures", "[engine][syzygy]") {
    Engine engine;
    REQUIRE(engine.load_tablebases(TableFolder).tables > 0);
    // Five pieces: the root is beyond the tables, QxN reaches a won KQvKR.
    const std::string fen = "8/8/8/4k3/8/2r5/8/K2Q2n1 w - - 0 1";
    const Outcome outcome = search_to_end(engine, fen, depth(6));
    REQUIRE_FALSE(outcome.last.empty());
    CHECK(outcome.last[0].tb_hits > 0);
    CHECK(outcome.best == *parse_uci(*Position::from_fen(fen).position, "d1g1"));
    CHECK(outcome.last[0].score >= TbWinInMaxPly);

    SECTION("not with SyzygyProbeLimit 0") {
        engine.set_tb_probe_limit(0);
        engine.clear_hash();
        const Outcome limited = search_to_end(engine, fen, depth(6));
        CHECK(limited.last[0].tb_hits == 0);
        CHECK(limited.last[0].score < TbWinInMaxPly);
    }
}

TEST_CASE("loaded tables change nothing where they cannot apply", "[engine][syzygy]") {
    const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    Engine without;
    const Outcome a = search_to_end(without, fen, depth(9));
    const uint64_t nodes_without = without.last_search_nodes();
    Engine with;
    REQUIRE(with.load_tablebases(TableFolder).tables > 0);
    const Outcome b = search_to_end(with, fen, depth(9));
    CHECK(with.last_search_nodes() == nodes_without);
    CHECK(a.best == b.best);
    CHECK(b.last[0].tb_hits == 0);
}

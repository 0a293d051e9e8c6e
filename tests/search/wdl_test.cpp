// The WDL model of search/wdl.h: its shape (sums, monotone in the score, symmetric,
// the material dependence the self-play fit found) and the proven cases (dead
// positions, the game's automatic draws, tablebase verdicts) through the engine.

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>

#include "chess/notation.h"
#include "search/engine.h"
#include "search/wdl.h"
#include "syzygy/probe.h"

using namespace arbiter;
using namespace arbiter::search;
using namespace std::chrono_literals;

namespace {

const std::string TableFolder = std::string(ARBITER_TEST_DATA) + "/syzygy";

Position parse(const std::string& fen) { return *Position::from_fen(fen, false, FenCheck::Playable).position; }

// The last iteration's first line of a search of `game`.
SearchInfo search_to_end(Engine& engine, const Game& game, SearchLimits limits) {
    std::mutex mutex;
    std::condition_variable done;
    SearchInfo last;
    bool finished = false;
    engine.set_listener({[&](const std::vector<SearchInfo>& lines) {
                             std::lock_guard lock(mutex);
                             last = lines.front();
                         },
                         nullptr,
                         [&](Move, Move) {
                             std::lock_guard lock(mutex);
                             finished = true;
                             done.notify_all();
                         }});
    engine.set_game(game);
    REQUIRE(engine.go(limits));
    {
        std::unique_lock lock(mutex);
        REQUIRE(done.wait_for(lock, 60s, [&] { return finished; }));
    }
    engine.wait();
    engine.set_listener({});
    return last;
}

// The WDL a searched line of `game` is reported with.
Wdl searched_wdl(Engine& engine, const Game& game, int depth) {
    SearchLimits limits;
    limits.depth = depth;
    const SearchInfo line = search_to_end(engine, game, limits);
    return line_wdl(engine.game(), line.score, line.pv.empty() ? Move() : line.pv.front(), engine.tablebases(),
                    engine.tb_fifty_move_rule());
}

}  // namespace

TEST_CASE("The material count weighs pawns 1, minor pieces 3, rooks 5, queens 9", "[search][wdl]") {
    CHECK(wdl_material(Position::startpos()) == 78);
    CHECK(wdl_material(parse("8/8/8/4k3/8/8/8/4K3 w - - 0 1")) == 0);
    CHECK(wdl_material(parse("8/8/8/4k3/8/8/4P3/4KB2 w - - 0 1")) == 4);
    CHECK(wdl_material(parse("r7/8/8/4k3/8/2n5/4P3/Q3K3 w - - 0 1")) == 18);
}

TEST_CASE("The model sums to 1000, is symmetric and monotone in the score", "[search][wdl]") {
    for (int material = 0; material <= 100; material += 2) {
        Wdl previous = wdl_of(-3000, material);
        for (int score = -3000; score <= 3000; score += 10) {
            const Wdl w = wdl_of(score, material);
            INFO("material " << material << ", score " << score);
            REQUIRE(w.win + w.draw + w.loss == 1000);
            REQUIRE(w.win >= 0);
            REQUIRE(w.draw >= 0);
            REQUIRE(w.loss >= 0);
            REQUIRE(w == wdl_of(-score, material).flipped());
            REQUIRE(w.win >= previous.win);
            REQUIRE(w.loss <= previous.loss);
            REQUIRE(w.expected_score() >= previous.expected_score());
            previous = w;
        }
        // The extremes of the range are near certain; an even score favours no one.
        CHECK(wdl_of(3000, material).win >= 990);
        CHECK(wdl_of(0, material).win == wdl_of(0, material).loss);
    }
}

TEST_CASE("The model's material dependence: fewer pieces, more draws", "[search][wdl]") {
    // What the self-play shows (scripts/fit_wdl.py's table of draw rates within 30 cp of
    // equality): 99% of the positions with a pawn or two and no pieces end in a draw, 29%
    // of those with every piece on the board; and a given advantage wins more often with
    // more material on the board, where there is more to attack with.
    CHECK(wdl_of(0, 10).draw > 800);
    CHECK(wdl_of(0, 78).draw < 400);
    for (int material = WdlMinMaterial; material < WdlMaxMaterial; ++material) {
        INFO("material " << material);
        CHECK(wdl_of(0, material).draw >= wdl_of(0, material + 1).draw);
        CHECK(wdl_of(100, material).win <= wdl_of(100, material + 1).win);
    }
    // Outside the fitted range the ends of the range apply.
    CHECK(wdl_of(150, 0) == wdl_of(150, WdlMinMaterial));
    CHECK(wdl_of(150, 90) == wdl_of(150, WdlMaxMaterial));
    // Mate and tablebase scores are certain whatever the material.
    CHECK(wdl_of(mate_in(5), 78) == CertainWin);
    CHECK(wdl_of(mated_in(4), 3) == CertainLoss);
    CHECK(wdl_of(TbWin - 3, 30) == CertainWin);
}

TEST_CASE("The game's automatic endings are proven results", "[search][wdl]") {
    const syzygy::Tablebases none;
    CHECK(proven_wdl(Game(parse("8/8/8/4k3/8/8/8/4K3 w - - 0 1")), none, true) == CertainDraw);
    CHECK(proven_wdl(Game(parse("8/8/8/4k3/8/8/8/3BK3 b - - 0 1")), none, true) == CertainDraw);
    CHECK(proven_wdl(Game(parse("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")), none, true) == CertainDraw);  // stalemate
    CHECK(proven_wdl(Game(parse("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")), none, true) == CertainLoss);  // mated
    CHECK_FALSE(proven_wdl(Game(Position::startpos()), none, true));
    CHECK_FALSE(proven_wdl(Game(parse("8/8/8/8/4k3/8/4P3/4K3 w - - 0 1")), none, true));
}

TEST_CASE("A dead position is 0/1000/0 through the engine", "[search][wdl]") {
    Engine engine;
    // K v K and K+B v K: the search scores 0 and the model alone would leave some doubt.
    for (const char* fen : {"8/8/8/4k3/8/8/8/4K3 w - - 0 1", "8/8/8/4k3/8/8/8/4KB2 w - - 0 1"}) {
        INFO(fen);
        CHECK(searched_wdl(engine, Game(parse(fen)), 6) == CertainDraw);
    }
    // The line's first move takes the last piece that could mate: Kxg2 leaves K v K.
    const Game takes_last(parse("8/8/8/8/5k2/8/6r1/6K1 w - - 0 1"));
    REQUIRE_FALSE(proven_wdl(takes_last, syzygy::Tablebases(), true));
    CHECK(searched_wdl(engine, takes_last, 6) == CertainDraw);
}

TEST_CASE("Tablebase verdicts are exact through the engine", "[search][wdl]") {
    // K+P v K with the defender in front: a draw the tables prove, which a search without
    // them scores as White's advantage.
    const Game drawn(parse("8/8/8/8/4k3/8/4P3/4K3 w - - 0 1"));
    Engine engine;
    const Wdl without = searched_wdl(engine, drawn, 10);
    CHECK(without != CertainDraw);
    CHECK(without.win > without.loss);
    REQUIRE(engine.load_tablebases(TableFolder).tables > 0);
    REQUIRE(syzygy::probe_wdl(engine.tablebases(), drawn.position()) == syzygy::Wdl::Draw);
    CHECK(searched_wdl(engine, drawn, 10) == CertainDraw);
    // A won K+P v K (the king ahead of its pawn) and the losing side of another.
    const Game won(parse("8/8/4k3/8/4K3/8/4P3/8 w - - 0 1"));
    REQUIRE(syzygy::probe_wdl(engine.tablebases(), won.position()) == syzygy::Wdl::Win);
    CHECK(searched_wdl(engine, won, 8) == CertainWin);
    const Game lost(parse("8/8/8/4k3/8/4K3/4P3/8 b - - 0 1"));
    REQUIRE(syzygy::probe_wdl(engine.tablebases(), lost.position()) == syzygy::Wdl::Loss);
    CHECK(searched_wdl(engine, lost, 8) == CertainLoss);
    // On the fifty-move clock: a win that needs more plies than the rule leaves is no
    // certain win (the clock at 99: the next move must mate or zero to keep it).
    const Game late(parse("8/8/8/4k3/8/8/8/KR6 w - - 99 150"));
    REQUIRE(syzygy::probe_wdl(engine.tablebases(), late.position()) == syzygy::Wdl::Win);
    CHECK_FALSE(proven_wdl(late, engine.tablebases(), true));
    CHECK(proven_wdl(late, engine.tablebases(), false) == CertainWin);
}

// The first iteration always completes: a stop raised before the search starts, or a
// node limit below one iteration's nodes, still gives the move of a one-ply search
// (not the first move generated). Workers driven directly, so the stop is up before
// the first node, without a race against a search thread.

#include <catch2/catch.hpp>

#include <string_view>
#include <vector>

#include "test_support.h"
#include "chess/game.h"
#include "chess/movegen.h"
#include "search/search.h"
#include "search/tt.h"

using namespace arbiter;
using namespace arbiter::search;

namespace {

// After 1. e4 e5 2. Nf3 the first legal move generated is a king move (Ke7); a
// one-ply search defends e5 or counterattacks.
constexpr std::string_view AfterNf3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
constexpr std::string_view Kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

struct Search {
    TranspositionTable tt;
    SharedSearch shared{tt};
    Worker worker{0, shared};
    std::vector<int> reported_depths;

    // Searches `fen` with an empty table under `limits`, the stop raised first or not.
    Search(std::string_view fen, const SearchLimits& limits, bool stopped_before_start) {
        shared.limits = limits;
        shared.on_iteration = [this](const std::vector<SearchInfo>& infos) {
            reported_depths.push_back(infos.front().depth);
        };
        shared.restart_clock();
        const Position root = test::parse_fen(fen);
        const MoveList moves = legal_moves(root);
        worker.prepare(Game(root), std::vector<Move>(moves.begin(), moves.end()));
        shared.stop = stopped_before_start;
        worker.iterative_deepening();
    }
    Move best() const { return worker.root_moves().front().move; }
};

}  // namespace

TEST_CASE("a stop raised before the search still completes the first iteration", "[search]") {
    for (std::string_view fen : {AfterNf3, Kiwipete}) {
        INFO(fen);
        const Search one_ply(fen, SearchLimits{.depth = 1}, false);
        REQUIRE(one_ply.worker.completed_depth() == 1);

        const Search stopped(fen, SearchLimits{.infinite = true}, true);
        CHECK(stopped.worker.completed_depth() == 1);
        CHECK(stopped.reported_depths == std::vector<int>{1});
        CHECK(stopped.best() == one_ply.best());
        // Nothing is searched after it: the next iteration unwinds at its first node.
        CHECK(stopped.worker.nodes() == one_ply.worker.nodes());
    }
    // Not the first move generated.
    const Position pos = test::parse_fen(AfterNf3);
    const Search stopped(AfterNf3, SearchLimits{.depth = 10}, true);
    CHECK(stopped.best() != legal_moves(pos)[0]);
}

TEST_CASE("a node limit below one iteration plays the first iteration's move", "[search]") {
    const Search one_ply(Kiwipete, SearchLimits{.depth = 1}, false);
    const uint64_t first_iteration = one_ply.worker.nodes();
    REQUIRE(first_iteration > 2);
    for (uint64_t n : {uint64_t(1), first_iteration / 2, first_iteration}) {
        INFO("nodes " << n << ", first iteration " << first_iteration);
        const Search limited(Kiwipete, SearchLimits{.nodes = n}, false);
        CHECK(limited.worker.completed_depth() == 1);
        CHECK(limited.best() == one_ply.best());
        // The limit takes effect at the next iteration's first node.
        CHECK(limited.worker.nodes() == first_iteration + 1);
        CHECK(limited.shared.stop.load());
    }
    // Above it the limit is exact again.
    const Search limited(Kiwipete, SearchLimits{.nodes = first_iteration + 500}, false);
    CHECK(limited.worker.nodes() == first_iteration + 500);
}

// Lazy SMP's division of labour, with search workers driven directly: thread 0
// keeps the limits of `go`, a helper thread searches on until it is stopped (a
// helper that ended at the depth limit would leave its core idle while thread 0
// finished that depth).

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

constexpr std::string_view Kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

// Runs worker `id` alone under `go depth 5 nodes 100000` and returns it.
struct LoneWorker {
    TranspositionTable tt;
    SharedSearch shared{tt};
    Worker worker;

    explicit LoneWorker(int id) : worker(id, shared) {
        shared.limits.depth = 5;
        shared.limits.nodes = 100'000;
        shared.restart_clock();
        const Position root = test::parse_fen(Kiwipete);
        const MoveList moves = legal_moves(root);
        worker.prepare(Game(root), std::vector<Move>(moves.begin(), moves.end()));
        worker.iterative_deepening();
    }
};

}  // namespace

TEST_CASE("thread 0 stops at the depth limit, a helper searches on until stopped", "[search][smp]") {
    const LoneWorker main_thread(0);
    CHECK(main_thread.worker.completed_depth() == 5);
    CHECK(main_thread.worker.nodes() < 100'000);
    CHECK_FALSE(main_thread.shared.stop.load());

    // Nothing stops the helper but the node limit (here standing in for thread 0's stop).
    const LoneWorker helper(1);
    CHECK(helper.worker.completed_depth() > 5);
    CHECK(helper.worker.nodes() >= 100'000);
    CHECK(helper.shared.stop.load());

    // Each keeps its last completed iteration's line, on which the threads vote.
    for (const Worker* w : {&main_thread.worker, &helper.worker}) {
        REQUIRE(w->completed_lines().size() == 1);
        CHECK(is_legal(test::parse_fen(Kiwipete), w->completed_lines()[0].move));
    }
}

// Hot paths do not allocate: once a worker has searched one position, setting up and
// running further searches takes nothing from the heap, as data generation does for
// every move of every game (with one thread, no GUI listener, the NNUE evaluating).
//
// A test program of its own, because it replaces the global operator new to count
// calls: in the main test binary that would hide the sanitizers' own operator new
// from every other test.

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string_view>
#include <vector>

#include "test_support.h"
#include "chess/game.h"
#include "chess/movegen.h"
#include "eval/nnue/network.h"
#include "search/search.h"
#include "search/tt.h"

namespace {
std::atomic<long> allocations{0};

void* counted_allocation(std::size_t size) noexcept {
    allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size == 0 ? 1 : size);
}
}  // namespace

// Every non-aligned form is replaced, so that each allocation is counted and freed by
// the same pair (a sanitizer's own nothrow or array form would otherwise meet our
// delete). The aligned forms keep their defaults, which pair among themselves.
void* operator new(std::size_t size) {
    if (void* p = counted_allocation(size)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
    if (void* p = counted_allocation(size)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return counted_allocation(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return counted_allocation(size); }
// Not inlined: GCC would see free() meet operator new and warn of a mismatch.
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace arbiter;
using namespace arbiter::search;

namespace {

constexpr std::string_view Kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
constexpr std::string_view Endgame = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
constexpr std::string_view Middlegame = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

struct CountedSearch {
    TranspositionTable tt;
    SharedSearch shared{tt};
    Worker worker{0, shared};

    CountedSearch() {
        tt.resize(1);
        shared.limits.nodes = 20'000;
        shared.network = eval::nnue::default_network();
    }

    // The heap allocations of preparing and running one search of `fen`; the game
    // and the move list are built before counting starts.
    long allocations_of(std::string_view fen) {
        const Game game(test::parse_fen(fen));
        const MoveList legal = legal_moves(game.position());
        const std::vector<Move> moves(legal.begin(), legal.end());
        shared.stop = false;
        tt.new_search();
        shared.restart_clock();
        const long before = allocations.load();
        worker.prepare(game, moves);
        worker.iterative_deepening();
        return allocations.load() - before;
    }
};

}  // namespace

TEST_CASE("the counter sees allocations", "[search][allocation]") {
    const long before = allocations.load();
    std::vector<int>* v = new std::vector<int>(100);
    CHECK(allocations.load() - before == 2);
    delete v;
}

TEST_CASE("searches after the first allocate nothing", "[search][allocation]") {
    REQUIRE(eval::nnue::default_network() != nullptr);
    CountedSearch search;
    search.allocations_of(Kiwipete);  // the first one sizes the buffers (48 root moves)
    // Fewer root moves, then more again: every root move keeps its PV inline, and
    // sorting the root moves needs no buffer.
    CHECK(search.allocations_of(Endgame) == 0);
    CHECK(search.allocations_of(Middlegame) == 0);
    CHECK(search.allocations_of(Kiwipete) == 0);
    CHECK(search.worker.completed_depth() >= 5);
}

// The transposition table through its public interface: what is stored comes back,
// mate scores are re-based to the probing ply, replacement keeps the valuable
// entries, and resize/clear/hashfull behave.
//
// Replacement tests need keys in one cluster. The index is the high part of
// key * cluster_count, so keys that differ only in their low bits share a cluster;
// SameCluster() below builds such keys and the tests confirm it through behaviour
// (a fifth key pushes one of four out).

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "search/tt.h"

using namespace arbiter;
using namespace arbiter::search;
using arbiter::zobrist::Key;

namespace {

const Move E2E4(E2, E4);
const Move G1F3(G1, F3);
const Move A7A8Q(A7, A8, Move::Promotion, Queen);

// Keys sharing their top 40 bits: the same cluster in any table under 2^40 clusters.
Key same_cluster(int i) { return 0x9E3779B97F4A7C15ull ^ uint64_t(i + 1); }

bool has(const TranspositionTable& tt, Key key) {
    TTData data;
    return tt.probe(key, 0, data);
}

int depth_of(const TranspositionTable& tt, Key key) {
    TTData data;
    REQUIRE(tt.probe(key, 0, data));
    return data.depth;
}

}  // namespace

TEST_CASE("store then probe returns every field", "[tt]") {
    TranspositionTable tt;
    REQUIRE(tt.resize(1));
    const Key key = 0x0123456789ABCDEFull;

    TTData data;
    CHECK_FALSE(tt.probe(key, 0, data));

    tt.store(key, 0, E2E4, 37, -12, 9, Bound::Exact, false);
    REQUIRE(tt.probe(key, 0, data));
    CHECK(data.move == E2E4);
    CHECK(data.score == 37);
    CHECK(data.eval == -12);
    CHECK(data.depth == 9);
    CHECK(data.bound == Bound::Exact);
    CHECK_FALSE(data.pv);

    // Extremes of the packed fields survive.
    const Key other = 0xFEDCBA9876543210ull;
    tt.store(other, 5, A7A8Q, -(MateInMaxPly - 1), NoScore, 127, Bound::Lower, true);
    REQUIRE(tt.probe(other, 5, data));
    CHECK(data.pv);
    CHECK(data.move == A7A8Q);
    CHECK(data.score == -(MateInMaxPly - 1));
    CHECK(data.eval == NoScore);
    CHECK(data.depth == 127);
    CHECK(data.bound == Bound::Lower);

    // NoScore (e.g. an entry stored only for its eval) stays NoScore at any ply.
    const Key third = 0x5555AAAA5555AAAAull;
    tt.store(third, 3, Move(), NoScore, 44, 0, Bound::Upper, false);
    REQUIRE(tt.probe(third, 9, data));
    CHECK(data.score == NoScore);
    CHECK(data.eval == 44);
    CHECK(data.bound == Bound::Upper);
    CHECK(data.move.is_null());

    // The first entry is untouched by the others.
    REQUIRE(tt.probe(key, 0, data));
    CHECK(data.move == E2E4);
    CHECK(data.score == 37);
}

TEST_CASE("a different key misses", "[tt]") {
    TranspositionTable tt;
    REQUIRE(tt.resize(1));
    const Key key = same_cluster(0);
    tt.store(key, 0, G1F3, 10, 10, 4, Bound::Exact, false);
    TTData data;
    CHECK(tt.probe(key, 0, data));
    // Same cluster, different key.
    CHECK_FALSE(tt.probe(same_cluster(1), 0, data));
    // Far away.
    CHECK_FALSE(tt.probe(~key, 0, data));
    // Zero is the empty entry's key; an empty table must not report it as present.
    CHECK_FALSE(tt.probe(0, 0, data));
}

TEST_CASE("mate and tablebase scores are stored relative to the node", "[tt]") {
    TranspositionTable tt;
    REQUIRE(tt.resize(1));
    const Key key = 0x1111222233334444ull;
    TTData data;

    SECTION("we mate") {
        // At ply 3 the node mates in 5 plies: mate_in(8) from the root.
        tt.store(key, 3, E2E4, mate_in(3 + 5), 0, 6, Bound::Exact, false);
        REQUIRE(tt.probe(key, 7, data));
        CHECK(data.score == mate_in(7 + 5));
        REQUIRE(tt.probe(key, 3, data));
        CHECK(data.score == mate_in(8));
        REQUIRE(tt.probe(key, 0, data));
        CHECK(data.score == mate_in(5));
    }
    SECTION("we are mated") {
        tt.store(key, 3, E2E4, mated_in(3 + 5), 0, 6, Bound::Upper, false);
        REQUIRE(tt.probe(key, 7, data));
        CHECK(data.score == mated_in(7 + 5));
        REQUIRE(tt.probe(key, 1, data));
        CHECK(data.score == mated_in(1 + 5));
    }
    SECTION("tablebase wins and losses") {
        // A tablebase win found at ply 4 is TbWin - 4 from the root.
        tt.store(key, 4, E2E4, TbWin - 4, 0, 6, Bound::Lower, false);
        REQUIRE(tt.probe(key, 9, data));
        CHECK(data.score == TbWin - 9);
        tt.store(key, 4, E2E4, -TbWin + 4, 0, 6, Bound::Upper, false);
        REQUIRE(tt.probe(key, 2, data));
        CHECK(data.score == -TbWin + 2);
    }
    SECTION("a proven score read back far from where it was found stays proven") {
        // Found at the root: the node wins by the tables in 100 plies. Read back 120
        // plies deep, 220 plies from the root, it would fall below TbWinInMaxPly (an
        // evaluation of about 31,700 cp): it is the farthest proven score instead.
        tt.store(key, 0, E2E4, TbWin - 100, 0, 6, Bound::Lower, false);
        REQUIRE(tt.probe(key, 120, data));
        CHECK(data.score == TbWinInMaxPly);
        CHECK(is_decisive(data.score));
        tt.store(key, 0, E2E4, -TbWin + 100, 0, 6, Bound::Upper, false);
        REQUIRE(tt.probe(key, 120, data));
        CHECK(data.score == -TbWinInMaxPly);
        // Nearer, the distance is kept exactly.
        REQUIRE(tt.probe(key, 20, data));
        CHECK(data.score == -TbWin + 120);
    }
    SECTION("ordinary scores are not adjusted") {
        for (Score s : {0, 1, -1, 500, -500, TbWinInMaxPly - 1, -(TbWinInMaxPly - 1)}) {
            tt.store(key, 10, E2E4, s, 0, 6, Bound::Exact, false);
            REQUIRE(tt.probe(key, 20, data));
            CHECK(data.score == s);
        }
    }
}

TEST_CASE("storing the same key again updates the entry in place", "[tt]") {
    TranspositionTable tt;
    REQUIRE(tt.resize(1));
    for (int i = 0; i < 4; ++i) tt.store(same_cluster(i), 0, E2E4, i, i, 10 + i, Bound::Exact, false);
    tt.store(same_cluster(2), 0, G1F3, 99, 98, 20, Bound::Lower, false);
    TTData data;
    REQUIRE(tt.probe(same_cluster(2), 0, data));
    CHECK(data.move == G1F3);
    CHECK(data.score == 99);
    CHECK(data.depth == 20);
    CHECK(data.bound == Bound::Lower);
    // No other entry of the cluster was given up for it.
    for (int i : {0, 1, 3}) CHECK(has(tt, same_cluster(i)));

    SECTION("a null move keeps the move already stored") {
        tt.store(same_cluster(2), 0, Move(), 5, 5, 21, Bound::Exact, false);
        REQUIRE(tt.probe(same_cluster(2), 0, data));
        CHECK(data.move == G1F3);
        CHECK(data.score == 5);
        CHECK(data.depth == 21);
    }
    SECTION("a much shallower bound does not overwrite a deep entry of this search") {
        tt.store(same_cluster(2), 0, E2E4, -7, 0, 2, Bound::Upper, false);
        REQUIRE(tt.probe(same_cluster(2), 0, data));
        CHECK(data.depth == 20);
        CHECK(data.score == 99);
        // An exact result always does.
        tt.store(same_cluster(2), 0, E2E4, -7, 0, 2, Bound::Exact, false);
        REQUIRE(tt.probe(same_cluster(2), 0, data));
        CHECK(data.depth == 2);
        CHECK(data.score == -7);
    }
}

TEST_CASE("replacement keeps deep and recent entries", "[tt]") {
    TranspositionTable tt;
    REQUIRE(tt.resize(1));
    // Fill one cluster with deep entries.
    for (int i = 0; i < 4; ++i) tt.store(same_cluster(i), 0, E2E4, 0, 0, 10 + 2 * i, Bound::Exact, false);
    for (int i = 0; i < 4; ++i) REQUIRE(has(tt, same_cluster(i)));

    // A fifth key must push exactly one out: the shallowest.
    tt.store(same_cluster(4), 0, E2E4, 0, 0, 1, Bound::Exact, false);
    CHECK(has(tt, same_cluster(4)));
    CHECK_FALSE(has(tt, same_cluster(0)));
    for (int i = 1; i < 4; ++i) CHECK(has(tt, same_cluster(i)));

    // More shallow entries of the same search replace each other, not the deep ones.
    for (int i = 5; i < 12; ++i) {
        tt.store(same_cluster(i), 0, E2E4, 0, 0, 1, Bound::Exact, false);
        CHECK(has(tt, same_cluster(i)));
        for (int deep = 1; deep < 4; ++deep) CHECK(depth_of(tt, same_cluster(deep)) == 10 + 2 * deep);
    }

    // Entries of searches long past lose to fresh ones, however deep they were.
    for (int i = 0; i < 4; ++i) tt.new_search();
    for (int i = 20; i < 24; ++i) tt.store(same_cluster(i), 0, G1F3, 0, 0, 1, Bound::Exact, false);
    for (int i = 20; i < 24; ++i) CHECK(has(tt, same_cluster(i)));
    for (int i = 0; i < 12; ++i) CHECK_FALSE(has(tt, same_cluster(i)));
}

TEST_CASE("aged entries can still be probed", "[tt]") {
    TranspositionTable tt;
    REQUIRE(tt.resize(1));
    const Key key = 0xABCDEF0123456789ull;
    tt.store(key, 0, G1F3, 15, 16, 7, Bound::Lower, false);
    // The generation counter wraps; entries must stay readable across the wrap.
    for (int i = 0; i < 200; ++i) {
        tt.new_search();
        TTData data;
        REQUIRE(tt.probe(key, 0, data));
        CHECK(data.move == G1F3);
        CHECK(data.depth == 7);
    }
}

TEST_CASE("clear empties the table", "[tt]") {
    TranspositionTable tt;
    REQUIRE(tt.resize(1));
    for (int i = 0; i < 4; ++i) tt.store(same_cluster(i), 0, E2E4, 1, 1, 5, Bound::Exact, false);
    tt.store(0x42ull << 50, 0, E2E4, 1, 1, 5, Bound::Exact, false);
    tt.clear();
    for (int i = 0; i < 4; ++i) CHECK_FALSE(has(tt, same_cluster(i)));
    CHECK_FALSE(has(tt, 0x42ull << 50));
    CHECK(tt.hashfull() == 0);
    tt.store(same_cluster(0), 0, E2E4, 1, 1, 5, Bound::Exact, false);
    CHECK(has(tt, same_cluster(0)));
}

TEST_CASE("resize clears, keeps working, and survives a failed allocation", "[tt]") {
    TranspositionTable tt;
    CHECK(tt.size_mb() == 16);
    tt.store(same_cluster(0), 0, E2E4, 1, 1, 5, Bound::Exact, false);

    REQUIRE(tt.resize(2));
    CHECK(tt.size_mb() == 2);
    CHECK_FALSE(has(tt, same_cluster(0)));
    tt.store(same_cluster(0), 0, E2E4, 1, 1, 5, Bound::Exact, false);
    CHECK(has(tt, same_cluster(0)));

    // 2^40 MB = 2^60 bytes cannot be allocated anywhere: resize must say so, leave
    // the old table (and its contents) in place, and not touch memory trying.
    CHECK_FALSE(tt.resize(size_t(1) << 40));
    CHECK(tt.size_mb() == 2);
    CHECK(has(tt, same_cluster(0)));
    tt.store(same_cluster(1), 0, G1F3, 2, 2, 6, Bound::Exact, false);
    TTData data;
    REQUIRE(tt.probe(same_cluster(1), 0, data));
    CHECK(data.move == G1F3);

    // Keys spread over a small and a non-power-of-two table all land somewhere valid.
    for (size_t mb : {1u, 3u}) {
        REQUIRE(tt.resize(mb));
        for (uint64_t i = 0; i < 4096; ++i)
            tt.store(i * 0x9E3779B97F4A7C15ull + 7, 0, E2E4, 0, 0, 1, Bound::Exact, false);
        CHECK(has(tt, 4095 * 0x9E3779B97F4A7C15ull + 7));
        CHECK(has(tt, ~uint64_t(0)) == false);
        tt.store(~uint64_t(0), 0, E2E4, 0, 0, 1, Bound::Exact, false);
        CHECK(has(tt, ~uint64_t(0)));
    }
}

TEST_CASE("hashfull counts entries of the current search", "[tt]") {
    TranspositionTable tt;
    REQUIRE(tt.resize(1));
    CHECK(tt.hashfull() == 0);
    // 1 MB holds 16384 clusters; keys i << 50 land in cluster i, the first ones sampled.
    for (uint64_t i = 0; i < 16384; ++i) tt.store((i << 50) | 1, 0, E2E4, 0, 0, 1, Bound::Exact, false);
    const int one_per_cluster = tt.hashfull();
    CHECK(one_per_cluster > 0);
    CHECK(one_per_cluster == 250);  // one entry of four in every cluster
    for (uint64_t i = 0; i < 16384; ++i)
        for (uint64_t j = 2; j <= 4; ++j) tt.store((i << 50) | j, 0, E2E4, 0, 0, 1, Bound::Exact, false);
    CHECK(tt.hashfull() == 1000);
    // A new search has written nothing yet.
    tt.new_search();
    CHECK(tt.hashfull() == 0);
    tt.clear();
    CHECK(tt.hashfull() == 0);
}

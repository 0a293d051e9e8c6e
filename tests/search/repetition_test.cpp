// The search's repetition rule (search/repetition.h) on real positions' keys: a
// repetition inside the search path is a draw at once, one reaching into the game
// needs two earlier occurrences, an irreversible move or a null move ends the scan.

#include <catch2/catch.hpp>

#include <vector>

#include "chess/position.h"
#include "search/repetition.h"

using namespace arbiter;
using namespace arbiter::search;
using arbiter::zobrist::Key;

namespace {

// The keys of the positions reached from `start` by `moves`, `start` first; a null
// Move stands for a null move.
std::vector<Key> keys_of(Position pos, const std::vector<Move>& moves) {
    std::vector<Key> keys{pos.key()};
    for (Move m : moves) {
        pos = m.is_null() ? pos.apply_null_move() : pos.apply(m);
        keys.push_back(pos.key());
    }
    return keys;
}

const Move Nf3(G1, F3), Nf6(G8, F6), Ng1(F3, G1), Ng8(F6, G8), Null;

}  // namespace

TEST_CASE("a repetition inside the search path is a draw at once", "[search][repetition]") {
    // Root: the start position; the path Nf3 Nf6 Ng1 Ng8 brings it back.
    const auto keys = keys_of(Position::startpos(), {Nf3, Nf6, Ng1, Ng8});
    CHECK(repeats_on_path(keys, 0, 0));
    // One ply short of the repetition: nothing repeats.
    const std::vector<Key> shorter(keys.begin(), keys.end() - 1);
    CHECK_FALSE(repeats_on_path(shorter, 0, 0));
}

TEST_CASE("a repetition of the game before the root needs two earlier occurrences", "[search][repetition]") {
    // The game went Nf3 Nf6 Ng1 Ng8 once; the root is after it (index 4).
    auto keys = keys_of(Position::startpos(), {Nf3, Nf6, Ng1, Ng8, Nf3, Nf6, Ng1, Ng8});
    const std::vector<Key> twice(keys.begin(), keys.begin() + 5);
    // The root itself repeats the start position once: that is no draw yet...
    CHECK_FALSE(repeats_on_path(twice, 4, 0));
    // ...but the path's Nf3 Nf6 Ng1 Ng8 makes it a third time (and a repetition within the path).
    CHECK(repeats_on_path(keys, 4, 0));
    // With the root at the end of the game: the start position three times in the game.
    CHECK(repeats_on_path(keys, 8, 0));
}

TEST_CASE("no repetition reaches back past an irreversible move", "[search][repetition]") {
    const auto keys = keys_of(Position::startpos(), {Nf3, Nf6, Ng1, Ng8});
    // A fifty-move counter of 3 (an irreversible move three plies back) stops the scan.
    CHECK_FALSE(repeats_on_path(keys, 0, keys.size() - 1 - 3));
}

TEST_CASE("no repetition reaches back across a null move", "[search][repetition]") {
    // White passes, Black plays Nf6, White passes, Black plays Ng8: the position
    // after the first pass comes back four plies on, which no game can reach.
    const auto keys = keys_of(Position::startpos(), {Null, Nf6, Null, Ng8});
    REQUIRE(keys[4] == keys[0]);  // the start position, White to move, again
    // Counted from the root (no null move considered), the scan calls it a draw...
    CHECK(repeats_on_path(keys, 0, 0));
    // ...with the scan stopped at the last null move (index 3), it is none.
    CHECK_FALSE(repeats_on_path(keys, 0, 3));
    // After a null move, positions that follow it can still repeat each other.
    const auto after_null = keys_of(Position::startpos(), {Null, Nf6, Nf3, Ng8, Ng1, Nf6});
    CHECK(repeats_on_path(after_null, 0, 1));
}

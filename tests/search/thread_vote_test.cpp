// Lazy SMP's vote for the move to play among the threads' lines.

#include <catch2/catch.hpp>

#include <vector>

#include "search/thread_vote.h"

using namespace arbiter;
using namespace arbiter::search;

namespace {

const Move e4(E2, E4), d4(D2, D4), c4(C2, C4);

}  // namespace

TEST_CASE("one thread, or helpers with no completed iteration: thread 0's line", "[search][smp]") {
    const std::vector<ThreadLine> alone{{e4, 30, 12}};
    CHECK(vote_among_threads(alone, 100, 20) == 0);
    const std::vector<ThreadLine> helpers_idle{{e4, 30, 12}, {}, {}};
    CHECK(vote_among_threads(helpers_idle, 100, 20) == 0);
}

TEST_CASE("the move with the most votes is played, from its deepest line", "[search][smp]") {
    // Two helpers agree on d4 against thread 0's e4, at the same depth and score.
    const std::vector<ThreadLine> two_against_one{{e4, 30, 12}, {d4, 30, 12}, {d4, 30, 12}};
    CHECK(vote_among_threads(two_against_one, 100, 20) == 1);
    // At half a vote each they only tie thread 0, which keeps a tie.
    CHECK(vote_among_threads(two_against_one, 50, 20) == 0);
    // Of the lines for the move chosen, the deepest is played.
    const std::vector<ThreadLine> one_deeper{{e4, 30, 12}, {d4, 30, 12}, {d4, 30, 13}};
    CHECK(vote_among_threads(one_deeper, 100, 20) == 2);

    // One helper against thread 0: a deeper line outvotes a shallower one at the same score...
    const std::vector<ThreadLine> deeper{{e4, 30, 12}, {c4, 30, 14}};
    CHECK(vote_among_threads(deeper, 100, 20) == 1);
    // ...unless the helpers' votes count for less.
    CHECK(vote_among_threads(deeper, 80, 20) == 0);
    // A higher score outvotes a lower one at the same depth: the worst line keeps
    // only the margin (20 x 12 against 60 x 12).
    const std::vector<ThreadLine> better{{e4, 30, 12}, {c4, 70, 12}};
    CHECK(vote_among_threads(better, 100, 20) == 1);
    // The margin gives the worst line a say: with a large one, depth outweighs score.
    const std::vector<ThreadLine> shallow_but_better{{e4, 30, 14}, {c4, 40, 12}};
    CHECK(vote_among_threads(shallow_but_better, 100, 20) == 1);   // 20 x 14 < 30 x 12
    CHECK(vote_among_threads(shallow_but_better, 100, 100) == 0);  // 100 x 14 > 110 x 12
}

TEST_CASE("a proven win is played whatever the votes: the shortest one", "[search][smp]") {
    const std::vector<ThreadLine> lines{{e4, 200, 20}, {d4, 200, 20}, {c4, mate_in(9), 8}, {d4, mate_in(7), 6}};
    CHECK(vote_among_threads(lines, 0, 20) == 3);
    // A tablebase win counts as proven too, below any mate.
    const std::vector<ThreadLine> tb{{e4, 200, 20}, {c4, TbWin - 10, 9}, {d4, 300, 25}};
    CHECK(vote_among_threads(tb, 100, 20) == 1);
    // A line with no completed iteration has no say, even with a mate's score.
    const std::vector<ThreadLine> empty_mate{{e4, 30, 12}, {c4, mate_in(3), 0}};
    CHECK(vote_among_threads(empty_mate, 100, 20) == 0);
}

TEST_CASE("a line mated soon still votes: the others are the more hopeful", "[search][smp]") {
    const std::vector<ThreadLine> lines{{e4, mated_in(6), 18}, {d4, -150, 16}};
    CHECK(vote_among_threads(lines, 100, 20) == 1);
}

#pragma once
// Lazy SMP's choice of the move to play: each thread's last completed line casts a
// vote for its move, and the move with the most votes is played, from the deepest
// line that voted for it. A line's vote grows with its depth and with how far its
// score stands above the worst score among the threads, so that a deeper or more
// hopeful line outweighs thread 0 when thread 0 alone disagrees with it. A proven
// win overrides the vote: the shortest mate (or tablebase win) found is played.

#include <cstddef>
#include <span>

#include "chess/move.h"
#include "search/score.h"

namespace arbiter::search {

struct ThreadLine {
    Move move;
    Score score = 0;
    int depth = 0;  // 0: the thread completed no iteration, and has no vote
};

// The index of the line to play among `lines` (thread 0's first). Thread 0's vote
// counts fully, each helper's by helper_percent percent of it; `margin` is added
// to every line's score above the worst one, so that the worst line still has a
// say. Returns 0 when no other line has a completed iteration.
size_t vote_among_threads(std::span<const ThreadLine> lines, int helper_percent, int margin);

}  // namespace arbiter::search

#include "search/thread_vote.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace arbiter::search {

namespace {

// Whether line a is the better one to play of two lines for the same move: the
// deeper, then the higher score; the earlier thread keeps a tie.
bool deeper(const ThreadLine& a, const ThreadLine& b) {
    return a.depth != b.depth ? a.depth > b.depth : a.score > b.score;
}

}  // namespace

size_t vote_among_threads(std::span<const ThreadLine> lines, int helper_percent, int margin) {
    // A proven win: the shortest one (the highest score), whatever the votes.
    std::optional<size_t> win;
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].depth > 0 && lines[i].score >= TbWinInMaxPly && (!win || lines[i].score > lines[*win].score))
            win = i;
    if (win) return *win;
    if (lines.empty()) return 0;

    Score worst = Infinite;
    for (const ThreadLine& line : lines)
        if (line.depth > 0) worst = std::min(worst, line.score);
    const auto vote = [&](size_t i) {
        const int64_t weight = int64_t(lines[i].score - worst + margin) * lines[i].depth;
        return i == 0 ? 100 * weight : helper_percent * weight;
    };
    // Each move's votes, summed over the lines that name it; the first line of each
    // move adds them up, so that the lines need no map (there are as many as threads).
    size_t best = 0;
    int64_t best_votes = -1;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].depth == 0) continue;
        bool counted = false;
        int64_t votes = 0;
        for (size_t j = 0; j < lines.size(); ++j) {
            if (lines[j].depth == 0 || lines[j].move != lines[i].move) continue;
            if (j < i) {
                counted = true;
                break;
            }
            votes += vote(j);
        }
        if (counted || votes <= best_votes) continue;
        best_votes = votes;
        best = i;
    }
    // The deepest line for the move chosen.
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].depth > 0 && lines[i].move == lines[best].move && deeper(lines[i], lines[best])) best = i;
    return best;
}

}  // namespace arbiter::search

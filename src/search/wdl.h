#pragma once
// Win/draw/loss chances per mille from a search score, for `UCI_ShowWDL` and the
// command-line tools: a logistic model with a draw margin. Mate and tablebase scores are certain.

#include <cmath>

#include "search/score.h"

namespace arbiter::search {

struct Wdl {
    int win = 0, draw = 0, loss = 0;  // per mille, summing to 1000

    // The same chances seen from the other side.
    constexpr Wdl flipped() const { return {loss, draw, win}; }
    // Expected score (a win 1, a draw 1/2) from 0 to 1.
    constexpr double expected_score() const { return (win + draw / 2.0) / 1000.0; }
};

// `score` is from the side to move's point of view, and so is the result.
inline Wdl wdl_of(Score score) {
    if (is_decisive(score)) return score > 0 ? Wdl{1000, 0, 0} : Wdl{0, 0, 1000};
    const double margin = 140, scale = 80;
    const int win = int(std::lround(1000 / (1 + std::exp((margin - score) / scale))));
    const int loss = int(std::lround(1000 / (1 + std::exp((margin + score) / scale))));
    return {win, 1000 - win - loss, loss};
}

} // namespace arbiter::search

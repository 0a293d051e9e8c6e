#include "search/strength.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace arbiter::search {

namespace {

struct Anchor {
    int elo;
    double nodes;
    int lines;
    double temperature;
    int max_loss;
};

// Calibrated against Stockfish 15.1 at equal UCI_Elo, 10+0.1 (src/search/README.md,
// "Strength levels", has every measurement). Increasing in Elo; the first and last
// bound the option's range. The node budgets follow the search: search batches 2 and 3
// made a node worth more (at the old budgets +158 at 1500, +143 at 2000), so af36550
// moved 1500 from 4,000 to 1,650 nodes and 2000 from 70,000 to 50,000, each set by
// matches against the old level (1320's budget scaled with 1500's). Batch 5 (65dbafd)
// was checked the same way (1500 +26 and 2000 -9 against the levels before it, both
// within their error): budgets kept. With gen4d-r3 and the check pruning of e6c8b10
// (2026-11-28) each level was measured against af36550's, the calibrated build: 1500
// -66.8 (the check pruning costs much at the level's shallow depth), 2000 +100.0, so
// e773a4f moved 1500 to 2,200 nodes (+1.7 against af36550's), 2000 to 37,000 (+22.6),
// 1320 with 1500 (440). With gen4e-r4 and the 62a3b8e search: 1500 -31.4, 2000 +22.6
// against af36550's, within their error: budgets kept. With gen4h-r7 (36176ed): 1500
// +26.1, 2000 +29.6, the same: budgets kept; directly against Stockfish (100 games
// each) 1500 -59.6, 2000 +41.9.
// 2500 is nearly full strength (a node budget that rarely binds at 10+0.1, two lines
// within 10 cp for variety): -63.2 against Stockfish's 2500 with batch 3, +52.5 with
// gen4h-r7. 2800 on is full strength: -24.4 against Stockfish's 2800 with gen4h-r7.
// Both move up with every gain at full strength: measured again after each, they get
// a node budget (2500 a lower one) once past +70.
constexpr double Unbounded = 1e12;
constexpr std::array<Anchor, 6> Anchors{{
    {1320, 440, 5, 50, 200},
    {1500, 2'200, 5, 30, 150},
    {2000, 37'000, 3, 8, 40},
    {2500, 2'000'000, 2, 2, 10},
    {2800, Unbounded, 1, 0, 0},
    {3000, Unbounded, 1, 0, 0},
}};

}  // namespace

StrengthLevel strength_level(int elo) {
    elo = std::clamp(elo, MinLimitedElo, MaxLimitedElo);
    size_t upper = 1;
    while (upper + 1 < Anchors.size() && Anchors[upper].elo < elo) ++upper;
    const Anchor& lo = Anchors[upper - 1];
    const Anchor& hi = Anchors[upper];
    const double t = double(elo - lo.elo) / double(hi.elo - lo.elo);
    StrengthLevel level;
    level.nodes = uint64_t(std::lround(std::exp(std::log(lo.nodes) + t * (std::log(hi.nodes) - std::log(lo.nodes)))));
    level.lines = int(std::lround(lo.lines + t * (hi.lines - lo.lines)));
    level.temperature = lo.temperature + t * (hi.temperature - lo.temperature);
    level.max_loss = int(std::lround(lo.max_loss + t * (hi.max_loss - lo.max_loss)));
    return level;
}

size_t choose_line(std::span<const Score> scores, const StrengthLevel& level, double uniform) {
    if (scores.size() <= 1 || level.temperature <= 0) return 0;
    constexpr Score Cap = 2000;
    const Score best = std::clamp(scores[0], -Cap, Cap);
    // Weights exp(-loss / T) of the lines within the loss bound; the best line's is 1.
    double weights[64];
    const size_t n = std::min<size_t>(scores.size(), std::size(weights));
    double total = 0;
    for (size_t i = 0; i < n; ++i) {
        const int loss = best - std::clamp(scores[i], -Cap, Cap);
        weights[i] = loss <= level.max_loss ? std::exp(-double(std::max(loss, 0)) / level.temperature) : 0.0;
        total += weights[i];
    }
    double point = uniform * total;
    for (size_t i = 0; i < n; ++i) {
        if (point < weights[i]) return i;
        point -= weights[i];
    }
    return 0;
}

}  // namespace arbiter::search

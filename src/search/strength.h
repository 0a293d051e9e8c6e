#pragma once
// Playing below full strength (UCI_LimitStrength, UCI_Elo): the way a weaker player
// is weaker, not by random blunders. A level is
//   - a search budget in nodes, so the engine sees less deep as the level falls;
//   - a choice among the best root lines (an internal MultiPV) with a probability that
//     falls exponentially with a line's loss against the best, the fall gentler for a
//     lower level (a softmax with a temperature in centipawns);
//   - a bound on that loss: no level plays a move its own search sees losing more than
//     the bound (a 2500 does not hang its queen; a 1400 sometimes hangs a pawn);
//   - a thinking time of about half the normal soft limit, so it neither answers at
//     once nor sits on the clock.
// The anchor levels are calibrated by games against Stockfish 15.1's UCI_Elo
// (src/search/README.md, "Strength levels"); levels between anchors interpolate
// (log-linear for the node budget, linear for the rest). Pure functions: tests need no
// search.

#include <cstdint>
#include <span>

#include "search/score.h"

namespace arbiter::search {

constexpr int MinLimitedElo = 1320;
constexpr int MaxLimitedElo = 3000;

struct StrengthLevel {
    uint64_t nodes = 0;        // search budget of one move
    int lines = 1;             // root lines searched to choose from
    double temperature = 0.0;  // centipawns; 0: always the best line
    int max_loss = 0;          // centipawns; lines losing more are never chosen
};

// The level for an Elo rating, clamped to [MinLimitedElo, MaxLimitedElo].
StrengthLevel strength_level(int elo);

// Picks one of `scores` (best first, as the search sorts its lines), given a uniform
// random number in [0, 1). Scores are clamped to +-20 pawns before comparing, so a
// mate is worth "a lot" rather than infinitely more; a line missing a mate the best
// line has loses that much.
size_t choose_line(std::span<const Score> scores, const StrengthLevel& level, double uniform);

}  // namespace arbiter::search

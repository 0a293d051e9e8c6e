#pragma once
// Move-ordering memory of one search thread: killer moves per ply and a quiet-move
// history indexed by side, origin and destination.

#include <array>
#include <cstdlib>
#include <cstring>

#include "chess/move.h"
#include "search/score.h"

namespace arbiter::search {

class History {
public:
    static constexpr int Max = 16384;

    void clear() {
        std::memset(&quiet_, 0, sizeof(quiet_));
        for (auto& k : killers_) k = {};
    }

    int quiet(Color c, Move m) const { return quiet_[c][m.from()][m.to()]; }

    // Gravity update: the value moves toward ±Max, more slowly the closer it is.
    void update_quiet(Color c, Move m, int bonus) {
        int16_t& h = quiet_[c][m.from()][m.to()];
        h = int16_t(h + bonus - h * std::abs(bonus) / Max);
    }

    const std::array<Move, 2>& killers(int ply) const { return killers_[ply]; }
    void add_killer(int ply, Move m) {
        if (killers_[ply][0] == m) return;
        killers_[ply][1] = killers_[ply][0];
        killers_[ply][0] = m;
    }
    void clear_killers(int ply) { killers_[ply] = {}; }

    static int bonus(int depth) { return std::min(depth * depth * 16 + 32, 1600); }

private:
    int16_t quiet_[2][64][64] = {};
    std::array<std::array<Move, 2>, MaxPly + 2> killers_{};
};

} // namespace arbiter::search

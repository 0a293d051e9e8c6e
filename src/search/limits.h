#pragma once
// What a `go` asks for, and what a search reports back.

#include <cstdint>
#include <optional>
#include <vector>

#include "chess/move.h"
#include "search/score.h"

namespace arbiter::search {

struct SearchLimits {
    std::optional<int64_t> time[2] = {};  // wtime, btime in ms
    int64_t increment[2] = {0, 0};        // winc, binc
    int moves_to_go = 0;                  // 0: sudden death
    int depth = 0;                        // 0: no limit
    uint64_t nodes = 0;                   // 0: no limit; a hard limit, checked at every node after the first iteration
    // 0: none. Data generation's soft node limit: no iteration starts once this many
    // nodes were searched (`nodes` stays the hard cap); `go` never sets it.
    uint64_t soft_nodes = 0;
    int mate = 0;          // 0: none; else mate in at most this many moves
    int64_t movetime = 0;  // 0: none
    bool infinite = false;
    bool ponder = false;
    std::vector<Move> search_moves = {};  // empty: all legal moves

    bool has_clock() const { return time[0].has_value() || time[1].has_value(); }
};

enum class BoundKind { Exact, Lower, Upper };

// One `info` line's worth of data.
struct SearchInfo {
    int depth = 0;
    int seldepth = 0;
    int multipv = 1;
    Score score = 0;
    BoundKind bound = BoundKind::Exact;
    uint64_t nodes = 0;
    int64_t time_ms = 0;
    int hashfull = 0;
    uint64_t tb_hits = 0;
    std::vector<Move> pv;
};

}  // namespace arbiter::search

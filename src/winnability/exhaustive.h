#pragma once
// The exhaustive search of the winnability decider (winnability.h): every position
// reachable from the root by legal moves, except beyond positions where the static
// proof (sketch.h) settles the question, looking for a mate.
//
// One search serves both sides at once. Each position waiting to be expanded carries
// the set of sides it is still searched for: a side leaves it where the static proof
// shows that side can never mate from there (nor, then, from anything reachable from
// there), or once the side has been decided elsewhere. A position is expanded at
// most once: when it is reached again, every side it was not searched for the first
// time is either decided or provably unable to mate from it. So a dead position
// costs one search instead of two, and each side's answer is the one a search of its
// own would give. Finishing the search with a side still open proves that side can
// never mate; a mate found on the way is a Yes.

#include <cstdint>
#include <vector>

#include "chess/move.h"
#include "chess/position.h"
#include "winnability/winnability.h"

namespace arbiter::winnability {

class PositionSet;

// A set of sides, bit c for Color c.
using Sides = uint8_t;
constexpr Sides side_bit(Color c) { return Sides(1u << c); }

class ExhaustiveSearch {
public:
    // Searches for the sides in `open`. One search per thread at a time: its set of
    // seen positions is shared by the thread's searches, so that no node allocates.
    ExhaustiveSearch(const Position& root, Sides open);

    // Continues the search for about `budget` more nodes (one per move made, plus the
    // static proofs' work). Returns early once a side is decided.
    void run(uint64_t budget);

    // Yes or No once decided by this search, Unknown while open or closed.
    Winnable result(Color c) const { return result_[c]; }
    // Stops searching for `c` (decided elsewhere).
    void close(Color c) { open_ &= Sides(~side_bit(c)); }
    // Positions waiting to be expanded.
    size_t pending() const { return pending_.size(); }

    // A position waiting to be expanded, as a move from an expanded one: 8 bytes
    // instead of the position's 176, as most of a search's positions wait (a
    // depth-first search leaves every sibling of its path behind). Public for the
    // thread's storage of the search (exhaustive.cpp).
    struct Pending {
        uint32_t parent;  // into expanded_
        Move move;
        Sides sides;
    };

private:
    // Makes the newest expanded position the parent of the next children.
    void expand();
    void decide(Color c, Winnable w);

    Sides open_;
    Winnable result_[2] = {Winnable::Unknown, Winnable::Unknown};
    PositionSet& seen_;
    // Thread-local storage of the search, reused by the next search on the thread.
    std::vector<Position>& expanded_;
    std::vector<Pending>& pending_;
    Sides parent_sides_ = 0;
    MoveList moves_;
    // The newest expanded position's check_squares(): its children are made without
    // their check information, which only a check needs.
    Position::CheckSquares checks_;
    size_t next_move_ = 0;
};

}  // namespace arbiter::winnability

#pragma once
// The full-width helpmate search of the winnability decider (winnability.h): iterative
// deepening over every legal move, ordered to steer both sides towards a mate of the
// loser, with a transposition table of positions known to have no mate within a
// number of plies. Used from the root for short mates, and by the guided playouts
// (helpmate.h) for the last few moves near their target square.
//
// True only when a mating line was found on the board; false claims nothing.

#include <cstdint>
#include <vector>

#include "chess/move.h"
#include "chess/position.h"

namespace arbiter::winnability {

// Move ordering for a helpmate of `~winner`: higher is tried first.
int helpmate_order(const Position& pos, Move m, Color winner);

// Sorts `moves` by helpmate_order(), highest first or (`best_first` false) last,
// moves of equal order keeping the generator's order among them.
void order_moves(const Position& pos, MoveList& moves, Color winner, bool best_first);

// Whether the legal move `m` of `pos` mates; `checks` is pos.check_squares(). Only a
// move that gives check is made: most moves of a node are not, and gives_check() is
// far cheaper than making one.
bool mates(const Position& pos, Move m, const Position::CheckSquares& checks);

class HelpmateSearch {
public:
    // At most `budget` nodes (one per move made) and `max_plies` plies. The table is
    // one per thread, emptied by bumping a stamp, so that a search neither allocates
    // nor clears a megabyte; a new search on the thread empties it, so only the
    // newest may still call find().
    HelpmateSearch(Color winner, uint64_t budget, int max_plies = 99);
    bool find(const Position& root);
    uint64_t nodes() const { return nodes_; }

    struct Entry {
        zobrist::Key key = 0;
        int32_t depth = 0;
        uint32_t stamp = 0;
    };
    struct Table {
        std::vector<Entry> entries;
        uint32_t stamp = 0;
    };

private:
    bool search(const Position& pos, int depth);

    Color winner_;
    uint64_t budget_;
    int max_plies_;
    uint64_t nodes_ = 0;
    bool aborted_ = false;
    Table& table_;
};

}  // namespace arbiter::winnability

#pragma once
// Repetitions as the search counts them, over the keys of the game and of the search
// path: a pure function, so that its rules can be tested without a search.

#include <cstddef>
#include <span>

#include "chess/zobrist.h"

namespace arbiter::search {

// Whether the last position of `keys` occurred before, as the search draws it.
// `keys` holds the game's positions since its last irreversible move, then the
// search path; `root` is the index of the root's key. Only keys from index
// `oldest` on can match: the position after the last irreversible move, or after
// the last null move on the path (a null move is no move of the game, so a
// position before it "coming back" after it is not a repetition: the side that
// passed could not have passed in a game).
// A repetition inside the path counts at once (twofold: the side that repeats
// could repeat again); one reaching into the game before the root needs two
// earlier occurrences (threefold, the rule).
inline bool repeats_on_path(std::span<const zobrist::Key> keys, std::size_t root, std::size_t oldest) {
    const std::size_t current = keys.size() - 1;
    int earlier = 0;
    for (std::size_t back = 4; back <= current - oldest; back += 2) {
        const std::size_t index = current - back;
        if (keys[index] != keys[current]) continue;
        if (index >= root || ++earlier == 2) return true;
    }
    return false;
}

}  // namespace arbiter::search

#pragma once
// The property the winnability tests check on random games: a side a proof wrote off
// (can never mate) never mates later in the game.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string_view>

#include "test_support.h"
#include "chess/movegen.h"
#include "chess/position.h"

namespace arbiter::test {

// Plays `games` random games of at most `max_plies` plies from `fen` (xorshift moves
// from `seed`, which moves on). Before each move `written_off(pos, ply, side)` says
// whether a proof says `side` can never mate; a game that ends in a mate by a side
// written off earlier fails the test. Returns how many sides were written off.
template <typename WrittenOff>
int random_games_never_refute(std::string_view fen, int games, int max_plies, uint64_t& seed,
                              WrittenOff&& written_off) {
    const auto random = [&seed] {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        return seed;
    };
    int refuted = 0;
    for (int game = 0; game < games; ++game) {
        Position pos = parse_fen(fen);
        bool off[2] = {false, false};
        for (int ply = 0; ply < max_plies; ++ply) {
            for (Color c : {White, Black}) {
                if (!off[c] && written_off(pos, ply, c)) {
                    off[c] = true;
                    ++refuted;
                }
            }
            const MoveList moves = legal_moves(pos);
            if (moves.size() == 0) {
                if (pos.in_check()) {
                    INFO(fen << " game " << game << " ends in mate at " << pos.fen());
                    CHECK_FALSE(off[~pos.side_to_move()]);
                }
                break;
            }
            pos = pos.apply(moves[random() % moves.size()]);
        }
    }
    return refuted;
}

}  // namespace arbiter::test

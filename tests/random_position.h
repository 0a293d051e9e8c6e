#pragma once
// Positions built square by square, for the Catch2 tests and the libFuzzer targets
// alike: nothing here uses Catch2, so a fuzzer can include it.

#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "chess/position.h"

namespace arbiter::test {

// The board field of a FEN from 64 piece letters (a1 = 0 ... h8 = 63, 0 for an
// empty square).
inline std::string board_fen(const char (&board)[64]) {
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const char c = board[rank * 8 + file];
            if (!c) {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            fen += c;
        }
        if (empty) fen += char('0' + empty);
        if (rank) fen += '/';
    }
    return fen;
}

// A random position of `material` ("KQvKR": upper case White; no pawn on the first
// or last rank), either side to move, or nullopt when the rules core could not play
// on from it (FenCheck::Playable: kings side by side, the side not to move in check,
// more than two checkers). The same `rng` state gives the same position.
inline std::optional<Position> random_position(std::string_view material, std::mt19937& rng) {
    char board[64] = {};
    bool white = true;
    for (char c : material) {
        if (c == 'v') {
            white = false;
            continue;
        }
        int s;
        do s = int(rng() % 64);
        while (board[s] || (c == 'P' && (s < 8 || s >= 56)));
        board[s] = white ? c : char(c + 32);
    }
    const std::string fen = board_fen(board) + ((rng() & 1) ? " w - - 0 1" : " b - - 0 1");
    return Position::from_fen(fen, false, FenCheck::Playable).position;
}

}  // namespace arbiter::test

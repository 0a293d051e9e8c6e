#pragma once
// Zobrist keys, generated at compile time from a fixed-seed xorshift64* sequence so
// that keys (and so `d`'s Key line and every hash-dependent result) never change
// between builds.

#include <array>
#include <cstdint>

#include "chess/types.h"

namespace arbiter::zobrist {

using Key = uint64_t;

struct Keys {
    std::array<std::array<Key, 64>, 16> piece_square{};  // indexed by Piece (0..15)
    std::array<Key, 16> castling{};                      // indexed by a CastlingRights set
    std::array<Key, 8> en_passant_file{};
    Key black_to_move = 0;
};

constexpr Keys make_keys() {
    uint64_t state = 0x41524249544552ULL;  // "ARBITER"
    auto next = [&state] {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 0x2545F4914F6CDD1DULL;
    };
    Keys k;
    for (auto& piece : k.piece_square)
        for (auto& key : piece) key = next();
    // One key per right; a set's key is the xor of its rights' keys, so updating
    // rights is one lookup of (old xor new).
    std::array<Key, 4> single{};
    for (auto& key : single) key = next();
    for (int set = 0; set < 16; ++set)
        for (int bit = 0; bit < 4; ++bit)
            if (set & (1 << bit)) k.castling[set] ^= single[bit];
    for (auto& key : k.en_passant_file) key = next();
    k.black_to_move = next();
    return k;
}

inline constexpr Keys keys = make_keys();

constexpr Key piece_square(Piece p, Square s) { return keys.piece_square[p][s]; }
constexpr Key castling(CastlingRights r) { return keys.castling[r]; }
constexpr Key en_passant(File f) { return keys.en_passant_file[f]; }
constexpr Key side() { return keys.black_to_move; }

}  // namespace arbiter::zobrist

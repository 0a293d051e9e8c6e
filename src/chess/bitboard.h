#pragma once
// 64-bit square sets: bit i is square i (a1 = bit 0, h8 = bit 63).

#include <bit>
#include <cstdint>

#include "chess/types.h"

namespace arbiter {

using Bitboard = uint64_t;

constexpr Bitboard FileABB = 0x0101010101010101ULL;
constexpr Bitboard Rank1BB = 0xFFULL;
constexpr Bitboard LightSquares = 0x55AA55AA55AA55AAULL;
constexpr Bitboard DarkSquares = ~LightSquares;

constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr Bitboard file_bb(File f) { return FileABB << f; }
constexpr Bitboard rank_bb(Rank r) { return Rank1BB << (8 * r); }
constexpr bool contains(Bitboard b, Square s) { return (b >> s) & 1; }

constexpr int popcount(Bitboard b) {
#if defined(__x86_64__) && !defined(__POPCNT__)
    // The portable x86-64 build has no POPCNT instruction, and std::popcount then
    // calls a libgcc routine; the bit-parallel count inline takes fewer instructions.
    b -= (b >> 1) & 0x5555555555555555ULL;
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return int((b * 0x0101010101010101ULL) >> 56);
#else
    return std::popcount(b);
#endif
}
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }
// Lowest set square; `b` must not be empty.
constexpr Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
constexpr Square msb(Bitboard b) { return Square(63 - std::countl_zero(b)); }
constexpr Square pop_lsb(Bitboard& b) {
    const Square s = lsb(b);
    b &= b - 1;
    return s;
}

// Shift every square one step in a direction; squares leaving the board vanish.
enum Direction : int8_t {
    North = 8,
    South = -8,
    East = 1,
    West = -1,
    NorthEast = 9,
    NorthWest = 7,
    SouthEast = -7,
    SouthWest = -9
};

template <Direction D>
constexpr Bitboard shift(Bitboard b) {
    constexpr Bitboard notA = ~FileABB, notH = ~(FileABB << 7);
    if constexpr (D == North) return b << 8;
    else if constexpr (D == South) return b >> 8;
    else if constexpr (D == East) return (b & notH) << 1;
    else if constexpr (D == West) return (b & notA) >> 1;
    else if constexpr (D == NorthEast) return (b & notH) << 9;
    else if constexpr (D == NorthWest) return (b & notA) << 7;
    else if constexpr (D == SouthEast) return (b & notH) >> 7;
    else return (b & notA) >> 9;
}

// Iterate the squares of a bitboard: `for (Square s : squares(bb))`.
struct SquareIterator {
    Bitboard bits;
    constexpr Square operator*() const { return lsb(bits); }
    constexpr SquareIterator& operator++() {
        bits &= bits - 1;
        return *this;
    }
    constexpr bool operator!=(const SquareIterator& o) const { return bits != o.bits; }
};
struct squares {
    Bitboard bits;
    constexpr explicit squares(Bitboard b) : bits(b) {}
    constexpr SquareIterator begin() const { return {bits}; }
    constexpr SquareIterator end() const { return {0}; }
};

}  // namespace arbiter

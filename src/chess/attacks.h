#pragma once
// Attack sets. Leaper tables and the between/line tables are computed at compile
// time; slider attacks are looked up in tables indexed by magic multiplication,
// or by PEXT in builds with BMI2 (ARBITER_PEXT, set by the native build option).

#include <array>
#include <cstddef>

#include "chess/bitboard.h"

#if defined(ARBITER_PEXT)
#include <immintrin.h>
#endif

namespace arbiter {

namespace detail {

// Walks from `s` in (df, dr) steps until the edge or the first occupied square, inclusive.
constexpr Bitboard ray_attacks(Square s, int df, int dr, Bitboard occupied) {
    Bitboard result = 0;
    int f = file_of(s) + df, r = rank_of(s) + dr;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
        const Square t = make_square(File(f), Rank(r));
        result |= square_bb(t);
        if (contains(occupied, t)) break;
        f += df;
        r += dr;
    }
    return result;
}

constexpr Bitboard slow_rook_attacks(Square s, Bitboard occupied) {
    return ray_attacks(s, 1, 0, occupied) | ray_attacks(s, -1, 0, occupied) | ray_attacks(s, 0, 1, occupied) |
           ray_attacks(s, 0, -1, occupied);
}
constexpr Bitboard slow_bishop_attacks(Square s, Bitboard occupied) {
    return ray_attacks(s, 1, 1, occupied) | ray_attacks(s, 1, -1, occupied) | ray_attacks(s, -1, 1, occupied) |
           ray_attacks(s, -1, -1, occupied);
}

constexpr Bitboard leaper_attacks(Square s, const int (&steps)[8][2]) {
    Bitboard result = 0;
    for (const auto& step : steps) {
        const int f = file_of(s) + step[0], r = rank_of(s) + step[1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8) result |= square_bb(make_square(File(f), Rank(r)));
    }
    return result;
}

constexpr int KnightSteps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int KingSteps[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

template <typename F>
constexpr std::array<Bitboard, 64> per_square(F f) {
    std::array<Bitboard, 64> table{};
    for (int s = 0; s < 64; ++s) table[s] = f(Square(s));
    return table;
}

constexpr auto KnightTable = per_square([](Square s) { return leaper_attacks(s, KnightSteps); });
constexpr auto KingTable = per_square([](Square s) { return leaper_attacks(s, KingSteps); });
constexpr std::array<std::array<Bitboard, 64>, 2> PawnTable = {
    per_square([](Square s) { return shift<NorthEast>(square_bb(s)) | shift<NorthWest>(square_bb(s)); }),
    per_square([](Square s) { return shift<SouthEast>(square_bb(s)) | shift<SouthWest>(square_bb(s)); }),
};

using SquarePairTable = std::array<std::array<Bitboard, 64>, 64>;

// between[a][b]: squares strictly between two aligned squares (0 if not aligned).
// line[a][b]: the whole line through two aligned squares, both included (0 if not aligned).
constexpr SquarePairTable make_pair_table(bool whole_line) {
    SquarePairTable table{};
    for (int a = 0; a < 64; ++a) {
        for (int b = 0; b < 64; ++b) {
            if (a == b) continue;
            const Square sa = Square(a), sb = Square(b);
            for (auto slow : {slow_rook_attacks, slow_bishop_attacks}) {
                if (!contains(slow(sa, 0), sb)) continue;
                table[a][b] = whole_line ? (slow(sa, 0) & slow(sb, 0)) | square_bb(sa) | square_bb(sb)
                                         : slow(sa, square_bb(sb)) & slow(sb, square_bb(sa));
            }
        }
    }
    return table;
}
constexpr SquarePairTable BetweenTable = make_pair_table(false);
constexpr SquarePairTable LineTable = make_pair_table(true);

// One square's slider lookup: `mask` holds the relevant occupancy (board edges
// excluded), `attacks` points at the square's block in the shared attack array.
struct SliderEntry {
    Bitboard mask;
    uint64_t magic;
    const Bitboard* attacks;
    unsigned shift;

    size_t index(Bitboard occupied) const {
#if defined(ARBITER_PEXT)
        return _pext_u64(occupied, mask);
#else
        return ((occupied & mask) * magic) >> shift;
#endif
    }
    Bitboard lookup(Bitboard occupied) const { return attacks[index(occupied)]; }
};

// Filled by attacks.cpp's dynamic initialiser. No other static initialiser may use
// slider attacks (everything else of the rules core is constexpr, so none does).
extern const std::array<SliderEntry, 64> RookEntries;
extern const std::array<SliderEntry, 64> BishopEntries;

}  // namespace detail

constexpr Bitboard knight_attacks(Square s) { return detail::KnightTable[s]; }
constexpr Bitboard king_attacks(Square s) { return detail::KingTable[s]; }
constexpr Bitboard pawn_attacks(Color c, Square s) { return detail::PawnTable[c][s]; }

template <Color C>
constexpr Bitboard pawn_attacks_bb(Bitboard pawns) {
    if constexpr (C == White) return shift<NorthEast>(pawns) | shift<NorthWest>(pawns);
    else return shift<SouthEast>(pawns) | shift<SouthWest>(pawns);
}
constexpr Bitboard pawn_attacks_bb(Color c, Bitboard pawns) {
    return c == White ? pawn_attacks_bb<White>(pawns) : pawn_attacks_bb<Black>(pawns);
}

inline Bitboard rook_attacks(Square s, Bitboard occupied) { return detail::RookEntries[s].lookup(occupied); }
inline Bitboard bishop_attacks(Square s, Bitboard occupied) { return detail::BishopEntries[s].lookup(occupied); }
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
    return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}

// Attacks of a non-pawn piece type from `s` given an occupancy.
inline Bitboard piece_attacks(PieceType t, Square s, Bitboard occupied) {
    switch (t) {
    case Knight: return knight_attacks(s);
    case Bishop: return bishop_attacks(s, occupied);
    case Rook: return rook_attacks(s, occupied);
    case Queen: return queen_attacks(s, occupied);
    case King: return king_attacks(s);
    default: return 0;
    }
}

constexpr Bitboard between(Square a, Square b) { return detail::BetweenTable[a][b]; }
constexpr Bitboard line_through(Square a, Square b) { return detail::LineTable[a][b]; }
constexpr bool aligned(Square a, Square b, Square c) { return contains(line_through(a, b), c); }

}  // namespace arbiter

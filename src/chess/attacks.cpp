#include "chess/attacks.h"

#include <cstdio>
#include <cstdlib>

#include "chess/magics.h"

namespace arbiter::detail {

namespace {

constexpr size_t RookTableSize = 102400;  // sum over squares of 2^popcount(mask)
constexpr size_t BishopTableSize = 5248;

std::array<Bitboard, RookTableSize> rook_table;
std::array<Bitboard, BishopTableSize> bishop_table;

Bitboard relevant_mask(Square s, bool rook) {
    const Bitboard edges = ((rank_bb(Rank1) | rank_bb(Rank8)) & ~rank_bb(rank_of(s))) |
                           ((file_bb(FileA) | file_bb(FileH)) & ~file_bb(file_of(s)));
    return (rook ? slow_rook_attacks(s, 0) : slow_bishop_attacks(s, 0)) & ~edges;
}

// Fills every square's block by enumerating all subsets of its mask (carry-rippler).
// A magic that sends two occupancies with different attack sets to one slot would
// be a silent rules bug, so the program stops instead of starting with it.
std::array<SliderEntry, 64> build(bool rook, Bitboard* table, size_t table_size,
                                  const std::array<uint64_t, 64>& magics) {
    std::array<SliderEntry, 64> entries{};
    size_t offset = 0;
    for (int i = 0; i < 64; ++i) {
        const Square s = Square(i);
        SliderEntry& e = entries[i];
        e.mask = relevant_mask(s, rook);
        e.magic = magics[i];
        e.shift = unsigned(64 - popcount(e.mask));
        e.attacks = table + offset;
        const size_t block = size_t(1) << popcount(e.mask);
        Bitboard subset = 0;
        do {
            const Bitboard attacks = rook ? slow_rook_attacks(s, subset) : slow_bishop_attacks(s, subset);
            Bitboard& slot = table[offset + e.index(subset)];
            if (slot != 0 && slot != attacks) {
                std::fprintf(stderr, "arbiter: bad slider magic for square %d\n", i);
                std::abort();
            }
            slot = attacks;
            subset = (subset - e.mask) & e.mask;
        } while (subset);
        offset += block;
    }
    if (offset != table_size) std::abort();
    return entries;
}

}  // namespace

const std::array<SliderEntry, 64> RookEntries = build(true, rook_table.data(), RookTableSize, magic::RookMagics);
const std::array<SliderEntry, 64> BishopEntries =
    build(false, bishop_table.data(), BishopTableSize, magic::BishopMagics);

}  // namespace arbiter::detail

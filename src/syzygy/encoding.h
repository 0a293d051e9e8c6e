#pragma once
// The constant tables of the Syzygy index scheme, computed at compile time.
//
// A table position is turned into an index in groups of pieces. The leading group
// (the kings and, when the table has at least three unique pieces, one more; or the
// leading pawns) is reduced by the board's symmetries first:
// - without pawns, the first piece is brought into the a1-d1-d4 triangle (10
//   squares) by file, rank and diagonal flips; two kings then have 462 placements,
//   three unique pieces 31332;
// - with pawns, only the file flip applies: the leading pawn lies on files a-d, and
//   each file has its own sub-table.
// Every further group of k like pieces is a k-subset of the squares left, counted
// with binomial coefficients.

#include <array>
#include <cstdint>

namespace arbiter::syzygy {

constexpr int MaxPieces = 7;

// Rank minus file: negative below the a1-h8 diagonal, zero on it, positive above.
constexpr int diagonal_offset(int square) { return (square >> 3) - (square & 7); }

struct EncodingTables {
    // binomial[k][n]: the number of ways to choose k of n squares.
    std::array<std::array<uint64_t, 64>, MaxPieces> binomial{};
    // Squares below the a1-h8 diagonal -> 0..27.
    std::array<int, 64> below_diagonal{};
    // The a1-d1-d4 triangle -> 0..9: the six squares off the diagonal first.
    std::array<int, 64> triangle{};
    // Two kings, the first in the triangle (by its triangle code), the second
    // anywhere it may stand -> 0..461.
    std::array<std::array<int, 64>, 10> king_pair{};
    // Pawn squares a2..h7 -> 0..47, highest nearest the a/h edges and lowest rank:
    // the pawn with the highest value leads.
    std::array<int, 64> pawn_rank{};
    // Index of the lowest-order leading-pawn set, by count of leading pawns and the
    // square of the leading one; and the size of each file's sub-table.
    std::array<std::array<int, 64>, 6> lead_pawn_index{};
    std::array<std::array<int, 4>, 6> lead_pawns_size{};
};

constexpr EncodingTables make_encoding_tables() {
    EncodingTables t;
    for (int n = 0; n < 64; ++n)
        for (int k = 0; k < MaxPieces; ++k)
            t.binomial[k][n] = k == 0 ? 1 : n == 0 ? 0 : t.binomial[k - 1][n - 1] + t.binomial[k][n - 1];

    int code = 0;
    for (int s = 0; s < 64; ++s)
        if (diagonal_offset(s) < 0) t.below_diagonal[s] = code++;

    code = 0;
    for (int s = 0; s < 64; ++s)
        if ((s & 7) <= 3 && (s >> 3) <= 3 && diagonal_offset(s) < 0) t.triangle[s] = code++;
    for (int s = 0; s < 64; ++s)
        if ((s & 7) <= 3 && diagonal_offset(s) == 0) t.triangle[s] = code++;

    for (auto& row : t.king_pair)
        for (int& v : row) v = -1;
    const auto adjacent_or_same = [](int a, int b) {
        const int df = (a & 7) - (b & 7), dr = (a >> 3) - (b >> 3);
        return df >= -1 && df <= 1 && dr >= -1 && dr <= 1;
    };
    // Pairs with both kings on the diagonal are numbered after all others.
    std::array<int, 64 * 10> diagonal_first{};
    std::array<int, 64 * 10> diagonal_second{};
    int both_on_diagonal = 0;
    code = 0;
    for (int first_code = 0; first_code < 10; ++first_code)
        for (int s1 = 0; s1 < 64; ++s1) {
            if ((s1 & 7) > 3 || (s1 >> 3) > 3 || diagonal_offset(s1) > 0 || t.triangle[s1] != first_code) continue;
            for (int s2 = 0; s2 < 64; ++s2) {
                if (adjacent_or_same(s1, s2)) continue;
                if (diagonal_offset(s1) == 0 && diagonal_offset(s2) > 0) continue;
                if (diagonal_offset(s1) == 0 && diagonal_offset(s2) == 0) {
                    diagonal_first[both_on_diagonal] = first_code;
                    diagonal_second[both_on_diagonal++] = s2;
                } else {
                    t.king_pair[first_code][s2] = code++;
                }
            }
        }
    for (int i = 0; i < both_on_diagonal; ++i) t.king_pair[diagonal_first[i]][diagonal_second[i]] = code++;

    int available = 47;
    for (int file = 0; file < 4; ++file)
        for (int rank = 1; rank <= 6; ++rank) {
            t.pawn_rank[rank * 8 + file] = available--;
            t.pawn_rank[rank * 8 + (7 - file)] = available--;
        }
    for (int count = 1; count <= 5; ++count)
        for (int file = 0; file < 4; ++file) {
            int index = 0;
            for (int rank = 1; rank <= 6; ++rank) {
                const int s = rank * 8 + file;
                t.lead_pawn_index[count][s] = index;
                index += int(t.binomial[count - 1][t.pawn_rank[s]]);
            }
            t.lead_pawns_size[count][file] = index;
        }
    return t;
}

inline constexpr EncodingTables Encoding = make_encoding_tables();

constexpr int max_king_pair_code() {
    int top = -1;
    for (const auto& row : Encoding.king_pair)
        for (int v : row) top = v > top ? v : top;
    return top;
}
static_assert(max_king_pair_code() == 461, "two kings have 462 placements up to symmetry");
static_assert(Encoding.lead_pawns_size[1][0] == 6, "one leading pawn: six ranks of its file");
static_assert(Encoding.binomial[2][5] == 10);

} // namespace arbiter::syzygy

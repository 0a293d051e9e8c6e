#pragma once
// The numbering of squares and square sets that the Syzygy index is built from,
// computed at compile time. The numbers are the file format's: a table is only
// readable with exactly these.
//
// A position's index is a mixed-radix number with one digit per group of pieces
// (Table::IndexLayout in table.h says which group has which weight). The first
// group, the leading one, absorbs the board's symmetries:
// - without pawns, its first piece is brought into the a1-d1-d4 triangle by file,
//   rank and diagonal flips; the group is two kings (462 placements) or two kings
//   and a unique piece (31332);
// - with pawns, the group is the pawns of one colour and only the file flip
//   applies: the leading pawn lies on files a-d, and each of those files has a
//   sub-table of its own.
// Every other group of k like pieces is a k-subset of the squares still free,
// numbered by the combinatorial number system (a sum of binomials).

#include <array>
#include <cstdint>

namespace arbiter::syzygy {

constexpr int MaxPieces = 7;

constexpr int file_of_square(int s) { return s & 7; }
constexpr int rank_of_square(int s) { return s >> 3; }
// Negative below the a1-h8 diagonal, zero on it, positive above it.
constexpr int above_diagonal(int s) { return rank_of_square(s) - file_of_square(s); }
constexpr bool in_corner_quarter(int s) { return file_of_square(s) <= 3 && rank_of_square(s) <= 3; }
// Files a-h as 0 1 2 3 3 2 1 0: how far from the nearer side edge.
constexpr int edge_file(int s) { return file_of_square(s) <= 3 ? file_of_square(s) : 7 - file_of_square(s); }

struct IndexTables {
    // choose[k][n]: the number of k-subsets of n things.
    std::array<std::array<uint64_t, 64>, MaxPieces> choose{};
    // The 28 squares under the a1-h8 diagonal, numbered in square order.
    std::array<int, 64> under_diagonal{};
    // The ten squares of the a1-d1-d4 triangle: the six off the diagonal in square
    // order (0-5), then a1 b2 c3 d4 (6-9).
    std::array<int, 64> triangle{};
    // Two kings: [triangle number of the first][square of the second] -> 0..461,
    // or -1 where the placement is impossible or not the canonical one.
    std::array<std::array<int, 64>, 10> kings{};
    // Pawn squares a2-h7 ranked 47 (a2) down to 0: files nearest the side edges
    // first, lower ranks first within a file, the a-side square before its
    // mirror. The pawn of highest rank here leads (and picks the sub-table).
    std::array<int, 64> pawn_order{};
    // With k leading pawns (1-5) and the leader on square s of files a-d:
    // the index of the first set with that leader, and per file the number of sets.
    std::array<std::array<int, 64>, 6> leader_offset{};
    std::array<std::array<int, 4>, 6> leader_sets{};
};

constexpr IndexTables make_index_tables() {
    IndexTables t;
    for (int n = 0; n < 64; ++n) {
        t.choose[0][n] = 1;
        for (int k = 1; k < MaxPieces; ++k) t.choose[k][n] = n == 0 ? 0 : t.choose[k - 1][n - 1] + t.choose[k][n - 1];
    }

    int next = 0;
    for (int s = 0; s < 64; ++s)
        if (above_diagonal(s) < 0) t.under_diagonal[s] = next++;

    int off_diagonal = 0, on_diagonal = 6;
    for (int s = 0; s < 64; ++s) {
        if (!in_corner_quarter(s) || above_diagonal(s) > 0) continue;
        t.triangle[s] = above_diagonal(s) < 0 ? off_diagonal++ : on_diagonal++;
    }

    // Two kings, the first in the triangle: every placement with the kings apart,
    // except that a first king on the diagonal leaves the second on or under it
    // (the diagonal flip takes care of the rest). Placements with both kings on
    // the diagonal get the last numbers.
    for (auto& row : t.kings) row.fill(-1);
    const auto touching = [](int a, int b) {
        const int files = file_of_square(a) - file_of_square(b), ranks = rank_of_square(a) - rank_of_square(b);
        return files >= -1 && files <= 1 && ranks >= -1 && ranks <= 1;
    };
    next = 0;
    for (const bool diagonal_pass : {false, true})
        for (int first = 0; first < 10; ++first)
            for (int a = 0; a < 64; ++a) {
                if (!in_corner_quarter(a) || above_diagonal(a) > 0 || t.triangle[a] != first) continue;
                for (int b = 0; b < 64; ++b) {
                    if (touching(a, b) || (above_diagonal(a) == 0 && above_diagonal(b) > 0)) continue;
                    if ((above_diagonal(a) == 0 && above_diagonal(b) == 0) == diagonal_pass) t.kings[first][b] = next++;
                }
            }

    for (int s = 8; s < 56; ++s)
        t.pawn_order[s] = 47 - (12 * edge_file(s) + 2 * (rank_of_square(s) - 1) + (file_of_square(s) > 3 ? 1 : 0));

    // Sets of k leading pawns: the leader, then any k-1 pawns ranked below it.
    for (int k = 1; k <= 5; ++k)
        for (int file = 0; file < 4; ++file) {
            int sets = 0;
            for (int s = 8 + file; s < 56; s += 8) {
                t.leader_offset[k][s] = sets;
                sets += int(t.choose[k - 1][t.pawn_order[s]]);
            }
            t.leader_sets[k][file] = sets;
        }
    return t;
}

inline constexpr IndexTables Tables = make_index_tables();

// Two kings and a unique piece, the first king in the triangle. Pieces on the
// a1-h8 diagonal have fewer mirror images, so the placements are numbered in four
// sections by how many of the three, from the first, lie on the diagonal before
// one lies off it. In each section every piece has a digit: its number among the
// squares it can still take (see leading_trio_index in table_index.cpp).
struct TrioSections {
    std::array<std::array<int, 3>, 4> radix{};
    std::array<int, 5> offset{};
};

constexpr TrioSections make_trio_sections() {
    TrioSections t;
    for (int on_diagonal = 0; on_diagonal < 4; ++on_diagonal) {
        int size = 1;
        for (int piece = 0; piece < 3; ++piece) {
            int radix;
            if (piece == 0) radix = on_diagonal == 0 ? 6 : 4;  // the triangle off or on its diagonal
            else if (piece < on_diagonal) radix = 8 - piece;   // the diagonal, less the pieces on it
            else if (piece == on_diagonal) radix = 28;         // under the diagonal
            else radix = 64 - piece;                           // any square not taken
            t.radix[on_diagonal][piece] = radix;
            size *= radix;
        }
        t.offset[on_diagonal + 1] = t.offset[on_diagonal] + size;
    }
    return t;
}

inline constexpr TrioSections Trio = make_trio_sections();

constexpr int highest_king_code() {
    int top = -1;
    for (const auto& row : Tables.kings)
        for (int v : row) top = v > top ? v : top;
    return top;
}
static_assert(highest_king_code() == 461, "two kings have 462 placements up to symmetry");
static_assert(Trio.offset[4] == 31332, "two kings and a unique piece have 31332");
static_assert(Tables.leader_sets[1][0] == 6, "one leading pawn: six ranks of its file");
static_assert(Tables.pawn_order[8] == 47 && Tables.pawn_order[15] == 46 && Tables.pawn_order[16] == 45);
static_assert(Tables.choose[2][5] == 10);

}  // namespace arbiter::syzygy

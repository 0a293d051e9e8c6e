// Attack tables against an independent ray walk (sliders, every square, many seeded
// random occupancies) and against hand-checked squares (leapers, between, line); the
// bit count of square sets.

#include <catch2/catch.hpp>

#include <cstdint>
#include <initializer_list>
#include <random>
#include <string>

#include "chess/attacks.h"
#include "chess/notation.h"

using namespace arbiter;

namespace {

Bitboard bb(std::initializer_list<Square> list) {
    Bitboard result = 0;
    for (Square s : list) result |= square_bb(s);
    return result;
}

// The squares a slider on `s` reaches in one direction: walk until the edge, keeping
// the first occupied square (a capture or a defended piece) and stopping there.
// Written with file/rank integers, not with the shifts and tables under test.
Bitboard walk(Square s, int df, int dr, Bitboard occupied) {
    Bitboard result = 0;
    for (int f = file_of(s) + df, r = rank_of(s) + dr; f >= 0 && f <= 7 && r >= 0 && r <= 7; f += df, r += dr) {
        const int index = r * 8 + f;
        result |= Bitboard(1) << index;
        if ((occupied >> index) & 1) break;
    }
    return result;
}

Bitboard walk_rook(Square s, Bitboard occupied) {
    return walk(s, 1, 0, occupied) | walk(s, -1, 0, occupied) | walk(s, 0, 1, occupied) | walk(s, 0, -1, occupied);
}

Bitboard walk_bishop(Square s, Bitboard occupied) {
    return walk(s, 1, 1, occupied) | walk(s, 1, -1, occupied) | walk(s, -1, 1, occupied) | walk(s, -1, -1, occupied);
}

// Occupancies of every density: sparse boards (an AND of several random words) hit the
// long rays, dense ones the short; the slider's own square is set or not at random,
// since lookups must ignore it.
Bitboard random_occupancy(std::mt19937_64& rng) {
    Bitboard occupied = rng();
    const int thinning = int(rng() % 4);
    for (int i = 0; i < thinning; ++i) occupied &= rng();
    return occupied;
}

std::string name(Square s) { return square_name(s); }

}  // namespace

TEST_CASE("slider attacks equal a ray walk for every square and many occupancies", "[attacks]") {
    std::mt19937_64 rng(20240611);
    constexpr int OccupanciesPerSquare = 4000;
    for (int index = 0; index < 64; ++index) {
        const Square s = square_at(index);
        INFO("square " << name(s));
        // The empty and the full board first: the longest and the shortest rays.
        for (Bitboard occupied : {Bitboard(0), ~Bitboard(0), square_bb(s)}) {
            INFO("occupancy " << occupied);
            CHECK(rook_attacks(s, occupied) == walk_rook(s, occupied));
            CHECK(bishop_attacks(s, occupied) == walk_bishop(s, occupied));
        }
        int mismatches = 0;
        for (int i = 0; i < OccupanciesPerSquare && mismatches < 5; ++i) {
            const Bitboard occupied = random_occupancy(rng);
            const Bitboard rook = walk_rook(s, occupied), bishop = walk_bishop(s, occupied);
            if (rook_attacks(s, occupied) == rook && bishop_attacks(s, occupied) == bishop &&
                queen_attacks(s, occupied) == (rook | bishop))
                continue;
            ++mismatches;  // report a few, not thousands
            INFO("occupancy " << occupied);
            CHECK(rook_attacks(s, occupied) == rook);
            CHECK(bishop_attacks(s, occupied) == bishop);
            CHECK(queen_attacks(s, occupied) == (rook | bishop));
        }
        CHECK(mismatches == 0);
    }
}

TEST_CASE("slider attacks on hand-checked boards", "[attacks]") {
    CHECK(rook_attacks(A1, 0) == ((file_bb(FileA) | rank_bb(Rank1)) & ~square_bb(A1)));
    CHECK(popcount(rook_attacks(D4, 0)) == 14);
    CHECK(popcount(bishop_attacks(D4, 0)) == 13);
    CHECK(popcount(bishop_attacks(A1, 0)) == 7);
    CHECK(popcount(queen_attacks(E4, 0)) == 27);
    // Rook d4 with blockers d6, f4, d2 and b4: the blockers are included, nothing beyond.
    CHECK(rook_attacks(D4, bb({D6, F4, D2, B4, D8, H4})) == bb({D5, D6, E4, F4, D3, D2, C4, B4}));
    // Bishop c1 behind pawns on b2 and d2: e3 is hidden.
    CHECK(bishop_attacks(C1, bb({B2, E3, D2})) == bb({B2, D2}));
    // Other pieces beyond the first blocker do not matter.
    CHECK(bishop_attacks(A1, bb({C3})) == bishop_attacks(A1, bb({C3, E5, H8})));
}

TEST_CASE("leaper tables on hand-checked squares", "[attacks]") {
    CHECK(knight_attacks(A1) == bb({B3, C2}));
    CHECK(knight_attacks(H8) == bb({G6, F7}));
    CHECK(knight_attacks(B1) == bb({A3, C3, D2}));
    CHECK(knight_attacks(E4) == bb({D6, F6, G5, G3, F2, D2, C3, C5}));
    CHECK(knight_attacks(G7) == bb({E8, E6, F5, H5}));

    CHECK(king_attacks(A1) == bb({A2, B1, B2}));
    CHECK(king_attacks(H8) == bb({G8, G7, H7}));
    CHECK(king_attacks(E1) == bb({D1, F1, D2, E2, F2}));
    CHECK(king_attacks(D5) == bb({C4, D4, E4, C5, E5, C6, D6, E6}));

    CHECK(pawn_attacks(White, E2) == bb({D3, F3}));
    CHECK(pawn_attacks(White, A2) == bb({B3}));
    CHECK(pawn_attacks(White, H7) == bb({G8}));
    CHECK(pawn_attacks(White, C8) == 0);
    CHECK(pawn_attacks(Black, E7) == bb({D6, F6}));
    CHECK(pawn_attacks(Black, A7) == bb({B6}));
    CHECK(pawn_attacks(Black, H2) == bb({G1}));
    CHECK(pawn_attacks(Black, C1) == 0);

    CHECK(pawn_attacks_bb(White, bb({A2, E4})) == bb({B3, D5, F5}));
    CHECK(pawn_attacks_bb(Black, bb({H7, E4})) == bb({G6, D3, F3}));

    // Totals over the board: 336 knight and 420 king moves from the 64 squares.
    int knights = 0, kings = 0, pawns = 0;
    for (int i = 0; i < 64; ++i) {
        knights += popcount(knight_attacks(square_at(i)));
        kings += popcount(king_attacks(square_at(i)));
        pawns += popcount(pawn_attacks(White, square_at(i))) + popcount(pawn_attacks(Black, square_at(i)));
    }
    CHECK(knights == 336);
    CHECK(kings == 420);
    CHECK(pawns == 2 * (7 * 14));  // 14 attacks per rank but the last, for each colour
}

TEST_CASE("piece_attacks dispatches on the piece type", "[attacks]") {
    const Bitboard occupied = bb({D6, F4, B2});
    CHECK(piece_attacks(Knight, D4, occupied) == knight_attacks(D4));
    CHECK(piece_attacks(Bishop, D4, occupied) == bishop_attacks(D4, occupied));
    CHECK(piece_attacks(Rook, D4, occupied) == rook_attacks(D4, occupied));
    CHECK(piece_attacks(Queen, D4, occupied) == queen_attacks(D4, occupied));
    CHECK(piece_attacks(King, D4, occupied) == king_attacks(D4));
}

TEST_CASE("between and line_through", "[attacks]") {
    SECTION("aligned squares") {
        CHECK(between(A1, H8) == bb({B2, C3, D4, E5, F6, G7}));
        CHECK(between(H8, A1) == between(A1, H8));
        CHECK(between(A1, A8) == bb({A2, A3, A4, A5, A6, A7}));
        CHECK(between(B1, G1) == bb({C1, D1, E1, F1}));
        CHECK(between(H1, A8) == bb({G2, F3, E4, D5, C6, B7}));
        CHECK(between(E1, C3) == bb({D2}));

        CHECK(line_through(A1, C3) == bb({A1, B2, C3, D4, E5, F6, G7, H8}));
        CHECK(line_through(D1, H5) == bb({D1, E2, F3, G4, H5}));
        CHECK(line_through(E4, E7) == file_bb(FileE));
        CHECK(line_through(B3, G3) == rank_bb(Rank3));
        CHECK(line_through(C3, A1) == line_through(A1, C3));
    }
    SECTION("adjacent squares") {
        CHECK(between(E4, E5) == 0);
        CHECK(between(E4, F5) == 0);
        CHECK(between(A1, B1) == 0);
        CHECK(line_through(E4, E5) == file_bb(FileE));
        CHECK(line_through(E4, F5) == bb({B1, C2, D3, E4, F5, G6, H7}));
        CHECK(line_through(A1, B1) == rank_bb(Rank1));
    }
    SECTION("squares not on one line") {
        CHECK(between(A1, B3) == 0);
        CHECK(between(E4, F6) == 0);
        CHECK(between(A1, H7) == 0);
        CHECK(line_through(A1, B3) == 0);
        CHECK(line_through(E4, F6) == 0);
        CHECK(line_through(A1, H7) == 0);
        CHECK_FALSE(aligned(A1, B3, C5));
    }
    SECTION("the same square") {
        CHECK(between(D4, D4) == 0);
        CHECK(line_through(D4, D4) == 0);
    }
    SECTION("aligned() asks whether a third square is on the line") {
        CHECK(aligned(E1, E4, E8));
        CHECK(aligned(A1, C3, H8));
        CHECK(aligned(E1, C3, A5));
        CHECK_FALSE(aligned(E1, E4, D5));
        CHECK_FALSE(aligned(A1, C3, B1));
    }
}

TEST_CASE("between and line_through agree with a ray walk for every pair", "[attacks]") {
    for (int a = 0; a < 64; ++a) {
        for (int b = 0; b < 64; ++b) {
            const Square sa = square_at(a), sb = square_at(b);
            const int df = file_of(sb) - file_of(sa), dr = rank_of(sb) - rank_of(sa);
            const bool is_line = a != b && (df == 0 || dr == 0 || df == dr || df == -dr);
            Bitboard expected_between = 0, expected_line = 0;
            if (is_line) {
                const int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
                // From a towards b, stopping before b; the line is both full rays plus a.
                expected_between = walk(sa, sf, sr, square_bb(sb)) & ~square_bb(sb);
                expected_line = walk(sa, sf, sr, 0) | walk(sa, -sf, -sr, 0) | square_bb(sa);
            }
            if (between(sa, sb) == expected_between && line_through(sa, sb) == expected_line) continue;
            INFO(name(sa) << ' ' << name(sb));
            CHECK(between(sa, sb) == expected_between);
            CHECK(line_through(sa, sb) == expected_line);
        }
    }
}

TEST_CASE("popcount counts the set bits of any square set", "[attacks]") {
    // The portable build counts with shifts and masks instead of the CPU's instruction.
    const auto count_one_by_one = [](Bitboard b) {
        int n = 0;
        for (int i = 0; i < 64; ++i) n += int((b >> i) & 1);
        return n;
    };
    static_assert(popcount(0) == 0 && popcount(~Bitboard(0)) == 64);
    for (int i = 0; i < 64; ++i) {
        CHECK(popcount(square_bb(Square(i))) == 1);
        CHECK(popcount(~square_bb(Square(i))) == 63);
    }
    std::mt19937_64 rng(64);
    for (int i = 0; i < 10000; ++i) {
        // Sparse, dense and uniform sets alike.
        const Bitboard b = i % 3 == 0 ? rng() & rng() & rng() : i % 3 == 1 ? rng() | rng() | rng() : rng();
        REQUIRE(popcount(b) == count_one_by_one(b));
    }
}

// The 960 Chess960 starting positions by number.

#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "test_support.h"
#include "chess/chess960.h"

using namespace arbiter;

TEST_CASE("Chess960 number 518 is the standard start", "[chess960]") {
    CHECK(chess960_start_fen(518) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
}

TEST_CASE("Chess960 numbers give the published arrangements", "[chess960]") {
    // Number 0 is BBQNNRKR and 959 is RKRNNQBB in Scharnagl's table.
    CHECK(chess960_start_fen(0).substr(0, 8) == "bbqnnrkr");
    CHECK(chess960_start_fen(959).substr(0, 8) == "rkrnnqbb");
}

TEST_CASE("The 960 starts are distinct, legal and obey the Chess960 rules", "[chess960]") {
    std::set<std::string> seen;
    for (int n = 0; n < 960; ++n) {
        const std::string fen = chess960_start_fen(n);
        INFO("number " << n << ": " << fen);
        const Position pos = test::parse_fen(fen, true);
        CHECK(seen.insert(fen.substr(0, 8)).second);
        // Bishops on opposite colours, king between the rooks, Black mirroring White.
        const Bitboard bishops = pos.pieces(White, Bishop);
        REQUIRE(popcount(bishops) == 2);
        const Square b1 = lsb(bishops), b2 = Square(63 - std::countl_zero(bishops));
        CHECK((b1 + b2) % 2 == 1);
        CHECK(pos.castling_rook(White, QueenSide) < pos.king_square(White));
        CHECK(pos.king_square(White) < pos.castling_rook(White, KingSide));
        for (int file = 0; file < 8; ++file) {
            const Piece white = pos.piece_on(Square(file)), black = pos.piece_on(Square(56 + file));
            CHECK(color_of(white) == White);
            CHECK(black == make_piece(Black, type_of(white)));
        }
        CHECK(pos.castling_rights() == AllCastling);
    }
    CHECK(seen.size() == 960);
}

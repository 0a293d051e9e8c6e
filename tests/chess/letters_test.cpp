// The piece letters (chess/types.h) and the one writer of a FEN piece placement
// (fen_placement), shared by FEN, SAN, UCI, the tools and the winnability decider.

#include <catch2/catch.hpp>

#include <array>
#include <string>

#include "test_support.h"
#include "chess/position.h"
#include "chess/types.h"

using namespace arbiter;

TEST_CASE("piece letters: upper case for a type and White, lower case for Black", "[letters]") {
    CHECK(piece_letter(Pawn) == 'P');
    CHECK(piece_letter(Knight) == 'N');
    CHECK(piece_letter(King) == 'K');
    CHECK(piece_letter(WQueen) == 'Q');
    CHECK(piece_letter(BQueen) == 'q');
    CHECK(piece_letter(BBishop) == 'b');
    for (Color c : {White, Black}) {
        for (PieceType t : {Pawn, Knight, Bishop, Rook, Queen, King}) {
            const Piece p = make_piece(c, t);
            CHECK(piece_from_letter(piece_letter(p)) == p);
            CHECK(piece_type_from_letter(piece_letter(t)) == t);
        }
    }
}

TEST_CASE("a character that is no piece letter reads as none", "[letters]") {
    for (char c : {'x', 'X', 'a', 'h', '1', '8', '/', ' ', '\0', '\x80'}) {
        INFO(int(c));
        CHECK(piece_from_letter(c) == NoPiece);
    }
    // A type is named in upper case only (in SAN 'b' is a file, not a bishop).
    CHECK(piece_type_from_letter('b') == NoPieceType);
    CHECK(piece_type_from_letter('B') == Bishop);
}

TEST_CASE("fen_placement writes ranks 8 to 1, files a to h, empty runs as digits", "[letters]") {
    std::array<Piece, 64> board;
    board.fill(NoPiece);
    CHECK(fen_placement(board) == "8/8/8/8/8/8/8/8");
    board[A1] = WRook;
    board[H8] = BKing;
    board[D4] = WPawn;
    board[E4] = BPawn;
    CHECK(fen_placement(board) == "7k/8/8/8/3Pp3/8/8/R7");
    // The placement field of every FEN the engine writes.
    for (const std::string& fen : test::epd_fens("standard.epd")) {
        const Position pos = test::parse_fen(fen, false, FenCheck::Playable);
        std::array<Piece, 64> squares;
        for (int s = 0; s < 64; ++s) squares[size_t(s)] = pos.piece_on(Square(s));
        CHECK(fen_placement(squares) == fen.substr(0, fen.find(' ')));
        CHECK(pos.fen().starts_with(fen_placement(squares) + ' '));
    }
}

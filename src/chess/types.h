#pragma once
// Small value types of the rules core. Plain (unscoped) enums are used for Square,
// File and Rank so that they index arrays without casts; they still do not convert
// *from* int implicitly, which is where the mistakes happen.

#include <cstdint>
#include <string_view>

namespace arbiter {

enum Color : uint8_t { White, Black };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Piece types in value order; NoPieceType marks an empty square.
enum PieceType : uint8_t { Pawn, Knight, Bishop, Rook, Queen, King, NoPieceType };

// Piece = colour * 8 + type, so colour and type are one shift or mask away.
enum Piece : uint8_t {
    WPawn = 0,
    WKnight,
    WBishop,
    WRook,
    WQueen,
    WKing,
    BPawn = 8,
    BKnight,
    BBishop,
    BRook,
    BQueen,
    BKing,
    NoPiece = 16
};
constexpr Piece make_piece(Color c, PieceType t) { return Piece((c << 3) | t); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

// The piece letters of FEN, SAN and UCI, in PieceType order: upper case names a type
// (SAN) and White's men (FEN), lower case Black's men (FEN) and a promotion (UCI).
constexpr std::string_view PieceLetters = "PNBRQK";

// 'P', 'N', 'B', 'R', 'Q' or 'K'.
constexpr char piece_letter(PieceType t) { return PieceLetters[t]; }
// As FEN writes a piece: 'N' for a White knight, 'n' for a Black one.
constexpr char piece_letter(Piece p) {
    const char upper = PieceLetters[type_of(p)];
    return color_of(p) == White ? upper : char(upper - 'A' + 'a');
}
// The type an upper-case letter names; NoPieceType for any other character.
constexpr PieceType piece_type_from_letter(char upper) {
    const size_t type = PieceLetters.find(upper);
    return type == std::string_view::npos ? NoPieceType : PieceType(type);
}
// The piece a FEN letter stands for; NoPiece for any other character.
constexpr Piece piece_from_letter(char letter) {
    const bool black = letter >= 'a' && letter <= 'z';
    const PieceType type = piece_type_from_letter(black ? char(letter - 'a' + 'A') : letter);
    return type == NoPieceType ? NoPiece : make_piece(black ? Black : White, type);
}

// Squares a1 = 0 ... h8 = 63, rank-major (a1 b1 ... h1 a2 ...).
enum Square : uint8_t {
    A1,
    B1,
    C1,
    D1,
    E1,
    F1,
    G1,
    H1,
    A2,
    B2,
    C2,
    D2,
    E2,
    F2,
    G2,
    H2,
    A3,
    B3,
    C3,
    D3,
    E3,
    F3,
    G3,
    H3,
    A4,
    B4,
    C4,
    D4,
    E4,
    F4,
    G4,
    H4,
    A5,
    B5,
    C5,
    D5,
    E5,
    F5,
    G5,
    H5,
    A6,
    B6,
    C6,
    D6,
    E6,
    F6,
    G6,
    H6,
    A7,
    B7,
    C7,
    D7,
    E7,
    F7,
    G7,
    H7,
    A8,
    B8,
    C8,
    D8,
    E8,
    F8,
    G8,
    H8,
    NoSquare
};
enum File : uint8_t { FileA, FileB, FileC, FileD, FileE, FileF, FileG, FileH };
enum Rank : uint8_t { Rank1, Rank2, Rank3, Rank4, Rank5, Rank6, Rank7, Rank8 };

constexpr Square make_square(File f, Rank r) { return Square(r * 8 + f); }
constexpr File file_of(Square s) { return File(s & 7); }
constexpr Rank rank_of(Square s) { return Rank(s >> 3); }
constexpr Square square_at(int index) { return Square(index); }
constexpr bool is_valid(Square s) { return s < NoSquare; }
// Mirror vertically: a1 <-> a8. Used to express "the same square seen from Black".
constexpr Square flip_rank(Square s) { return Square(s ^ 56); }
// A rank counted from `c`'s side of the board (Rank1 is each side's back rank).
constexpr Rank relative_rank(Color c, Rank r) { return Rank(c == White ? r : 7 - r); }
constexpr Square relative_square(Color c, Square s) { return c == White ? s : flip_rank(s); }
// The step that moves a pawn of colour `c` one rank forward.
constexpr int pawn_push(Color c) { return c == White ? 8 : -8; }

constexpr int square_distance(Square a, Square b) {
    const int df = file_of(a) > file_of(b) ? file_of(a) - file_of(b) : file_of(b) - file_of(a);
    const int dr = rank_of(a) > rank_of(b) ? rank_of(a) - rank_of(b) : rank_of(b) - rank_of(a);
    return df > dr ? df : dr;
}

// Castling sides; a CastlingRights value is a 4-bit set of (colour, side) pairs.
enum CastleSide : uint8_t { KingSide, QueenSide };
using CastlingRights = uint8_t;
constexpr CastlingRights castling_bit(Color c, CastleSide side) { return CastlingRights(1u << (c * 2 + side)); }
constexpr CastlingRights AllCastling = 15;

}  // namespace arbiter

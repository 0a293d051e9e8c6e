#pragma once
// Text forms of squares and moves: UCI long algebraic and SAN, both directions.

#include <optional>
#include <string>
#include <string_view>

#include "chess/move.h"
#include "chess/position.h"

namespace arbiter {

std::string square_name(Square s);
std::optional<Square> parse_square(std::string_view text);

// UCI long algebraic. Castling is written as the king's two-square move (e1g1) in
// standard chess and as king-takes-own-rook (e1h1) in Chess960.
std::string to_uci(Move m, bool chess960);
// The legal move of `pos` written as `text`, if there is one.
std::optional<Move> parse_uci(const Position& pos, std::string_view text);

// Standard algebraic notation with check (+) and mate (#) suffixes.
std::string to_san(const Position& pos, Move m);

// Reads SAN, tolerant of what people and programs write: optional 'x', '+', '#',
// annotations (!?), '=' before the promotion piece, castling with O or 0, and "e.p."
// after an en passant capture (refused after any other move).
// Returns the legal move, or an error message when the text is ambiguous or matches none.
struct SanResult {
    std::optional<Move> move;
    std::string error;
};
SanResult parse_san(const Position& pos, std::string_view text);

}  // namespace arbiter

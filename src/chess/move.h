#pragma once
// A move in 16 bits:
//   bits  0-5   origin square
//   bits  6-11  destination square; for castling, the square of the castling rook
//               ("king takes own rook"), which encodes standard chess and Chess960 alike
//   bits 12-13  promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen
//   bits 14-15  kind: 0 normal, 1 promotion, 2 en passant, 3 castling
// Move() (all zero, a1a1) is the null value; no legal move has equal origin and destination.

#include <cstdint>

#include "chess/types.h"
#include "util/static_vector.h"

namespace arbiter {

class Move {
public:
    enum Kind : uint16_t { Normal = 0, Promotion = 1, EnPassant = 2, Castling = 3 };

    constexpr Move() = default;
    constexpr Move(Square from, Square to, Kind kind = Normal, PieceType promo = Knight)
            : bits_(uint16_t(from | (to << 6) | ((promo - Knight) << 12) | (kind << 14))) {}

    constexpr Square from() const { return Square(bits_ & 63); }
    constexpr Square to() const { return Square((bits_ >> 6) & 63); }
    constexpr Kind kind() const { return Kind(bits_ >> 14); }
    constexpr PieceType promotion() const { return PieceType(((bits_ >> 12) & 3) + Knight); }
    constexpr bool is_null() const { return bits_ == 0; }
    constexpr uint16_t raw() const { return bits_; }
    static constexpr Move from_raw(uint16_t bits) {
        Move m;
        m.bits_ = bits;
        return m;
    }
    constexpr bool operator==(const Move&) const = default;

private:
    uint16_t bits_ = 0;
};

// 218 is the most legal moves known in a reachable position; 256 leaves room.
using MoveList = StaticVector<Move, 256>;

}  // namespace arbiter

#pragma once
// Material signatures: which pieces each side has, the key tables are found by.
// A table's file name ("KQvKR") names the pieces of its first side, then those of
// its second; the first side is White in the file's encoding.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "chess/position.h"

namespace arbiter::syzygy {

// Piece counts per colour and type, kings included.
struct Material {
    uint8_t count[2][6] = {};

    int total() const;
    int pawns(Color c) const { return count[c][Pawn]; }
    Material mirrored() const;
    // Pawns through queens, four bits each, White's in the low 20 bits. Kings are
    // implied (one each).
    uint64_t key() const;
};

// "KQvKR" -> its material; nullopt for anything else (each side one king, first).
std::optional<Material> parse_table_name(std::string_view name);

inline uint64_t material_key(const Position& pos) {
    uint64_t key = 0;
    for (Color c : {White, Black})
        for (PieceType t : {Pawn, Knight, Bishop, Rook, Queen})
            key |= uint64_t(popcount(pos.pieces(c, t))) << (4 * t + 20 * c);
    return key;
}

}  // namespace arbiter::syzygy

#include "syzygy/material.h"

namespace arbiter::syzygy {

int Material::total() const {
    int n = 0;
    for (const auto& side : count)
        for (uint8_t c : side) n += c;
    return n;
}

Material Material::mirrored() const {
    Material m;
    for (int t = 0; t < 6; ++t) {
        m.count[White][t] = count[Black][t];
        m.count[Black][t] = count[White][t];
    }
    return m;
}

uint64_t Material::key() const {
    uint64_t key = 0;
    for (int c = 0; c < 2; ++c)
        for (int t = Pawn; t <= Queen; ++t) key |= uint64_t(count[c][t]) << (4 * t + 20 * c);
    return key;
}

std::optional<Material> parse_table_name(std::string_view name) {
    const size_t v = name.find('v');
    if (v == std::string_view::npos) return std::nullopt;
    Material m;
    const std::string_view sides[2] = {name.substr(0, v), name.substr(v + 1)};
    for (int c = 0; c < 2; ++c) {
        const std::string_view side = sides[c];
        if (side.empty() || side[0] != 'K') return std::nullopt;
        for (char letter : side) {
            const PieceType type = piece_type_from_letter(letter);
            if (type == NoPieceType) return std::nullopt;
            ++m.count[c][type];
        }
        if (m.count[c][King] != 1) return std::nullopt;
    }
    if (m.total() > 7) return std::nullopt;
    return m;
}

}  // namespace arbiter::syzygy

// Fuzzes the Syzygy table reader over table bytes: a damaged, truncated or made-up
// file must be refused by its headers or answer its probes with values in range
// (or a failure), never read outside its bytes. The bytes stay in libFuzzer's heap
// buffer (an in-memory Table), where AddressSanitizer reports a read past the end.
//
// Input: the first byte picks the table (its material and WDL or DTZ), the rest
// are the file. The materials are the 5-piece tables of ../shared/data/syzygy5
// (five men, like pieces, pawn files) and a few 3-4-piece ones whose whole files
// are small enough to seed the corpus (tests/fuzz/corpus/table: prefixed copies
// of tables of tests/data/syzygy, and the headers of the 5-piece tables cut short
// or altered). Each table prepared is probed in fixed random positions of its
// material, in both colour orders and with both sides to move.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "random_position.h"
#include "chess/position.h"
#include "syzygy/material.h"
#include "syzygy/table.h"

namespace {

using namespace arbiter;
using namespace arbiter::syzygy;

void check(bool condition) {
    if (!condition) __builtin_trap();
}

constexpr std::string_view Materials[] = {
    "KRPvKR", "KQRvKR", "KRRvKR", "KRBvKR", "KRNvKR", "KBBvKN",                    // the 5-piece tables
    "KQvK",   "KRvK",   "KPvK",   "KRPvK",  "KPPvK",  "KQPvK",  "KPvKP", "KQvKQ",  // small 3-4-piece files
};
constexpr int PositionsPerMaterial = 64;

// Random positions of `material`, half of them with the colours swapped.
std::vector<Position> positions_of(std::string_view material, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<Position> out;
    const size_t v = material.find('v');
    const std::string swapped = std::string(material.substr(v + 1)) + "v" + std::string(material.substr(0, v));
    while (out.size() < PositionsPerMaterial) {
        const std::string_view order = out.size() % 2 ? std::string_view(swapped) : material;
        if (const std::optional<Position> pos = test::random_position(order, rng)) out.push_back(*pos);
    }
    return out;
}

const std::vector<std::vector<Position>>& all_positions() {
    static const std::vector<std::vector<Position>> positions = [] {
        std::vector<std::vector<Position>> by_material;
        for (size_t i = 0; i < std::size(Materials); ++i)
            by_material.push_back(positions_of(Materials[i], uint32_t(i + 1)));
        return by_material;
    }();
    return positions;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const size_t which = data[0] & 0x7F;
    if (which >= std::size(Materials)) return 0;
    const TableType type = data[0] & 0x80 ? TableType::Dtz : TableType::Wdl;
    const std::string_view name = Materials[which];
    const Table table(type, std::string(name), *parse_table_name(name), std::span<const uint8_t>(data + 1, size - 1));
    if (!table.prepare().empty()) return 0;
    for (const Position& pos : all_positions()[which]) {
        if (type == TableType::Wdl) {
            const TableValue v = table.probe(pos);
            check(v.status != TableValue::Ok || (v.value >= -2 && v.value <= 2));
            continue;
        }
        for (int wdl : {-2, -1, 1, 2}) {
            const TableValue v = table.probe(pos, wdl);
            check(v.status != TableValue::Ok || v.value >= 0);
        }
    }
    return 0;
}

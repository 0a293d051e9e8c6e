#pragma once
// One table file (.rtbw or .rtbz): mapped and its headers read by prepare(), which
// Tablebases::load calls for every file (a probe of an unprepared table calls it
// too). Only the headers are read then: the values are paged in as probes touch them.
//
// What a file holds, in order (little-endian):
//   u32 magic (WDL 0x5D23E871, DTZ 0xA50C66D7)
//   u8  bit 0: the file stores both sides to move; bit 1: the table has pawns
//   for each sub-table file (a-d of the leading pawn; a single one without pawns):
//     u8 where the leading group's digit goes among the index digits (low nibble
//     for side 0, high for side 1), a second such byte for the other colour's
//     pawns when both colours have them; then one byte per piece, the piece's
//     code for side 0 in the low nibble and side 1 in the high one (1-6 for the
//     first side's P N B R Q K, 9-14 for the second side's)
//   padding to an even offset
//   each sub-table's stream description (value_stream.h), file by file, side by side
//   DTZ only: four value maps per mapped sub-table, then padding to an even offset
//   each sub-table's checkpoints, then each one's block sizes, then each one's
//   blocks, the blocks starting on a multiple of 64 bytes
// A WDL file stores both sides to move unless both sides have the same material;
// a DTZ file stores one side (its stream's flags say which).

#include <atomic>
#include <mutex>
#include <span>
#include <string>

#include "chess/position.h"
#include "syzygy/encoding.h"
#include "syzygy/mapped_file.h"
#include "syzygy/material.h"
#include "syzygy/value_stream.h"

namespace arbiter::syzygy {

enum class TableType { Wdl, Dtz };

constexpr uint32_t WdlMagic = 0x5D23E871;
constexpr uint32_t DtzMagic = 0xA50C66D7;

// What a lookup found.
struct TableValue {
    enum Status { Ok, OtherSideToMove, Failed } status = Failed;
    // WDL: -2 loss ... 2 win. DTZ: plies to a zeroing move (at least 1), from the
    // stored count, which may be in moves.
    int value = 0;
};

class Table {
public:
    // `material` is the file name's: its White is the file's side 0.
    Table(TableType type, std::string path, const Material& material);
    // A table whose bytes are in memory (tests and fuzzing), owned by the caller and
    // kept until the table goes; `name` stands for the path in messages.
    Table(TableType type, std::string name, const Material& material, std::span<const uint8_t> bytes);
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    TableType type() const { return type_; }
    const std::string& path() const { return path_; }
    // The material of the table's first side as White.
    uint64_t key() const { return key_; }
    int piece_count() const { return piece_count_; }

    // The value stored for `pos`, whose material must be this table's in either
    // colour. `wdl` (DTZ only) is the position's WDL value: it selects the map and
    // the unit of the stored distance. Prepares the table if nobody has; a
    // file that fails then gives Failed for ever (prepare() says why).
    TableValue probe(const Position& pos, int wdl = 0) const;

    // Maps and parses now (once: later calls give the first one's answer);
    // returns an empty string or the reason for failing.
    std::string prepare() const;

private:
    // How one sub-table's pieces form the digits of its index: groups of pieces in
    // the stream's order, each with the weight of its digit.
    struct IndexLayout {
        uint8_t codes[MaxPieces] = {};  // the stream's piece codes, in its order
        int groups = 0;
        int group_size[MaxPieces] = {};
        uint64_t weight[MaxPieces] = {};
        uint64_t positions = 0;  // the index range: the product of the digits' ranges
    };
    struct SubTable {
        IndexLayout layout;
        ValueStream values;
        size_t map_start[4] = {};  // DTZ: the byte offset of each map's first entry
    };

    enum State : uint8_t { NotLoaded, Ready, Broken };
    // Reads the mapped file into subtables_; returns an error or an empty string.
    std::string parse() const;
    // Fills `layout` from its codes and the file's two digit positions; false when
    // the codes or positions cannot be this table's.
    bool build_layout(IndexLayout& layout, int lead_position, int pawn_position, int file) const;
    bool ensure_ready() const;
    // The index of the position with its pieces on `squares` in stream order (the
    // symmetries already applied to them); false where it cannot have one.
    bool compute_index(const IndexLayout& layout, int* squares, int leading_pawns, uint64_t& index) const;

    TableType type_;
    std::string path_;
    Material material_;
    uint64_t key_;
    uint64_t mirrored_key_;
    int piece_count_;
    bool has_pawns_;
    bool both_sides_pawns_;
    bool has_unique_pieces_;

    // Filled once under `mutex_`, read-only afterwards; `state_` publishes them
    // (release on store, acquire on load).
    mutable std::atomic<State> state_{NotLoaded};
    mutable std::mutex mutex_;
    mutable std::string error_;
    mutable MappedFile file_;
    bool in_memory_ = false;
    std::span<const uint8_t> memory_;  // the bytes of an in-memory table
    mutable SubTable subtables_[2][4];
};

}  // namespace arbiter::syzygy

#pragma once
// One table file (.rtbw or .rtbz): mapped and parsed on its first probe, so that
// loading a folder of hundreds of tables costs only a directory listing.
//
// File layout (all tables):
//   u32 magic (WDL 0x5D23E871, DTZ 0xA50C66D7, little-endian)
//   u8  flags: bit 0 both sides to move stored, bit 1 pawns
//   per file of the leading pawn (a-d; one "file" without pawns):
//     u8 group order (low nibble side 0, high nibble side 1), a second one when
//     both colours have pawns; then one byte per piece, its code for side 0 in the
//     low nibble, side 1 in the high (codes 1-6 white P N B R Q K, 9-14 black)
//   padding to an even offset
//   per file, per side: the value stream's size header (pairs.h)
//   DTZ only: the value maps, then padding to an even offset
//   per file, per side: the sparse index; then per file, per side: the block
//   lengths; then per file, per side, each aligned to 64 bytes: the blocks
// WDL files store two sides to move unless both sides have the same material; DTZ
// files store one side to move (the flags of the stream say which).

#include <atomic>
#include <mutex>
#include <string>

#include "chess/position.h"
#include "syzygy/mapped_file.h"
#include "syzygy/material.h"
#include "syzygy/pairs.h"

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
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    TableType type() const { return type_; }
    const std::string& path() const { return path_; }
    // The material of the table's first side as White.
    uint64_t key() const { return key_; }
    int piece_count() const { return piece_count_; }

    // The value stored for `pos`, whose material must be this table's in either
    // colour. `wdl` (DTZ only) is the position's WDL value: it selects the map and
    // the unit of the stored distance. Maps and parses the file on first use; a
    // file that fails then gives Failed for ever (error() says why).
    TableValue probe(const Position& pos, int wdl = 0) const;

    // Maps and parses now; returns an empty string or the reason for failing.
    std::string prepare() const;

private:
    enum State : uint8_t { NotLoaded, Ready, Broken };
    // Parses the mapped file into pairs_; returns an error or an empty string.
    std::string parse() const;
    void set_groups(PairsData& d, const int order[2], int file) const;
    bool pieces_match(const PairsData& d) const;
    bool ensure_ready() const;

    TableType type_;
    std::string path_;
    Material material_;
    uint64_t key_;
    uint64_t mirrored_key_;
    int piece_count_;
    bool has_pawns_;
    bool has_unique_pieces_;
    // Pawn counts of the leading colour (fewer pawns; White on a tie) and the other.
    int pawn_count_[2] = {};

    // Filled once by the first probe under `mutex_`, read-only afterwards; `state_`
    // publishes them (release on store, acquire on load).
    mutable std::atomic<State> state_{NotLoaded};
    mutable std::mutex mutex_;
    mutable std::string error_;
    mutable MappedFile file_;
    mutable PairsData pairs_[2][4];
    mutable size_t dtz_map_ = 0;  // offset of the DTZ maps in the file
};

} // namespace arbiter::syzygy

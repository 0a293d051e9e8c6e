#pragma once
// One compressed value stream of a table file: a sub-table for one side to move
// (and, in pawn tables, one file of the leading pawn).
//
// Values are compressed by recursive pairing (a symbol stands for a pair of
// symbols, recursively, so one symbol expands to a run of values) and the symbols
// are Huffman coded with a canonical code. The stream is cut into blocks of a fixed
// byte size; block n holds block_lengths[n] + 1 values. A sparse index gives, for
// every `span` values, the block and offset of the value in the middle of the span,
// so a lookup walks at most a few blocks.
//
// Layout of the size header (little-endian), read by read_header():
//   u8 flags                     (SingleValue: one byte follows, the only value)
//   u8 log2(block size), u8 log2(span), u8 padding blocks, u32 block count
//   u8 longest code, u8 shortest code
//   u16 lowest symbol for each code length, shortest first
//   u16 symbol count, then 3 bytes per symbol: 12-bit left and right children;
//   a right child of 0xFFF marks a leaf whose left field is the value itself
//   (a padding byte keeps the total even)

#include <cstdint>
#include <vector>

#include "syzygy/byte_reader.h"
#include "syzygy/encoding.h"

namespace arbiter::syzygy {

namespace flag {
constexpr uint8_t SideToMove = 1;   // DTZ: the side to move this table stores
constexpr uint8_t Mapped = 2;       // DTZ: values go through a map
constexpr uint8_t WinPlies = 4;     // DTZ: wins counted in plies, not moves
constexpr uint8_t LossPlies = 8;    // DTZ: losses counted in plies
constexpr uint8_t WideMap = 16;     // DTZ: the map holds 16-bit values
constexpr uint8_t SingleValue = 128;
} // namespace flag

struct PairsData {
    // How a position's pieces are grouped into the index (see index.h).
    uint8_t pieces[MaxPieces] = {};       // file piece codes in encoding order
    int group_length[MaxPieces + 1] = {}; // zero-terminated
    uint64_t group_factor[MaxPieces + 1] = {};  // the last one is the index range
    uint16_t dtz_map_index[4] = {};       // DTZ: where each WDL class's map starts

    uint8_t flags = 0;
    int single_value = 0;

    // Huffman decoding: per code length (from the shortest), the lowest symbol and
    // the smallest left-aligned 64-bit code.
    int min_code_length = 0;
    const uint8_t* lowest_symbol = nullptr;
    std::vector<uint64_t> code_base;
    // Per symbol: the number of values it expands to, minus one.
    std::vector<uint8_t> run_length;
    const uint8_t* tree = nullptr;

    const uint8_t* sparse_index = nullptr;  // 6 bytes per entry: u32 block, u16 offset
    size_t sparse_entries = 0;
    const uint8_t* block_lengths = nullptr; // u16 per block
    size_t block_length_entries = 0;
    const uint8_t* blocks = nullptr;
    uint64_t block_size = 0;
    uint64_t span = 0;
    uint32_t block_count = 0;

    // Reads the size header above for a stream of `positions` values. Returns false
    // for a header that cannot be right (the reader's failed() tells truncation).
    bool read_header(ByteReader& in, uint64_t positions);
    // The byte counts of the three sections that follow all headers.
    size_t sparse_bytes() const { return sparse_entries * 6; }
    size_t block_length_bytes() const { return block_length_entries * 2; }
    uint64_t block_bytes() const { return uint64_t(block_count) * block_size; }

    // The value stored at `index` (< positions), or -1 for data that cannot be
    // decoded (a damaged file).
    int value_at(uint64_t index) const;

private:
    int left_child(int symbol) const { return tree[3 * symbol] | (tree[3 * symbol + 1] & 0xF) << 8; }
    int right_child(int symbol) const { return tree[3 * symbol + 1] >> 4 | tree[3 * symbol + 2] << 4; }
};

} // namespace arbiter::syzygy

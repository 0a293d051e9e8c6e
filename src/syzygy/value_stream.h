#pragma once
// One compressed sequence of table values: a sub-table for one side to move (and,
// in pawn tables, one file of the leading pawn).
//
// How the values are stored:
// - Pairing: the generator repeatedly replaced the most common pair of adjacent
//   symbols by a new symbol, so one symbol stands for a run of values. The symbol
//   list gives each symbol's two halves; a leaf holds one value.
// - Huffman: the symbols are written with a canonical prefix code in which longer
//   codes are numerically smaller. For each code length the file gives the first
//   symbol of that length; the codes themselves follow from those counts.
// - Blocks: the code stream is cut into blocks of a fixed byte size, each starting
//   on a fresh code; a list gives every block's value count (minus one).
// - Checkpoints: for every `step` values, the block and the position inside it of
//   the value in the middle of the step, so that a lookup starts near its block.
//
// Layout of the stream's description (little-endian), read by read_description():
//   u8 flags                     (SingleValue: one byte follows, the only value)
//   u8 log2(block bytes), u8 log2(step), u8 extra block-count entries, u32 blocks
//   u8 longest code, u8 shortest code
//   u16 first symbol of each code length, shortest first
//   u16 symbol count, then 3 bytes per symbol: two 12-bit halves; a second half
//   of 0xFFF marks a leaf whose first half is its value
//   (a padding byte keeps the total even)
// Later sections (checkpoints, block value counts, blocks) are located by the table.

#include <cstdint>
#include <vector>

#include "syzygy/byte_reader.h"

namespace arbiter::syzygy {

namespace flag {
constexpr uint8_t SideToMove = 1;  // DTZ: the side to move this table stores
constexpr uint8_t Mapped = 2;      // DTZ: values go through a map
constexpr uint8_t WinPlies = 4;    // DTZ: wins counted in plies, not moves
constexpr uint8_t LossPlies = 8;   // DTZ: losses counted in plies
constexpr uint8_t WideMap = 16;    // DTZ: the map holds 16-bit values
constexpr uint8_t SingleValue = 128;
}  // namespace flag

class ValueStream {
public:
    // Reads the description above for a stream of `count` values. Returns false for
    // one that cannot be right (the reader's failed() tells truncation apart).
    bool read_description(ByteReader& in, uint64_t count);

    // The byte sizes of the sections after all descriptions, and where they are.
    size_t checkpoint_bytes() const { return checkpoint_count_ * 6; }
    size_t block_size_bytes() const { return block_size_entries_ * 2; }
    uint64_t block_data_bytes() const { return uint64_t(block_count_) * block_bytes_; }
    void set_sections(const uint8_t* checkpoints, const uint8_t* block_sizes, const uint8_t* blocks) {
        checkpoints_ = checkpoints;
        block_sizes_ = block_sizes;
        blocks_ = blocks;
    }

    uint8_t flags() const { return flags_; }

    // The value at `index` (< count), or -1 where the data cannot be decoded (a
    // damaged file). Allocates nothing.
    int value_at(uint64_t index) const;

private:
    struct Place {
        uint32_t block;
        uint32_t value;  // within the block
    };
    bool locate(uint64_t index, Place& place) const;
    // Decodes block `place.block` up to the symbol whose run holds value
    // `place.value`; returns the symbol and leaves `place.value` its position in
    // the run, or returns -1.
    int find_symbol(Place& place) const;
    int first_half(int symbol) const { return halves_[3 * symbol] | (halves_[3 * symbol + 1] & 0xF) << 8; }
    int second_half(int symbol) const { return halves_[3 * symbol + 1] >> 4 | halves_[3 * symbol + 2] << 4; }
    // Fills run_extra_ bottom-up; false for a cycle or a run too long.
    bool measure_runs(int symbols);
    int block_values(uint32_t block) const { return load_le16(block_sizes_ + 2 * size_t(block)) + 1; }

    uint8_t flags_ = 0;
    int only_value_ = 0;

    int shortest_ = 0;
    const uint8_t* first_symbol_ = nullptr;  // u16 per code length, from the shortest
    // The smallest code of each length, left-aligned in 64 bits so that it
    // compares directly with the bit window; the last is always 0.
    std::vector<uint64_t> code_floor_;
    const uint8_t* halves_ = nullptr;
    // Per symbol: how many values its run holds beyond the first (0 for a leaf).
    std::vector<uint8_t> run_extra_;

    uint64_t step_ = 0;
    size_t checkpoint_count_ = 0;
    size_t block_size_entries_ = 0;  // may exceed the block count
    uint32_t block_count_ = 0;
    uint64_t block_bytes_ = 0;
    const uint8_t* checkpoints_ = nullptr;  // 6 bytes each: u32 block, u16 value in it
    const uint8_t* block_sizes_ = nullptr;  // u16 each: values in the block minus one
    const uint8_t* blocks_ = nullptr;
};

}  // namespace arbiter::syzygy

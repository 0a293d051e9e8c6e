#include "syzygy/pairs.h"

namespace arbiter::syzygy {

namespace {

// Fills run_length[symbol] from the pairing tree; `done` marks finished symbols.
// Children are finished first, so the recursion is as deep as the tree.
bool measure(PairsData& d, int symbol, int symbols, const uint8_t* tree, std::vector<bool>& done) {
    done[size_t(symbol)] = true;
    const int right = tree[3 * symbol + 1] >> 4 | tree[3 * symbol + 2] << 4;
    if (right == 0xFFF) {
        d.run_length[size_t(symbol)] = 0;
        return true;
    }
    const int left = tree[3 * symbol] | (tree[3 * symbol + 1] & 0xF) << 8;
    if (left >= symbols || right >= symbols) return false;
    for (int child : {left, right})
        if (!done[size_t(child)] && !measure(d, child, symbols, tree, done)) return false;
    const int total = d.run_length[size_t(left)] + d.run_length[size_t(right)] + 1;
    if (total > 255) return false;
    d.run_length[size_t(symbol)] = uint8_t(total);
    return true;
}

} // namespace

bool PairsData::read_header(ByteReader& in, uint64_t positions) {
    flags = in.u8();
    if (flags & flag::SingleValue) {
        single_value = in.u8();
        return !in.failed();
    }
    const int block_shift = in.u8();
    const int span_shift = in.u8();
    const int padding = in.u8();
    block_count = in.le32();
    const int longest = in.u8();
    const int shortest = in.u8();
    if (in.failed()) return false;
    // Codes are read from a buffer that always holds at least 32 bits.
    // A block starts with a 64-bit read: at least 8 bytes.
    if (block_shift < 3 || block_shift > 30 || span_shift > 30 || shortest < 1 || longest < shortest || longest > 32)
        return false;
    block_size = uint64_t(1) << block_shift;
    span = uint64_t(1) << span_shift;
    sparse_entries = size_t((positions + span - 1) / span);
    block_length_entries = size_t(block_count) + size_t(padding);
    min_code_length = shortest;

    const size_t lengths = size_t(longest - shortest + 1);
    lowest_symbol = in.take(2 * lengths);
    if (!lowest_symbol) return false;
    // Canonical Huffman code with longer codes numerically smaller: the smallest
    // code of each length, computed from the longest up, then left-aligned in 64
    // bits so that codes of any length compare directly with the bit buffer.
    code_base.assign(lengths, 0);
    for (size_t i = lengths - 1; i-- > 0;)
        code_base[i] = (code_base[i + 1] + load_le16(lowest_symbol + 2 * i) - load_le16(lowest_symbol + 2 * i + 2)) / 2;
    for (size_t i = 0; i < lengths; ++i) code_base[i] <<= 64 - int(i) - shortest;

    const int symbols = in.le16();
    tree = in.take(3 * size_t(symbols));
    if (!tree || symbols == 0) return false;
    if (symbols & 1) in.take(1);
    run_length.assign(size_t(symbols), 0);
    std::vector<bool> done(size_t(symbols), false);
    for (int s = 0; s < symbols; ++s)
        if (!done[size_t(s)] && !measure(*this, s, symbols, tree, done)) return false;
    return !in.failed();
}

int PairsData::value_at(uint64_t index) const {
    if (flags & flag::SingleValue) return single_value;

    // The sparse entry for index's span locates the span's middle value; walk from
    // there to the block that holds `index`.
    const uint64_t k = index / span;
    if (k >= sparse_entries) return -1;
    const uint8_t* entry = sparse_index + 6 * k;
    uint32_t block = load_le32(entry);
    int64_t offset = int64_t(load_le16(entry + 4)) + int64_t(index % span) - int64_t(span / 2);
    while (offset < 0) {
        if (block == 0) return -1;
        --block;
        offset += int64_t(load_le16(block_lengths + 2 * size_t(block))) + 1;
    }
    for (;;) {
        if (block >= block_length_entries) return -1;
        const int64_t length = load_le16(block_lengths + 2 * size_t(block));
        if (offset <= length) break;
        offset -= length + 1;
        ++block;
    }
    if (block >= block_count) return -1;

    // Decode symbols from the block's start until the one whose run covers `offset`.
    const uint8_t* next = blocks + uint64_t(block) * block_size;
    // A block's last code may end in its last bits, so the buffer refill can read
    // past the block: that is the next block, or zeros after the last one.
    const uint8_t* const end = blocks + block_bytes();
    uint64_t buffer = load_be64(next);
    next += 8;
    int buffered = 64;
    const int symbols = int(run_length.size());
    int symbol = 0;
    for (;;) {
        size_t length = 0;
        while (buffer < code_base[length]) ++length;
        const int shift = 64 - int(length) - min_code_length;
        symbol = int((buffer - code_base[length]) >> shift) + load_le16(lowest_symbol + 2 * length);
        if (symbol >= symbols) return -1;
        if (offset <= run_length[size_t(symbol)]) break;
        offset -= run_length[size_t(symbol)] + 1;
        const int bits = int(length) + min_code_length;
        buffer <<= bits;
        buffered -= bits;
        if (buffered <= 32) {
            buffered += 32;
            buffer |= uint64_t(next + 4 <= end ? load_be32(next) : 0) << (64 - buffered);
            next += 4;
        }
    }
    // The symbol expands to a run of values: descend its pairs to the one wanted.
    while (run_length[size_t(symbol)] != 0) {
        const int left = left_child(symbol);
        if (offset <= run_length[size_t(left)]) {
            symbol = left;
        } else {
            offset -= run_length[size_t(left)] + 1;
            symbol = right_child(symbol);
        }
    }
    return left_child(symbol);
}

} // namespace arbiter::syzygy

#include "syzygy/value_stream.h"

namespace arbiter::syzygy {

namespace {

// Reads a block's bits from the most significant end. `window` holds the next
// bits left-aligned; at least 33 of them are real after every advance, enough for
// the longest code (32 bits). Past the end of the block data it reads zeros.
class BitWindow {
public:
    BitWindow(const uint8_t* start, const uint8_t* end) : next_(start + 8), end_(end), window_(load_be64(start)) {}

    uint64_t bits() const { return window_; }
    void advance(int n) {
        window_ <<= n;
        real_ -= n;
        if (real_ > 32) return;
        const uint64_t word = next_ + 4 <= end_ ? load_be32(next_) : 0;
        next_ += 4;
        real_ += 32;
        window_ |= word << (64 - real_);
    }

private:
    const uint8_t* next_;
    const uint8_t* end_;
    uint64_t window_;
    int real_ = 64;
};

}  // namespace

bool ValueStream::read_description(ByteReader& in, uint64_t count) {
    flags_ = in.u8();
    if (flags_ & flag::SingleValue) {
        only_value_ = in.u8();
        return !in.failed();
    }
    const int block_log = in.u8();
    const int step_log = in.u8();
    const int extra_entries = in.u8();
    block_count_ = in.le32();
    const int longest = in.u8();
    shortest_ = in.u8();
    if (in.failed()) return false;
    // A block starts with a 64-bit read (8 bytes at least); codes fit the window.
    if (block_log < 3 || block_log > 30 || step_log > 30 || shortest_ < 1 || longest < shortest_ || longest > 32)
        return false;
    block_bytes_ = uint64_t(1) << block_log;
    step_ = uint64_t(1) << step_log;
    checkpoint_count_ = size_t((count + step_ - 1) / step_);
    block_size_entries_ = size_t(block_count_) + size_t(extra_entries);

    const int lengths = longest - shortest_ + 1;
    first_symbol_ = in.take(2 * size_t(lengths));
    if (!first_symbol_) return false;
    // Canonical code, longer codes smaller: the longest codes start at 0, and the
    // codes of one length start where the next longer length's codes, as many as
    // that length has symbols, end, with one bit fewer.
    code_floor_.assign(size_t(lengths), 0);
    for (int i = lengths - 2; i >= 0; --i) {
        const uint64_t longer_codes = uint64_t(load_le16(first_symbol_ + 2 * i)) - load_le16(first_symbol_ + 2 * i + 2);
        code_floor_[size_t(i)] = (code_floor_[size_t(i) + 1] + longer_codes) / 2;
    }
    for (int i = 0; i < lengths; ++i) code_floor_[size_t(i)] <<= 64 - (shortest_ + i);

    const int symbols = in.le16();
    halves_ = in.take(3 * size_t(symbols));
    if (!halves_ || symbols == 0) return false;
    if (symbols % 2 != 0) in.take(1);
    return measure_runs(symbols) && !in.failed();
}

bool ValueStream::measure_runs(int symbols) {
    // A symbol's run is its halves' runs together; the halves are measured first,
    // by an explicit stack of symbols waiting for their halves.
    enum : uint8_t { Unseen, Waiting, Measured };
    std::vector<uint8_t> state(size_t(symbols), Unseen);
    std::vector<int> stack;
    run_extra_.assign(size_t(symbols), 0);
    for (int root = 0; root < symbols; ++root) {
        if (state[size_t(root)] == Measured) continue;
        stack.push_back(root);
        while (!stack.empty()) {
            const int s = stack.back();
            if (second_half(s) == 0xFFF) {  // a leaf: one value
                state[size_t(s)] = Measured;
                stack.pop_back();
                continue;
            }
            const int halves[2] = {first_half(s), second_half(s)};
            state[size_t(s)] = Waiting;
            bool ready = true;
            for (int h : halves) {
                if (h >= symbols) return false;
                if (state[size_t(h)] == Waiting) return false;  // a cycle
                if (state[size_t(h)] == Unseen) {
                    stack.push_back(h);
                    ready = false;
                }
            }
            if (!ready) continue;
            const int extra = run_extra_[size_t(halves[0])] + run_extra_[size_t(halves[1])] + 1;
            if (extra > 255) return false;
            run_extra_[size_t(s)] = uint8_t(extra);
            state[size_t(s)] = Measured;
            stack.pop_back();
        }
    }
    return true;
}

bool ValueStream::locate(uint64_t index, Place& place) const {
    // The checkpoint of index's step names the block holding the step's middle
    // value; count from there, backwards or forwards, block by block.
    const uint64_t step = index / step_;
    if (step >= checkpoint_count_) return false;
    const uint8_t* checkpoint = checkpoints_ + 6 * step;
    uint32_t block = load_le32(checkpoint);
    // A checkpoint names a block of the list; a damaged one could send the
    // backward count below through block sizes past the list's end.
    if (block >= block_size_entries_) return false;
    int64_t value = int64_t(load_le16(checkpoint + 4)) + int64_t(index % step_) - int64_t(step_ / 2);
    while (value < 0) {
        if (block == 0) return false;
        --block;
        value += block_values(block);
    }
    for (;;) {
        if (block >= block_size_entries_) return false;
        if (value < block_values(block)) break;
        value -= block_values(block);
        ++block;
    }
    if (block >= block_count_) return false;
    place = {block, uint32_t(value)};
    return true;
}

int ValueStream::find_symbol(Place& place) const {
    const uint8_t* const end = blocks_ + block_data_bytes();
    BitWindow bits(blocks_ + uint64_t(place.block) * block_bytes_, end);
    const int symbols = int(run_extra_.size());
    for (;;) {
        // The first length whose smallest code the window reaches: code_floor_'s
        // last entry is 0, so the search always stops.
        int i = 0;
        while (bits.bits() < code_floor_[size_t(i)]) ++i;
        const int length = shortest_ + i;
        const int rank_in_length = int((bits.bits() - code_floor_[size_t(i)]) >> (64 - length));
        const int symbol = load_le16(first_symbol_ + 2 * i) + rank_in_length;
        if (symbol >= symbols) return -1;
        const uint32_t run = uint32_t(run_extra_[size_t(symbol)]) + 1;
        if (place.value < run) return symbol;
        place.value -= run;
        bits.advance(length);
    }
}

int ValueStream::value_at(uint64_t index) const {
    if (flags_ & flag::SingleValue) return only_value_;
    Place place{};
    if (!locate(index, place)) return -1;
    int symbol = find_symbol(place);
    if (symbol < 0) return -1;
    // Split the symbol's run into its halves until a single value remains.
    uint32_t offset = place.value;
    while (run_extra_[size_t(symbol)] != 0) {
        const int first = first_half(symbol);
        const uint32_t first_run = uint32_t(run_extra_[size_t(first)]) + 1;
        if (offset < first_run) {
            symbol = first;
        } else {
            offset -= first_run;
            symbol = second_half(symbol);
        }
    }
    return first_half(symbol);
}

}  // namespace arbiter::syzygy

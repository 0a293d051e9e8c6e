#pragma once
// Bounds-checked reading of a mapped table file. A read past the end sets failed()
// and returns zeros, so a parser can read a whole header and check once at the end:
// a truncated file is refused instead of read out of bounds.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace arbiter::syzygy {

// Unaligned loads in the byte orders the format uses.
inline uint16_t load_le16(const uint8_t* p) { return uint16_t(p[0] | p[1] << 8); }
inline uint32_t load_le32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
inline uint32_t load_be32(const uint8_t* p) {
    return uint32_t(p[3]) | uint32_t(p[2]) << 8 | uint32_t(p[1]) << 16 | uint32_t(p[0]) << 24;
}
inline uint64_t load_be64(const uint8_t* p) { return uint64_t(load_be32(p)) << 32 | load_be32(p + 4); }

class ByteReader {
public:
    ByteReader(std::span<const uint8_t> file, size_t offset) : file_(file), offset_(offset) {}

    // The next `n` bytes, or nullptr (and failed()) when the file ends first.
    const uint8_t* take(size_t n) {
        if (failed_ || n > file_.size() || offset_ > file_.size() - n) {
            failed_ = true;
            return nullptr;
        }
        const uint8_t* p = file_.data() + offset_;
        offset_ += n;
        return p;
    }
    uint8_t u8() {
        const uint8_t* p = take(1);
        return p ? *p : 0;
    }
    uint16_t le16() {
        const uint8_t* p = take(2);
        return p ? load_le16(p) : 0;
    }
    uint32_t le32() {
        const uint8_t* p = take(4);
        return p ? load_le32(p) : 0;
    }
    // Rounds the offset up to a multiple of `alignment` (a power of two). Offsets
    // are from the file's start, which the mapping puts on a page boundary.
    void align(size_t alignment) { offset_ = (offset_ + alignment - 1) & ~(alignment - 1); }
    void fail() { failed_ = true; }

    size_t offset() const { return offset_; }
    bool failed() const { return failed_; }

private:
    std::span<const uint8_t> file_;
    size_t offset_;
    bool failed_ = false;
};

}  // namespace arbiter::syzygy

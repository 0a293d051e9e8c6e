#pragma once
// A read-only memory mapping of a whole file, released when the object goes.
// Tablebase files are large and read sparsely: the kernel pages in what a probe
// touches, and every search thread shares the same pages.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace arbiter::syzygy {

class MappedFile {
public:
    MappedFile() = default;
    ~MappedFile() { unmap(); }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    // Maps `path`; on failure returns the reason and leaves the object empty.
    std::string map(const std::string& path);
    // Shows `bytes`, which the caller owns and keeps, as if they were a mapped file:
    // a table held in memory, for tests and fuzzing (a read past the end of a heap
    // buffer is one AddressSanitizer reports; past the end of a mapping, the rest of
    // its last page reads as zeros).
    void view(std::span<const uint8_t> bytes);
    void unmap();

    std::span<const uint8_t> bytes() const { return {data_, size_}; }
    bool mapped() const { return data_ != nullptr; }

private:
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
    bool mapped_by_us_ = false;  // map() made the mapping; view() bytes are the caller's
};

}  // namespace arbiter::syzygy

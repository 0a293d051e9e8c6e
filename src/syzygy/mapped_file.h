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
    void unmap();

    std::span<const uint8_t> bytes() const { return {data_, size_}; }
    bool mapped() const { return data_ != nullptr; }

private:
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
};

} // namespace arbiter::syzygy

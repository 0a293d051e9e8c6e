#pragma once
// Whole-buffer .xz compression through Debian's liblzma: the container is the standard
// one, so `xz -dc FILE` reads what xz_compress() wrote.

#include <cstdint>
#include <string>
#include <vector>

namespace arbiter::tools {

// The bytes as one .xz stream (LZMA2, preset 9 extreme, CRC-64 check).
std::vector<uint8_t> xz_compress(const std::vector<uint8_t>& bytes);

// The bytes of one or more concatenated .xz streams, or false with `error` set (not
// .xz data, damaged, truncated, or more than `max_size` bytes once decompressed).
bool xz_decompress(const std::vector<uint8_t>& compressed, std::vector<uint8_t>& out, std::string& error,
                   uint64_t max_size = uint64_t(1) << 32);

}  // namespace arbiter::tools

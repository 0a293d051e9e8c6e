#include "tools/xz.h"

#include <lzma.h>

#include <stdexcept>

namespace arbiter::tools {

std::vector<uint8_t> xz_compress(const std::vector<uint8_t>& bytes) {
    std::vector<uint8_t> out(lzma_stream_buffer_bound(bytes.size()));
    size_t written = 0;
    const lzma_ret ret = lzma_easy_buffer_encode(9 | LZMA_PRESET_EXTREME, LZMA_CHECK_CRC64, nullptr, bytes.data(),
                                                 bytes.size(), out.data(), &written, out.size());
    // The output buffer has the bound liblzma guarantees; only memory can run out.
    if (ret != LZMA_OK) throw std::runtime_error("xz compression failed (out of memory)");
    out.resize(written);
    return out;
}

bool xz_decompress(const std::vector<uint8_t>& compressed, std::vector<uint8_t>& out, std::string& error,
                   uint64_t max_size) {
    lzma_stream stream = LZMA_STREAM_INIT;
    // LZMA_CONCATENATED: files joined with `cat` decode as one.
    if (lzma_stream_decoder(&stream, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
        error = "xz: cannot start the decoder (out of memory)";
        return false;
    }
    out.clear();
    stream.next_in = compressed.data();
    stream.avail_in = compressed.size();
    uint8_t chunk[1 << 16];
    lzma_ret ret = LZMA_OK;
    while (ret == LZMA_OK) {
        stream.next_out = chunk;
        stream.avail_out = sizeof chunk;
        ret = lzma_code(&stream, stream.avail_in ? LZMA_RUN : LZMA_FINISH);
        out.insert(out.end(), chunk, chunk + (sizeof chunk - stream.avail_out));
        if (out.size() > max_size) {
            lzma_end(&stream);
            error = "xz: the data is larger than expected";
            return false;
        }
    }
    lzma_end(&stream);
    switch (ret) {
    case LZMA_STREAM_END: return true;
    case LZMA_FORMAT_ERROR: error = "not xz data"; break;
    case LZMA_BUF_ERROR: error = "xz: truncated data"; break;
    case LZMA_DATA_ERROR: error = "xz: damaged data"; break;
    case LZMA_MEM_ERROR: error = "xz: out of memory"; break;
    default: error = "xz: cannot decode"; break;
    }
    return false;
}

}  // namespace arbiter::tools

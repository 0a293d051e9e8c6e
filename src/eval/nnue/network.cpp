#include "eval/nnue/network.h"

#include <array>
#include <cassert>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace arbiter::eval::nnue {

namespace {

constexpr std::array<uint32_t, 256> make_crc_table() {
    std::array<uint32_t, 256> table{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    return table;
}
constexpr std::array<uint32_t, 256> CrcTable = make_crc_table();

constexpr char Magic[8] = {'A', 'R', 'B', 'N', 'N', 'U', 'E', '\0'};

// Files are little-endian whatever the host is: assemble values byte by byte.
uint32_t read_u32(const std::byte* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
int16_t read_i16(const std::byte* p) { return int16_t(uint16_t(uint16_t(p[0]) | uint16_t(p[1]) << 8)); }

LoadResult failure(std::string message) { return LoadResult{nullptr, std::move(message)}; }

// Reads `out.size()` i16 into `out`, refusing any outside [-limit, limit]; `what(i)` names
// value i in the message.
template <typename Describe>
std::string read_weights(const std::byte*& p, std::span<int16_t> out, int limit, Describe what) {
    for (size_t i = 0; i < out.size(); ++i, p += 2) {
        out[i] = read_i16(p);
        if (out[i] < -limit || out[i] > limit)
            return fmt::format("{} is {}, outside [-{}, {}]: not a net this build can evaluate without overflow",
                               what(i), out[i], limit, limit);
    }
    return {};
}

}  // namespace

uint32_t crc32(std::span<const std::byte> bytes) {
    uint32_t c = 0xFFFFFFFFu;
    for (std::byte b : bytes) c = CrcTable[(c ^ uint32_t(b)) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

void Network::FreeDeleter::operator()(void* p) const { std::free(p); }

Network::Network(Architecture architecture, int hidden) : architecture_(architecture), hidden_(hidden) {
    assert(supported_hidden_size(hidden));
    // Four blocks, each starting on a 64-byte boundary (every block size is a multiple
    // of 64 bytes for the hidden sizes supported, except the i32 biases, which come last).
    const size_t buckets = size_t(bucket_count(architecture));
    const size_t feature_count = size_t(input_count(architecture)) * hidden, output_count = buckets * 2 * hidden;
    const size_t bytes = (feature_count + hidden + output_count) * sizeof(int16_t) + 64;
    storage_.reset(static_cast<std::byte*>(std::aligned_alloc(64, bytes)));
    if (!storage_) throw std::bad_alloc();
    std::memset(storage_.get(), 0, bytes);
    auto* p = reinterpret_cast<int16_t*>(storage_.get());
    feature_weights = {p, feature_count};
    feature_biases = {p + feature_count, size_t(hidden)};
    output_weights = {p + feature_count + hidden, output_count};
    output_biases = {reinterpret_cast<int32_t*>(p + feature_count + hidden + output_count), buckets};
}

std::string describe(Architecture architecture, int hidden) {
    switch (architecture) {
    case Architecture::Plain: return fmt::format("(768 -> {}) x 2 -> 1", hidden);
    case Architecture::MaterialBuckets:
        return fmt::format("(768 -> {}) x 2 -> 1 x {} output buckets", hidden, MaterialBucketCount);
    case Architecture::KingBuckets:
        return fmt::format("(768 x {} -> {}) x 2 -> 1 x {} output buckets", KingBucketCount, hidden,
                           MaterialBucketCount);
    }
    return fmt::format("architecture {}", uint32_t(architecture));
}

LoadResult load_network(std::span<const std::byte> bytes) {
    // Step 1: the header, field by field, each refusal with its own message.
    if (bytes.size() < HeaderSize)
        return failure(
            fmt::format("network data is {} bytes, shorter than the {}-byte header", bytes.size(), HeaderSize));
    const std::byte* header = bytes.data();
    if (std::memcmp(header, Magic, sizeof Magic) != 0)
        return failure("not an Arbiter network: wrong magic (expected \"ARBNNUE\" and a zero byte)");
    if (const uint32_t version = read_u32(header + 8); version != FormatVersion)
        return failure(
            fmt::format("unsupported network format version {} (this build reads version {})", version, FormatVersion));
    const uint32_t arch_id = read_u32(header + 12);
    if (arch_id < uint32_t(Architecture::Plain) || arch_id > uint32_t(Architecture::KingBuckets))
        return failure(
            fmt::format("unsupported network architecture id {} (this build evaluates architectures 1, "
                        "(768 -> H) x 2 -> 1; 2, the same with {} output buckets; and 3, the same with "
                        "{} king input buckets)",
                        arch_id, MaterialBucketCount, KingBucketCount));
    const auto arch = Architecture(arch_id);
    const uint32_t hidden = read_u32(header + 16);
    if (hidden > uint32_t(MaxHiddenSize) || !supported_hidden_size(int(hidden)))
        return failure(
            fmt::format("unsupported hidden size {} (this build evaluates {})", hidden, fmt::join(HiddenSizes, ", ")));
    const size_t expected_size = payload_size(arch, int(hidden));
    if (const uint32_t declared = read_u32(header + 20); declared != expected_size)
        return failure(fmt::format("payload size mismatch: the header declares {} bytes, {} needs {}", declared,
                                   describe(arch, int(hidden)), expected_size));
    if (const uint32_t reserved = read_u32(header + 28); reserved != 0)
        return failure(fmt::format("reserved header field is {}, expected 0", reserved));

    // Step 2: the payload is exactly as long as declared and matches its checksum.
    const std::span<const std::byte> payload = bytes.subspan(HeaderSize);
    if (payload.size() < expected_size)
        return failure(
            fmt::format("network data truncated: the payload has {} of its {} bytes", payload.size(), expected_size));
    if (payload.size() > expected_size)
        return failure(fmt::format("network data has {} trailing bytes after the {}-byte payload",
                                   payload.size() - expected_size, expected_size));
    const uint32_t stored_crc = read_u32(header + 24);
    if (const uint32_t actual = crc32(payload); actual != stored_crc)
        return failure(fmt::format(
            "CRC mismatch: the header says {:08x}, the payload's CRC-32 is {:08x} (corrupt file)", stored_crc, actual));

    // Step 3: the weights, each within the range the kernels rely on (network.h).
    const size_t h = hidden;
    auto net = std::make_unique<Network>(arch, int(hidden));
    const std::byte* p = payload.data();
    std::string error = read_weights(p, net->feature_weights, FeatureWeightLimit, [h](size_t i) {
        return fmt::format("feature weight {} (feature {}, neuron {})", i, i / h, i % h);
    });
    if (error.empty())
        error = read_weights(p, net->feature_biases, FeatureWeightLimit,
                             [](size_t i) { return fmt::format("feature bias {}", i); });
    if (error.empty())
        error = read_weights(p, net->output_weights, OutputWeightLimit, [h, arch](size_t i) {
            return arch == Architecture::Plain
                       ? fmt::format("output weight {}", i)
                       : fmt::format("output weight {} (bucket {}, weight {})", i, i / (2 * h), i % (2 * h));
        });
    if (!error.empty()) return failure(std::move(error));
    for (int32_t& bias : net->output_biases) {
        bias = int32_t(read_u32(p));
        p += 4;
    }
    return LoadResult{std::move(net), {}};
}

LoadResult load_network_file(const std::string& path) {
    // A generous cap keeps a mistaken path (a multi-gigabyte file) from being read whole.
    constexpr std::streamoff MaxFileSize = 64 << 20;
    errno = 0;
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
        const int error = errno;
        return failure(
            fmt::format("cannot open network file '{}': {}", path, error ? std::strerror(error) : "open failed"));
    }
    const std::streamoff size = in.tellg();
    if (size < 0) return failure(fmt::format("cannot read network file '{}'", path));
    if (size > MaxFileSize)
        return failure(fmt::format("network file '{}' is {} bytes, far larger than a network", path, size));
    std::vector<std::byte> bytes(static_cast<size_t>(size));
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), size))
        return failure(fmt::format("cannot read network file '{}'", path));
    LoadResult result = load_network(bytes);
    if (!result.net) result.error = fmt::format("network file '{}': {}", path, result.error);
    return result;
}

}  // namespace arbiter::eval::nnue

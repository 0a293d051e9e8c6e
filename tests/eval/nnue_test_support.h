#pragma once
// Helpers shared by the NNUE tests: random networks within the trainer's clip ranges,
// and a writer of the `.anet` format that follows nets/README.md independently of the
// engine's reader (its own bitwise CRC-32, its own little-endian packing).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "eval/nnue/network.h"

namespace arbiter::test {

// Mostly small feature weights, so accumulators often land inside the clamp's [0, QA]
// where the output is sensitive to every bit, with a sprinkling of extreme values
// (the limits themselves included) to exercise the clamp and the range bounds.
inline std::unique_ptr<eval::nnue::Network> random_network(
    uint32_t seed, eval::nnue::Architecture architecture = eval::nnue::Architecture::Plain, int hidden = 256) {
    using namespace eval::nnue;
    std::mt19937 rng(seed);
    auto uniform = [&](int lo, int hi) { return int16_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
    auto net = std::make_unique<Network>(architecture, hidden);
    for (int16_t& w : net->feature_weights)
        w = rng() % 100 == 0 ? uniform(-FeatureWeightLimit, FeatureWeightLimit) : uniform(-48, 48);
    net->feature_weights[0] = FeatureWeightLimit;
    net->feature_weights[1] = -FeatureWeightLimit;
    for (int16_t& b : net->feature_biases) b = uniform(-120, 300);
    for (int16_t& w : net->output_weights) w = uniform(-OutputWeightLimit, OutputWeightLimit);
    net->output_weights[0] = OutputWeightLimit;
    net->output_weights[1] = -OutputWeightLimit;
    for (int32_t& b : net->output_biases) b = std::uniform_int_distribution<int32_t>(-20000, 20000)(rng);
    return net;
}

// The worst case of the output layer: every output weight at +QB (or -QB), for nets
// whose accumulators sit at or above QA, so every term is 255^2 * 64.
inline std::unique_ptr<eval::nnue::Network> extreme_network(eval::nnue::Architecture architecture, int hidden,
                                                            int sign) {
    using namespace eval::nnue;
    auto net = std::make_unique<Network>(architecture, hidden);
    for (int16_t& b : net->feature_biases) b = FeatureWeightLimit;
    for (int16_t& w : net->output_weights) w = int16_t(sign * OutputWeightLimit);
    return net;
}

inline uint32_t reference_crc32(const std::vector<std::byte>& bytes, size_t from) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = from; i < bytes.size(); ++i) {
        crc ^= uint32_t(bytes[i]);
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

inline void put_u32(std::vector<std::byte>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(std::byte((v >> (8 * i)) & 0xFF));
}
inline void put_i16(std::vector<std::byte>& out, int16_t v) {
    out.push_back(std::byte(uint16_t(v) & 0xFF));
    out.push_back(std::byte(uint16_t(v) >> 8));
}
inline void set_u32(std::vector<std::byte>& bytes, size_t offset, uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes[offset + i] = std::byte((v >> (8 * i)) & 0xFF);
}
// Recomputes the header's CRC after a test edits the payload.
inline void fix_crc(std::vector<std::byte>& bytes) { set_u32(bytes, 24, reference_crc32(bytes, 32)); }

// The `.anet` file of `net`, byte for byte as nets/README.md specifies.
inline std::vector<std::byte> serialise(const eval::nnue::Network& net) {
    using namespace eval::nnue;
    const size_t h = size_t(net.hidden_size()), buckets = size_t(net.buckets());
    std::vector<std::byte> out;
    for (char c : {'A', 'R', 'B', 'N', 'N', 'U', 'E', '\0'}) out.push_back(std::byte(c));
    put_u32(out, 1);                             // format version
    put_u32(out, uint32_t(net.architecture()));  // architecture id
    put_u32(out, uint32_t(h));                   // hidden size
    const size_t inputs = net.architecture() == Architecture::KingBuckets ? 4 * 768 : 768;
    put_u32(out, uint32_t((inputs * h + h + buckets * 2 * h) * 2 + 4 * buckets));  // payload size
    put_u32(out, 0);                                                               // CRC-32, filled in below
    put_u32(out, 0);                                                               // reserved
    for (int16_t w : net.feature_weights) put_i16(out, w);
    for (int16_t b : net.feature_biases) put_i16(out, b);
    for (int16_t w : net.output_weights) put_i16(out, w);
    for (int32_t b : net.output_biases) put_u32(out, uint32_t(b));
    fix_crc(out);
    return out;
}

}  // namespace arbiter::test

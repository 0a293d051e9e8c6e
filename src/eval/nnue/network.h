#pragma once
// The network of architecture 1, `(768 -> 256) x 2 -> 1` with SCReLU, and its file
// format `.anet` (specified in nets/README.md). A Network only ever comes out of
// load_network(), which checks the header, the size, the CRC and the weight ranges:
// the kernels rely on those ranges (see the invariants below) and never check them.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "chess/types.h"

namespace arbiter::eval::nnue {

inline constexpr int InputSize = 768;   // 2 colours x 6 piece types x 64 squares
inline constexpr int HiddenSize = 256;  // neurons per perspective
inline constexpr int QA = 255;          // quantisation of feature weights and biases
inline constexpr int QB = 64;           // quantisation of output weights
inline constexpr int OutputScale = 400; // centipawns per unit of the float output

inline constexpr uint32_t FormatVersion = 1;
inline constexpr uint32_t ArchitectureId = 1;
inline constexpr size_t HeaderSize = 32;
inline constexpr size_t PayloadSize = (size_t(InputSize) * HiddenSize + HiddenSize + 2 * HiddenSize) * 2 + 4;
static_assert(PayloadSize == 394756, "payload size stated in nets/README.md");

// Weight limits the loader enforces. The trainer clips feature weights and biases to
// +-1.98 (1.98 * QA = 504.9, so |q| <= 505 whichever way it rounds) and output weights
// to +-1 (|q| <= QB). They guarantee, with at most 32 pieces on the board:
// - an accumulator stays within i16: 33 * 505 < 32767;
// - v * w fits in i16 for v in [0, QA] (255 * 64 < 32767), which the SIMD kernel uses;
// - the output sum fits in i32: 512 * 255^2 * 64 < 2^31, in any order of addition,
//   so the scalar and SIMD kernels agree bit for bit.
inline constexpr int FeatureWeightLimit = 505;
inline constexpr int OutputWeightLimit = QB;

struct alignas(64) Network {
    // Feature-major: the HiddenSize weights of feature f start at f * HiddenSize, so
    // one feature's row is a contiguous, 64-byte aligned block (512 bytes).
    alignas(64) int16_t feature_weights[InputSize * HiddenSize];
    alignas(64) int16_t feature_biases[HiddenSize];
    // First the weights applied to the side to move's accumulator, then the other side's.
    alignas(64) int16_t output_weights[2 * HiddenSize];
    int32_t output_bias;
};

// The input feature of `piece` on `square` in the accumulator of `perspective`: own
// pieces first, ranks flipped for Black, so both perspectives share one weight matrix.
constexpr int feature_index(Color perspective, Piece piece, Square square) {
    return (color_of(piece) == perspective ? 0 : 384) + type_of(piece) * 64
           + (perspective == White ? int(square) : int(square) ^ 56);
}

// A loaded network, or (net empty) the reason the bytes were refused.
struct LoadResult {
    std::unique_ptr<Network> net;
    std::string error;
};

// Parses and validates a whole `.anet` file held in memory.
LoadResult load_network(std::span<const std::byte> bytes);
// Reads the file at `path` and loads it; errors name the file.
LoadResult load_network_file(const std::string& path);

// The CRC-32 of zlib and IEEE 802.3 (reflected polynomial 0xEDB88320), as the header stores.
uint32_t crc32(std::span<const std::byte> bytes);

// The network embedded in the executable at build time (nets/default-net.txt names it,
// -DARBITER_EVALFILE overrides it), validated on first use; nullptr when the build
// found no net file or the embedded bytes failed validation (default_network_error()
// says which). Thread-safe; the Network lives until the program ends.
const Network* default_network();
// Why default_network() is nullptr; empty when it is not.
std::string_view default_network_error();
// The file name (no directory) of the net this build embeds, or was configured to embed
// when the file was missing: the name UCI reports as EvalFile's default.
std::string_view default_network_name();

} // namespace arbiter::eval::nnue

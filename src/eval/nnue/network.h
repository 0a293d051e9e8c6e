#pragma once
// The networks Arbiter evaluates, `(768 -> H) x 2 -> 1` with SCReLU, and their file
// format `.anet` (specified in nets/README.md). Three architectures share the format:
// - id 1: one output (generation 2's gen2-a, H = 256);
// - id 2: eight outputs, one chosen per position by its piece count ("output
//   buckets by material"; gen3-a and gen6-z3 with H = 384, gen7-z4, the default
//   net, with H = 512);
// - id 3: as id 2, with four blocks of 768 inputs, one per region of the board where
//   the perspective's own king stands, the board mirrored left-right when that king is
//   on files e-h ("king input buckets"; input_view()).
// The hidden size H is read from the file; it is one of HiddenSizes. A Network only
// ever comes out of load_network() (or a test building one by hand), which checks the
// header, the size, the CRC and the weight ranges: the kernels rely on those ranges
// (see the invariants below) and never check them.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "chess/types.h"

namespace arbiter::eval::nnue {

inline constexpr int InputSize = 768;    // 2 colours x 6 piece types x 64 squares
inline constexpr int QA = 255;           // quantisation of feature weights and biases
inline constexpr int QB = 64;            // quantisation of output weights
inline constexpr int OutputScale = 400;  // centipawns per unit of the float output

// The hidden sizes (neurons per perspective) the kernels are compiled for. Each is a
// multiple of 128, so a feature row is a whole number of 64-byte lines and of 512-bit
// registers. The largest bounds the accumulator's storage and the i32 lanes of the
// output kernels (kernels.h).
inline constexpr std::array<int, 6> HiddenSizes = {128, 256, 384, 512, 768, 1024};
inline constexpr int MaxHiddenSize = 1024;

enum class Architecture : uint32_t {
    Plain = 1,            // one output
    MaterialBuckets = 2,  // MaterialBucketCount outputs, chosen by output_bucket()
    KingBuckets = 3,      // KingBucketCount x 768 inputs (input_view()), outputs as MaterialBuckets
};
inline constexpr int MaterialBucketCount = 8;
inline constexpr int KingBucketCount = 4;

// The output bucket of architecture 2 for a position with `piece_count` pieces, kings
// and pawns included (2 ... 32): (piece_count - 2) / 4, so 2-5 pieces use bucket 0,
// 6-9 bucket 1, ..., 30-32 bucket 7. Equal-width buckets by piece count are the usual
// choice (Stormphrax, Bullet's examples); the trainer computes the same function.
constexpr int output_bucket(int piece_count) {
    const int bucket = (piece_count - 2) / 4;
    return bucket < 0 ? 0 : bucket >= MaterialBucketCount ? MaterialBucketCount - 1 : bucket;
}

inline constexpr uint32_t FormatVersion = 1;
inline constexpr size_t HeaderSize = 32;

constexpr int bucket_count(Architecture arch) { return arch == Architecture::Plain ? 1 : MaterialBucketCount; }
// Input features: 768, or 768 per king bucket.
constexpr int input_count(Architecture arch) {
    return arch == Architecture::KingBuckets ? InputSize * KingBucketCount : InputSize;
}

// Feature weights, feature biases and output weights (i16), then the output biases (i32).
constexpr size_t payload_size(Architecture arch, int hidden) {
    const size_t buckets = size_t(bucket_count(arch));
    return (size_t(input_count(arch)) * hidden + hidden + buckets * 2 * hidden) * 2 + 4 * buckets;
}
static_assert(payload_size(Architecture::Plain, 256) == 394756, "gen2-a's payload size, stated in nets/README.md");
static_assert(payload_size(Architecture::MaterialBuckets, 512) == 803872, "stated in nets/README.md");
static_assert(payload_size(Architecture::KingBuckets, 384) == 2372384, "stated in nets/README.md");

// How one perspective's features are laid out, which in architecture 3 depends on
// where that perspective's own king stands: the first feature of the king's bucket,
// and the XOR applied to every square (7: the board mirrored left-right). Other
// architectures use the default, {0, 0}, whatever the king does.
struct InputView {
    int offset = 0;
    int square_xor = 0;
    friend constexpr bool operator==(InputView, InputView) = default;
};

// Architecture 3's king buckets, by the king's square seen from its own side (ranks
// flipped for Black) after the mirror, so only files a-d are read: the first rank's
// corner files (a, b: castled) 0, its centre files (c, d) 1, the second rank 2, any
// square further up 3. Filled for all 64 squares, symmetrically.
inline constexpr std::array<uint8_t, 64> KingBucketMap = {
    0, 0, 1, 1, 1, 1, 0, 0,  //
    2, 2, 2, 2, 2, 2, 2, 2,  //
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
};

// The view of `perspective` whose own king stands on `king`.
constexpr InputView input_view(Architecture arch, Color perspective, Square king) {
    if (arch != Architecture::KingBuckets) return {};
    const int mirror = (int(king) & 7) >= 4 ? 7 : 0;
    const int relative = perspective == White ? int(king) : int(king) ^ 56;
    return {KingBucketMap[size_t(relative ^ mirror)] * InputSize, mirror};
}

constexpr bool supported_hidden_size(int hidden) {
    for (const int h : HiddenSizes)
        if (h == hidden) return true;
    return false;
}

// Weight limits the loader enforces. The trainer clips feature weights and biases to
// +-1.98 (1.98 * QA = 504.9, so |q| <= 505 whichever way it rounds) and output weights
// to +-1 (|q| <= QB). They guarantee, with at most 32 pieces on the board:
// - an accumulator stays within i16: 33 * 505 < 32767;
// - v * w fits in i16 for v in [0, QA] (255 * 64 < 32767), which the SIMD kernels use;
// - one term v^2 * w is at most 255^2 * 64 = 4,161,600, so a sum of up to 516 terms
//   fits in i32: each i32 lane of the kernels adds at most MaxHiddenSize / 4 = 256
//   terms before the lanes are added in i64 (kernels.h). The output sum is therefore
//   exact in every kernel, and the kernels agree bit for bit.
inline constexpr int FeatureWeightLimit = 505;
inline constexpr int OutputWeightLimit = QB;

// Weights of one network, in 64-byte aligned storage owned by the Network. The spans
// are fixed views of that storage (the Network can be neither copied nor moved); only
// the loader and tests write through them.
class Network {
    struct FreeDeleter {
        void operator()(void* p) const;
    };
    std::unique_ptr<std::byte[], FreeDeleter> storage_;
    Architecture architecture_;
    int hidden_;

public:
    // A network of zeros. `hidden` must be one of HiddenSizes.
    explicit Network(Architecture architecture = Architecture::Plain, int hidden = 256);
    Network(const Network&) = delete;
    Network& operator=(const Network&) = delete;

    Architecture architecture() const { return architecture_; }
    int hidden_size() const { return hidden_; }
    int buckets() const { return bucket_count(architecture_); }
    int inputs() const { return input_count(architecture_); }
    // The output bucket of a position with `piece_count` pieces.
    int bucket(int piece_count) const { return architecture_ == Architecture::Plain ? 0 : output_bucket(piece_count); }
    InputView view(Color perspective, Square king) const { return input_view(architecture_, perspective, king); }

    // Feature-major, inputs() features: the hidden_size() weights of feature f start
    // at f * hidden_size(), so one feature's row is a contiguous, 64-byte aligned block.
    std::span<int16_t> feature_weights;
    std::span<int16_t> feature_biases;
    // Per bucket, 2 * hidden_size() weights: first those applied to the side to move's
    // accumulator, then the other side's. Each bucket's block is 64-byte aligned.
    std::span<int16_t> output_weights;
    std::span<int32_t> output_biases;  // one per bucket

    const int16_t* feature_row(int feature) const { return feature_weights.data() + size_t(feature) * hidden_; }
    const int16_t* output_row(int bucket) const { return output_weights.data() + size_t(bucket) * 2 * hidden_; }
};

// The input feature of `piece` on `square` in the accumulator of `perspective`: own
// pieces first, ranks flipped for Black, so both perspectives share one weight matrix;
// in architecture 3 placed in the block of the perspective's king bucket (`view`).
constexpr int feature_index(Color perspective, Piece piece, Square square, InputView view = {}) {
    return view.offset + (color_of(piece) == perspective ? 0 : 384) + type_of(piece) * 64 +
           ((perspective == White ? int(square) : int(square) ^ 56) ^ view.square_xor);
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

// "(768 -> 512) x 2 -> 1 x 8 buckets" and the like, for messages.
std::string describe(Architecture architecture, int hidden);

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

}  // namespace arbiter::eval::nnue

// The `.anet` reader: a file written by the test's own writer (nets/README.md) loads
// with every weight in place; each kind of damage is refused with its own message;
// files on disk and missing paths; the embedded default net's bookkeeping.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "eval/nnue/network.h"
#include "eval/nnue_test_support.h"

using namespace arbiter;
using namespace arbiter::eval::nnue;
using Catch::Matchers::Contains;

namespace {

bool same_weights(const Network& a, const Network& b) {
    return a.architecture() == b.architecture() && a.hidden_size() == b.hidden_size() &&
           std::ranges::equal(a.feature_weights, b.feature_weights) &&
           std::ranges::equal(a.feature_biases, b.feature_biases) &&
           std::ranges::equal(a.output_weights, b.output_weights) &&
           std::ranges::equal(a.output_biases, b.output_biases);
}

bool aligned(const void* p) { return reinterpret_cast<uintptr_t>(p) % 64 == 0; }

// The error load_network gives for `bytes`, which must be refused.
std::string refusal(const std::vector<std::byte>& bytes) {
    const LoadResult result = load_network(bytes);
    CHECK(result.net == nullptr);
    CHECK(!result.error.empty());
    return result.error;
}

std::filesystem::path temp_file(const std::string& name) {
    return std::filesystem::temp_directory_path() /
           ("arbiter-test-" + std::to_string(std::random_device{}()) + "-" + name);
}

void write_file(const std::filesystem::path& path, const std::vector<std::byte>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    REQUIRE(out.good());
}

}  // namespace

TEST_CASE("feature indices follow nets/README.md", "[nnue]") {
    // Own pieces first, ranks flipped for Black: a side's king on its own e-file home
    // square is the same feature from either side.
    CHECK(feature_index(White, WKing, E1) == 5 * 64 + 4);
    CHECK(feature_index(Black, BKing, E8) == 5 * 64 + 4);
    CHECK(feature_index(White, WPawn, A1) == 0);
    CHECK(feature_index(White, BPawn, A7) == 384 + 48);
    CHECK(feature_index(Black, WPawn, A2) == 384 + 48);
    CHECK(feature_index(Black, BQueen, H1) == 4 * 64 + 63);
    CHECK(feature_index(White, BKing, H8) == InputSize - 1);
}

TEST_CASE("king input views and their features follow nets/README.md", "[nnue]") {
    using A = Architecture;
    const auto view = [](Color side, Square king) { return input_view(A::KingBuckets, side, king); };
    // Buckets by the king's square seen from its side, mirrored to files a-d: first
    // rank a-b 0, c-d 1, second rank 2, beyond 3; mirrored (XOR 7) on files e-h.
    CHECK(view(White, B1) == InputView{0, 0});
    CHECK(view(White, G1) == InputView{0, 7});
    CHECK(view(White, C1) == InputView{768, 0});
    CHECK(view(White, E1) == InputView{768, 7});
    CHECK(view(White, D2) == InputView{2 * 768, 0});
    CHECK(view(White, H2) == InputView{2 * 768, 7});
    CHECK(view(White, A3) == InputView{3 * 768, 0});
    CHECK(view(White, E8) == InputView{3 * 768, 7});
    CHECK(view(Black, E8) == InputView{768, 7});
    CHECK(view(Black, G8) == InputView{0, 7});
    CHECK(view(Black, D7) == InputView{2 * 768, 0});
    CHECK(view(Black, A1) == InputView{3 * 768, 0});
    // The other architectures have one view whatever the king does.
    for (const A arch : {A::Plain, A::MaterialBuckets}) {
        CHECK(input_view(arch, White, G1) == InputView{});
        CHECK(input_view(arch, Black, E8) == InputView{});
    }
    // Feature = bucket * 768 + own/other * 384 + type * 64 + (relative square ^ mirror).
    CHECK(feature_index(White, WKing, E1, view(White, E1)) == 768 + 320 + 3);
    CHECK(feature_index(White, WKing, D1, view(White, D1)) == 768 + 320 + 3);  // d1 is e1 mirrored
    CHECK(feature_index(White, WPawn, H2, view(White, E1)) == 768 + 8);
    CHECK(feature_index(Black, WPawn, A2, view(Black, E8)) == 768 + 384 + (48 ^ 7));
    CHECK(feature_index(Black, BKing, C6, view(Black, C6)) == 3 * 768 + 320 + 18);
    CHECK(feature_index(White, BKing, A8, view(White, H3)) == 3 * 768 + 384 + 320 + 63);
    CHECK(input_count(A::KingBuckets) == 3072);
}

TEST_CASE("crc32 is zlib's", "[nnue]") {
    const char* text = "123456789";
    CHECK(crc32({reinterpret_cast<const std::byte*>(text), 9}) == 0xCBF43926u);
    CHECK(crc32({}) == 0u);
}

TEST_CASE("a well-formed network loads with every weight in place", "[nnue]") {
    const auto net = test::random_network(1);
    const std::vector<std::byte> bytes = test::serialise(*net);
    REQUIRE(bytes.size() == HeaderSize + 394756);
    const LoadResult result = load_network(bytes);
    INFO(result.error);
    REQUIRE(result.net != nullptr);
    CHECK(result.error.empty());
    CHECK(same_weights(*result.net, *net));
    CHECK(result.net->architecture() == Architecture::Plain);
    CHECK(result.net->buckets() == 1);
}

TEST_CASE("bucketed networks of every hidden size load with every weight in place", "[nnue]") {
    for (const Architecture arch : {Architecture::Plain, Architecture::MaterialBuckets, Architecture::KingBuckets})
        for (const int hidden : HiddenSizes) {
            INFO("architecture " << int(arch) << ", hidden size " << hidden);
            const auto net = test::random_network(uint32_t(hidden), arch, hidden);
            const std::vector<std::byte> bytes = test::serialise(*net);
            REQUIRE(bytes.size() == HeaderSize + payload_size(arch, hidden));
            const LoadResult result = load_network(bytes);
            INFO(result.error);
            REQUIRE(result.net != nullptr);
            CHECK(same_weights(*result.net, *net));
            const Network& n = *result.net;
            CHECK(n.buckets() == (arch == Architecture::Plain ? 1 : 8));
            CHECK(n.inputs() == (arch == Architecture::KingBuckets ? 3072 : 768));
            CHECK(n.feature_weights.size() == size_t(n.inputs() * hidden));
            CHECK(n.output_weights.size() == size_t(n.buckets() * 2 * hidden));
            CHECK(n.output_biases.size() == size_t(n.buckets()));
            CHECK(aligned(n.feature_weights.data()));
            CHECK(aligned(n.feature_row(n.inputs() - 1)));
            CHECK(aligned(n.feature_biases.data()));
            for (int b = 0; b < n.buckets(); ++b) CHECK(aligned(n.output_row(b)));
        }
    CHECK(payload_size(Architecture::MaterialBuckets, 256) == 401952);
    CHECK(payload_size(Architecture::MaterialBuckets, 384) == 602912);
    CHECK(payload_size(Architecture::MaterialBuckets, 512) == 803872);
    CHECK(payload_size(Architecture::KingBuckets, 384) == 2372384);
}

TEST_CASE("output buckets follow the piece count as nets/README.md says", "[nnue]") {
    // (pieces - 2) / 4: 2-5 -> 0, 6-9 -> 1, ..., 26-29 -> 6, 30-32 -> 7.
    const int expected[33] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3,
                              3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7};
    for (int pieces = 2; pieces <= 32; ++pieces) CHECK(output_bucket(pieces) == expected[pieces]);
    const Network plain(Architecture::Plain, 256), bucketed(Architecture::MaterialBuckets, 384);
    CHECK(plain.bucket(32) == 0);
    CHECK(plain.bucket(2) == 0);
    CHECK(bucketed.bucket(32) == 7);
    CHECK(bucketed.bucket(9) == 1);
}

TEST_CASE("damaged networks are refused, each with its own message", "[nnue]") {
    const auto net = test::random_network(2);
    const std::vector<std::byte> good = test::serialise(*net);
    std::vector<std::byte> bytes = good;

    SECTION("shorter than a header") {
        bytes.resize(31);
        CHECK_THAT(refusal(bytes), Contains("31 bytes, shorter than the 32-byte header"));
        CHECK_THAT(refusal({}), Contains("0 bytes, shorter than the 32-byte header"));
    }
    SECTION("wrong magic") {
        bytes[0] = std::byte('X');
        CHECK_THAT(refusal(bytes), Contains("wrong magic"));
        bytes = good;
        bytes[7] = std::byte('!');  // the terminating zero byte is part of the magic
        CHECK_THAT(refusal(bytes), Contains("wrong magic"));
    }
    SECTION("unsupported format version") {
        test::set_u32(bytes, 8, 2);
        CHECK_THAT(refusal(bytes), Contains("unsupported network format version 2"));
    }
    SECTION("wrong architecture id") {
        test::set_u32(bytes, 12, 7);
        CHECK_THAT(refusal(bytes), Contains("unsupported network architecture id 7"));
        test::set_u32(bytes, 12, 0);
        CHECK_THAT(refusal(bytes), Contains("unsupported network architecture id 0"));
        test::set_u32(bytes, 12, 4);
        CHECK_THAT(refusal(bytes), Contains("unsupported network architecture id 4"));
    }
    SECTION("unsupported hidden size") {
        test::set_u32(bytes, 16, 320);
        CHECK_THAT(refusal(bytes),
                   Contains("unsupported hidden size 320 (this build evaluates 128, 256, 384, 512, 768, 1024)"));
        test::set_u32(bytes, 16, 0xFFFFFF00u);
        CHECK_THAT(refusal(bytes), Contains("unsupported hidden size 4294967040"));
    }
    SECTION("hidden size or architecture that does not match the payload") {
        test::set_u32(bytes, 16, 512);
        CHECK_THAT(refusal(bytes), Contains("payload size mismatch: the header declares 394756 bytes, "
                                            "(768 -> 512) x 2 -> 1 needs 789508"));
        bytes = good;
        test::set_u32(bytes, 12, 2);
        CHECK_THAT(refusal(bytes), Contains("payload size mismatch: the header declares 394756 bytes, "
                                            "(768 -> 256) x 2 -> 1 x 8 output buckets needs 401952"));
        test::set_u32(bytes, 12, 3);
        CHECK_THAT(refusal(bytes), Contains("payload size mismatch: the header declares 394756 bytes, "
                                            "(768 x 4 -> 256) x 2 -> 1 x 8 output buckets needs 1581600"));
    }
    SECTION("payload size field disagrees with the architecture") {
        test::set_u32(bytes, 20, 394754);
        CHECK_THAT(refusal(bytes), Contains("payload size mismatch: the header declares 394754 bytes"));
    }
    SECTION("reserved field not zero") {
        test::set_u32(bytes, 28, 1);
        CHECK_THAT(refusal(bytes), Contains("reserved header field is 1"));
    }
    SECTION("truncated payload") {
        bytes.resize(good.size() - 1);
        CHECK_THAT(refusal(bytes), Contains("truncated: the payload has 394755 of its 394756 bytes"));
        bytes.resize(HeaderSize);
        CHECK_THAT(refusal(bytes), Contains("truncated: the payload has 0 of its 394756 bytes"));
    }
    SECTION("trailing bytes") {
        bytes.push_back(std::byte{0});
        bytes.push_back(std::byte{0});
        CHECK_THAT(refusal(bytes), Contains("2 trailing bytes"));
    }
    SECTION("CRC mismatch") {
        bytes[HeaderSize + 1000] ^= std::byte{0x10};
        CHECK_THAT(refusal(bytes), Contains("CRC mismatch"));
        bytes = good;
        bytes[24] ^= std::byte{1};  // the stored CRC itself damaged
        CHECK_THAT(refusal(bytes), Contains("CRC mismatch"));
    }
    SECTION("weights outside the ranges the kernels rely on") {
        auto bad = test::random_network(2);
        bad->feature_weights[5 * 256 + 3] = FeatureWeightLimit + 1;
        CHECK_THAT(refusal(test::serialise(*bad)), Contains("feature weight 1283 (feature 5, neuron 3) is 506"));
        bad = test::random_network(2);
        bad->feature_biases[9] = -FeatureWeightLimit - 1;
        CHECK_THAT(refusal(test::serialise(*bad)), Contains("feature bias 9 is -506"));
        bad = test::random_network(2);
        bad->output_weights[300] = OutputWeightLimit + 1;
        CHECK_THAT(refusal(test::serialise(*bad)), Contains("output weight 300 is 65"));
        bad = test::random_network(2, Architecture::MaterialBuckets, 384);
        bad->output_weights[5 * 768 + 10] = -OutputWeightLimit - 1;
        CHECK_THAT(refusal(test::serialise(*bad)), Contains("output weight 3850 (bucket 5, weight 10) is -65"));
        bad = test::random_network(2, Architecture::MaterialBuckets, 512);
        bad->feature_weights[700 * 512 + 511] = -FeatureWeightLimit - 1;
        CHECK_THAT(refusal(test::serialise(*bad)), Contains("(feature 700, neuron 511) is -506"));
    }
    SECTION("damage to a bucketed net") {
        const auto net8 = test::random_network(4, Architecture::MaterialBuckets, 512);
        bytes = test::serialise(*net8);
        REQUIRE(load_network(bytes).net != nullptr);
        bytes[bytes.size() - 3] ^= std::byte{0x40};  // inside the last output bias
        CHECK_THAT(refusal(bytes), Contains("CRC mismatch"));
        bytes.resize(bytes.size() - 4);
        CHECK_THAT(refusal(bytes), Contains("truncated: the payload has 803868 of its 803872 bytes"));
        bytes = test::serialise(*net8);
        test::set_u32(bytes, 12, 1);
        CHECK_THAT(refusal(bytes), Contains("payload size mismatch: the header declares 803872 bytes, "
                                            "(768 -> 512) x 2 -> 1 needs 789508"));
    }
    // Every damage above leaves the rest intact: the original still loads.
    CHECK(load_network(good).net != nullptr);
}

TEST_CASE("networks load from files, errors name the file", "[nnue]") {
    const auto net = test::random_network(3);

    SECTION("a good file") {
        const std::filesystem::path path = temp_file("good.anet");
        write_file(path, test::serialise(*net));
        const LoadResult result = load_network_file(path.string());
        std::filesystem::remove(path);
        INFO(result.error);
        REQUIRE(result.net != nullptr);
        CHECK(same_weights(*result.net, *net));
    }
    SECTION("a damaged file") {
        const std::filesystem::path path = temp_file("bad.anet");
        std::vector<std::byte> bytes = test::serialise(*net);
        test::set_u32(bytes, 8, 9);
        write_file(path, bytes);
        const LoadResult result = load_network_file(path.string());
        std::filesystem::remove(path);
        CHECK(result.net == nullptr);
        CHECK_THAT(result.error, Contains(path.string()) && Contains("unsupported network format version 9"));
    }
    SECTION("a missing file") {
        const std::string path = "/nonexistent-arbiter-dir/missing.anet";
        const LoadResult result = load_network_file(path);
        CHECK(result.net == nullptr);
        CHECK_THAT(result.error, Contains("cannot open network file '" + path + "'"));
    }
    SECTION("a directory") {
        const LoadResult result = load_network_file(std::filesystem::temp_directory_path().string());
        CHECK(result.net == nullptr);
        CHECK(!result.error.empty());
    }
}

TEST_CASE("the default network is either embedded and valid or absent with a reason", "[nnue]") {
    const std::string_view name = default_network_name();
    CHECK(!name.empty());
    CHECK(name.find('/') == std::string_view::npos);
    if (default_network() != nullptr) {
        CHECK(default_network_error().empty());
        CHECK(default_network() == default_network());  // loaded once
    } else {
        CHECK_THAT(std::string(default_network_error()), Contains(std::string(name)));
    }
}

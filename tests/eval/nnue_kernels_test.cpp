// The scalar, AVX2 and AVX-512 kernels of every hidden size against a plain reference
// of the spec's formulas and against each other, on random accumulators (the whole i16
// range, so the clamp and wrapping are exercised), on the worst case of the output sum,
// and on the accumulators of positions from random games with bucketed nets.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "test_support.h"
#include "chess/movegen.h"
#include "chess/piece_changes.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/kernels.h"
#include "eval/nnue_test_support.h"

using namespace arbiter;
using namespace arbiter::eval::nnue;

namespace {

// Values a search meets (around the clamp) most of the time, anything else sometimes.
void fill_random(int16_t* values, int hidden, std::mt19937& rng) {
    std::uniform_int_distribution<int> near(-300, 600), any(-32768, 32767);
    const bool wide = rng() % 4 == 0;
    for (int i = 0; i < hidden; ++i) values[i] = int16_t(wide ? any(rng) : near(rng));
}

int64_t reference_output_sum(const int16_t* us, const int16_t* them, const int16_t* w, int hidden) {
    int64_t sum = 0;
    for (int i = 0; i < hidden; ++i) {
        const int64_t a = std::clamp<int>(us[i], 0, QA), b = std::clamp<int>(them[i], 0, QA);
        sum += a * a * w[i] + b * b * w[hidden + i];
    }
    return sum;
}

bool same(const Accumulator& a, const Accumulator& b, int hidden) {
    return std::memcmp(a.values[0], b.values[0], size_t(hidden) * 2) == 0 &&
           std::memcmp(a.values[1], b.values[1], size_t(hidden) * 2) == 0;
}

// The SIMD instruction sets this CPU runs.
std::vector<Isa> simd_isas() {
    std::vector<Isa> isas;
    for (const Isa isa : {Isa::Avx2, Isa::Avx512})
        if (isa_available(isa)) isas.push_back(isa);
        else WARN("this CPU does not run the " << isa_name(isa) << " kernels: they are not checked");
    return isas;
}

}  // namespace

TEST_CASE("the kernel set in use is the best this CPU runs", "[nnue]") {
    const Isa expected = isa_available(Isa::Avx512) ? Isa::Avx512 : isa_available(Isa::Avx2) ? Isa::Avx2 : Isa::Scalar;
    if (!std::getenv("ARBITER_NNUE_ISA")) CHECK(best_isa() == expected);
    CHECK(isa_available(best_isa()));
    CHECK(isa_available(Isa::Scalar));
    for (const int hidden : HiddenSizes)
        for (const Isa isa : {Isa::Scalar, Isa::Avx2, Isa::Avx512}) {
            const Kernels& k = kernels(isa, hidden);
            CHECK(k.hidden == hidden);
            if (isa_available(isa)) CHECK(k.isa == isa);
        }
    CHECK(std::string(isa_name(Isa::Avx512)) == "avx512");
}

TEST_CASE("kernels agree with the reference formulas and with each other", "[nnue]") {
    const std::vector<Isa> isas = simd_isas();
    const int counts[][2] = {{1, 1}, {1, 2}, {2, 2}, {0, 0}, {1, 0}, {0, 1}, {2, 1}, {2, 0}, {0, 2}};
    for (const int hidden : HiddenSizes) {
        INFO("hidden size " << hidden);
        const auto net = test::random_network(21 + uint32_t(hidden), Architecture::MaterialBuckets, hidden);
        std::mt19937 rng(22);
        const Kernels& scalar = kernels(Isa::Scalar, hidden);
        for (int trial = 0; trial < 600; ++trial) {
            Accumulator parent;
            fill_random(parent.values[White], hidden, rng);
            fill_random(parent.values[Black], hidden, rng);

            // Output layer, every bucket, both sides to move.
            const int bucket = trial % MaterialBucketCount;
            const int16_t* weights = net->output_row(bucket);
            const int64_t expected = reference_output_sum(parent.values[White], parent.values[Black], weights, hidden);
            REQUIRE(scalar.output_sum(parent.values[White], parent.values[Black], weights) == expected);
            for (const Isa isa : isas) {
                const Kernels& simd = kernels(isa, hidden);
                REQUIRE(simd.output_sum(parent.values[White], parent.values[Black], weights) == expected);
                for (const Color stm : {White, Black})
                    for (const int pieces : {2, 17, 32})
                        REQUIRE(evaluate(scalar, *net, parent, stm, pieces) ==
                                evaluate(simd, *net, parent, stm, pieces));
            }

            // Accumulator update with any number of rows up to two each way.
            const auto& [added, removed] = counts[trial % std::size(counts)];
            RowChanges rows;
            rows.added_count = added;
            rows.removed_count = removed;
            for (int k = 0; k < 2; ++k) {
                rows.added[k] = net->feature_row(int(rng() % InputSize));
                rows.removed[k] = net->feature_row(int(rng() % InputSize));
            }
            alignas(64) int16_t reference[MaxHiddenSize], got[MaxHiddenSize];
            for (int i = 0; i < hidden; ++i) {
                int v = parent.values[White][i];
                for (int k = 0; k < added; ++k) v += rows.added[k][i];
                for (int k = 0; k < removed; ++k) v -= rows.removed[k][i];
                reference[i] = int16_t(v);  // wraps like the kernels
            }
            scalar.apply_rows(parent.values[White], got, rows);
            REQUIRE(std::memcmp(got, reference, size_t(hidden) * 2) == 0);
            for (const Isa isa : isas) {
                std::fill(std::begin(got), std::end(got), int16_t(0x5555));
                kernels(isa, hidden).apply_rows(parent.values[White], got, rows);
                REQUIRE(std::memcmp(got, reference, size_t(hidden) * 2) == 0);
                // Nothing written past the hidden size.
                REQUIRE(std::all_of(got + hidden, std::end(got), [](int16_t v) { return v == 0x5555; }));
            }
        }
    }
}

TEST_CASE("the output sum is exact at its extremes for every hidden size", "[nnue]") {
    // Every accumulator at QA and every weight at +-QB: 2H terms of 255^2 * 64, beyond
    // i32 from H = 256 on (2 * 256 * 4161600 = 2130739200 still fits; 384 does not).
    for (const int hidden : HiddenSizes)
        for (const int sign : {1, -1}) {
            const auto net = test::extreme_network(Architecture::MaterialBuckets, hidden, sign);
            Accumulator acc;
            std::fill(acc.values[0], acc.values[0] + hidden, int16_t(QA));
            std::fill(acc.values[1], acc.values[1] + hidden, int16_t(32767));  // clamps to QA
            const int64_t expected = sign * int64_t(2 * hidden) * QA * QA * QB;
            for (const Isa isa : {Isa::Scalar, Isa::Avx2, Isa::Avx512}) {
                if (!isa_available(isa)) continue;
                INFO(isa_name(isa) << " hidden " << hidden << " sign " << sign);
                CHECK(kernels(isa, hidden).output_sum(acc.values[0], acc.values[1], net->output_row(3)) == expected);
                // (sum / QA) * 400 / (QA * QB) = 2H * 400 exactly.
                CHECK(evaluate(kernels(isa, hidden), *net, acc, White, 20) == sign * 2 * hidden * OutputScale);
            }
        }
}

TEST_CASE("kernels agree on the accumulators of real positions", "[nnue]") {
    const std::vector<Isa> isas = simd_isas();
    if (isas.empty()) return;
    int compared = 0;
    for (const int hidden : {256, 384, 512}) {
        const auto net = test::random_network(23, Architecture::MaterialBuckets, hidden);
        std::mt19937 rng(24);
        const std::vector<std::string> fens = test::epd_fens("standard.epd");
        for (size_t f = 0; f < fens.size(); f += 2) {
            Position pos = test::parse_fen(fens[f], false, FenCheck::Playable);
            Accumulator acc;
            refresh(*net, pos, acc);
            for (int ply = 0; ply < 60; ++ply) {
                const int pieces = popcount(pos.occupied());
                for (const Isa isa : isas)
                    for (const Color stm : {White, Black})
                        REQUIRE(evaluate(kernels(Isa::Scalar, hidden), *net, acc, stm, pieces) ==
                                evaluate(kernels(isa, hidden), *net, acc, stm, pieces));
                const MoveList moves = legal_moves(pos);
                if (moves.empty()) break;
                const Move m = moves[rng() % moves.size()];
                const PieceChanges changes = piece_changes(pos, m);
                Accumulator by_scalar, by_simd;
                update(kernels(Isa::Scalar, hidden), *net, acc, changes, by_scalar);
                for (const Isa isa : isas) {
                    update(kernels(isa, hidden), *net, acc, changes, by_simd);
                    REQUIRE(same(by_scalar, by_simd, hidden));
                }
                acc = by_scalar;
                pos = pos.apply(m);
                ++compared;
            }
        }
    }
    CHECK(compared > 1000);
}

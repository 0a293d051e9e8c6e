// The scalar and AVX2 kernels against a plain reference of the spec's formulas and
// against each other, on random accumulators (the whole i16 range, so the clamp and
// wrapping are exercised) and on the accumulators of positions from random games.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <random>
#include <string>

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
void fill_random(int16_t* values, std::mt19937& rng) {
    std::uniform_int_distribution<int> near(-300, 600), any(-32768, 32767);
    const bool wide = rng() % 4 == 0;
    for (int i = 0; i < HiddenSize; ++i) values[i] = int16_t(wide ? any(rng) : near(rng));
}

int64_t reference_output_sum(const int16_t* us, const int16_t* them, const int16_t* w) {
    int64_t sum = 0;
    for (int i = 0; i < HiddenSize; ++i) {
        const int64_t a = std::clamp<int>(us[i], 0, QA), b = std::clamp<int>(them[i], 0, QA);
        sum += a * a * w[i] + b * b * w[HiddenSize + i];
    }
    return sum;
}

bool same(const Accumulator& a, const Accumulator& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

} // namespace

TEST_CASE("the kernel set in use is the best this CPU runs", "[nnue]") {
    CHECK(std::string(active_kernels().name) == (avx2_available() ? "avx2" : "scalar"));
}

TEST_CASE("kernels agree with the reference formulas and with each other", "[nnue]") {
    const auto net = test::random_network(21);
    std::mt19937 rng(22);
    const bool compare_avx2 = avx2_available();
    if (!compare_avx2) WARN("this CPU has no AVX2: only the scalar kernels are checked");
    const int counts[][2] = {{1, 1}, {1, 2}, {2, 2}, {0, 0}, {1, 0}, {0, 1}, {2, 1}, {2, 0}, {0, 2}};

    for (int trial = 0; trial < 3000; ++trial) {
        Accumulator parent;
        fill_random(parent.values[White], rng);
        fill_random(parent.values[Black], rng);

        // Output layer, both sides to move.
        const int64_t expected = reference_output_sum(parent.values[White], parent.values[Black], net->output_weights);
        const int32_t got = scalar::output_sum(parent.values[White], parent.values[Black], net->output_weights);
        REQUIRE(got == expected);
        if (compare_avx2) {
            REQUIRE(avx2::output_sum(parent.values[White], parent.values[Black], net->output_weights) == expected);
            for (const Color stm : {White, Black})
                REQUIRE(evaluate(scalar::kernels, *net, parent, stm) == evaluate(avx2::kernels, *net, parent, stm));
        }

        // Accumulator update with any number of rows up to two each way.
        const auto& [added, removed] = counts[trial % std::size(counts)];
        RowChanges rows;
        rows.added_count = added;
        rows.removed_count = removed;
        for (int k = 0; k < 2; ++k) {
            rows.added[k] = net->feature_weights + (rng() % InputSize) * HiddenSize;
            rows.removed[k] = net->feature_weights + (rng() % InputSize) * HiddenSize;
        }
        alignas(64) int16_t reference[HiddenSize], a[HiddenSize], b[HiddenSize];
        for (int i = 0; i < HiddenSize; ++i) {
            int v = parent.values[White][i];
            for (int k = 0; k < added; ++k) v += rows.added[k][i];
            for (int k = 0; k < removed; ++k) v -= rows.removed[k][i];
            reference[i] = int16_t(v);  // wraps like the kernels
        }
        scalar::apply_rows(parent.values[White], a, rows);
        REQUIRE(std::memcmp(a, reference, sizeof a) == 0);
        if (compare_avx2) {
            avx2::apply_rows(parent.values[White], b, rows);
            REQUIRE(std::memcmp(b, reference, sizeof b) == 0);
        }
    }
}

TEST_CASE("kernels agree on the accumulators of real positions", "[nnue]") {
    if (!avx2_available()) {
        WARN("this CPU has no AVX2: nothing to compare");
        return;
    }
    const auto net = test::random_network(23);
    std::mt19937 rng(24);
    int compared = 0;
    for (const std::string& fen : test::epd_fens("standard.epd")) {
        Position pos = test::parse_fen(fen, false, FenCheck::Playable);
        Accumulator acc;
        refresh(*net, pos, acc);
        for (int ply = 0; ply < 60; ++ply) {
            for (const Color stm : {White, Black})
                REQUIRE(evaluate(scalar::kernels, *net, acc, stm) == evaluate(avx2::kernels, *net, acc, stm));
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            const Move m = moves[rng() % moves.size()];
            const PieceChanges changes = piece_changes(pos, m);
            Accumulator by_scalar, by_avx2;
            update(scalar::kernels, *net, acc, changes, by_scalar);
            update(avx2::kernels, *net, acc, changes, by_avx2);
            REQUIRE(same(by_scalar, by_avx2));
            acc = by_avx2;
            pos = pos.apply(m);
            ++compared;
        }
    }
    CHECK(compared > 1000);
}

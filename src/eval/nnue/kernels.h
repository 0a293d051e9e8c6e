#pragma once
// The two hot loops of the NNUE, in a portable scalar version and an AVX2 version that
// give bit-identical results (integer sums that cannot overflow, network.h):
// - apply_rows: one perspective's accumulator after a move, parent + added feature
//   rows - removed feature rows (i16, wrapping like the SIMD adds);
// - output_sum: sum_i clamp(us_i, 0, QA)^2 * w_i + clamp(them_i, 0, QA)^2 * w_(256+i).
//
// The AVX2 version is compiled with __attribute__((target("avx2"))), so the portable
// binary carries it too; active_kernels() picks it once, at first use, when the CPU has
// AVX2. Every pointer is 64-byte aligned and spans HiddenSize values (output_sum's
// weights 2 * HiddenSize); `child` does not overlap the rows or the parent.

#include <cstdint>

#include "eval/nnue/network.h"

namespace arbiter::eval::nnue {

// The feature rows one perspective adds and removes for one move: at most two of
// each (castling), one row = HiddenSize weights.
struct RowChanges {
    const int16_t* added[2];
    const int16_t* removed[2];
    int added_count = 0;
    int removed_count = 0;
};

struct Kernels {
    void (*apply_rows)(const int16_t* parent, int16_t* child, const RowChanges& rows);
    int32_t (*output_sum)(const int16_t* us, const int16_t* them, const int16_t* weights);
    const char* name;
};

namespace scalar {
void apply_rows(const int16_t* parent, int16_t* child, const RowChanges& rows);
int32_t output_sum(const int16_t* us, const int16_t* them, const int16_t* weights);
inline constexpr Kernels kernels{apply_rows, output_sum, "scalar"};
} // namespace scalar

namespace avx2 {
// On non-x86 targets these forward to the scalar kernels (avx2_available() is false).
void apply_rows(const int16_t* parent, int16_t* child, const RowChanges& rows);
int32_t output_sum(const int16_t* us, const int16_t* them, const int16_t* weights);
inline constexpr Kernels kernels{apply_rows, output_sum, "avx2"};
} // namespace avx2

// Whether this CPU runs the AVX2 kernels (and this target has them).
bool avx2_available();

// The fastest kernels this CPU runs, chosen once.
const Kernels& active_kernels();

} // namespace arbiter::eval::nnue

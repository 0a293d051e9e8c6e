#pragma once
// The two hot loops of the NNUE, compiled for every hidden size H of HiddenSizes in a
// portable scalar version, an AVX2 version and an AVX-512 version that give
// bit-identical results (integer sums that cannot overflow, network.h):
// - apply_rows: one perspective's accumulator after a move, parent + added feature
//   rows - removed feature rows (i16, wrapping like the SIMD adds);
// - output_sum: sum_i clamp(us_i, 0, QA)^2 * w_i + clamp(them_i, 0, QA)^2 * w_(H+i),
//   exact, as an i64. Each kernel sums in i32 lanes of at most 256 terms (scalar: runs
//   of 128 terms) and adds the lanes in i64, so no partial sum can overflow for any
//   hidden size up to MaxHiddenSize.
//
// The SIMD versions are compiled with __attribute__((target(...))), so the portable
// binary carries them too; best_isa() picks the fastest the CPU runs, once. Every
// pointer is 64-byte aligned and spans H values (output_sum's weights 2 * H);
// `child` does not overlap the rows or the parent.

#include <cstdint>

#include "eval/nnue/network.h"

namespace arbiter::eval::nnue {

// The feature rows one perspective adds and removes for one move: at most two of
// each (castling), one row = H weights.
struct RowChanges {
    const int16_t* added[2];
    const int16_t* removed[2];
    int added_count = 0;
    int removed_count = 0;
};

// Instruction sets with kernels, slowest first.
enum class Isa { Scalar, Avx2, Avx512 };

// The kernels of one instruction set for one hidden size.
struct Kernels {
    void (*apply_rows)(const int16_t* parent, int16_t* child, const RowChanges& rows);
    int64_t (*output_sum)(const int16_t* us, const int16_t* them, const int16_t* weights);
    Isa isa;
    int hidden;
};

// The kernels of `isa` for `hidden` (one of HiddenSizes). An ISA this target has no
// kernels for (AVX2 or AVX-512 off x86) gives the scalar ones; whether the CPU can run
// them is the caller's concern (isa_available).
const Kernels& kernels(Isa isa, int hidden);

// Whether this CPU runs the kernels of `isa` (and this target has them). AVX-512 needs
// the F and BW subsets.
bool isa_available(Isa isa);

// The fastest ISA this CPU runs, chosen once. The environment variable
// ARBITER_NNUE_ISA (scalar, avx2, avx512) lowers the choice, for measuring the
// kernels against each other in the engine; a value the CPU cannot run is ignored.
Isa best_isa();

// "scalar", "avx2", "avx512".
const char* isa_name(Isa isa);

// The kernels best_isa() gives for `hidden`.
inline const Kernels& active_kernels(int hidden) { return kernels(best_isa(), hidden); }

}  // namespace arbiter::eval::nnue

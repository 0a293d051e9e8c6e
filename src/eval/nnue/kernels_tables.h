#pragma once
// Inside the kernels: each instruction set's file defines its table, one Kernels per
// entry of HiddenSizes in the same order; kernels() in kernels_scalar.cpp looks them up.
// Off x86 the SIMD tables hold the scalar kernels and have_*_kernels is false.

#include <array>

#include "eval/nnue/kernels.h"

namespace arbiter::eval::nnue::detail {

using KernelTable = std::array<Kernels, HiddenSizes.size()>;

extern const KernelTable scalar_table;
extern const KernelTable avx2_table;
extern const KernelTable avx512_table;
extern const bool have_avx2_kernels;
extern const bool have_avx512_kernels;

}  // namespace arbiter::eval::nnue::detail

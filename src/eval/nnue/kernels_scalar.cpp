// The portable kernels, written so that GCC and Clang at -O3 vectorise them with
// whatever the target has (SSE2 on any x86-64: paddw/psubw, pmaxsw/pminsw, pmullw,
// pmaddwd), and the run-time choice between them and the AVX2 kernels.

#include <algorithm>

#include "eval/nnue/kernels.h"

namespace arbiter::eval::nnue {

namespace {

// One instance per (added, removed) count, so the loop over neurons has no branch
// and the rows stay in registers. i16 arithmetic wraps (C++20 conversions are
// modular) exactly like the SIMD adds; with a validated net it never needs to.
template <int Added, int Removed>
void apply_rows_fixed(const int16_t* __restrict parent, int16_t* __restrict child, const RowChanges& rows) {
    const int16_t* add0 = rows.added[0];
    const int16_t* add1 = rows.added[Added > 1 ? 1 : 0];
    const int16_t* sub0 = rows.removed[0];
    const int16_t* sub1 = rows.removed[Removed > 1 ? 1 : 0];
    for (int i = 0; i < HiddenSize; ++i) {
        int v = parent[i] + add0[i] - sub0[i];
        if constexpr (Added > 1) v += add1[i];
        if constexpr (Removed > 1) v -= sub1[i];
        child[i] = int16_t(v);
    }
}

// Any other combination; no legal move makes one, but the kernel stays total.
void apply_rows_general(const int16_t* __restrict parent, int16_t* __restrict child, const RowChanges& rows) {
    std::copy(parent, parent + HiddenSize, child);
    for (int r = 0; r < rows.added_count; ++r)
        for (int i = 0; i < HiddenSize; ++i) child[i] = int16_t(child[i] + rows.added[r][i]);
    for (int r = 0; r < rows.removed_count; ++r)
        for (int i = 0; i < HiddenSize; ++i) child[i] = int16_t(child[i] - rows.removed[r][i]);
}

// clamp(a, 0, QA)^2 * w summed, as (v * w) * v: v * w fits in i16 because the loader
// keeps |w| <= QB (network.h), and the i16 x i16 -> i32 multiply-add is what lets the
// compiler use pmaddwd; the value is the same as v * v * w. The clamp is spelt with
// conditionals on an i16: GCC 12 turns std::clamp here into compares and blends, and
// then misses pmaddwd.
int32_t screlu_dot(const int16_t* __restrict a, const int16_t* __restrict w) {
    int32_t sum = 0;
    for (int i = 0; i < HiddenSize; ++i) {
        int16_t v = a[i];
        v = v < 0 ? int16_t(0) : v;
        v = v > QA ? int16_t(QA) : v;
        const int16_t vw = int16_t(v * w[i]);
        sum += vw * v;
    }
    return sum;
}

} // namespace

namespace scalar {

void apply_rows(const int16_t* parent, int16_t* child, const RowChanges& rows) {
    if (rows.added_count == 1 && rows.removed_count == 1) apply_rows_fixed<1, 1>(parent, child, rows);
    else if (rows.added_count == 1 && rows.removed_count == 2) apply_rows_fixed<1, 2>(parent, child, rows);
    else if (rows.added_count == 2 && rows.removed_count == 2) apply_rows_fixed<2, 2>(parent, child, rows);
    else apply_rows_general(parent, child, rows);
}

int32_t output_sum(const int16_t* us, const int16_t* them, const int16_t* weights) {
    return screlu_dot(us, weights) + screlu_dot(them, weights + HiddenSize);
}

} // namespace scalar

bool avx2_available() {
#if defined(__AVX2__)
    return true;
#elif defined(__x86_64__) || defined(__i386__)
    // The builtin checks the OS saves the YMM registers too, not only the CPUID bit.
    static const bool available = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));
    return available;
#else
    return false;
#endif
}

const Kernels& active_kernels() {
    static const Kernels& chosen = avx2_available() ? avx2::kernels : scalar::kernels;
    return chosen;
}

} // namespace arbiter::eval::nnue

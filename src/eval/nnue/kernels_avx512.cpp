// The AVX-512 kernels (the F and BW subsets: 32 i16 per register), the AVX2 ones
// (kernels_avx2.cpp) twice as wide. Each function carries target("avx512f,avx512bw")
// instead of the whole file being compiled with -mavx512bw, so the portable build
// holds them without letting the compiler put AVX-512 instructions anywhere else;
// they run only after isa_available().

#include <utility>

#include "eval/nnue/kernels.h"
#include "eval/nnue/kernels_tables.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define ARBITER_AVX512 __attribute__((target("avx512f,avx512bw")))

namespace arbiter::eval::nnue {

namespace {

constexpr int Lanes = 32;  // i16 per 512-bit register

ARBITER_AVX512 inline __m512i load(const int16_t* p) { return _mm512_load_si512(reinterpret_cast<const __m512i*>(p)); }
ARBITER_AVX512 inline void store(int16_t* p, __m512i v) { _mm512_store_si512(reinterpret_cast<__m512i*>(p), v); }

// The row pointers are copied to locals first: the intrinsic stores may alias
// anything, so the compiler would otherwise reload them from `rows` every iteration.
template <int H, int Added, int Removed>
ARBITER_AVX512 void apply_rows_fixed(const int16_t* parent, int16_t* child, const RowChanges& rows) {
    const int16_t* add0 = rows.added[0];
    const int16_t* add1 = rows.added[Added > 1 ? 1 : 0];
    const int16_t* sub0 = rows.removed[0];
    const int16_t* sub1 = rows.removed[Removed > 1 ? 1 : 0];
    for (int i = 0; i < H; i += Lanes) {
        __m512i v = load(parent + i);
        v = _mm512_add_epi16(v, load(add0 + i));
        if constexpr (Added > 1) v = _mm512_add_epi16(v, load(add1 + i));
        v = _mm512_sub_epi16(v, load(sub0 + i));
        if constexpr (Removed > 1) v = _mm512_sub_epi16(v, load(sub1 + i));
        store(child + i, v);
    }
}

template <int H>
ARBITER_AVX512 void apply_rows_general(const int16_t* parent, int16_t* child, const RowChanges& rows) {
    for (int i = 0; i < H; i += Lanes) {
        __m512i v = load(parent + i);
        for (int r = 0; r < rows.added_count; ++r) v = _mm512_add_epi16(v, load(rows.added[r] + i));
        for (int r = 0; r < rows.removed_count; ++r) v = _mm512_sub_epi16(v, load(rows.removed[r] + i));
        store(child + i, v);
    }
}

template <int H>
ARBITER_AVX512 void apply_rows(const int16_t* parent, int16_t* child, const RowChanges& rows) {
    if (rows.added_count == 1 && rows.removed_count == 1) apply_rows_fixed<H, 1, 1>(parent, child, rows);
    else if (rows.added_count == 1 && rows.removed_count == 2) apply_rows_fixed<H, 1, 2>(parent, child, rows);
    else if (rows.added_count == 2 && rows.removed_count == 2) apply_rows_fixed<H, 2, 2>(parent, child, rows);
    else apply_rows_general<H>(parent, child, rows);
}

// Adds clamp(a, 0, QA)^2 * w to the sixteen i32 lanes of `sum`, as the AVX2 kernel
// does. Each lane takes H / 16 terms here, H / 8 over both perspectives.
template <int H>
ARBITER_AVX512 __m512i screlu_dot(const int16_t* a, const int16_t* w, __m512i sum) {
    const __m512i zero = _mm512_setzero_si512();
    const __m512i qa = _mm512_set1_epi16(QA);
    for (int i = 0; i < H; i += Lanes) {
        const __m512i v = _mm512_min_epi16(_mm512_max_epi16(load(a + i), zero), qa);
        const __m512i vw = _mm512_mullo_epi16(v, load(w + i));
        sum = _mm512_add_epi32(sum, _mm512_madd_epi16(vw, v));
    }
    return sum;
}

template <int H>
ARBITER_AVX512 int64_t output_sum(const int16_t* us, const int16_t* them, const int16_t* weights) {
    static_assert(H % Lanes == 0 && H / 8 <= 256);
    __m512i sum = screlu_dot<H>(us, weights, _mm512_setzero_si512());
    sum = screlu_dot<H>(them, weights + H, sum);
    // The sixteen i32 lanes added in i64, through memory: GCC 12's 512-bit extracts
    // and casts (and _mm512_reduce_add_epi64) start from _mm512_undefined_*, which
    // -Wuninitialized reports. Once per evaluation, it costs nothing measurable.
    alignas(64) int32_t lanes[16];
    _mm512_store_si512(reinterpret_cast<__m512i*>(lanes), sum);
    int64_t total = 0;
    for (const int32_t lane : lanes) total += lane;
    return total;
}

template <int H>
constexpr Kernels make_kernels() {
    return {apply_rows<H>, output_sum<H>, Isa::Avx512, H};
}

template <size_t... I>
constexpr detail::KernelTable make_table(std::index_sequence<I...>) {
    return {make_kernels<HiddenSizes[I]>()...};
}

}  // namespace

namespace detail {
constinit const KernelTable avx512_table = make_table(std::make_index_sequence<HiddenSizes.size()>());
constinit const bool have_avx512_kernels = true;
}  // namespace detail

}  // namespace arbiter::eval::nnue

#else  // not x86: no AVX-512 kernels; kernels() gives the scalar ones.

namespace arbiter::eval::nnue::detail {
constinit const KernelTable avx512_table{};
constinit const bool have_avx512_kernels = false;
}  // namespace arbiter::eval::nnue::detail

#endif

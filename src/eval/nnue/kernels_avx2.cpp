// The AVX2 kernels. Each function carries target("avx2") instead of the whole file
// being compiled with -mavx2, so the portable build holds them without letting the
// compiler put AVX2 instructions anywhere else; they run only after isa_available().

#include <utility>

#include "eval/nnue/kernels.h"
#include "eval/nnue/kernels_tables.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define ARBITER_AVX2 __attribute__((target("avx2")))

namespace arbiter::eval::nnue {

namespace {

constexpr int Lanes = 16;  // i16 per 256-bit register

ARBITER_AVX2 inline __m256i load(const int16_t* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
ARBITER_AVX2 inline void store(int16_t* p, __m256i v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }

// The row pointers are copied to locals first: the intrinsic stores may alias
// anything, so the compiler would otherwise reload them from `rows` every iteration.
template <int H, int Added, int Removed>
ARBITER_AVX2 void apply_rows_fixed(const int16_t* parent, int16_t* child, const RowChanges& rows) {
    const int16_t* add0 = rows.added[0];
    const int16_t* add1 = rows.added[Added > 1 ? 1 : 0];
    const int16_t* sub0 = rows.removed[0];
    const int16_t* sub1 = rows.removed[Removed > 1 ? 1 : 0];
    for (int i = 0; i < H; i += Lanes) {
        __m256i v = load(parent + i);
        v = _mm256_add_epi16(v, load(add0 + i));
        if constexpr (Added > 1) v = _mm256_add_epi16(v, load(add1 + i));
        v = _mm256_sub_epi16(v, load(sub0 + i));
        if constexpr (Removed > 1) v = _mm256_sub_epi16(v, load(sub1 + i));
        store(child + i, v);
    }
}

template <int H>
ARBITER_AVX2 void apply_rows_general(const int16_t* parent, int16_t* child, const RowChanges& rows) {
    for (int i = 0; i < H; i += Lanes) {
        __m256i v = load(parent + i);
        for (int r = 0; r < rows.added_count; ++r) v = _mm256_add_epi16(v, load(rows.added[r] + i));
        for (int r = 0; r < rows.removed_count; ++r) v = _mm256_sub_epi16(v, load(rows.removed[r] + i));
        store(child + i, v);
    }
}

template <int H>
ARBITER_AVX2 void apply_rows(const int16_t* parent, int16_t* child, const RowChanges& rows) {
    if (rows.added_count == 1 && rows.removed_count == 1) apply_rows_fixed<H, 1, 1>(parent, child, rows);
    else if (rows.added_count == 1 && rows.removed_count == 2) apply_rows_fixed<H, 1, 2>(parent, child, rows);
    else if (rows.added_count == 2 && rows.removed_count == 2) apply_rows_fixed<H, 2, 2>(parent, child, rows);
    else apply_rows_general<H>(parent, child, rows);
}

// Adds clamp(a, 0, QA)^2 * w to the eight i32 lanes of `sum`: mullo gives v * w
// exactly (|v * w| <= 255 * 64, network.h), madd multiplies by v again and adds
// neighbouring pairs into i32. Each lane takes H / 8 terms here, H / 4 over both
// perspectives: at most 256 (network.h).
template <int H>
ARBITER_AVX2 __m256i screlu_dot(const int16_t* a, const int16_t* w, __m256i sum) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i qa = _mm256_set1_epi16(QA);
    for (int i = 0; i < H; i += Lanes) {
        const __m256i v = _mm256_min_epi16(_mm256_max_epi16(load(a + i), zero), qa);
        const __m256i vw = _mm256_mullo_epi16(v, load(w + i));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
    }
    return sum;
}

template <int H>
ARBITER_AVX2 int64_t output_sum(const int16_t* us, const int16_t* them, const int16_t* weights) {
    static_assert(H % Lanes == 0 && H / 4 <= 256);
    __m256i sum = screlu_dot<H>(us, weights, _mm256_setzero_si256());
    sum = screlu_dot<H>(them, weights + H, sum);
    // The eight i32 lanes widened to i64 and added.
    const __m256i wide = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(sum)),
                                          _mm256_cvtepi32_epi64(_mm256_extracti128_si256(sum, 1)));
    const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
    return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

template <int H>
constexpr Kernels make_kernels() {
    return {apply_rows<H>, output_sum<H>, Isa::Avx2, H};
}

template <size_t... I>
constexpr detail::KernelTable make_table(std::index_sequence<I...>) {
    return {make_kernels<HiddenSizes[I]>()...};
}

}  // namespace

namespace detail {
constinit const KernelTable avx2_table = make_table(std::make_index_sequence<HiddenSizes.size()>());
constinit const bool have_avx2_kernels = true;
}  // namespace detail

}  // namespace arbiter::eval::nnue

#else  // not x86: no AVX2 kernels; kernels() gives the scalar ones.

namespace arbiter::eval::nnue::detail {
constinit const KernelTable avx2_table{};
constinit const bool have_avx2_kernels = false;
}  // namespace arbiter::eval::nnue::detail

#endif

// The AVX2 kernels. Each function carries target("avx2") instead of the whole file
// being compiled with -mavx2, so the portable build holds them without letting the
// compiler put AVX2 instructions anywhere else; they run only after avx2_available().

#include "eval/nnue/kernels.h"

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#define ARBITER_AVX2 __attribute__((target("avx2")))

namespace arbiter::eval::nnue {

namespace {

constexpr int Lanes = 16;  // i16 per 256-bit register
static_assert(HiddenSize % Lanes == 0);

ARBITER_AVX2 inline __m256i load(const int16_t* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
ARBITER_AVX2 inline void store(int16_t* p, __m256i v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }

// The row pointers are copied to locals first: the intrinsic stores may alias
// anything, so the compiler would otherwise reload them from `rows` every iteration.
template <int Added, int Removed>
ARBITER_AVX2 void apply_rows_fixed(const int16_t* parent, int16_t* child, const RowChanges& rows) {
    const int16_t* add0 = rows.added[0];
    const int16_t* add1 = rows.added[Added > 1 ? 1 : 0];
    const int16_t* sub0 = rows.removed[0];
    const int16_t* sub1 = rows.removed[Removed > 1 ? 1 : 0];
    for (int i = 0; i < HiddenSize; i += Lanes) {
        __m256i v = load(parent + i);
        v = _mm256_add_epi16(v, load(add0 + i));
        if constexpr (Added > 1) v = _mm256_add_epi16(v, load(add1 + i));
        v = _mm256_sub_epi16(v, load(sub0 + i));
        if constexpr (Removed > 1) v = _mm256_sub_epi16(v, load(sub1 + i));
        store(child + i, v);
    }
}

ARBITER_AVX2 void apply_rows_general(const int16_t* parent, int16_t* child, const RowChanges& rows) {
    for (int i = 0; i < HiddenSize; i += Lanes) {
        __m256i v = load(parent + i);
        for (int r = 0; r < rows.added_count; ++r) v = _mm256_add_epi16(v, load(rows.added[r] + i));
        for (int r = 0; r < rows.removed_count; ++r) v = _mm256_sub_epi16(v, load(rows.removed[r] + i));
        store(child + i, v);
    }
}

// Adds clamp(a, 0, QA)^2 * w to the eight i32 lanes of `sum`: mullo gives v * w
// exactly (|v * w| <= 255 * 64, network.h), madd multiplies by v again and adds
// neighbouring pairs into i32.
ARBITER_AVX2 __m256i screlu_dot(const int16_t* a, const int16_t* w, __m256i sum) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i qa = _mm256_set1_epi16(QA);
    for (int i = 0; i < HiddenSize; i += Lanes) {
        const __m256i v = _mm256_min_epi16(_mm256_max_epi16(load(a + i), zero), qa);
        const __m256i vw = _mm256_mullo_epi16(v, load(w + i));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
    }
    return sum;
}

} // namespace

namespace avx2 {

ARBITER_AVX2 void apply_rows(const int16_t* parent, int16_t* child, const RowChanges& rows) {
    if (rows.added_count == 1 && rows.removed_count == 1) apply_rows_fixed<1, 1>(parent, child, rows);
    else if (rows.added_count == 1 && rows.removed_count == 2) apply_rows_fixed<1, 2>(parent, child, rows);
    else if (rows.added_count == 2 && rows.removed_count == 2) apply_rows_fixed<2, 2>(parent, child, rows);
    else apply_rows_general(parent, child, rows);
}

ARBITER_AVX2 int32_t output_sum(const int16_t* us, const int16_t* them, const int16_t* weights) {
    __m256i sum = screlu_dot(us, weights, _mm256_setzero_si256());
    sum = screlu_dot(them, weights + HiddenSize, sum);
    // Horizontal sum of the eight lanes.
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(s);
}

} // namespace avx2

} // namespace arbiter::eval::nnue

#else  // not x86: no AVX2; avx2_available() is false and these are never chosen.

namespace arbiter::eval::nnue::avx2 {

void apply_rows(const int16_t* parent, int16_t* child, const RowChanges& rows) { scalar::apply_rows(parent, child, rows); }
int32_t output_sum(const int16_t* us, const int16_t* them, const int16_t* weights) {
    return scalar::output_sum(us, them, weights);
}

} // namespace arbiter::eval::nnue::avx2

#endif

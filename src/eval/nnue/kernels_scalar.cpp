// The portable kernels, written so that GCC and Clang at -O3 vectorise them with
// whatever the target has (SSE2 on any x86-64: paddw/psubw, pmaxsw/pminsw, pmullw,
// pmaddwd), and the run-time choice between them and the SIMD kernels.

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "eval/nnue/kernels.h"
#include "eval/nnue/kernels_tables.h"

namespace arbiter::eval::nnue {

namespace {

// One instance per (added, removed) count, so the loop over neurons has no branch
// and the rows stay in registers. i16 arithmetic wraps (C++20 conversions are
// modular) exactly like the SIMD adds; with a validated net it never needs to.
template <int H, int Added, int Removed>
void apply_rows_fixed(const int16_t* __restrict parent, int16_t* __restrict child, const RowChanges& rows) {
    const int16_t* add0 = rows.added[0];
    const int16_t* add1 = rows.added[Added > 1 ? 1 : 0];
    const int16_t* sub0 = rows.removed[0];
    const int16_t* sub1 = rows.removed[Removed > 1 ? 1 : 0];
    for (int i = 0; i < H; ++i) {
        int v = parent[i] + add0[i] - sub0[i];
        if constexpr (Added > 1) v += add1[i];
        if constexpr (Removed > 1) v -= sub1[i];
        child[i] = int16_t(v);
    }
}

// Any other combination; no legal move makes one, but the kernel stays total.
template <int H>
void apply_rows_general(const int16_t* __restrict parent, int16_t* __restrict child, const RowChanges& rows) {
    std::copy(parent, parent + H, child);
    for (int r = 0; r < rows.added_count; ++r)
        for (int i = 0; i < H; ++i) child[i] = int16_t(child[i] + rows.added[r][i]);
    for (int r = 0; r < rows.removed_count; ++r)
        for (int i = 0; i < H; ++i) child[i] = int16_t(child[i] - rows.removed[r][i]);
}

template <int H>
void apply_rows(const int16_t* parent, int16_t* child, const RowChanges& rows) {
    if (rows.added_count == 1 && rows.removed_count == 1) apply_rows_fixed<H, 1, 1>(parent, child, rows);
    else if (rows.added_count == 1 && rows.removed_count == 2) apply_rows_fixed<H, 1, 2>(parent, child, rows);
    else if (rows.added_count == 2 && rows.removed_count == 2) apply_rows_fixed<H, 2, 2>(parent, child, rows);
    else apply_rows_general<H>(parent, child, rows);
}

// clamp(a, 0, QA)^2 * w summed over a run of `Run` values, as (v * w) * v: v * w fits
// in i16 because the loader keeps |w| <= QB (network.h), and the i16 x i16 -> i32
// multiply-add is what lets the compiler use pmaddwd; the value is the same as
// v * v * w. A run of 128 terms cannot overflow the i32 (network.h). The clamp is
// spelt with conditionals on an i16: GCC 12 turns std::clamp here into compares and
// blends, and then misses pmaddwd.
constexpr int Run = 128;

int32_t screlu_dot_run(const int16_t* __restrict a, const int16_t* __restrict w) {
    int32_t sum = 0;
    for (int i = 0; i < Run; ++i) {
        int16_t v = a[i];
        v = v < 0 ? int16_t(0) : v;
        v = v > QA ? int16_t(QA) : v;
        const int16_t vw = int16_t(v * w[i]);
        sum += vw * v;
    }
    return sum;
}

template <int H>
int64_t output_sum(const int16_t* us, const int16_t* them, const int16_t* weights) {
    static_assert(H % Run == 0);
    int64_t sum = 0;
    for (int i = 0; i < H; i += Run) sum += screlu_dot_run(us + i, weights + i);
    for (int i = 0; i < H; i += Run) sum += screlu_dot_run(them + i, weights + H + i);
    return sum;
}

template <int H>
constexpr Kernels make_kernels() {
    return {apply_rows<H>, output_sum<H>, Isa::Scalar, H};
}

template <size_t... I>
constexpr std::array<Kernels, HiddenSizes.size()> make_table(std::index_sequence<I...>) {
    return {make_kernels<HiddenSizes[I]>()...};
}

size_t size_index(int hidden) {
    const auto* it = std::find(HiddenSizes.begin(), HiddenSizes.end(), hidden);
    if (it == HiddenSizes.end()) std::abort();  // a Network only ever has a supported size
    return size_t(it - HiddenSizes.begin());
}

bool cpu_runs(Isa isa) {
#if defined(__x86_64__) || defined(__i386__)
    // The builtins check that the OS saves the wide registers too, not only the CPUID bits.
    __builtin_cpu_init();
    switch (isa) {
    case Isa::Scalar: return true;
    case Isa::Avx2: return __builtin_cpu_supports("avx2");
    case Isa::Avx512: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    }
    return false;
#else
    return isa == Isa::Scalar;
#endif
}

Isa choose_isa() {
    Isa best = Isa::Scalar;
    for (const Isa isa : {Isa::Avx2, Isa::Avx512})
        if (isa_available(isa)) best = isa;
    if (const char* wanted = std::getenv("ARBITER_NNUE_ISA")) {
        for (const Isa isa : {Isa::Scalar, Isa::Avx2, Isa::Avx512})
            if (std::strcmp(wanted, isa_name(isa)) == 0 && isa <= best) best = isa;
    }
    return best;
}

}  // namespace

namespace detail {
constinit const KernelTable scalar_table = make_table(std::make_index_sequence<HiddenSizes.size()>());
}  // namespace detail

const Kernels& kernels(Isa isa, int hidden) {
    const size_t index = size_index(hidden);
    if (isa == Isa::Avx512 && detail::have_avx512_kernels) return detail::avx512_table[index];
    if (isa == Isa::Avx2 && detail::have_avx2_kernels) return detail::avx2_table[index];
    return detail::scalar_table[index];
}

bool isa_available(Isa isa) {
    static const bool avx2 = cpu_runs(Isa::Avx2) && detail::have_avx2_kernels;
    static const bool avx512 = cpu_runs(Isa::Avx512) && detail::have_avx512_kernels;
    return isa == Isa::Scalar || (isa == Isa::Avx2 && avx2) || (isa == Isa::Avx512 && avx512);
}

Isa best_isa() {
    static const Isa chosen = choose_isa();
    return chosen;
}

const char* isa_name(Isa isa) {
    switch (isa) {
    case Isa::Avx2: return "avx2";
    case Isa::Avx512: return "avx512";
    case Isa::Scalar: break;
    }
    return "scalar";
}

}  // namespace arbiter::eval::nnue

#!/usr/bin/env bash
# Sanitizer builds, as CI runs them (.ci/run):
#   1. AddressSanitizer + UndefinedBehaviorSanitizer: the whole test suite (CTest) in
#      build-asan/, any report fails the test that triggered it;
#   2. ThreadSanitizer: the engine alone in build-tsan/, driven by
#      tests/uci/threaded_search_test.py (Threads 2; stop, isready, setoption Hash,
#      ucinewgame arriving during searches) and by tests/uci/stress/uci_stress.py (random
#      interleavings). A data race ends the run with a report.
# Optimised (-O1) with assertions on and line tables, so reports have lines.
# usage: scripts/sanitizers.sh [asan|tsan]...   (default: both)
set -euo pipefail
# shellcheck source=scripts/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
jobs=$(nproc 2>/dev/null || echo 2)

configure() {  # build-dir sanitizer-list tests(ON/OFF)
    cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 \
        -DARBITER_SANITIZE="$2" -DARBITER_BUILD_TESTS="$3" --log-level=WARNING </dev/null >&2
}

run_asan() {
    echo "== AddressSanitizer + UndefinedBehaviorSanitizer: whole test suite" >&2
    configure build-asan address,undefined ON
    cmake --build build-asan -j "$jobs" </dev/null >&2
    # allocator_may_return_null: the Hash tests ask for absurd sizes on purpose and
    # check that the engine survives the failed allocation. The perft suites run every
    # position at a smaller node budget (the Release CTest run covers the deeper ones).
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:allocator_may_return_null=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ARBITER_PERFT_NODE_BUDGET=1000000 \
        ctest --test-dir build-asan --output-on-failure --no-tests=error -j "$jobs"
}

run_tsan() {
    echo "== ThreadSanitizer: multi-threaded searches" >&2
    configure build-tsan thread OFF
    cmake --build build-tsan -j "$jobs" --target arbiter </dev/null >&2
    TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
        python3 tests/uci/threaded_search_test.py build-tsan/arbiter 8
    # The random stress test too, its legality oracle the release build (same source).
    arbiter_build arbiter
    TSAN_OPTIONS=halt_on_error=1 python3 tests/uci/stress/uci_stress.py --engine build-tsan/arbiter \
        --oracle build/arbiter --commands 1500 --seed 1 --ready-ms 1000 --max-rss-mb 4000
}

targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(asan tsan)
for target in "${targets[@]}"; do
    case "$target" in
        asan) run_asan ;;
        tsan) run_tsan ;;
        *) echo "unknown sanitizer run '$target' (asan, tsan)" >&2; exit 2 ;;
    esac
done

#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, in build-fuzz/), replays every saved regression input,
# then fuzzes each target for the given time.
#
#     bash scripts/fuzz.sh [--jobs N] [--keep] [seconds-per-target] [target...]
#
# Targets: fen, move, pgn, table, uci (or fen_fuzz, ...); default all five,
# 60 seconds each. Each target starts from a copy of tests/fuzz/corpus/<name> in
# build-fuzz/fuzz/<target>/corpus, which keeps what it learns between local runs.
# --jobs N fuzzes N targets at once (one core each; default 1). --keep merges what
# each target learned into tests/fuzz/corpus/<name> afterwards (libFuzzer's -merge=1:
# only inputs that reach new code), for a long run whose corpus is to be committed;
# without it nothing is written into tests/. Exits non-zero when a regression input
# fails or a target crashes, times out or leaks, naming the saved input and how to
# reproduce it.
#
# Installs clang and libclang-rt-14-dev (libFuzzer) with apt-get when run as root and
# they are missing, besides what scripts/setup.sh installs for every build.
set -euo pipefail
# shellcheck source=scripts/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

usage() {
    echo "usage: bash scripts/fuzz.sh [--jobs N] [--keep] [seconds-per-target] [fen|move|pgn|table|uci ...]" >&2
    exit 2
}

jobs=1
keep=0
while [ $# -gt 0 ]; do
    case $1 in
    --jobs)
        if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then usage; fi
        jobs=$2
        shift 2
        ;;
    --keep)
        keep=1
        shift
        ;;
    *) break ;;
    esac
done
seconds=60
if [ $# -gt 0 ]; then
    if ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then usage; fi
    seconds=$1
    shift
fi
# uci first: replaying its corpus alone takes about two minutes (each input a UCI
# session with searches, about 12 a second), so that with --jobs 2 the other four run
# beside it rather than after it.
[ $# -gt 0 ] || set -- uci fen move pgn table
targets=()
for name in "$@"; do
    case ${name%_fuzz} in
    fen | move | pgn | table | uci) targets+=("${name%_fuzz}") ;;
    *) usage ;;
    esac
done

# Inputs longer than a FEN, a few moves, a game, a small table file (with its
# selector byte) or a short session only slow the search down.
max_len() {
    case $1 in
    fen) echo 128 ;;
    move) echo 128 ;;
    pgn) echo 4096 ;;
    table) echo 16384 ;;
    uci) echo 1024 ;;
    esac
}

fuzz_install_dependencies() {
    local missing=()
    command -v clang++ >/dev/null 2>&1 || missing+=(clang)
    if command -v dpkg >/dev/null 2>&1 &&
        ! dpkg -s libclang-rt-14-dev 2>/dev/null | grep -q '^Status: install ok installed'; then
        missing+=(libclang-rt-14-dev)
    fi
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "The fuzzers need these Debian packages: ${missing[*]}" >&2
        echo "Install them with:" >&2
        echo "    sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
        exit 1
    fi
    echo "Installing the fuzzers' dependencies: ${missing[*]}" >&2
    if ! arbiter_apt_install "${missing[@]}"; then
        echo "apt-get failed to install: ${missing[*]}" >&2
        exit 1
    fi
}

fuzz_install_dependencies

build="build-fuzz"
# -O1 with assertions on (no NDEBUG): the usual trade-off for fuzzing, fast enough to
# run many inputs and still checking StaticVector's capacity.
echo "Building the fuzz targets in $build/ ..." >&2
start=$SECONDS
if ! cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DARBITER_FUZZ=ON -DARBITER_BUILD_TESTS=OFF \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O1 --log-level=WARNING </dev/null >&2 ||
    ! cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" \
        --target "${targets[@]/%/_fuzz}" </dev/null >&2; then
    echo "The fuzz build failed; see the messages above." >&2
    exit 1
fi
echo "Built in $((SECONDS - start)) s." >&2

# A sanitizer report must end the run and show where it happened.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

failed=0

# 1. Every input that ever crashed a target must pass.
for t in "${targets[@]}"; do
    binary=$build/tests/fuzz/${t}_fuzz
    dir=tests/fuzz/regressions/${t}_fuzz
    [ -d "$dir" ] || continue
    count=0
    for input in "$dir"/*; do
        [ -f "$input" ] || continue
        count=$((count + 1))
        if ! log=$("$binary" -timeout=10 -rss_limit_mb=2048 "$input" 2>&1); then
            echo "$log" | tail -n 40 >&2
            echo "FAILED: regression input $input" >&2
            echo "    reproduce with: $binary $input" >&2
            failed=1
        fi
    done
    echo "${t}_fuzz: $count regression input(s) replayed" >&2
done

# 2. Fuzz each target for the given time, up to $jobs at once. Each run leaves its
# summary line in its own folder (and a file "failed" when it failed), read below.
fuzz_target() {
    local t=$1
    local binary=$build/tests/fuzz/${t}_fuzz
    local work=$build/fuzz/${t}_fuzz
    mkdir -p "$work/corpus" "$work/artifacts"
    cp tests/fuzz/corpus/"$t"/* "$work/corpus/"
    rm -f "$work"/artifacts/* "$work/summary" "$work/failed"
    # -len_control=0: mutations may use the whole -max_len at once, which a short CI
    # run needs to get past the size of the seeds.
    local options=(-max_total_time="$seconds" -max_len="$(max_len "$t")" -len_control=0 -timeout=10
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/artifacts/")
    [ -f "tests/fuzz/$t.dict" ] && options+=(-dict="tests/fuzz/$t.dict")
    echo "Fuzzing ${t}_fuzz for $seconds s (log: $work/fuzz.log) ..." >&2
    local status=0
    "$binary" "${options[@]}" "$work/corpus" >"$work/fuzz.log" 2>&1 || status=$?
    # The last status line: coverage, features, corpus size, executions per second.
    local last runs
    last=$(grep -E '^#[0-9]+' "$work/fuzz.log" | tail -n 1 || true)
    runs=$(grep -E '^stat::number_of_executed_units' "$work/fuzz.log" | awk '{print $2}' || true)
    if [ "$status" -eq 0 ]; then
        echo "${t}_fuzz: ${last:-no status line} (${runs:-?} runs)" >"$work/summary"
        return 0
    fi
    echo "${t}_fuzz: FAILED after ${runs:-?} runs; last status: ${last:-none}" >"$work/summary"
    touch "$work/failed"
    tail -n 60 "$work/fuzz.log" >&2
    local artifact
    artifact=$(find "$work/artifacts" -type f -print -quit)
    echo "FAILED: ${t}_fuzz stopped with status $status" >&2
    if [ -n "$artifact" ]; then
        echo "    input saved as: $artifact" >&2
        echo "    reproduce with: $binary $artifact" >&2
        echo "    keep it with:   cp $artifact tests/fuzz/regressions/${t}_fuzz/<what-it-found>" >&2
    fi
}

running=0
for t in "${targets[@]}"; do
    fuzz_target "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n || true
        running=$((running - 1))
    fi
done
wait

summary=()
for t in "${targets[@]}"; do
    work=$build/fuzz/${t}_fuzz
    summary+=("$(cat "$work/summary" 2>/dev/null || echo "${t}_fuzz: no summary (the run did not finish)")")
    if [ -f "$work/failed" ] || [ ! -f "$work/summary" ]; then
        failed=1
    elif [ "$keep" -eq 1 ]; then
        before=$(find "tests/fuzz/corpus/$t" -type f | wc -l)
        "$build/tests/fuzz/${t}_fuzz" -merge=1 -max_len="$(max_len "$t")" "tests/fuzz/corpus/$t" "$work/corpus" \
            >"$work/merge.log" 2>&1 || {
            tail -n 20 "$work/merge.log" >&2
            echo "FAILED: merging ${t}_fuzz's corpus into tests/fuzz/corpus/$t" >&2
            failed=1
        }
        after=$(find "tests/fuzz/corpus/$t" -type f | wc -l)
        summary+=("    kept: tests/fuzz/corpus/$t has $after inputs (was $before)")
    fi
done

echo >&2
echo "Fuzzing summary ($seconds s per target):" >&2
for line in "${summary[@]}"; do echo "    $line" >&2; done
if [ "$failed" -ne 0 ]; then
    echo "fuzz.sh: FAILED (see above)" >&2
    exit 1
fi
echo "fuzz.sh: all targets passed" >&2

#pragma once
// The bench: fixed-depth searches of a fixed set of positions, each from a fresh
// engine state, single thread and 16 MB hash. The total node count is the
// functional signature of search and evaluation (`Bench: N` in commit messages).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace arbiter::search {

constexpr int BenchDepth = 11;
// The deepest bench that may be asked for.
constexpr int MaxBenchDepth = 30;

// The depth of `bench [depth]`: BenchDepth when no depth is given, else `text` as a
// depth from 1 to MaxBenchDepth; nullopt for anything else. The one check of a bench
// depth, for the command line and the UCI command alike.
std::optional<int> bench_depth(std::optional<std::string_view> text);

struct BenchResult {
    uint64_t nodes = 0;
    int64_t ms = 0;
    uint64_t nps() const { return ms > 0 ? nodes * 1000 / uint64_t(ms) : nodes * 1000; }
};

class Engine;

// Runs the bench, printing one line per position through `print`, with the embedded
// network, or with the evaluation `evaluation_of` uses (its network or the
// hand-crafted evaluation: UCI's `bench` after `setoption name EvalFile`).
BenchResult run_bench(int depth, const std::function<void(const std::string&)>& print,
                      const Engine* evaluation_of = nullptr);

}  // namespace arbiter::search

// `arbiter bench [depth]`: the benchmark of search/bench.h; its last line,
// `<nodes> nodes <nps> nps`, is what OpenBench and scripts/bench_signature.sh read.

#include <fmt/format.h>

#include <ostream>

#include "search/bench.h"
#include "tools/tools.h"

namespace arbiter::tools {

int bench_main(const Args& args, std::ostream& out, std::ostream& err) {
    const std::optional<int> depth =
        search::bench_depth(args.empty() ? std::nullopt : std::optional<std::string_view>(args[0]));
    if (args.size() > 1 || !depth) {
        err << fmt::format("arbiter: bench depth must be a number from 1 to {}\n", search::MaxBenchDepth);
        return 2;
    }
    const search::BenchResult result = search::run_bench(*depth, [&out](const std::string& line) {
        out << line << '\n';
        out.flush();
    });
    out << fmt::format("{} nodes {} nps\n", result.nodes, result.nps());
    out.flush();
    return 0;
}

}  // namespace arbiter::tools

// `arbiter spsa`: every search parameter of search/tunables.h in the list format
// OpenBench's SPSA reads: name, int, default, min, max, step (c_end), learning rate
// (r_end).

#include <ostream>

#include "search/tunable.h"
#include "tools/tools.h"

namespace arbiter::tools {

namespace {

// The learning rate (OpenBench's r_end) of every parameter.
constexpr std::string_view LearningRate = "0.002";

}  // namespace

int spsa_main(const Args& args, std::ostream& out, std::ostream& err) {
    if (!args.empty()) return usage_error(err, "spsa", "takes no arguments");
    for (const search::TunableInfo& t : search::tunables())
        out << t.name << ", int, " << t.default_value << ", " << t.min << ", " << t.max << ", " << t.step << ", "
            << LearningRate << '\n';
    out.flush();
    return 0;
}

}  // namespace arbiter::tools

// `arbiter perft <depth> [fen]`: the same divide as `go perft`, for the start position
// or a FEN (standard or Chess960, one argument or several).

#include <fmt/format.h>

#include <ostream>

#include "chess/perft.h"
#include "tools/tools.h"

namespace arbiter::tools {

int perft_main(const Args& args, std::ostream& out, std::ostream& err) {
    if (args.empty()) {
        err << "arbiter perft: expected a depth and optionally a FEN\n";
        return 2;
    }
    const ParsedNumber<int> depth = parse_number<int>(args[0], 1, MaxPerftDepth);
    if (depth.error() == NumberError::NotANumber) {
        err << fmt::format("arbiter: perft depth '{}' is not a number\n", args[0]);
        return 2;
    }
    if (!depth) {
        err << fmt::format("arbiter: perft depth must be from 1 to {}\n", MaxPerftDepth);
        return 2;
    }
    std::string fen;
    for (size_t i = 1; i < args.size(); ++i) {
        if (i > 1) fen += ' ';
        fen += args[i];
    }
    const FenResult start = read_any_fen(fen.empty() ? Position::StartFen : fen);
    if (!start.position) {
        err << fmt::format("arbiter: {}\n", start.error);
        return 2;
    }
    out << divide_report(*start.position, *depth);
    out.flush();
    return 0;
}

}  // namespace arbiter::tools

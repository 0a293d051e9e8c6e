// `arbiter convert IN... OUT`: training records from self-play games (`.agame`,
// game_record.h, and `.apack` shards, game_pack.h: any number of them, every game
// once, pool.h) or from engine games in PGN (pgn_training.h), told apart by the first
// input's extension.

#include <cctype>
#include <string>

#include "tools/game_record.h"
#include "tools/pgn_training.h"
#include "tools/pool.h"
#include "tools/tools.h"

namespace arbiter::tools {

namespace {

// Whether `path` names a PGN file (by its extension, in any case).
bool is_pgn_file(std::string_view path) {
    if (path.size() < 4) return false;
    std::string ext(path.substr(path.size() - 4));
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".pgn";
}

}  // namespace

int convert_main(const Args& args, std::ostream&, std::ostream& err) {
    const bool pgn = !args.empty() && is_pgn_file(args[0]);
    if (pgn) {
        const bool player = args.size() == 4 && args[2] == "--player";
        if (args.size() != 2 && !player)
            return usage_error(err, "convert",
                               "expected an input .pgn file, an output .abin file and optionally --player NAME");
        return run_convert_pgn(std::string(args[0]), std::string(args[1]), player ? std::string(args[3]) : "", err);
    }
    if (args.size() < 2)
        return usage_error(err, "convert",
                           "expected one or more input .agame or .apack files and an output .abin file");
    return run_convert_pool({args.begin(), args.end() - 1}, std::string(args.back()), err);
}

}  // namespace arbiter::tools

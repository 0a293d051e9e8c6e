// Entry point: argv dispatch only. No arguments: the UCI loop on stdin/stdout.

#include <cctype>
#include <iostream>
#include <ostream>
#include <string>
#include <string_view>

#include "tools/datagen.h"
#include "tools/game_record.h"
#include "tools/pgn_training.h"
#include "tools/pool.h"
#include "search/tunable.h"
#include "tools/tools.h"
#include "uci/uci.h"

namespace {

// Whether `path` names a PGN file (by its extension, in any case).
bool is_pgn_file(std::string_view path) {
    if (path.size() < 4) return false;
    std::string ext(path.substr(path.size() - 4));
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".pgn";
}

// The commands, on `out`; `status` is the exit status: 0 when asked for (`--help`), 2
// after a bad command line (then on stderr, after the error).
int usage(std::ostream& out = std::cerr, int status = 2) {
    out << "usage: arbiter                      UCI on standard input and output\n"
                 "       arbiter perft <depth> [fen]  move counts per root move (divide)\n"
                 "       arbiter bench [depth]        fixed-depth searches; last line: <nodes> nodes <nps> nps\n"
                 "       arbiter analyse [--fen FEN] [--moves M...] [--depth D | --movetime MS | --nodes N | --infinite]\n"
                 "                       [--multipv K] [--threads T] [--hash MB] [--syzygy PATH]\n"
                 "                                    a position searched, PVs in SAN, scores from White's side\n"
                 "       arbiter analyse --pgn FILE [--game N] [--depth D | --movetime MS | --nodes N]\n"
                 "                       [--side white|black] [--threads T] [--hash MB] [--syzygy PATH]\n"
                 "                       [--output FILE] [--json] [--plot FILE.png]\n"
                 "                                    game review: annotated PGN and a summary per side\n"
                 "       arbiter epd FILE [--depth D | --movetime MS | --nodes N] [--threads T] [--hash MB]\n"
                 "                       [--syzygy PATH]\n"
                 "                                    a test suite (bm / am); last line: <suite>: solved / total\n"
                 "       arbiter datagen --output FILE [--games N] [--threads T] [--soft-nodes N] [--nodes N]\n"
                 "                       [--seed S] [--random-plies P] [--chess960-percent P] [--dfrc-percent P]\n"
                 "                       [--hash MB] [--eval default|hce|NET.anet] [--format abin|agame]\n"
                 "                                    self-play training data (nets/README.md); SIGINT or\n"
                 "                                    SIGTERM stops it, the same command continues it\n"
                 "       arbiter convert IN... OUT.abin\n"
                 "                                    filtered training records from self-play games (.agame,\n"
                 "                                    .apack), every game once\n"
                 "       arbiter convert IN.pgn OUT.abin [--player NAME]\n"
                 "                                    the same from engine games with scores in comments\n"
                 "       arbiter pack IN.agame OUT.apack [--skip N] [--games N]\n"
                 "                                    self-play games compressed for keeping (nets/data/)\n"
                 "       arbiter unpack IN.apack OUT.agame\n"
                 "                                    the same games back in .agame form\n"
                 "       arbiter spsa                 the search parameters as an SPSA tuner reads them\n"
                 "       arbiter --help | --version\n";
    return status;
}

} // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    // std::cin is tied to std::cout by default: every read would flush std::cout from
    // the input thread, racing the search thread's output (seen as a duplicated
    // bestmove line). All output is flushed explicitly under the session's mutex.
    std::cin.tie(nullptr);
    if (argc == 1) {
        arbiter::uci::Session session(std::cout);
        session.run(std::cin);
        return 0;
    }
    const std::string_view command = argv[1];
    if (argc == 2 && (command == "--help" || command == "-h" || command == "help")) return usage(std::cout, 0);
    if (argc == 2 && (command == "--version" || command == "version")) {
        std::cout << "Arbiter " << ARBITER_VERSION << '\n';
        return 0;
    }
    const arbiter::tools::Args args(argv + 2, argv + argc);
    if (command == "perft") return arbiter::tools::perft_main(args, std::cout, std::cerr);
    if (command == "bench") return arbiter::tools::bench_main(args, std::cout, std::cerr);
    if (command == "analyse" || command == "analyze") return arbiter::tools::analyse_main(args, std::cout, std::cerr);
    if (command == "epd") return arbiter::tools::epd_main(args, std::cout, std::cerr);
    if (command == "spsa" && argc == 2) {
        // OpenBench's SPSA input: name, int, default, min, max, step (c_end), learning rate (r_end).
        for (const arbiter::search::TunableInfo& t : arbiter::search::tunables())
            std::cout << t.name << ", int, " << t.default_value << ", " << t.min << ", " << t.max << ", " << t.step
                      << ", 0.002\n";
        return 0;
    }
    if (command == "datagen") {
        arbiter::tools::DatagenConfig config;
        const std::string error = arbiter::tools::parse_datagen_args({argv + 2, argv + argc}, config);
        if (!error.empty()) {
            std::cerr << "arbiter datagen: " << error << '\n';
            return usage();
        }
        return arbiter::tools::run_datagen(config, std::cerr);
    }
    if (command == "convert") {
        const bool pgn = argc >= 3 && is_pgn_file(argv[2]);
        if (pgn) {
            const bool player = argc == 6 && std::string_view(argv[4]) == "--player";
            if (argc != 4 && !player) {
                std::cerr << "arbiter convert: expected an input .pgn file, an output .abin file and optionally "
                             "--player NAME\n";
                return usage();
            }
            return arbiter::tools::run_convert_pgn(argv[2], argv[3], player ? argv[5] : "", std::cerr);
        }
        if (argc < 4) {
            std::cerr << "arbiter convert: expected one or more input .agame or .apack files and an output .abin file\n";
            return usage();
        }
        return arbiter::tools::run_convert_pool({argv + 2, argv + argc - 1}, argv[argc - 1], std::cerr);
    }
    if (command == "pack") return arbiter::tools::pack_main(args, std::cout, std::cerr);
    if (command == "unpack") return arbiter::tools::unpack_main(args, std::cout, std::cerr);
    std::cerr << "arbiter: unknown command '" << command << "'\n";
    return usage();
}

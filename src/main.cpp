// Entry point: argv dispatch only. No arguments: the UCI loop on stdin/stdout.

#include <iostream>
#include <ostream>
#include <string_view>
#include <utility>

#include "tools/tools.h"
#include "uci/uci.h"

namespace {

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
           "                       [--output FILE] [--json] [--plot FILE.png] [--html FILE.html]\n"
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

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    // std::cin is tied to std::cout by default: every read would flush std::cout from
    // the input thread, racing the search thread's output (seen as a duplicated
    // bestmove line). All output is flushed explicitly under uci::Session's output mutex.
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
    // Every command-line tool, through tools/tools.h.
    using Tool = int (*)(const arbiter::tools::Args&, std::ostream&, std::ostream&);
    static constexpr std::pair<std::string_view, Tool> Tools[] = {
        {"perft", arbiter::tools::perft_main},     {"bench", arbiter::tools::bench_main},
        {"analyse", arbiter::tools::analyse_main}, {"analyze", arbiter::tools::analyse_main},
        {"epd", arbiter::tools::epd_main},         {"datagen", arbiter::tools::datagen_main},
        {"convert", arbiter::tools::convert_main}, {"spsa", arbiter::tools::spsa_main},
        {"pack", arbiter::tools::pack_main},       {"unpack", arbiter::tools::unpack_main},
    };
    const arbiter::tools::Args args(argv + 2, argv + argc);
    for (const auto& [name, tool] : Tools)
        if (command == name) return tool(args, std::cout, std::cerr);
    std::cerr << "arbiter: unknown command '" << command << "'\n";
    return usage();
}

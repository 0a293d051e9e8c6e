#include "search/bench.h"

#include <fmt/format.h>

#include <chrono>
#include <iterator>

#include "search/engine.h"
#include "util/parse.h"

namespace arbiter::search {

namespace {

// Openings and middlegames (the standard perft suite), tactics (Win At Chess),
// endgames (Eigenmann endgame test, pawn endgames) and a few Chess960 starts.
constexpr const char* BenchPositions[] = {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                                          "4k2r/8/8/8/8/8/8/4K3 w k - 0 1",
                                          "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
                                          "8/8/8/8/8/8/1k6/R3K3 w Q - 0 1",
                                          "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1",
                                          "k7/8/2N5/1N6/8/8/8/K6n w - - 0 1",
                                          "K7/8/8/3Q4/4q3/8/8/7k w - - 0 1",
                                          "8/8/3k4/3p4/8/3P4/3K4/8 w - - 0 1",
                                          "k7/8/8/6p1/7P/8/8/K7 b - - 0 1",
                                          "3k4/3pp3/8/8/8/8/3PP3/3K4 w - - 0 1",
                                          "8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1",
                                          "8/PPPk4/8/8/8/8/4Kppp/8 b - - 0 1",
                                          "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                                          "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - -",
                                          "r2qkb1r/1ppb1ppp/p7/4p3/P1Q1P3/2P5/5PPP/R1B2KNR b kq -",
                                          "2r5/2rk2pp/1pn1pb2/pN1p4/P2P4/1N2B3/nPR1KPPP/3R4 b - -",
                                          "r3kr2/1pp4p/1p1p4/7q/4P1n1/2PP2Q1/PP4P1/R1BB2K1 b q -",
                                          "2kr3r/pp1q1ppp/5n2/1Nb5/2Pp1B2/7Q/P4PPP/1R3RK1 w - -",
                                          "r6k/p1Q4p/2p1b1rq/4p3/B3P3/4P3/PPP3P1/4RRK1 b - -",
                                          "r2r2k1/pb3ppp/1p1bp3/7q/3n2nP/PP1B2P1/1B1N1P2/RQ2NRK1 b - -",
                                          "1k6/ppp4p/1n2pq2/1N2Rb2/2P2Q2/8/P4KPP/3r1B2 b - -",
                                          "rnb3kr/ppp2ppp/1b6/3q4/3pN3/Q4N2/PPP2KPP/R1B1R3 w - -",
                                          "r1b1qN1k/1pp3p1/p2p3n/4p1B1/8/1BP4Q/PP3KPP/8 w - -",
                                          "2r1b3/1pp1qrk1/p1n1P1p1/7R/2B1p3/4Q1P1/PP3PP1/3R2K1 w - -",
                                          "8/p2b2kp/1q1p2p1/1P1Pp3/4P3/3B2P1/P2Q3P/2Nn3K b - -",
                                          "r1bq2kr/p1pp1ppp/1pn1p3/4P3/2Pb2Q1/BR6/P4PPP/3K1BNR w - -",
                                          "5rk1/p1q3pp/1p1r4/2p1pp1Q/1PPn1P2/3B3P/P2R2P1/3R2K1 b - -",
                                          "2rq1rk1/pp3ppp/2n2b2/4NR2/3P4/PB5Q/1P4PP/3R2K1 w - -",
                                          "r3brkn/1p5p/2p2Ppq/2Pp3B/3Pp2Q/4P1R1/6PP/5R1K w - -",
                                          "r1b2rk1/1p1n1ppp/p1p2q2/4p3/P1B1Pn2/1QN2N2/1P3PPP/3R1RK1 b - -",
                                          "2k5/3b4/PP3K2/7p/4P3/1P6/8/8 w - -",
                                          "6k1/1p2p1bp/p5p1/4pb2/1q6/4Q3/1P2BPPP/2R3K1 w - -",
                                          "4b1k1/1p3p2/4pPp1/p2pP1P1/P2P4/1P1B4/8/2K5 w - -",
                                          "k2K4/1p4pN/P7/1p3P2/pP6/8/8/8 w - -",
                                          "2k1r3/p7/K7/1P6/P2N4/8/P7/8 w - -",
                                          "2k1r3/5R2/3KP3/8/1pP3p1/1P5p/8/8 w - -",
                                          "R7/P5Kp/2P5/k3r2P/8/5p2/p4P2/8 w - -",
                                          "r5k1/5ppp/1p6/2b1R3/1p3P2/2nP2P1/1B3PKP/5B2 w - -",
                                          "6R1/P2k1N2/r7/7P/r7/p7/7K/8 w - -",
                                          "8/5p2/5rp1/p2k1r1p/P1pNp2P/RP1bP1P1/5P1R/4K3 b - -",
                                          "6k1/3p4/3p4/3P4/4P1p1/6P1/8/K7 w - -",
                                          "8/4k1p1/1p2B2p/4p3/8/4P2P/1PP1KbP1/8 b - -",
                                          "8/1r3pkp/R7/6Pp/8/4P3/5PK1/8 b - -",
                                          "qbn1brkr/ppp1p1p1/2n4p/3p1p2/P7/6PP/QPPPPP2/1BNNBRKR w HFhf - 0 9",
                                          "q1brkb1r/p1pppppp/np3B2/8/6n1/1P5N/P1PPPPPP/QN1RKB1R w HDhd - 0 9",
                                          "qbbrnn1r/1pppp1pk/p7/5p1p/P2P3P/3N4/1PP1PPP1/QBBR1NKR w HD - 0 9",
                                          "bqrnkbrn/2pp1pp1/p7/1p2p2p/1P6/4N3/P1PPPPPP/BQR1KBRN w GCgc - 0 9",
                                          "bb1rknrn/1qppppp1/1p4B1/p6N/8/2P5/PP1PPPPP/B1QRK1RN w GDgd - 1 9"};

}  // namespace

std::optional<int> bench_depth(std::optional<std::string_view> text) {
    if (!text) return BenchDepth;
    const ParsedNumber<int> depth = parse_number(*text, 1, MaxBenchDepth);
    return depth ? std::optional<int>(*depth) : std::nullopt;
}

BenchResult run_bench(int depth, const std::function<void(const std::string&)>& print, const Engine* evaluation_of) {
    Engine engine;  // one thread, 16 MB: the documented bench conditions
    if (evaluation_of) engine.use_evaluation_of(*evaluation_of);
    BenchResult result;
    const auto start = std::chrono::steady_clock::now();
    int index = 0;
    for (const char* fen : BenchPositions) {
        ++index;
        // Playable: the perft suite's castling positions are composed (kings and rooks
        // alone with their rights, no last move possible).
        FenResult parsed = Position::from_fen(fen, false, FenCheck::Playable);
        if (!parsed.position) parsed = Position::from_fen(fen, true, FenCheck::Playable);
        engine.new_game();
        engine.set_game(Game(*parsed.position));
        SearchLimits limits;
        limits.depth = depth;
        engine.go(limits);
        engine.wait();
        result.nodes += engine.last_search_nodes();
        print(fmt::format("position {:2}/{}: {:>9} nodes  {}", index, std::size(BenchPositions),
                          engine.last_search_nodes(), fen));
    }
    result.ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace arbiter::search

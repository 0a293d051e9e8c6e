// The network through the protocol: EvalFile loads a valid file and keeps the current
// net when a file fails validation, `eval` prints the network's evaluation, Use NNUE
// switches to the hand-crafted evaluation, `bench` searches with the evaluation chosen,
// and searches with a net give legal moves.

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "eval/nnue_test_support.h"
#include "eval/evaluate.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/network.h"
#include "test_support.h"
#include "uci/session_driver.h"

using namespace arbiter;

namespace {

using Driver = test::SessionDriver;

// A file in the temporary directory, removed when the test ends.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& name, const std::vector<std::byte>& bytes)
            : path((std::filesystem::temp_directory_path() / name).string()) {
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    ~TempFile() { std::remove(path.c_str()); }
};

bool is_error(const std::vector<std::string>& lines) {
    return lines.size() == 1 && lines[0].rfind("info string error: ", 0) == 0;
}

}  // namespace

TEST_CASE("EvalFile loads a net, eval prints its evaluation, bad files keep it", "[uci][nnue]") {
    const auto net = test::random_network(7);
    const std::vector<std::byte> bytes = test::serialise(*net);
    const TempFile good("arbiter_uci_good.anet", bytes);
    std::vector<std::byte> damaged = bytes;
    damaged[100] ^= std::byte{1};  // CRC mismatch
    const TempFile bad("arbiter_uci_bad.anet", damaged);
    const TempFile truncated("arbiter_uci_truncated.anet", std::vector<std::byte>(bytes.begin(), bytes.begin() + 1000));

    Driver d;
    const auto loaded = d.send("setoption name EvalFile value " + good.path);
    REQUIRE(loaded.size() == 1);
    CHECK(loaded[0] == "info string EvalFile " + good.path + " loaded");

    const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    d.send("position fen " + fen + " moves f1b5");
    const Position pos = Position::from_fen(fen).position->apply(Move(F1, B5));
    const int expected = eval::nnue::evaluate(*net, pos);  // Black to move
    const std::string line = "NNUE evaluation: " + std::to_string(-expected) + " cp (White's view), " +
                             std::to_string(expected) + " cp (side to move)";
    CHECK(d.send("eval") == std::vector<std::string>{line});

    // Each bad file: one error line, and the loaded net stays.
    CHECK(is_error(d.send("setoption name EvalFile value " + bad.path)));
    CHECK(is_error(d.send("setoption name EvalFile value " + truncated.path)));
    CHECK(is_error(d.send("setoption name EvalFile value /nonexistent/dir/net.anet")));
    CHECK(d.send("eval") == std::vector<std::string>{line});

    // Use NNUE off: the hand-crafted evaluation answers `eval`.
    CHECK(d.send("setoption name Use NNUE value false").empty());
    const auto hce = d.send("eval");
    CHECK(hce.back() == "Evaluation: " + std::to_string(-eval::evaluate(pos)) + " cp (White's view), " +
                            std::to_string(eval::evaluate(pos)) + " cp (side to move)");
    CHECK(d.send("setoption name Use NNUE value true").empty());
    CHECK(d.send("eval") == std::vector<std::string>{line});
}

TEST_CASE("searches with a loaded net print legal lines and a legal bestmove", "[uci][nnue]") {
    const auto net = test::random_network(11);
    const TempFile file("arbiter_uci_search.anet", test::serialise(*net));
    Driver d;
    d.send("setoption name EvalFile value " + file.path);
    for (const char* position : {"position startpos moves e2e4 e7e5 g1f3",
                                 "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                                 "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}) {
        d.send(position);
        const auto lines = d.search("go depth 6");
        REQUIRE(!lines.empty());
        const std::string& last = lines.back();
        REQUIRE(last.rfind("bestmove ", 0) == 0);
        INFO(position << " -> " << last);
        const std::string best = last.substr(9, last.find(' ', 9) - 9);
        // The bestmove is legal: playing it through `position` gives no error.
        std::string fen_position = std::string(position);
        const bool has_moves = fen_position.find(" moves ") != std::string::npos;
        CHECK(d.send(fen_position + (has_moves ? " " : " moves ") + best).empty());
    }
}

TEST_CASE("bench searches with the evaluation EvalFile and Use NNUE chose", "[uci][nnue]") {
    const TempFile random_net("arbiter_uci_bench.anet", test::serialise(*test::random_network(11)));
    // The node count of `bench 3`: the last line, `<N> nodes <M> nps`.
    const auto bench_nodes = [](Driver& d) {
        const auto lines = d.send("bench 3");
        REQUIRE(!lines.empty());
        std::istringstream last(lines.back());
        uint64_t nodes = 0;
        std::string word;
        last >> nodes >> word;
        REQUIRE(word == "nodes");
        return nodes;
    };
    Driver d;
    const uint64_t embedded = bench_nodes(d);
    REQUIRE(d.send("setoption name EvalFile value " + random_net.path).size() == 1);
    const uint64_t loaded = bench_nodes(d);
    CHECK(loaded != embedded);
    CHECK(bench_nodes(d) == loaded);  // the net stays loaded, and the bench is repeatable
    CHECK(d.send("setoption name Use NNUE value false").empty());
    const uint64_t hand_crafted = bench_nodes(d);
    CHECK(hand_crafted != loaded);
    CHECK(hand_crafted != embedded);
    CHECK(d.send("setoption name Use NNUE value true").empty());
    CHECK(bench_nodes(d) == loaded);
    d.send("setoption name EvalFile value " + std::string(eval::nnue::default_network_name()));
    CHECK(bench_nodes(d) == embedded);
}

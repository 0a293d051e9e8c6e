// Perft against the published counts of tests/data/*.epd, every position of both
// suites, plus the properties of divide(). The full depths live in
// scripts/perft_suite.py; here each position runs at the deepest listed depth that
// fits NodeBudget, which keeps the whole file under half a minute in a Release build.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/perft.h"
#include "chess/position.h"

using namespace arbiter;

namespace {

// Leaf nodes a single position may cost. 2e7 makes the two suites 8.6e9 leaf nodes
// in all (678 positions at depth 5, 311 at 4, 99 at 6): about 23 s of CPU in a Release
// build on the 2-core dev machine (measured; bulk counting gives ~370M leaves/s).
// The sanitizer builds (scripts/sanitizers.sh), several times slower, lower it with
// the environment variable ARBITER_PERFT_NODE_BUDGET: every position still runs.
const uint64_t NodeBudget = [] {
    const char* text = std::getenv("ARBITER_PERFT_NODE_BUDGET");
    return text && *text ? std::strtoull(text, nullptr, 10) : uint64_t(20'000'000);
}();

struct EpdEntry {
    std::string fen;
    std::vector<std::pair<int, uint64_t>> counts;  // (depth, nodes) in file order
    int line = 0;
};

// Reads `FEN ;D1 n ;D2 n ...` lines. Depths may be missing from a line (one lists
// only D5), so each count keeps the depth written beside it.
std::vector<EpdEntry> read_epd(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    std::vector<EpdEntry> entries;
    std::string text;
    int line = 0;
    while (std::getline(in, text)) {
        ++line;
        if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
        std::istringstream fields(text);
        EpdEntry entry;
        entry.line = line;
        std::getline(fields, entry.fen, ';');
        while (!entry.fen.empty() && entry.fen.back() == ' ') entry.fen.pop_back();
        std::string field;
        while (std::getline(fields, field, ';')) {
            std::istringstream words(field);
            std::string depth;
            uint64_t nodes = 0;
            words >> depth >> nodes;
            INFO(path << ':' << line << " field '" << field << "'");
            REQUIRE((depth.size() >= 2 && depth[0] == 'D' && !words.fail()));
            entry.counts.emplace_back(std::stoi(depth.substr(1)), nodes);
        }
        REQUIRE(!entry.counts.empty());
        entries.push_back(std::move(entry));
    }
    return entries;
}

// The deepest listed depth within the budget; the shallowest listed one when none is.
std::pair<int, uint64_t> budgeted_depth(const EpdEntry& entry) {
    std::pair<int, uint64_t> chosen = *std::min_element(entry.counts.begin(), entry.counts.end());
    for (const auto& count : entry.counts)
        if (count.second <= NodeBudget && count.first > chosen.first) chosen = count;
    return chosen;
}

Position parse(const std::string& fen, bool chess960) {
    const FenResult result = Position::from_fen(fen, chess960, FenCheck::Playable);
    INFO(fen << ": " << result.error);
    REQUIRE(result.position.has_value());
    return *result.position;
}

void run_suite(const std::string& file, bool chess960, size_t expected_positions) {
    const std::vector<EpdEntry> entries = read_epd(std::string(ARBITER_TEST_DATA) + "/" + file);
    CHECK(entries.size() == expected_positions);
    for (const EpdEntry& entry : entries) {
        const auto [depth, expected] = budgeted_depth(entry);
        INFO(file << ':' << entry.line << ' ' << entry.fen << " depth " << depth);
        const Position pos = parse(entry.fen, chess960);
        CHECK(perft(pos, depth) == expected);
    }
}

}  // namespace

TEST_CASE("perft matches the standard suite", "[perft]") { run_suite("standard.epd", false, 128); }

TEST_CASE("perft matches the Chess960 suite", "[perft]") { run_suite("chess960.epd", true, 960); }

TEST_CASE("perft at depth 0 is one node", "[perft]") {
    CHECK(perft(Position::startpos(), 0) == 1);
    const Position kiwipete = parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false);
    CHECK(perft(kiwipete, 0) == 1);
    // Checkmate: no moves, but the position itself is still one node.
    const Position mated = parse("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", false);
    CHECK(perft(mated, 0) == 1);
    CHECK(perft(mated, 1) == 0);
}

TEST_CASE("perft at depth 1 counts the legal moves", "[perft]") {
    const Position pos = Position::startpos();
    CHECK(perft(pos, 1) == 20);
    CHECK(perft(pos, 1) == legal_moves(pos).size());
}

TEST_CASE("divide has one entry per legal move and sums to perft", "[perft]") {
    const std::vector<std::pair<std::string, bool>> fens = {
        {std::string(Position::StartFen), false},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
        {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
        {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
    };
    for (const auto& [fen, chess960] : fens) {
        const Position pos = parse(fen, chess960);
        const MoveList moves = legal_moves(pos);
        for (int depth = 1; depth <= 3; ++depth) {
            INFO(fen << " depth " << depth);
            const auto entries = divide(pos, depth);
            REQUIRE(entries.size() == moves.size());
            uint64_t sum = 0;
            for (size_t i = 0; i < entries.size(); ++i) {
                INFO("move " << to_uci(entries[i].first, chess960));
                CHECK(entries[i].first == moves[i]);  // generation order, each move once
                CHECK(entries[i].second == perft(pos.apply(moves[i]), depth - 1));
                if (depth == 1) CHECK(entries[i].second == 1);
                sum += entries[i].second;
            }
            CHECK(sum == perft(pos, depth));
        }
    }
}

TEST_CASE("divide of the start position matches the published split", "[perft]") {
    // Depth 3 per root move, as printed by Stockfish 15.1 `go perft 3`.
    const std::vector<std::pair<std::string, uint64_t>> expected = {
        {"a2a3", 380}, {"b2b3", 420}, {"c2c3", 420}, {"d2d3", 539}, {"e2e3", 599}, {"f2f3", 380}, {"g2g3", 420},
        {"h2h3", 380}, {"a2a4", 420}, {"b2b4", 421}, {"c2c4", 441}, {"d2d4", 560}, {"e2e4", 600}, {"f2f4", 401},
        {"g2g4", 421}, {"h2h4", 420}, {"b1a3", 400}, {"b1c3", 440}, {"g1f3", 440}, {"g1h3", 400},
    };
    const auto entries = divide(Position::startpos(), 3);
    REQUIRE(entries.size() == expected.size());
    for (const auto& [uci, nodes] : expected) {
        INFO(uci);
        size_t found = 0;
        for (const auto& [move, count] : entries) {
            if (to_uci(move, false) != uci) continue;
            ++found;
            CHECK(count == nodes);
        }
        CHECK(found == 1);
    }
}

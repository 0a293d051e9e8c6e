#pragma once
// Helpers shared by the Catch2 tests.

#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "chess/position.h"
#include "random_position.h"

namespace arbiter::test {

// The position of a FEN the test knows to be valid; a refusal fails the test with the
// parser's reason. Positions of the perft suites are read as Playable: one of them
// (standard.epd's two bishops checking along one diagonal) is reached by no game.
inline Position parse_fen(std::string_view fen, bool chess960 = false, FenCheck check = FenCheck::Reachable) {
    const FenResult result = Position::from_fen(fen, chess960, check);
    INFO("FEN: " << std::string(fen) << " error: " << result.error);
    REQUIRE(result.position.has_value());
    CHECK(result.error.empty());
    return *result.position;
}

// One line of tests/data/unwinnability-vectors.txt (the Chess Unwinnability
// Analyzer's test vectors): `WB`, `W-`, `-B` or `--`, and a FEN.
struct UnwinnabilityVector {
    std::string label;
    std::string fen;
};

inline std::vector<UnwinnabilityVector> unwinnability_vectors() {
    std::ifstream in(std::string(ARBITER_TEST_DATA) + "/unwinnability-vectors.txt");
    REQUIRE(in);
    std::vector<UnwinnabilityVector> vectors;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        REQUIRE(line.size() > 3);
        REQUIRE(line[2] == ' ');
        vectors.push_back({line.substr(0, 2), line.substr(3)});
    }
    return vectors;
}

// The FEN field of every line of an EPD file in tests/data (the text before the first ';').
inline std::vector<std::string> epd_fens(const std::string& file) {
    std::ifstream in(std::string(ARBITER_TEST_DATA) + "/" + file);
    std::vector<std::string> fens;
    for (std::string line; std::getline(in, line);) {
        std::string fen = line.substr(0, line.find(';'));
        while (!fen.empty() && (fen.back() == ' ' || fen.back() == '\r')) fen.pop_back();
        if (!fen.empty()) fens.push_back(fen);
    }
    return fens;
}

}  // namespace arbiter::test

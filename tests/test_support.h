#pragma once
// Helpers shared by the Catch2 tests.

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "chess/position.h"

namespace arbiter::test {

// The position of a FEN the test knows to be valid; a refusal fails the test with the
// parser's reason.
inline Position parse_fen(std::string_view fen, bool chess960 = false) {
    const FenResult result = Position::from_fen(fen, chess960);
    INFO("FEN: " << std::string(fen) << " error: " << result.error);
    REQUIRE(result.position.has_value());
    CHECK(result.error.empty());
    return *result.position;
}

} // namespace arbiter::test

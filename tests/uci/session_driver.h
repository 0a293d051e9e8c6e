#pragma once
// A UCI session driven in process by the Catch2 tests: each command's output, as lines.

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "uci/uci.h"

namespace arbiter::test {

inline std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

struct SessionDriver {
    std::ostringstream out;
    uci::Session session{out};

    // The lines printed for `line`, a command the session must accept.
    std::vector<std::string> send(std::string_view line) {
        out.str("");
        out.clear();
        REQUIRE(session.handle(line));
        return split_lines(out.str());
    }

    // The lines of a `go` command, once its search has ended.
    std::vector<std::string> search(std::string_view go) {
        out.str("");
        out.clear();
        REQUIRE(session.handle(go));
        session.wait_for_search();
        return split_lines(out.str());
    }
};

}  // namespace arbiter::test

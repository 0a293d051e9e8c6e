// `UCI_ShowWDL` through the protocol: the model's chances in an open position, and the
// proven draw of a dead position (the rules core knows it; K v K is no 148/704/148).

#include <catch2/catch.hpp>

#include <array>
#include <regex>
#include <string>
#include <vector>

#include "uci/session_driver.h"

using namespace arbiter;

namespace {

// The `wdl W D L` of every info line that has one.
std::vector<std::array<int, 3>> wdl_of_lines(const std::vector<std::string>& lines) {
    static const std::regex Wdl(" wdl (\\d+) (\\d+) (\\d+) ");
    std::vector<std::array<int, 3>> found;
    for (const std::string& line : lines) {
        std::smatch m;
        if (std::regex_search(line, m, Wdl)) found.push_back({std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])});
    }
    return found;
}

}  // namespace

TEST_CASE("UCI_ShowWDL: a dead position is a certain draw, an open one is not", "[uci][wdl]") {
    test::SessionDriver d;
    d.send("setoption name UCI_ShowWDL value true");
    d.send("position fen 8/8/8/4k3/8/8/8/4K3 w - - 0 1");
    const auto dead = wdl_of_lines(d.search("go depth 5"));
    REQUIRE(dead.size() == 5);
    for (const auto& w : dead) CHECK(w == std::array<int, 3>{0, 1000, 0});

    d.send("position startpos");
    const auto open = wdl_of_lines(d.search("go depth 5"));
    REQUIRE(open.size() == 5);
    for (const auto& w : open) {
        CHECK(w[0] + w[1] + w[2] == 1000);
        CHECK(w[0] > 0);
        CHECK(w[2] > 0);
        CHECK(w[1] < 1000);
    }
    // Off by default.
    d.send("setoption name UCI_ShowWDL value false");
    CHECK(wdl_of_lines(d.search("go depth 3")).empty());
}

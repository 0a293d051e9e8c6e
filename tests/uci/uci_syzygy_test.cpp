// The Syzygy options through the text protocol: declaration, loading messages,
// `d`'s tablebase line and `tbhits` in the search output.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "syzygy/probe.h"
#include "uci/session_driver.h"

using namespace arbiter;
namespace fs = std::filesystem;

namespace {

const std::string TableFolder = std::string(ARBITER_TEST_DATA) + "/syzygy";

using test::split_lines;

struct Driver : test::SessionDriver {
    // Lines of `d` that start with "Tablebase:".
    std::vector<std::string> tablebase_lines() {
        std::vector<std::string> found;
        for (const std::string& line : send("d"))
            if (line.rfind("Tablebase:", 0) == 0) found.push_back(line);
        return found;
    }
};

bool contains(const std::vector<std::string>& lines, const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

int count_tables() {
    int n = 0;
    for (const auto& entry : fs::directory_iterator(TableFolder)) n += entry.path().extension() == ".rtbw";
    return n;
}

}  // namespace

TEST_CASE("uci declares the Syzygy options with Stockfish's names and defaults", "[uci][syzygy]") {
    Driver d;
    const std::vector<std::string> lines = d.send("uci");
    CHECK(contains(lines, "option name SyzygyPath type string default <empty>"));
    CHECK(contains(lines, "option name SyzygyProbeDepth type spin default 1 min 1 max 100"));
    CHECK(contains(lines, "option name Syzygy50MoveRule type check default true"));
    CHECK(contains(lines, "option name SyzygyProbeLimit type spin default 7 min 0 max 7"));
}

TEST_CASE("SyzygyPath loads, reports, replaces and unloads", "[uci][syzygy]") {
    Driver d;
    CHECK(d.tablebase_lines().empty());
    std::vector<std::string> lines = d.send("setoption name SyzygyPath value " + TableFolder);
    CHECK(lines == std::vector<std::string>{"info string Found " + std::to_string(count_tables()) + " tablebases"});

    d.send("position fen 8/8/8/4k3/8/2r5/8/K5Q1 w - - 0 1");
    const Position pos = d.session.game().position();
    std::vector<std::string> shown = d.tablebase_lines();
    REQUIRE(shown.size() == 1);
    // The line agrees with a direct probe of the same tables.
    syzygy::Tablebases tables;
    tables.load(TableFolder);
    CHECK(shown[0] == "Tablebase: WDL " + std::string(syzygy::wdl_token(*syzygy::probe_wdl(tables, pos))) + ", DTZ " +
                          std::to_string(*syzygy::probe_dtz(tables, pos)));
    CHECK(shown[0].rfind("Tablebase: WDL win, DTZ ", 0) == 0);
    // The loser's view, and a draw.
    d.send("position fen 8/8/8/4k3/8/2r5/8/K5Q1 b - - 0 1");
    REQUIRE(d.tablebase_lines().size() == 1);
    CHECK(d.tablebase_lines()[0].rfind("Tablebase: WDL loss, DTZ -", 0) == 0);
    d.send("position fen 4k3/8/8/8/8/8/8/3QK2r w - - 0 1");
    CHECK(d.tablebase_lines() == std::vector<std::string>{"Tablebase: WDL draw, DTZ 0"});
    // Not in the tables: no line.
    d.send("position startpos");
    CHECK(d.tablebase_lines().empty());

    SECTION("a missing folder and a file: errors, and the engine goes on") {
        lines = d.send("setoption name SyzygyPath value /no/such/folder:" + TableFolder + "/KQvK.rtbw");
        REQUIRE(lines.size() == 3);
        CHECK(lines[0] == "info string error: SyzygyPath: folder '/no/such/folder' does not exist");
        CHECK(lines[1] == "info string error: SyzygyPath: '" + TableFolder + "/KQvK.rtbw' is a file, not a folder");
        CHECK(lines[2] == "info string Found 0 tablebases");
        d.send("position fen 8/8/8/4k3/8/2r5/8/K5Q1 w - - 0 1");
        CHECK(d.tablebase_lines().empty());
        CHECK(d.send("isready") == std::vector<std::string>{"readyok"});
    }
    SECTION("<empty> unloads") {
        CHECK(d.send("setoption name SyzygyPath value <empty>") ==
              std::vector<std::string>{"info string Tablebases unloaded"});
        d.send("position fen 8/8/8/4k3/8/2r5/8/K5Q1 w - - 0 1");
        CHECK(d.tablebase_lines().empty());
    }
}

TEST_CASE("info lines carry tbhits", "[uci][syzygy]") {
    Driver d;
    d.send("setoption name SyzygyPath value " + TableFolder);
    d.send("position fen 8/8/8/4k3/8/2r5/8/K5Q1 w - - 0 1");
    d.send("go depth 4");
    d.session.wait_for_search();
    const std::vector<std::string> lines = split_lines(d.out.str());
    bool seen = false;
    for (const std::string& line : lines)
        if (line.rfind("info depth", 0) == 0 && line.find(" pv ") != std::string::npos) {
            const size_t at = line.find(" tbhits ");
            REQUIRE(at != std::string::npos);
            CHECK(std::stoul(line.substr(at + 8)) > 0);
            seen = true;
        }
    CHECK(seen);
}

// The 5-piece tables of ../shared/data/syzygy5 beside the 3-4-piece ones: run by the
// CTest test syzygy5 when they are there (tests/syzygy/five_piece_test.cpp).
TEST_CASE("SyzygyPath counts the 5-piece tables in its Found line", "[.][syzygy5]") {
    const fs::path shared = ARBITER_SHARED_DATA;
    const std::string five = (shared / "syzygy5").string(), small = (shared / "syzygy").string();
    int files = 0;
    for (const std::string& folder : {small, five})
        for (const auto& entry : fs::directory_iterator(folder)) files += entry.path().extension() == ".rtbw";
    Driver d;
    CHECK(d.send("setoption name SyzygyPath value " + small + ":" + five) ==
          std::vector<std::string>{"info string Found " + std::to_string(files) + " tablebases"});
    CHECK(d.send("setoption name SyzygyPath value " + five) ==
          std::vector<std::string>{"info string Found 6 tablebases"});
    // A KRPvKR position is answered from the 5-piece table.
    d.send("setoption name SyzygyPath value " + small + ":" + five);
    d.send("position fen 8/8/8/4k3/8/2r5/1P6/KR6 w - - 0 1");
    CHECK(d.tablebase_lines().size() == 1);
}

// The 5-piece tables of ../shared/data/syzygy5 (59 MB, kept out of the repository):
// random positions of every table there, their WDL against Stockfish 15.1's
// (tests/data/syzygy5-stockfish.txt, made by scripts/syzygy5_reference.py: a
// reference independent of this prober) and their WDL and DTZ against one ply of
// search over the children (tests/syzygy/one_ply.h), whose captures lead into the
// 3-4-piece tables of ../shared/data/syzygy and whose promotions into the pawnless
// 5-piece tables. Hidden from the default run: the CTest test syzygy5
// (five_piece_test.py) runs them when the tables are there and reports a skip when
// they are not.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "test_support.h"
#include "syzygy/one_ply.h"
#include "syzygy/probe.h"
#include "syzygy/tablebases.h"

using namespace arbiter;
namespace fs = std::filesystem;

namespace {

const fs::path SharedData = ARBITER_SHARED_DATA;

// The table a position belongs to, named as its file is: the side with more
// material first ("KRPvKR" for both KRPvKR and KRvKRP).
std::string table_name(const Position& pos) {
    std::string side[2];
    for (Color c : {White, Black})
        for (PieceType t : {King, Queen, Rook, Bishop, Knight, Pawn})
            side[c].append(size_t(popcount(pos.pieces(c, t))), "PNBRQK"[t]);
    const auto order = [](const std::string& s) {
        int value = 0;
        for (char c : s) value = value * 8 + int(std::string_view("PNBRQK").find(c)) + 1;
        return std::pair(s.size(), value);
    };
    return order(side[White]) >= order(side[Black]) ? side[White] + "v" + side[Black] : side[Black] + "v" + side[White];
}

struct Counts {
    int positions = 0, wdl_exact = 0, dtz_agree = 0;
};

}  // namespace

TEST_CASE("five-piece tables: WDL as Stockfish gives it, WDL and DTZ as one ply of search gives them", "[.][syzygy5]") {
    const fs::path five = SharedData / "syzygy5", small = SharedData / "syzygy";
    REQUIRE(fs::is_directory(five));
    REQUIRE(fs::is_directory(small));
    syzygy::Tablebases tables;
    const syzygy::LoadReport report = tables.load(small.string() + ":" + five.string());
    CHECK(report.problems.empty());
    REQUIRE(tables.max_pieces() == 5);

    std::map<std::string, Counts> by_table;
    for (const auto& entry : fs::directory_iterator(five))
        if (entry.path().extension() == ".rtbw") by_table[entry.path().stem().string()];
    REQUIRE(by_table.size() >= 6);

    std::ifstream list(std::string(ARBITER_TEST_DATA) + "/syzygy5-stockfish.txt");
    REQUIRE(list);
    for (std::string line; std::getline(list, line);) {
        if (line.empty() || line[0] == '#') continue;
        const size_t semicolon = line.find(';');
        REQUIRE(semicolon != std::string::npos);
        const std::string fen = line.substr(0, semicolon), expected = line.substr(semicolon + 2);
        const Position pos = test::parse_fen(fen, false, FenCheck::Playable);
        const std::string table = table_name(pos);
        INFO(fen << " (" << table << ")");
        REQUIRE(by_table.count(table) == 1);
        Counts& counts = by_table[table];
        ++counts.positions;

        const std::optional<syzygy::Wdl> wdl = syzygy::probe_wdl(tables, pos);
        REQUIRE(wdl.has_value());
        CHECK(syzygy::wdl_token(*wdl) == expected);
        counts.wdl_exact += syzygy::wdl_token(*wdl) == expected;

        const std::optional<std::string> problem = test::check_one_ply(tables, pos);
        REQUIRE(problem.has_value());  // every child is in the loaded tables
        CHECK(*problem == "");
        counts.dtz_agree += problem->empty();
    }
    for (const auto& [table, counts] : by_table) {
        WARN(table << ": " << counts.positions << " positions, WDL exact " << counts.wdl_exact << ", DTZ agree "
                   << counts.dtz_agree);
        CHECK(counts.positions >= 250);
    }
}

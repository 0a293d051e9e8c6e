// Loading tables: the folders and files found, and every kind of bad input
// answered with a message (never a crash), a damaged table refusing to answer.

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "syzygy/material.h"
#include "syzygy/probe.h"
#include "syzygy/table.h"
#include "syzygy/tablebases.h"

using namespace arbiter;
using syzygy::Wdl;
namespace fs = std::filesystem;

namespace {

const fs::path TableFolder = fs::path(ARBITER_TEST_DATA) / "syzygy";

int count_files(const fs::path& folder, const std::string& extension) {
    int n = 0;
    for (const auto& entry : fs::directory_iterator(folder)) n += entry.path().extension() == extension;
    return n;
}

// A fresh folder under the system's temporary folder, removed with its contents.
struct TempFolder {
    fs::path path;
    TempFolder() {
        static std::atomic<int> counter{0};
        path = fs::temp_directory_path() /
               ("arbiter_syzygy_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        fs::create_directories(path);
    }
    ~TempFolder() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    // Copies a test table, keeping its first `keep` bytes (all when negative).
    void copy(const std::string& file, long keep = -1) const {
        std::ifstream in(TableFolder / file, std::ios::binary);
        std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (keep >= 0) bytes.resize(size_t(keep));
        std::ofstream(path / file, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    }
    void write(const std::string& file, const std::string& text) const { std::ofstream(path / file) << text; }
};

Position parse(const std::string& fen) { return *Position::from_fen(fen).position; }

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
    for (const std::string& p : problems)
        if (p.find(text) != std::string::npos) return true;
    return false;
}

const std::string KqkrWin = "8/8/8/4k3/8/8/8/KQ4r1 w - - 0 1";  // Qxg1: White wins
// No capture on the board: only the KQvKR table itself can answer.
const std::string KqkrQuiet = "8/8/8/4k3/8/2r5/8/K5Q1 w - - 0 1";

}  // namespace

TEST_CASE("a folder's tables are found and counted in pairs", "[syzygy]") {
    syzygy::Tablebases tables;
    const syzygy::LoadReport report = tables.load(TableFolder.string());
    CHECK(report.problems.empty());
    CHECK(report.tables == count_files(TableFolder, ".rtbw"));
    CHECK(tables.size() == report.tables);
    CHECK(tables.max_pieces() == 4);
    CHECK(syzygy::probe_wdl(tables, parse(KqkrWin)) == Wdl::Win);

    SECTION("empty and <empty> unload") {
        for (const char* none : {"", "<empty>"}) {
            REQUIRE(tables.load(TableFolder.string()).tables > 0);
            const syzygy::LoadReport cleared = tables.load(none);
            CHECK(cleared.tables == 0);
            CHECK(cleared.problems.empty());
            CHECK(tables.empty());
            CHECK(tables.max_pieces() == 0);
            CHECK_FALSE(syzygy::probe_wdl(tables, parse(KqkrWin)));
        }
    }
    SECTION("loading again replaces the set") {
        TempFolder only_kqk;
        only_kqk.copy("KQvK.rtbw");
        only_kqk.copy("KQvK.rtbz");
        CHECK(tables.load(only_kqk.path.string()).tables == 1);
        CHECK(tables.max_pieces() == 3);
        CHECK_FALSE(syzygy::probe_wdl(tables, parse(KqkrWin)));
        CHECK(syzygy::probe_wdl(tables, parse("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")) == Wdl::Win);
    }
}

TEST_CASE("positions outside the tables are not probed", "[syzygy]") {
    syzygy::Tablebases tables;
    REQUIRE(tables.load(TableFolder.string()).tables > 0);
    // Castling rights, too many pieces, and a material whose table is not loaded.
    CHECK_FALSE(syzygy::probe_wdl(tables, parse("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")));
    CHECK(syzygy::probe_wdl(tables, parse("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")) == Wdl::Win);
    CHECK_FALSE(syzygy::probe_wdl(tables, parse(Position::StartFen.data())));
    CHECK_FALSE(syzygy::probe_wdl(tables, parse("4k3/8/8/8/8/8/8/RR2K3 w - - 0 1")));
    CHECK_FALSE(syzygy::probe_dtz(tables, parse("4k3/8/8/8/8/8/8/RR2K3 w - - 0 1")));
    // Bare kings need no table.
    CHECK(syzygy::probe_wdl(tables, parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1")) == Wdl::Draw);
    // A drawn KRvKP with the pawn about to promote: its DTZ is 0 although KRvKN and
    // KRvKB, which the underpromotions reach, are not among the test tables.
    REQUIRE_FALSE(fs::exists(TableFolder / "KRvKN.rtbw"));
    const Position promoting = parse("8/R6K/8/2k5/8/8/2p5/8 b - - 0 1");
    CHECK(syzygy::probe_wdl(tables, promoting) == Wdl::Draw);
    CHECK(syzygy::probe_dtz(tables, promoting) == 0);
}

TEST_CASE("bad SyzygyPath entries give a message and keep the good ones", "[syzygy]") {
    syzygy::Tablebases tables;
    const std::string missing = (TableFolder / "no_such_folder").string();
    const std::string file = (TableFolder / "KQvK.rtbw").string();
    const syzygy::LoadReport report = tables.load(missing + ":" + file + ":" + TableFolder.string());
    CHECK(report.tables == count_files(TableFolder, ".rtbw"));
    REQUIRE(report.problems.size() == 2);
    CHECK(mentions(report.problems, "'" + missing + "' does not exist"));
    CHECK(mentions(report.problems, "'" + file + "' is a file, not a folder"));
    CHECK(syzygy::probe_wdl(tables, parse(KqkrWin)) == Wdl::Win);
}

TEST_CASE("files of another format, truncated files and odd names are skipped", "[syzygy]") {
    TempFolder folder;
    syzygy::Tablebases tables;

    SECTION("a file of another format") {
        folder.write("KQvK.rtbw", std::string(80, 'x'));
        folder.copy("KRvK.rtbw");
        // A WDL file under a DTZ file's name: its pair keeps only the WDL table.
        std::filesystem::copy_file(TableFolder / "KRvK.rtbw", folder.path / "KRvK.rtbz");
        const syzygy::LoadReport report = tables.load(folder.path.string());
        CHECK(report.tables == 1);
        CHECK(mentions(report.problems, "KQvK.rtbw: not a Syzygy WDL table (bad magic number); skipped"));
        CHECK(mentions(report.problems, "KRvK.rtbz: not a Syzygy DTZ table (bad magic number)"));
        const Position krk = parse("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        CHECK(syzygy::probe_wdl(tables, krk) == Wdl::Win);
        CHECK_FALSE(syzygy::probe_dtz(tables, krk));
    }
    SECTION("a truncated file is refused when loading") {
        const long size = long(fs::file_size(TableFolder / "KQvKR.rtbw"));
        folder.copy("KQvKR.rtbw", size - 100);
        folder.copy("KQvK.rtbw");
        const syzygy::LoadReport report = tables.load(folder.path.string());
        CHECK(report.tables == 1);
        CHECK(mentions(report.problems, "KQvKR.rtbw: truncated or damaged"));
        CHECK_FALSE(syzygy::probe_wdl(tables, parse(KqkrQuiet)));
        CHECK(tables.max_pieces() == 3);
    }
    SECTION("a file cut at a plausible size is refused when loading") {
        // The sizes keep the remainder a table file's size has (16 modulo 64): only
        // reading the headers finds the data missing.
        const long size = long(fs::file_size(TableFolder / "KQvKR.rtbw"));
        for (const long keep : {size - 64 * 40, 2000L}) {
            folder.copy("KQvKR.rtbw", keep);
            for (const char* small : {"KQvK.rtbw", "KRvK.rtbw"}) folder.copy(small);
            const syzygy::LoadReport report = tables.load(folder.path.string());
            CHECK(report.tables == 2);
            CHECK(mentions(report.problems, "KQvKR.rtbw: truncated or damaged ("));
            CHECK(mentions(report.problems, "; skipped"));
            CHECK_FALSE(syzygy::probe_wdl(tables, parse(KqkrQuiet)));
            CHECK(syzygy::probe_wdl(tables, parse("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")) == Wdl::Win);
        }
    }
    SECTION("a DTZ file cut at a plausible size leaves its pair with WDL only") {
        folder.copy("KQvKR.rtbw");
        folder.copy("KQvKR.rtbz", 2000);
        const syzygy::LoadReport report = tables.load(folder.path.string());
        CHECK(report.tables == 1);
        CHECK(mentions(report.problems, "KQvKR.rtbz: truncated or damaged ("));
        CHECK(mentions(report.problems, "; only its WDL table is used"));
        CHECK(syzygy::probe_wdl(tables, parse(KqkrQuiet)) == Wdl::Win);
        CHECK_FALSE(syzygy::probe_dtz(tables, parse(KqkrQuiet)));
    }
    SECTION("names that are no table, and a DTZ file alone") {
        folder.copy("KQvK.rtbz");
        folder.write("notes.rtbw", std::string(80, 'x'));
        const syzygy::LoadReport report = tables.load(folder.path.string());
        CHECK(report.tables == 0);
        CHECK(mentions(report.problems, "notes.rtbw: not a table name"));
        CHECK(mentions(report.problems, "no KQvK.rtbw beside it"));
    }
}

TEST_CASE("threads probing fresh tables at once agree with one thread", "[syzygy]") {
    const std::vector<std::string> fens = {KqkrWin, "8/8/8/1Pp5/8/8/k7/7K w - c6 0 2",
                                           "8/8/8/8/3k4/8/3P4/3K4 w - - 0 1", "4k3/8/8/8/8/8/8/3QK2r w - - 0 1",
                                           "8/8/8/2k5/8/8/8/K1N1B3 w - - 0 1"};
    std::vector<std::optional<int>> expected;
    {
        syzygy::Tablebases reference;
        REQUIRE(reference.load(TableFolder.string()).tables > 0);
        for (const std::string& fen : fens) expected.push_back(syzygy::probe_dtz(reference, parse(fen)));
    }
    syzygy::Tablebases tables;
    REQUIRE(tables.load(TableFolder.string()).tables > 0);
    std::atomic<int> disagreements{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int round = 0; round < 20; ++round)
                for (size_t i = 0; i < fens.size(); ++i)
                    if (syzygy::probe_dtz(tables, parse(fens[i])) != expected[i]) ++disagreements;
        });
    for (std::thread& t : threads) t.join();
    CHECK(disagreements == 0);
    for (const std::optional<int>& dtz : expected) CHECK(dtz.has_value());
}

TEST_CASE("damaged tables never crash a probe and never answer out of range", "[syzygy]") {
    // Copies of real tables with bytes overwritten, in the headers (where the layout
    // is read) and anywhere: a probe may fail or give some value, but only a value a
    // table can give.
    std::mt19937 rng(99);
    const std::vector<std::string> positions = {KqkrQuiet, "8/8/8/4k3/8/8/8/KQ4r1 b - - 0 1",
                                                "8/8/8/8/3k4/8/3P4/3K4 w - - 0 1", "8/8/8/2p5/8/1k6/3P4/3K4 b - - 0 1",
                                                "8/8/4k3/8/8/1p6/1P6/1K6 w - - 0 1"};
    int answered = 0;
    for (int round = 0; round < 40; ++round) {
        TempFolder folder;
        for (const char* name : {"KQvK", "KRvK", "KPvK", "KQvKR", "KPvKP", "KQvKP", "KBvKP", "KNvKP", "KRvKP"}) {
            folder.copy(std::string(name) + ".rtbw");
            folder.copy(std::string(name) + ".rtbz");
        }
        const char* victims[] = {"KQvKR.rtbw", "KQvKR.rtbz", "KPvKP.rtbw", "KPvKP.rtbz", "KPvK.rtbw"};
        const fs::path victim = folder.path / victims[round % 5];
        std::fstream file(victim, std::ios::in | std::ios::out | std::ios::binary);
        const long size = long(fs::file_size(victim));
        for (int flip = 0; flip < 8; ++flip) {
            const long at = flip < 4 ? long(rng() % 200) : long(rng() % uint32_t(size));
            file.seekp(at);
            file.put(char(rng() & 255));
        }
        file.close();
        syzygy::Tablebases tables;
        tables.load(folder.path.string());
        for (const std::string& fen : positions) {
            const std::optional<Wdl> wdl = syzygy::probe_wdl(tables, parse(fen));
            const std::optional<int> dtz = syzygy::probe_dtz(tables, parse(fen));
            if (wdl) {
                ++answered;
                CHECK(int(*wdl) >= -2);
                CHECK(int(*wdl) <= 2);
            }
            if (dtz) CHECK(std::abs(*dtz) <= 0xFFFF);
        }
    }
    CHECK(answered > 0);
}

TEST_CASE("a table held in memory answers as its file does, and a cut one is refused", "[syzygy]") {
    // The fuzzer's tables (tests/fuzz/table_fuzz.cpp) are in memory: the same bytes
    // must read the same as the mapped file.
    const fs::path path = TableFolder / "KQvKR.rtbw";
    std::ifstream in(path, std::ios::binary);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const syzygy::Material material = *syzygy::parse_table_name("KQvKR");
    const syzygy::Table mapped(syzygy::TableType::Wdl, path.string(), material);
    const syzygy::Table held(syzygy::TableType::Wdl, "KQvKR", material, bytes);
    REQUIRE(mapped.prepare().empty());
    REQUIRE(held.prepare().empty());
    for (const std::string& fen : {KqkrQuiet, std::string("8/8/8/4k3/8/2r5/8/K5Q1 b - - 0 1"),
                                   std::string("8/8/2k5/8/8/8/3R4/K3q3 w - - 0 1")}) {
        const syzygy::TableValue a = mapped.probe(parse(fen)), b = held.probe(parse(fen));
        INFO(fen);
        CHECK(a.status == b.status);
        CHECK(a.value == b.value);
    }
    const std::span<const uint8_t> cut(bytes.data(), bytes.size() / 2);
    const syzygy::Table short_one(syzygy::TableType::Wdl, "KQvKR", material, cut);
    CHECK_THAT(short_one.prepare(), Catch::Contains("truncated or damaged"));
    const syzygy::Table empty(syzygy::TableType::Wdl, "KQvKR", material, std::span<const uint8_t>());
    CHECK_THAT(empty.prepare(), Catch::Contains("empty file"));
}

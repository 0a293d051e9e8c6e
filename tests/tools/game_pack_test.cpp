// The `.apack` format of tools/game_pack.h and the pool tools of tools/pool.h: the
// move ranking, round trips of random and self-played games, damaged files, and shards
// of several runs merging into one training file with every game once.

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "test_support.h"
#include "chess/movegen.h"
#include "tools/datagen.h"
#include "tools/game_pack.h"
#include "tools/pool.h"
#include "tools/scored_games.h"
#include "tools/tools.h"
#include "tools/xz.h"

using namespace arbiter;
using namespace arbiter::tools;
using arbiter::test::check_same;
using arbiter::test::Coverage;
using arbiter::test::random_game;

namespace {

std::string file_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A temporary folder, removed with its files at the end of the test.
struct TempDir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("arbiter_game_pack_test_" + std::to_string(std::random_device{}()));
    TempDir() { std::filesystem::create_directories(path); }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

DatagenConfig small_run(uint64_t seed, int games, const std::string& output) {
    DatagenConfig config;
    config.games = games;
    config.nodes = 400;
    config.seed = seed;
    config.chess960_percent = 20;
    config.hash_mb = 1;
    config.eval = "hce";
    config.format = DataFormat::Agame;
    config.output = output;
    return config;
}

}  // namespace

TEST_CASE("ranked_moves orders every legal move once, the likely ones first", "[game_pack]") {
    std::mt19937_64 rng(3);
    Coverage seen;
    for (int i = 0; i < 50; ++i) {
        Position pos = random_game(rng, seen).start;
        MoveList legal = legal_moves(pos), ranked = ranked_moves(pos);
        REQUIRE(ranked.size() == legal.size());
        const auto by_code = [](Move a, Move b) { return a.raw() < b.raw(); };
        std::sort(legal.begin(), legal.end(), by_code);
        std::sort(ranked.begin(), ranked.end(), by_code);
        CHECK(std::equal(legal.begin(), legal.end(), ranked.begin()));
    }
    // A queen left hanging is taken first; a pawn push comes before a knight walking
    // into a pawn's attack.
    CHECK(ranked_moves(test::parse_fen("4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1"))[0] == Move(D2, D5));
    const MoveList ranked = ranked_moves(test::parse_fen("4k3/8/2p5/8/8/2N5/P7/4K3 w - - 0 1"));
    const auto rank_of_move = [&](Move m) { return std::find(ranked.begin(), ranked.end(), m) - ranked.begin(); };
    CHECK(rank_of_move(Move(A2, A3)) < rank_of_move(Move(C3, B5)));
    // The order depends on the position only.
    CHECK(std::equal(ranked.begin(), ranked.end(),
                     ranked_moves(test::parse_fen("4k3/8/2p5/8/8/2N5/P7/4K3 w - - 0 1")).begin()));
}

TEST_CASE("Random games survive a pack round trip", "[game_pack]") {
    std::mt19937_64 rng(11);
    Coverage seen;
    std::vector<ScoredGame> games;
    ScoredGame empty;  // a game of 0 plies
    empty.result = TrainingResult::WhiteWins;
    games.push_back(empty);
    for (int i = 0; i < 300; ++i) games.push_back(random_game(rng, seen));
    CHECK(seen.castling > 0);
    CHECK(seen.en_passant > 0);
    CHECK(seen.promotion > 0);
    CHECK(seen.chess960 > 0);

    const std::vector<uint8_t> payload = pack_games(games);
    CHECK(std::string(payload.begin(), payload.begin() + 7) == "ARBPACK");
    std::vector<ScoredGame> back;
    std::string error;
    REQUIRE(unpack_games(payload, back, error));
    CHECK(error.empty());
    REQUIRE(back.size() == games.size());
    for (size_t i = 0; i < games.size(); ++i) check_same(games[i], back[i]);

    std::vector<uint8_t> decompressed;
    REQUIRE(xz_decompress(xz_compress(payload), decompressed, error));
    CHECK(decompressed == payload);
}

TEST_CASE("A damaged packed file is refused with the reason", "[game_pack]") {
    std::mt19937_64 rng(5);
    Coverage seen;
    std::vector<ScoredGame> games;
    for (int i = 0; i < 3; ++i) games.push_back(random_game(rng, seen));
    const std::vector<uint8_t> payload = pack_games(games);
    std::vector<ScoredGame> back;
    std::string error;

    std::vector<uint8_t> bad = payload;
    bad[0] = 'X';
    CHECK(!unpack_games(bad, back, error));
    CHECK(error.find("not a packed game file") == 0);
    bad = payload;
    bad[8] = 2;
    CHECK(!unpack_games(bad, back, error));
    CHECK(error.find("version 2") != std::string::npos);
    bad = payload;
    bad.pop_back();
    CHECK(!unpack_games(bad, back, error));
    CHECK(error == "truncated");
    bad = payload;
    bad.push_back(0);
    CHECK(!unpack_games(bad, back, error));
    CHECK(error.find("after the last column") != std::string::npos);
    bad = payload;
    bad[12] = 200;  // 200 games in the header
    CHECK(!unpack_games(bad, back, error));

    SECTION("random damage never crashes the reader") {
        for (int trial = 0; trial < 2000; ++trial) {
            bad = payload;
            for (int flips = 1 + int(rng() % 3); flips > 0; --flips)
                bad[rng() % bad.size()] ^= uint8_t(1 + rng() % 255);
            back.clear();
            if (unpack_games(bad, back, error)) CHECK(back.size() == 3);
            else CHECK((!error.empty() && back.empty()));
        }
    }
    SECTION("damaged compressed bytes") {
        std::vector<uint8_t> compressed = xz_compress(payload), out;
        compressed.resize(compressed.size() / 2);
        CHECK(!xz_decompress(compressed, out, error));
        CHECK(error == "xz: truncated data");
        CHECK(!xz_decompress(payload, out, error));
        CHECK(error == "not xz data");
    }
}

TEST_CASE("pack, unpack and convert keep self-play games exactly", "[game_pack][datagen]") {
    TempDir dir;
    std::ostringstream log;
    REQUIRE(run_datagen(small_run(21, 6, dir / "run.agame"), log) == 0);
    const std::string agame = file_bytes(dir / "run.agame");

    // A run still writing ends in part of a game: pack leaves it for the next shard.
    std::ofstream(dir / "growing.agame", std::ios::binary) << agame << agame.substr(0, 50);
    std::ostringstream out, err;
    REQUIRE(pack_main({dir / "growing.agame", dir / "all.apack"}, out, err) == 0);
    CHECK(out.str().empty());
    CHECK(err.str().find("games 6 (from 0)  plies ") == 0);
    REQUIRE(unpack_main({dir / "all.apack", dir / "back.agame"}, out, err) == 0);
    CHECK(file_bytes(dir / "back.agame") == agame);
    CHECK(std::filesystem::file_size(dir / "all.apack") < agame.size());

    // Shards by --skip and --games hold the same games.
    const std::string a = dir / "a.apack", b = dir / "b.apack";
    REQUIRE(pack_main({dir / "run.agame", a, "--games", "4"}, out, err) == 0);
    REQUIRE(pack_main({"--skip", "4", dir / "run.agame", b}, out, err) == 0);
    CHECK(err.str().find("games 2 (from 4)") != std::string::npos);
    std::ostringstream convert_log;
    REQUIRE(run_convert_pool({dir / "run.agame"}, dir / "whole.abin", convert_log) == 0);
    REQUIRE(run_convert_pool({a, b}, dir / "shards.abin", convert_log) == 0);
    CHECK(file_bytes(dir / "whole.abin") == file_bytes(dir / "shards.abin"));
    CHECK(!file_bytes(dir / "whole.abin").empty());

    // Bad command lines and files: a message and a non-zero status.
    std::ostringstream errors;
    CHECK(pack_main({dir / "run.agame"}, out, errors) == 2);
    CHECK(pack_main({dir / "run.agame", dir / "x.abin"}, out, errors) == 2);
    CHECK(pack_main({dir / "run.agame", a, "--skip", "6"}, out, errors) == 1);
    CHECK(errors.str().find("no complete game from game 6 on") != std::string::npos);
    CHECK(pack_main({dir / "missing.agame", a}, out, errors) == 1);
    CHECK(unpack_main({dir / "run.agame", dir / "y.agame"}, out, errors) == 2);
    std::ofstream(dir / "bad.apack", std::ios::binary) << "a text file, not the bytes of an xz stream";
    CHECK(unpack_main({dir / "bad.apack", dir / "y.agame"}, out, errors) == 1);
    CHECK(errors.str().find("bad.apack: not xz data") != std::string::npos);
}

TEST_CASE("Shards of several runs merge with every game once", "[game_pack][datagen]") {
    TempDir dir;
    std::ostringstream log;
    // Two machines with distinct seeds, and a third that repeated the first's seed
    // (the same games, written again).
    REQUIRE(run_datagen(small_run(31, 4, dir / "m1.agame"), log) == 0);
    REQUIRE(run_datagen(small_run(32, 4, dir / "m2.agame"), log) == 0);
    REQUIRE(run_datagen(small_run(31, 6, dir / "m3.agame"), log) == 0);
    std::ostringstream out, err;
    REQUIRE(pack_main({dir / "m1.agame", dir / "m1.apack"}, out, err) == 0);
    REQUIRE(pack_main({dir / "m2.agame", dir / "m2.apack"}, out, err) == 0);

    std::ostringstream distinct;
    REQUIRE(run_convert_pool({dir / "m1.apack", dir / "m2.apack"}, dir / "pool.abin", distinct) == 0);
    CHECK(distinct.str().find("games 8  ") == 0);
    CHECK(distinct.str().find("duplicate games dropped 0") != std::string::npos);

    // m3 holds m1's four games and two more; m1's shard given twice adds nothing.
    std::ostringstream merged;
    REQUIRE(run_convert_pool({dir / "m1.apack", dir / "m2.apack", dir / "m3.agame", dir / "m1.apack"}, dir / "all.abin",
                             merged) == 0);
    CHECK(merged.str().find("games 10  ") == 0);
    CHECK(merged.str().find("duplicate games dropped 8") != std::string::npos);
    // Where the duplicates were: one line for each pair of inputs, the repeating one first.
    const std::string m1 = dir / "m1.apack", m3 = dir / "m3.agame";
    CHECK(merged.str().find(fmt::format("  4 of them in {}, first read from {}\n", m3, m1)) != std::string::npos);
    CHECK(merged.str().find(fmt::format("  4 of them in {}, first read from {}\n", m1, m1)) != std::string::npos);
    CHECK(distinct.str().find(" of them in ") == std::string::npos);
    std::ostringstream alone;
    REQUIRE(run_convert_pool({dir / "m3.agame", dir / "m2.apack"}, dir / "same.abin", alone) == 0);
    CHECK(std::filesystem::file_size(dir / "all.abin") == std::filesystem::file_size(dir / "same.abin"));

    // Same settings and seed, same games: fingerprints agree; any change tells them apart.
    std::vector<ScoredGame> g1, g3;
    std::string error;
    REQUIRE(read_pack_file(dir / "m1.apack", g1, error));
    REQUIRE(pack_main({dir / "m3.agame", dir / "m3.apack"}, out, err) == 0);
    REQUIRE(read_pack_file(dir / "m3.apack", g3, error));
    REQUIRE(g3.size() == 6);
    CHECK(game_fingerprint(g1[2]) == game_fingerprint(g3[2]));
    ScoredGame changed = g1[2];
    changed.plies.back().score_white += 1;
    CHECK(game_fingerprint(changed) != game_fingerprint(g1[2]));
    changed = g1[2];
    changed.result = changed.result == TrainingResult::Draw ? TrainingResult::WhiteWins : TrainingResult::Draw;
    CHECK(game_fingerprint(changed) != game_fingerprint(g1[2]));
}

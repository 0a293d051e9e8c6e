// The `.agame` format of tools/game_record.h: the documented bytes, round trips of
// random games, the conversion filters, damaged input, and datagen's two formats
// giving the same training records.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "test_support.h"
#include "chess/chess960.h"
#include "chess/movegen.h"
#include "tools/datagen.h"
#include "tools/game_record.h"
#include "tools/pool.h"
#include "tools/scored_games.h"

using namespace arbiter;
using namespace arbiter::search;
using namespace arbiter::tools;
using arbiter::test::check_same;
using arbiter::test::Coverage;
using arbiter::test::random_game;

namespace {

std::string bytes_of(const std::vector<ScoredGame>& games) {
    std::ostringstream out;
    for (const ScoredGame& g : games) REQUIRE(write_game(out, g));
    return out.str();
}

std::vector<ScoredGame> read_all(const std::string& bytes, std::string& error) {
    std::istringstream in(bytes);
    GameReader reader(in);
    std::vector<ScoredGame> games;
    for (ScoredGame g; reader.next(g);) games.push_back(g);
    error = reader.error();
    return games;
}

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("A game record stores the documented bytes", "[game_record]") {
    ScoredGame game;
    const Move e4(E2, E4);
    game.plies = {make_ply(e4, -35), make_ply(Move(E7, E5), mate_in(5))};
    game.result = TrainingResult::WhiteWins;
    std::vector<uint8_t> b;
    append_game(b, game);
    REQUIRE(b.size() == 36 + 4 * 2);
    CHECK(b[8] == (3 | (1 << 4)));  // a1 White rook, b1 White knight
    CHECK(b[24] == 0);              // White to move, not Chess960
    CHECK(b[25] == 255);            // no en passant
    CHECK(b[26] == 0x07);           // White: king-side rook on h (7), queen-side on a (0)
    CHECK(b[27] == 0x07);
    CHECK(b[28] == 0);
    CHECK(b[29] == 0x47);
    CHECK((b[30] | (b[31] << 8)) == 1);
    CHECK((b[32] | (b[33] << 8)) == e4.raw());
    CHECK(int16_t(b[34] | (b[35] << 8)) == -35);
    CHECK(int16_t(b[38] | (b[39] << 8)) == 32767 - 5);  // a mate in 5 plies for White
    CHECK((b[40] | b[41]) == 0);                        // end marker
    CHECK(b[42] == 2);
    CHECK(b[43] == 0);

    // Scores: centipawns clamped to 32000; mate scores flagged, distance kept.
    CHECK(make_ply(e4, 31000).score_white == 31000);
    CHECK(!make_ply(e4, 31000).mate);
    CHECK(make_ply(e4, mate_in(5)).mate);
    CHECK(make_ply(e4, mate_in(5)).score_white == mate_in(5));
    CHECK(make_ply(e4, mated_in(8)).score_white == mated_in(8));
}

TEST_CASE("Random games survive a round trip", "[game_record]") {
    std::mt19937_64 rng(7);
    Coverage seen;
    std::vector<ScoredGame> games;
    ScoredGame empty;  // a game of 0 plies
    empty.result = TrainingResult::BlackWins;
    games.push_back(empty);
    for (int i = 0; i < 300; ++i) games.push_back(random_game(rng, seen));
    games.push_back(empty);
    CHECK(seen.castling > 0);
    CHECK(seen.en_passant > 0);
    CHECK(seen.promotion > 0);
    CHECK(seen.ep_start > 0);
    CHECK(seen.chess960 > 0);

    const std::string bytes = bytes_of(games);
    size_t expected = 0;
    for (const ScoredGame& g : games) expected += 36 + 4 * g.plies.size();
    CHECK(bytes.size() == expected);
    std::string error;
    const std::vector<ScoredGame> back = read_all(bytes, error);
    CHECK(error.empty());
    REQUIRE(back.size() == games.size());
    for (size_t i = 0; i < games.size(); ++i) {
        INFO("game " << i);
        check_same(games[i], back[i]);
    }
}

TEST_CASE("Conversion drops the positions a trainer skips, and only those", "[game_record]") {
    struct Case {
        const char* name;
        const char* fen;
        bool chess960;
        Move first;
        int first_score;
        Move second;
        bool first_dropped;
        uint64_t ConversionStats::*counter;
    };
    const Case cases[] = {
        // The White king in check steps out; the quiet reply after it is kept.
        {"in check", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", false, Move(E1, E2), 0, Move(A1, A2), true,
         &ConversionStats::in_check},
        {"not in check", "4k3/8/8/8/8/8/r7/4K3 b - - 0 1", false, Move(A2, A3), 0, Move(E1, E2), false, nullptr},
        {"capture", "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", false, Move(E1, D2), 0, Move(E8, E7), true,
         &ConversionStats::tactical},
        {"en passant", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", false, Move(D4, E3, Move::EnPassant), 0, Move(E1, D1), true,
         &ConversionStats::tactical},
        {"promotion", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", false, Move(A7, A8, Move::Promotion, Knight), 0, Move(E8, E7),
         true, &ConversionStats::tactical},
        // Castling is encoded as the king taking its rook, and is no capture.
        {"castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, Move(E1, H1, Move::Castling), 0, Move(E8, E7),
         false, nullptr},
        {"Chess960 castling", "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", true, Move(E1, B1, Move::Castling), 0,
         Move(E8, E7), false, nullptr},
        {"mate score", Position::StartFen.data(), false, Move(E2, E4), mate_in(7), Move(E7, E5), true,
         &ConversionStats::mate},
        {"near-mate score", Position::StartFen.data(), false, Move(E2, E4), 5000, Move(E7, E5), false, nullptr},
    };
    for (const Case& c : cases) {
        INFO(c.name);
        ScoredGame game;
        game.start = test::parse_fen(c.fen, c.chess960, FenCheck::Playable);
        game.plies = {make_ply(c.first, c.first_score), make_ply(c.second, -20)};
        game.result = TrainingResult::WhiteWins;
        std::istringstream in(bytes_of({game}));
        std::ostringstream out;
        ConversionStats stats;
        CHECK(convert_games(in, out, stats).empty());
        CHECK(stats.games == 1);
        CHECK(stats.plies == 2);
        CHECK(stats.written == (c.first_dropped ? 1u : 2u));
        CHECK(stats.in_check + stats.tactical + stats.mate == (c.first_dropped ? 1u : 0u));
        if (c.counter) CHECK(stats.*(c.counter) == 1);
        const std::string records = out.str();
        REQUIRE(records.size() == stats.written * sizeof(TrainingRecord));
        // The last record is the second ply's position, exactly as datagen encodes it.
        const Position second = game.start.apply(c.first);
        const TrainingRecord expected = encode_record(second, -20, TrainingResult::WhiteWins, c.chess960);
        CHECK(std::equal(expected.begin(), expected.end(), records.end() - 32,
                         [](uint8_t a, char b) { return a == uint8_t(b); }));
    }
}

TEST_CASE("Damaged game files fail with the game and ply, keeping the games before", "[game_record]") {
    std::mt19937_64 rng(11);
    Coverage seen;
    std::vector<ScoredGame> games;
    while (games.size() < 3) {
        ScoredGame g = random_game(rng, seen);
        if (g.plies.size() >= 5) games.push_back(g);
    }
    const std::string bytes = bytes_of(games);
    const size_t first = 36 + 4 * games[0].plies.size();
    const size_t second = first + 36 + 4 * games[1].plies.size();

    SECTION("truncated anywhere") {
        for (size_t cut = 0; cut < bytes.size(); ++cut) {
            std::string error;
            const size_t read = read_all(bytes.substr(0, cut), error).size();
            const bool boundary = cut == 0 || cut == first || cut == second;
            INFO("cut at " << cut << ": " << error);
            CHECK(read == (cut < first ? 0u : cut < second ? 1u : 2u));
            CHECK(error.empty() == boundary);
            if (!boundary) CHECK(error.find("truncated") != std::string::npos);
        }
    }
    SECTION("an illegal move") {
        std::string bad = bytes;
        bad[first + 32 + 4 * 3] = char(0xFF);  // game 2, ply 3: h8 to h8
        bad[first + 33 + 4 * 3] = char(0xFF);
        std::string error;
        CHECK(read_all(bad, error).size() == 1);
        CHECK(error.find("game 2 (byte " + std::to_string(first) + "), ply 3: move 0xffff") == 0);

        // The converter writes the first game's records and reports the damage.
        std::istringstream in(bad);
        std::ostringstream out;
        ConversionStats stats;
        CHECK(convert_games(in, out, stats).find("game 2") == 0);
        CHECK(stats.games == 1);
        CHECK(out.str().size() == stats.written * 32);
    }
    SECTION("damaged start and end") {
        std::string bad = bytes;
        bad[first + 29] = 'X';
        std::string error;
        read_all(bad, error);
        CHECK(error.find("game 2 (byte " + std::to_string(first) + "), start position: no game marker") == 0);
        bad = bytes;
        bad[first - 2] = 7;
        read_all(bad, error);
        CHECK(error.find("game 1 (byte 0), end: bad result 7") == 0);
        bad = bytes;
        bad[8] = char(0xEE);  // piece code 14
        read_all(bad, error);
        CHECK(error.find("game 1 (byte 0), start position: bad piece code") == 0);
    }
    SECTION("random damage never crashes the reader") {
        for (int trial = 0; trial < 2000; ++trial) {
            std::string bad = bytes;
            for (int flips = 1 + int(rng() % 3); flips > 0; --flips) bad[rng() % bad.size()] ^= char(1 + rng() % 255);
            std::string error;
            const std::vector<ScoredGame> back = read_all(bad, error);
            CHECK(back.size() <= 3);
            if (back.size() < 3) CHECK(!error.empty());
        }
    }
}

TEST_CASE("datagen in agame format converts to the records abin mode writes", "[game_record][datagen]") {
    namespace fs = std::filesystem;
    const fs::path dir =
        fs::temp_directory_path() / ("arbiter_game_record_test_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    std::ostringstream log;
    DatagenConfig config;
    config.games = 4;
    config.nodes = 600;
    config.seed = 9;
    config.chess960_percent = 50;
    config.hash_mb = 2;
    config.eval = "hce";

    config.output = (dir / "a.abin").string();
    REQUIRE(run_datagen(config, log) == 0);
    config.format = DataFormat::Agame;
    config.output = (dir / "a.agame").string();
    REQUIRE(run_datagen(config, log) == 0);
    REQUIRE(run_convert_pool({config.output}, (dir / "converted.abin").string(), log) == 0);
    const std::string abin = read_file(dir / "a.abin");
    CHECK(!abin.empty());
    CHECK(read_file(dir / "converted.abin") == abin);
    const std::string agame = read_file(dir / "a.agame");
    INFO(log.str());
    CHECK(log.str().find("games 4  plies ") != std::string::npos);
    CHECK(agame.size() < abin.size());

    // Resuming: two games, a torn write of a third, then on to four gives the same file.
    config.output = (dir / "b.agame").string();
    config.games = 2;
    REQUIRE(run_datagen(config, log) == 0);
    std::ofstream(config.output, std::ios::binary | std::ios::app) << "torn";
    config.games = 4;
    REQUIRE(run_datagen(config, log) == 0);
    CHECK(read_file(dir / "b.agame") == agame);
    CHECK(read_file(dir / "b.agame.progress").find(" format agame positions ") != std::string::npos);

    // An abin run cannot be continued as agame.
    config.output = (dir / "a.abin").string();
    CHECK(run_datagen(config, log) != 0);

    // Bad conversion arguments and damaged input: non-zero, with a message.
    std::ostringstream errors;
    CHECK(run_convert_pool({(dir / "missing.agame").string()}, (dir / "x.abin").string(), errors) != 0);
    CHECK(run_convert_pool({config.output}, config.output, errors) != 0);
    std::string damaged = agame;
    damaged.resize(damaged.size() - 3);
    std::ofstream((dir / "damaged.agame").string(), std::ios::binary) << damaged;
    CHECK(run_convert_pool({(dir / "damaged.agame").string()}, (dir / "d.abin").string(), errors) != 0);
    CHECK(errors.str().find("game 4 (byte ") != std::string::npos);
    CHECK(errors.str().find("truncated") != std::string::npos);
    CHECK(abin.compare(0, read_file(dir / "d.abin").size(), read_file(dir / "d.abin")) == 0);
    CHECK(!read_file(dir / "d.abin").empty());
    fs::remove_all(dir);
}

TEST_CASE("datagen's format option is parsed strictly", "[game_record][datagen]") {
    DatagenConfig config;
    CHECK(config.format == DataFormat::Abin);
    CHECK(parse_datagen_args({"--output", "x", "--format", "agame"}, config).empty());
    CHECK(config.format == DataFormat::Agame);
    CHECK(parse_datagen_args({"--output", "x", "--format", "abin"}, config).empty());
    CHECK(config.format == DataFormat::Abin);
    CHECK(!parse_datagen_args({"--output", "x", "--format", "pgn"}, config).empty());
}

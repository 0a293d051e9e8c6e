// Self-play data generation: the record layout of nets/README.md, the filters, and
// reproducibility.

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "test_support.h"
#include "chess/movegen.h"
#include "search/datagen.h"
#include "search/training_record.h"

using namespace arbiter;
using namespace arbiter::search;

TEST_CASE("A training record stores the documented bytes", "[datagen]") {
    const Position pos = test::parse_fen("4k3/8/8/8/8/8/8/R3K3 b Q - 7 42");
    const TrainingRecord r = encode_record(pos, -123, TrainingResult::WhiteWins, true);
    // Occupancy: a1 (bit 0), e1 (bit 4), e8 (bit 60).
    const uint64_t occupancy = (1ull << 0) | (1ull << 4) | (1ull << 60);
    for (int i = 0; i < 8; ++i) CHECK(r[size_t(i)] == uint8_t(occupancy >> (8 * i)));
    // Pieces in square order: White rook (3) low nibble, White king (5) high nibble; Black king (11).
    CHECK(r[8] == (3 | (5 << 4)));
    CHECK(r[9] == 11);
    for (int i = 10; i < 24; ++i) CHECK(r[size_t(i)] == 0);
    CHECK(int16_t(r[24] | (r[25] << 8)) == -123);
    CHECK(r[26] == 2);
    CHECK(r[27] == 1);
    CHECK(r[28] == 7);
    CHECK(r[29] == 1);
    CHECK((r[30] | (r[31] << 8)) == 42);
}

TEST_CASE("Training records decode to the position encoded", "[datagen]") {
    for (const std::string& fen : test::epd_fens("standard.epd")) {
        const Position pos = test::parse_fen(fen, false, FenCheck::Playable);
        const DecodedRecord d = decode_record(encode_record(pos, 31000, TrainingResult::Draw, false));
        INFO(fen);
        for (int s = 0; s < 64; ++s) CHECK(d.board[s] == pos.piece_on(Square(s)));
        CHECK(d.side_to_move == pos.side_to_move());
        CHECK(d.score_white == 31000);
        CHECK(d.result == TrainingResult::Draw);
        CHECK(!d.chess960_start);
    }
    // Scores beyond i16 are clamped, not wrapped.
    CHECK(decode_record(encode_record(Position::startpos(), 99999, TrainingResult::Draw, false)).score_white == 32767);
}

TEST_CASE("Self-play games are reproducible and keep only quiet positions", "[datagen]") {
    DatagenConfig config;
    config.nodes = 800;
    config.seed = 3;
    config.chess960_percent = 50;
    config.hash_mb = 2;
    SelfPlayer a(config), b(config);
    for (uint64_t game = 0; game < 3; ++game) {
        const GameRecords first = a.play(game);
        const GameRecords again = b.play(game);
        REQUIRE(first.records.size() == again.records.size());
        CHECK(std::memcmp(first.records.data(), again.records.data(), first.records.size() * 32) == 0);
        CHECK(first.plies > 0);
        CHECK(!first.records.empty());
        for (const TrainingRecord& r : first.records) {
            const DecodedRecord d = decode_record(r);
            CHECK(d.result == first.result);
            CHECK(std::abs(d.score_white) < 30000);
        }
    }
    // Another seed plays other games.
    config.seed = 4;
    SelfPlayer c(config);
    const GameRecords other = c.play(0), first = a.play(0);
    CHECK((other.records.size() != first.records.size() ||
           std::memcmp(other.records.data(), first.records.data(), first.records.size() * 32) != 0));
}

TEST_CASE("datagen options are parsed strictly", "[datagen]") {
    DatagenConfig config;
    CHECK(parse_datagen_args({"--output", "x.abin", "--games", "10", "--threads", "2", "--nodes", "6000"}, config).empty());
    CHECK(config.games == 10);
    CHECK(config.threads == 2);
    CHECK(config.nodes == 6000);
    DatagenConfig other;
    CHECK(!parse_datagen_args({"--games", "10"}, other).empty());            // no output
    CHECK(!parse_datagen_args({"--output", "x", "--games", "ten"}, other).empty());
    CHECK(!parse_datagen_args({"--output", "x", "--games"}, other).empty());
    CHECK(!parse_datagen_args({"--output", "x", "--bogus", "1"}, other).empty());
    CHECK(!parse_datagen_args({"--output", "x", "--threads", "0"}, other).empty());
}

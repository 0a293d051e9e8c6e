// Self-play data generation: the record layout of nets/README.md, the filters, and
// reproducibility.

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "test_support.h"
#include "chess/chess960.h"
#include "chess/movegen.h"
#include "tools/datagen.h"
#include "search/search.h"
#include "tools/training_record.h"

using namespace arbiter;
using namespace arbiter::search;
using namespace arbiter::tools;

TEST_CASE("A training record stores the documented bytes", "[datagen]") {
    // Composed (White's king and rook hold their right, so neither moved last): Playable.
    const Position pos = test::parse_fen("4k3/8/8/8/8/8/8/R3K3 b Q - 7 42", false, FenCheck::Playable);
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
    CHECK(parse_datagen_args({"--output", "x.abin", "--games", "10", "--threads", "2", "--nodes", "6000"}, config)
              .empty());
    CHECK(config.games == 10);
    CHECK(config.threads == 2);
    CHECK(config.nodes == 6000);
    DatagenConfig other;
    CHECK(!parse_datagen_args({"--games", "10"}, other).empty());  // no output
    CHECK(!parse_datagen_args({"--output", "x", "--games", "ten"}, other).empty());
    CHECK(!parse_datagen_args({"--output", "x", "--games"}, other).empty());
    CHECK(!parse_datagen_args({"--output", "x", "--bogus", "1"}, other).empty());
    CHECK(!parse_datagen_args({"--output", "x", "--threads", "0"}, other).empty());
}

TEST_CASE("datagen reads its options with the tools' shared reader and says what is wrong", "[datagen]") {
    DatagenConfig config;
    CHECK(parse_datagen_args({"--output", "x.agame", "--format", "agame", "--seed", "18446744073709551615",
                              "--random-plies", "0", "--soft-nodes", "0", "--eval", "hce"},
                             config)
              .empty());
    CHECK(config.format == DataFormat::Agame);
    CHECK(config.seed == UINT64_MAX);
    CHECK(config.eval == "hce");
    DatagenConfig other;
    CHECK_THAT(parse_datagen_args({"--output", "x", "--games", "ten"}, other),
               Catch::StartsWith("--games needs a number from 1 to ") && Catch::EndsWith(", not 'ten'"));
    CHECK(parse_datagen_args({"--output", "x", "--threads", "0"}, other) ==
          "--threads needs a number from 1 to 1024, not '0'");
    CHECK(parse_datagen_args({"--output", "x", "--random-plies"}, other) ==
          "--random-plies needs a number from 0 to 40");
    CHECK(parse_datagen_args({"--output", "x", "--bogus", "1"}, other) == "unknown option '--bogus'");
    CHECK(parse_datagen_args({"--output", "x", "stray"}, other) == "unexpected argument 'stray'");
    CHECK(parse_datagen_args({"--output", "--games", "10"}, other) == "--output needs a file name");
    CHECK(parse_datagen_args({"--output", "x", "--format", "pgn"}, other) == "--format takes abin or agame, not 'pgn'");
    CHECK(parse_datagen_args({"--output", "x", "--eval"}, other) == "--eval needs default, hce or a .anet file");
}

TEST_CASE("The soft node limit ends a search after a whole iteration, under the hard cap", "[datagen]") {
    TranspositionTable tt;
    tt.resize(2);
    SharedSearch shared(tt);
    Worker worker(0, shared);
    const Game game(test::parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
    const MoveList legal = legal_moves(game.position());
    const std::vector<Move> moves(legal.begin(), legal.end());
    const auto search = [&](uint64_t soft, uint64_t hard, int depth) {
        tt.clear();
        worker.clear_histories();
        shared.stop = false;
        shared.limits = SearchLimits();
        shared.limits.soft_nodes = soft;
        shared.limits.nodes = hard;
        shared.limits.depth = depth;
        worker.prepare(game, moves);
        worker.iterative_deepening();
        return worker.nodes();
    };
    // Hard limit only (as `go nodes`): stops there (the node that finds the limit
    // reached is counted), inside an iteration.
    const uint64_t hard = search(0, 3000, 0);
    CHECK(hard >= 3000);
    CHECK(hard <= 3001);
    CHECK(shared.stop);
    // Soft limit: past it, at the end of the iteration that crossed it, without a stop.
    const uint64_t soft = search(3000, 1'000'000, 0);
    const int depth = worker.completed_depth();
    CHECK(soft >= 3000);
    CHECK(!shared.stop);
    CHECK(search(3000, 1'000'000, 0) == soft);  // deterministic
    CHECK(search(0, 0, depth) == soft);         // the same iterations, by depth
    CHECK(search(0, 0, depth - 1) < 3000);      // the previous iteration ended below it
    // The hard cap still holds when an iteration runs far past the soft limit.
    CHECK(search(3000, soft - 1, 0) <= soft);
    CHECK(shared.stop);
}

TEST_CASE("DFRC starts combine two Chess960 back ranks and castle by the rules core", "[datagen]") {
    CHECK(dfrc_start(518 * 960 + 518).fen() == test::parse_fen(chess960_start_fen(518), true).fen());
    const Position mixed = dfrc_start(0 * 960 + 959);
    CHECK(mixed.fen() == "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1");
    for (int n : {0, 959, 1234, 500'000, 518 * 960 + 7, 921'599}) {
        const Position start = dfrc_start(n);
        INFO(start.fen());
        CHECK(start.chess960());
        // Clear White's back rank but for king and rooks: castling becomes legal and puts
        // king and rook on the FIDE squares (g1/f1, c1/d1) whatever their start files.
        // (One rook can stand on the squares the other castling needs, as in RKR5 or
        // 5RKR, which allows only one of them.)
        std::string fen = start.fen();
        const size_t rank1 = fen.rfind('/') + 1, end = fen.find(' ');
        std::string row;
        int empty = 0;
        for (size_t i = rank1; i < end; ++i) {
            if (fen[i] != 'K' && fen[i] != 'R') {
                ++empty;
                continue;
            }
            if (empty) row += char('0' + empty);
            row += fen[i];
            empty = 0;
        }
        if (empty) row += char('0' + empty);
        const Position open = test::parse_fen(fen.substr(0, rank1) + row + fen.substr(end), true, FenCheck::Playable);
        int castlings = 0;
        for (Move m : legal_moves(open)) {
            if (m.kind() != Move::Castling) continue;
            ++castlings;
            const Position after = open.apply(m);
            const bool king_side = file_of(m.to()) > file_of(m.from());
            CHECK(after.piece_on(king_side ? G1 : C1) == make_piece(White, King));
            CHECK(after.piece_on(king_side ? F1 : D1) == make_piece(White, Rook));
            CHECK(!after.can_castle(White, KingSide));
            CHECK(!after.can_castle(White, QueenSide));
        }
        const bool crowded = fen.substr(rank1, end - rank1).find("RKR") != std::string::npos;
        CHECK(castlings == (crowded ? 1 : 2));
    }
}

TEST_CASE("DFRC self-play games are legal, flagged and reproducible", "[datagen]") {
    DatagenConfig config;
    config.soft_nodes = 300;
    config.nodes = 1200;
    config.seed = 9;
    config.dfrc_percent = 100;
    config.hash_mb = 2;
    SelfPlayer a(config), b(config);
    for (uint64_t index = 0; index < 2; ++index) {
        const GameRecords game = a.play(index), again = b.play(index);
        CHECK(game.game.start.chess960());
        CHECK(game.game.plies.size() == again.game.plies.size());
        std::vector<uint8_t> bytes, bytes_again;
        append_game(bytes, game.game);
        append_game(bytes_again, again.game);
        CHECK(bytes == bytes_again);
        // The reader replays every move on the rules core and refuses an illegal one.
        std::istringstream in(std::string(bytes.begin(), bytes.end()));
        GameReader reader(in);
        ScoredGame read;
        REQUIRE(reader.next(read));
        CHECK(read.plies.size() == game.game.plies.size());
        for (const TrainingRecord& r : game.records) CHECK(decode_record(r).chess960_start);
    }
}

TEST_CASE("A run continues from its progress file, and from nothing less exact", "[datagen]") {
    namespace fs = std::filesystem;
    const fs::path dir =
        fs::temp_directory_path() / ("arbiter_datagen_progress_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    DatagenConfig config;
    config.games = 1;
    config.nodes = 600;
    config.seed = 5;
    config.eval = "hce";
    config.output = (dir / "p.abin").string();
    std::ostringstream log;
    REQUIRE(run_datagen(config, log) == 0);
    const std::string progress_path = config.output + ".progress";
    std::string line;
    std::getline(std::ifstream(progress_path), line);
    INFO(line);
    // A line of the oldest layout: the seven keys every version writes, in their order.
    REQUIRE(line.starts_with("seed 5 nodes 600 random-plies 8 chess960-percent 0 eval 00000000 games 1 bytes "));
    const auto write_progress = [&](const std::string& text) { std::ofstream(progress_path) << text << '\n'; };
    const auto continues = [&](const std::string& text) {
        write_progress(text);
        std::ostringstream out;
        const bool ok = run_datagen(config, out) == 0;
        INFO(out.str());
        CHECK((ok == (out.str().find("resuming after 1 games") != std::string::npos)));
        CHECK((ok != (out.str().find("cannot read") != std::string::npos)));
        return ok;
    };
    const std::string bytes = line.substr(line.find(" bytes "));
    // Not read: a key out of its place, a first key again later, a key without its
    // value, a number with a sign or a unit, an evaluation id that is not hexadecimal.
    CHECK_FALSE(continues("nodes 600 seed 5 random-plies 8 chess960-percent 0 eval 00000000 games 1" + bytes));
    CHECK_FALSE(continues(line + " seed 5"));
    CHECK_FALSE(continues(line + " hash"));
    CHECK_FALSE(continues("seed +5 nodes 600 random-plies 8 chess960-percent 0 eval 00000000 games 1" + bytes));
    CHECK_FALSE(continues("seed 5 nodes 600k random-plies 8 chess960-percent 0 eval 00000000 games 1" + bytes));
    CHECK_FALSE(continues("seed 5 nodes 600 random-plies 8 chess960-percent 0 eval 0000000g games 1" + bytes));
    // Read: the line as written, which then carries the run on to two games.
    config.games = 2;
    CHECK(continues(line));
    fs::remove_all(dir);
}

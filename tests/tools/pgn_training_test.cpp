// Training records from PGN engine games (tools/pgn_training.h): the score comments
// tournament managers write, the result and player rules, and the records against
// the `.agame` conversion of the same games.

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "test_support.h"
#include "chess/chess960.h"
#include "chess/movegen.h"
#include "chess/pgn.h"
#include "tools/game_record.h"
#include "tools/pgn_training.h"
#include "tools/pool.h"

using namespace arbiter;
using namespace arbiter::tools;

namespace {

const Move AnyMove = Move(Square(12), Square(28));  // e2e4: only carried through

// The comment fastchess writes for a search score from the mover's point of view.
std::string comment_for(int mover_cp) {
    return fmt::format("{}{}.{:02d}/12 0.041s", mover_cp < 0 ? "-" : "+", std::abs(mover_cp) / 100,
                       std::abs(mover_cp) % 100);
}

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        path = std::filesystem::temp_directory_path() / fmt::format("arbiter-pgn-training-{}", std::random_device{}());
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_CASE("Score comments of tournament managers are read from the mover's side", "[pgn_training]") {
    struct Case {
        const char* comment;
        Color mover;
        int score_white;
    };
    for (const Case& c : {Case{"+0.34/10 0.027s", White, 34}, Case{"+0.34/10 0.027s", Black, -34},
                          Case{"-1.5/3", White, -150}, Case{"0.00/11 0.033s, Draw by 3-fold repetition", Black, 0},
                          Case{"12/5", White, 1200}, Case{"-0.07/1", Black, 7}}) {
        INFO(c.comment);
        const auto ply = scored_ply_from_comment(AnyMove, c.comment, c.mover);
        REQUIRE(ply);
        CHECK(ply->score_white == c.score_white);
        CHECK_FALSE(ply->mate);
        CHECK(ply->scored);
        CHECK(ply->move == AnyMove);
    }
    const auto white_mates = scored_ply_from_comment(AnyMove, "+M19/18 0.016s", White);
    REQUIRE(white_mates);
    CHECK(white_mates->mate);
    CHECK(white_mates->score_white > 0);
    const auto black_mated = scored_ply_from_comment(AnyMove, "-M10/22 0.014s", Black);
    REQUIRE(black_mated);
    CHECK(black_mated->mate);
    CHECK(black_mated->score_white > 0);  // Black is mated: good for White
    for (const char* other : {"", "book", "+0.34", "0.345/10", "+/10", "M/3", "a fine move, 0.3/4", "+0.34 /10"})
        CHECK_FALSE(scored_ply_from_comment(AnyMove, other, White));
}

TEST_CASE("A PGN game gives scored plies only where the chosen player's scores are", "[pgn_training]") {
    const PgnReadResult read = read_pgn(
        "[White \"us\"]\n[Black \"them\"]\n[Result \"0-1\"]\n\n"
        "1. e4 {+0.30/10 0.1s} e5 {-0.20/11 0.1s} 2. Nf3 {book} Nc6 {+0.10/9 0.1s} 0-1\n\n"
        "[White \"us\"]\n[Black \"them\"]\n[Result \"*\"]\n\n1. d4 {+0.10/10 0.1s} *\n");
    REQUIRE(read.errors.empty());
    REQUIRE(read.games.size() == 2);
    const auto all = scored_game_from_pgn(read.games[0], "");
    REQUIRE(all);
    CHECK(all->result == TrainingResult::BlackWins);
    REQUIRE(all->plies.size() == 4);
    CHECK(all->plies[0].scored);
    CHECK(all->plies[0].score_white == 30);
    CHECK(all->plies[1].score_white == 20);  // Black's -0.20
    CHECK_FALSE(all->plies[2].scored);       // a book move
    CHECK(all->plies[3].score_white == -10);
    const auto ours = scored_game_from_pgn(read.games[0], "us");
    REQUIRE(ours);
    CHECK(ours->plies[0].scored);
    CHECK_FALSE(ours->plies[1].scored);
    CHECK_FALSE(ours->plies[3].scored);
    CHECK_FALSE(scored_game_from_pgn(read.games[0], "nobody")->plies[0].scored);
    CHECK_FALSE(scored_game_from_pgn(read.games[1], ""));  // no result
}

TEST_CASE("PGN conversion writes the records the agame conversion writes for the same games", "[pgn_training]") {
    // Random games, standard and Chess960, scored at random, written once as PGN with
    // the comments a tournament manager writes and once as .agame.
    std::mt19937_64 rng(2035);
    std::vector<ScoredGame> games;
    std::string pgn_text;
    for (int g = 0; g < 40; ++g) {
        const bool chess960 = g % 4 == 3;
        Position pos =
            chess960 ? *Position::from_fen(chess960_start_fen(int(rng() % 960)), true).position : Position::startpos();
        ScoredGame game;
        game.start = pos;
        game.result = TrainingResult(rng() % 3);
        PgnGame pgn;
        pgn.start = pos;
        pgn.result = game.result == TrainingResult::WhiteWins   ? "1-0"
                     : game.result == TrainingResult::BlackWins ? "0-1"
                                                                : "1/2-1/2";
        for (int ply = 0; ply < 120; ++ply) {
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            const Move move = moves[rng() % moves.size()];
            const int mover_cp = int(rng() % 4001) - 2000;
            const int white_cp = pos.side_to_move() == White ? mover_cp : -mover_cp;
            const bool mate = rng() % 10 == 0;
            game.plies.push_back(make_ply(move, mate ? search::Mate - 7 : white_cp));
            PgnMove m;
            m.move = move;
            m.comment = mate ? (pos.side_to_move() == White ? "+M4/20 0.01s" : "-M4/20 0.01s") : comment_for(mover_cp);
            pgn.moves.push_back(m);
            pos = pos.apply(move);
        }
        games.push_back(game);
        pgn_text += write_pgn(pgn);
    }
    TempDir dir;
    const auto pgn_path = dir.path / "games.pgn", agame_path = dir.path / "games.agame";
    std::ofstream(pgn_path, std::ios::binary) << pgn_text;
    {
        std::ofstream out(agame_path, std::ios::binary);
        for (const ScoredGame& g : games) REQUIRE(write_game(out, g));
    }
    std::ostringstream log_pgn, log_agame;
    REQUIRE(run_convert_pgn(pgn_path.string(), (dir.path / "from-pgn.abin").string(), "", log_pgn) == 0);
    REQUIRE(run_convert_pool({agame_path.string()}, (dir.path / "from-agame.abin").string(), log_agame) == 0);
    const std::string from_pgn = read_file(dir.path / "from-pgn.abin");
    CHECK(from_pgn.size() > 40 * 32 * 30);
    CHECK(from_pgn == read_file(dir.path / "from-agame.abin"));
    CHECK_THAT(log_pgn.str(), Catch::Contains("games 40 (without a result, skipped: 0)"));
    CHECK_THAT(log_pgn.str(), Catch::Contains("no score 0"));
}

TEST_CASE("PGN conversion names bad games, skips them and fails, bad paths are refused", "[pgn_training]") {
    TempDir dir;
    const auto pgn_path = dir.path / "mixed.pgn", out_path = dir.path / "out.abin";
    std::ofstream(pgn_path, std::ios::binary)
        << "[Result \"1-0\"]\n\n1. e4 {+0.30/10 0.1s} e5 {-0.20/11 0.1s} 1-0\n\n"
        << "[Result \"1-0\"]\n\n1. e4 {+0.30/10 0.1s} Ke7 {+0.20/11 0.1s} 1-0\n\n"
        << "[Result \"0-1\"]\n\n1. d4 {book} d5 {+0.20/11 0.1s} 2. c4 {+0.25/10 0.1s} 0-1\n";
    std::ostringstream log;
    CHECK(run_convert_pgn(pgn_path.string(), out_path.string(), "", log) == 1);
    CHECK_THAT(log.str(), Catch::Contains("game 2"));
    CHECK_THAT(log.str(), Catch::Contains("Ke7"));  // Black king onto its own pawn
    CHECK_THAT(log.str(), Catch::Contains("game skipped"));
    CHECK_THAT(log.str(), Catch::Contains("plies 5  positions written 4"));
    CHECK_THAT(log.str(), Catch::Contains("no score 1"));  // the book move
    // The two good games: four positions, the last one from game 3 before 2. c4.
    const std::string bytes = read_file(out_path);
    REQUIRE(bytes.size() == 4 * 32);
    TrainingRecord last;
    std::copy(bytes.end() - 32, bytes.end(), last.begin());
    const DecodedRecord record = decode_record(last);
    CHECK(record.side_to_move == White);
    CHECK(record.score_white == 25);
    CHECK(record.fullmove_number == 2);
    CHECK(record.result == TrainingResult::BlackWins);

    std::ostringstream missing, same;
    CHECK(run_convert_pgn((dir.path / "none.pgn").string(), out_path.string(), "", missing) == 1);
    CHECK_THAT(missing.str(), Catch::Contains("cannot open"));
    CHECK(run_convert_pgn(pgn_path.string(), pgn_path.string(), "", same) == 1);
    CHECK_THAT(same.str(), Catch::Contains("the same file"));
}

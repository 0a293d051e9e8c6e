// How the command-line tools write scores and lines: pawns and mates from White's
// side, lichess's [%eval] form, SAN lines with move numbers.

#include <catch2/catch.hpp>

#include <vector>

#include "test_support.h"
#include "chess/notation.h"
#include "search/wdl.h"
#include "tools/cli.h"
#include "tools/format.h"

using namespace arbiter;
using namespace arbiter::tools;
using search::Mate;

TEST_CASE("Scores in pawns from White's side", "[tools]") {
    CHECK(format_score(125) == "+1.25");
    CHECK(format_score(-40) == "-0.40");
    CHECK(format_score(0) == "0.00");
    CHECK(format_score(5) == "+0.05");
    CHECK(format_score(-5) == "-0.05");
    CHECK(format_score(-1318) == "-13.18");
    CHECK(lichess_eval(125) == "1.25");
    CHECK(lichess_eval(-40) == "-0.40");
    // From the side to move's view to White's.
    CHECK(white_score(80, White) == 80);
    CHECK(white_score(80, Black) == -80);
}

TEST_CASE("Tablebase wins and losses print as TB, below mates and above any eval", "[tools]") {
    // A win the tables prove 10 plies from the root, and the other side's loss.
    CHECK(format_score(search::TbWin - 10) == "+TB");
    CHECK(format_score(white_score(search::TbWin - 10, Black)) == "-TB");
    CHECK(lichess_eval(search::TbWin - 3) == "100.00");
    CHECK(lichess_eval(-search::TbWin + 3) == "-100.00");
    CHECK(clamped_centipawns(-search::TbWin + 40) == -1000);
    // The largest plain evaluation is neither.
    CHECK(format_score(search::TbWinInMaxPly - 1).front() == '+');
    CHECK(format_score(search::TbWinInMaxPly - 1) != "+TB");
}

TEST_CASE("Mate scores in full moves from White's side, whoever is to move", "[tools]") {
    // White to move mates in 1 ply / 9 plies: #1, #5.
    CHECK(format_score(search::mate_in(1)) == "#1");
    CHECK(format_score(search::mate_in(9)) == "#5");
    // Black to move mates in 5 plies (its score mate_in(5)): White's view -mate_in(5).
    CHECK(format_score(white_score(search::mate_in(5), Black)) == "#-3");
    // White to move is mated after 2 and 6 plies.
    CHECK(format_score(search::mated_in(2)) == "#-1");
    CHECK(format_score(search::mated_in(6)) == "#-3");
    // Black to move is mated after 4 plies: White mates in 2.
    CHECK(format_score(white_score(search::mated_in(4), Black)) == "#2");
    // Checkmate on the board.
    CHECK(format_score(white_score(search::mated_in(0), White)) == "#-0");
    CHECK(format_score(white_score(search::mated_in(0), Black)) == "#0");
    CHECK(lichess_eval(-Mate + 3) == "#-2");
    CHECK(white_mate_moves(Mate - 7) == 4);
    CHECK(clamped_centipawns(Mate - 7) == 1000);
    CHECK(clamped_centipawns(-2500) == -1000);
    CHECK(clamped_centipawns(-250) == -250);
}

TEST_CASE("WDL from White's side and expected score", "[tools]") {
    constexpr int StartMaterial = 78;
    const search::Wdl even = search::wdl_of(0, StartMaterial);
    CHECK(even.win == even.loss);
    CHECK(even.win + even.draw + even.loss == 1000);
    CHECK(even.expected_score() == Approx(0.5));
    const search::Wdl up = search::wdl_of(300, StartMaterial);
    CHECK(up.win > up.loss);
    CHECK(up.flipped().loss == up.win);
    CHECK(up.flipped().expected_score() == Approx(1.0 - up.expected_score()));
    CHECK(search::wdl_of(search::mate_in(3), StartMaterial).win == 1000);
    CHECK(search::wdl_of(search::mated_in(2), StartMaterial).loss == 1000);
}

TEST_CASE("SAN lines with move numbers", "[tools]") {
    const Position start = Position::startpos();
    const std::vector<Move> line = {*parse_uci(start, "e2e4"),
                                    *parse_uci(start.apply(*parse_uci(start, "e2e4")), "e7e5")};
    CHECK(san_line(start, line) == "1. e4 e5");
    const Position black = test::parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 12");
    Position p = black.apply(*parse_san(black, "Bb5").move);
    const std::vector<Move> from_black = {*parse_san(p, "a6").move,
                                          *parse_san(p.apply(*parse_san(p, "a6").move), "Ba4").move};
    CHECK(san_line(p, from_black) == "12... a6 13. Ba4");
    // Stops at the first move that is not legal.
    CHECK(san_line(start, std::vector<Move>{*parse_uci(start, "e2e4"), *parse_uci(start, "e2e4")}) == "1. e4");
    CHECK(san_line(start, std::vector<Move>{}).empty());
}

TEST_CASE("Tool arguments: numbers, limits and moves", "[tools]") {
    CHECK(parse_number<int>("12") == 12);
    CHECK_FALSE(parse_number<int>("12x").has_value());
    CHECK_FALSE(parse_number<int>("").has_value());
    CHECK_FALSE(parse_number<uint64_t>("-1").has_value());

    const Args args = {"--depth", "7", "--threads", "x"};
    ArgReader reader(args);
    SearchOptions options;
    std::string error;
    CHECK(read_search_flag(reader, reader.next(), options, false, error));
    CHECK(error.empty());
    CHECK(options.limits.depth == 7);
    CHECK(describe_limit(options.limits) == "depth 7");
    CHECK(read_search_flag(reader, reader.next(), options, false, error));
    CHECK(error == "--threads needs a number from 1 to 1024, not 'x'");

    const Args two = {"--nodes", "5", "--movetime", "9"};
    ArgReader r2(two);
    SearchOptions o2;
    std::string e2;
    read_search_flag(r2, r2.next(), o2, false, e2);
    read_search_flag(r2, r2.next(), o2, false, e2);
    CHECK_THAT(e2, Catch::Contains("only one of"));

    const Args mpv = {"--multipv", "3"};
    ArgReader r3(mpv);
    SearchOptions o3;
    CHECK_FALSE(read_search_flag(r3, r3.next(), o3, false, error));

    const Position start = Position::startpos();
    CHECK(parse_move(start, "e2e4") == parse_uci(start, "e2e4"));
    CHECK(parse_move(start, "Nf3") == parse_uci(start, "g1f3"));
    CHECK_FALSE(parse_move(start, "e5").has_value());
    CHECK(read_any_fen("nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w GBgb - 0 1").position->chess960());
    CHECK_FALSE(read_any_fen("nonsense").position.has_value());
}

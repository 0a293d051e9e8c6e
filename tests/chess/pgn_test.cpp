// The PGN reader and writer: each construct of the format on its own, each error with
// its game, line and token, the real files of tests/data, and the round trip.

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.h"
#include "chess/notation.h"
#include "chess/pgn.h"

using namespace arbiter;

namespace {

// The only game of `text`, which must read without an error.
PgnGame read_one(std::string_view text) {
    const PgnReadResult r = read_pgn(text);
    for (const PgnError& e : r.errors) INFO(e.text());
    REQUIRE(r.errors.empty());
    REQUIRE(r.games.size() == 1);
    return r.games[0];
}

// The main line in SAN.
std::vector<std::string> sans(const PgnGame& game) {
    std::vector<std::string> out;
    Position pos = game.start;
    for (const PgnMove& m : game.moves) {
        out.push_back(to_san(pos, m.move));
        pos = pos.apply(m.move);
    }
    return out;
}

std::vector<std::string> sans(const Position& start, const std::vector<PgnMove>& line) {
    PgnGame g;
    g.start = start;
    g.moves = line;
    return sans(g);
}

// Reading what the writer wrote gives the same text again, and the same moves.
void check_round_trip(const PgnGame& game) {
    const std::string written = write_pgn(game);
    INFO(written);
    const PgnGame again = read_one(written);
    CHECK(write_pgn(again) == written);
    CHECK(sans(again) == sans(game));
    CHECK(again.start.fen() == game.start.fen());
    CHECK(again.result == game.result);
}

std::string read_file(const std::string& name) {
    std::ifstream in(std::string(ARBITER_TEST_DATA) + "/" + name, std::ios::binary);
    REQUIRE(in.good());
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The movetext as one line.
std::string flat(std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text;
}

PgnError only_error(std::string_view text) {
    const PgnReadResult r = read_pgn(text);
    REQUIRE(r.errors.size() == 1);
    return r.errors[0];
}

}  // namespace

TEST_CASE("PGN tag pairs, escapes and the Seven Tag Roster", "[pgn]") {
    const PgnGame g = read_one(
        "[Event \"A \\\"quoted\\\" \\\\ event\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n"
        "[Result \"1-0\"]\n[ECO \"C20\"]\n\n1. e4 1-0\n");
    CHECK(g.tag("Event") == "A \"quoted\" \\ event");
    CHECK(g.tag("White") == "Alice");
    CHECK(g.tag("ECO") == "C20");
    CHECK_FALSE(g.tag("Site").has_value());
    CHECK(g.result == "1-0");
    const std::string written = write_pgn(g);
    CHECK(
        written.starts_with("[Event \"A \\\"quoted\\\" \\\\ event\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
                            "[Round \"?\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n[ECO \"C20\"]\n\n"));
    check_round_trip(g);
}

TEST_CASE("PGN move numbers, check marks and results", "[pgn]") {
    // Move numbers with and without a space, Black's 1..., check and mate marks.
    const PgnGame g = read_one("1.f3 e5 2. g4 2... Qh4# 0-1");
    CHECK(sans(g) == std::vector<std::string>{"f3", "e5", "g4", "Qh4#"});
    CHECK(g.result == "0-1");
    CHECK(g.mainline().status() == GameStatus::Checkmate);
    for (const char* result : {"1-0", "0-1", "1/2-1/2", "*"})
        CHECK(read_one(std::string("1. e4 ") + result).result == result);
    // No result token: the Result tag's, or *.
    CHECK(read_one("[Result \"1/2-1/2\"]\n1. e4 e5").result == "1/2-1/2");
    CHECK(read_one("1. e4 e5").result == "*");
    // A Result tag that holds no result is not taken (found by the fuzzer).
    CHECK(read_one("[Result \"*junk\"]\n1. e4 e5").result == "*");
    check_round_trip(g);
}

TEST_CASE("PGN suffix annotations and NAGs", "[pgn]") {
    const PgnGame g = read_one("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $14 Nf6 $1 $36 *");
    REQUIRE(g.moves.size() == 8);
    CHECK(g.moves[0].nags == std::vector<int>{1});
    CHECK(g.moves[1].nags == std::vector<int>{2});
    CHECK(g.moves[2].nags == std::vector<int>{3});
    CHECK(g.moves[3].nags == std::vector<int>{4});
    CHECK(g.moves[4].nags == std::vector<int>{5});
    CHECK(g.moves[5].nags == std::vector<int>{6});
    CHECK(g.moves[6].nags == std::vector<int>{14});
    CHECK(g.moves[7].nags == std::vector<int>{1, 36});
    // Annotations apart from the move, and after a check mark.
    const PgnGame h = read_one("1. e4 ! e5 ?? 2. Qh5 Ke7 3. Qxe5+! *");
    CHECK(h.moves[0].nags == std::vector<int>{1});
    CHECK(h.moves[1].nags == std::vector<int>{4});
    CHECK(h.moves[4].nags == std::vector<int>{1});
    CHECK(write_pgn(g).find("1. e4 $1 e5 $2 2. Nf3 $3") != std::string::npos);
    check_round_trip(g);
}

TEST_CASE("PGN comments: braces across lines, semicolons, before and after moves", "[pgn]") {
    const PgnGame g = read_one("{Game intro}\n1. e4 {best by\n   test} ; a line comment\ne5 {one} {two} 2. Nf3 *");
    REQUIRE(g.moves.size() == 3);
    CHECK(g.moves[0].comment_before == "Game intro");
    CHECK(g.moves[0].comment == "best by test a line comment");
    CHECK(g.moves[1].comment == "one two");
    // After a comment Black's move carries its number again.
    CHECK(write_pgn(g).find("{Game intro} 1. e4 {best by test a line comment} 1... e5 {one two} 2. Nf3 *") !=
          std::string::npos);
    // A game with no moves keeps its comment.
    CHECK(read_one("{only words} *").comment == "only words");
    // A comment with [%eval] and [%clk] commands.
    const PgnGame e = read_one("1. e4 {[%eval 0.25] [%clk 0:05:00]} *");
    CHECK(e.moves[0].comment == "[%eval 0.25] [%clk 0:05:00]");
    check_round_trip(g);
    check_round_trip(e);
}

TEST_CASE("PGN nested variations", "[pgn]") {
    const PgnGame g =
        read_one("1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6 (2... e6)) 2... d6) (1... e6) 2. Nf3 {main} (2. f4 exf4) Nc6 *");
    REQUIRE(sans(g) == std::vector<std::string>{"e4", "e5", "Nf3", "Nc6"});
    const PgnMove& e5 = g.moves[1];
    REQUIRE(e5.variations.size() == 2);
    const Position after_e4 = g.start.apply(g.moves[0].move);
    CHECK(sans(after_e4, e5.variations[0].moves) == std::vector<std::string>{"c5", "Nf3", "d6"});
    CHECK(sans(after_e4, e5.variations[1].moves) == std::vector<std::string>{"e6"});
    // The nested one: alternatives to 2. Nf3 inside the Sicilian line.
    const PgnMove& nf3 = e5.variations[0].moves[1];
    REQUIRE(nf3.variations.size() == 1);
    const Position after_c5 = after_e4.apply(e5.variations[0].moves[0].move);
    CHECK(sans(after_c5, nf3.variations[0].moves) == std::vector<std::string>{"Nc3", "Nc6"});
    REQUIRE(nf3.variations[0].moves[1].variations.size() == 1);
    CHECK(g.moves[2].comment == "main");
    CHECK(flat(write_pgn(g))
              .find("1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6 (2... e6)) 2... d6) (1... e6) 2. Nf3 {main} "
                    "(2. f4 exf4) 2... Nc6 *") != std::string::npos);
    check_round_trip(g);
}

TEST_CASE("PGN SAN forms: castling, en passant, promotions, disambiguation", "[pgn]") {
    // O-O and 0-0, e.p. glued and apart.
    const PgnGame c = read_one("1. e4 e6 2. Nf3 Nf6 3. Bc4 Bc5 4. 0-0 O-O 5. e5 d5 6. exd6e.p. h6 *");
    CHECK(sans(c)[6] == "O-O");
    CHECK(sans(c)[7] == "O-O");
    CHECK(c.moves[10].move.kind() == Move::EnPassant);
    CHECK(sans(c)[10] == "exd6");
    CHECK(read_one("1. e4 e6 2. Nf3 Nf6 3. Bc4 Bc5 4. 0-0 O-O 5. e5 d5 6. exd6 e.p. h6 *").moves.size() == 12);
    // Long castling, written with O and with 0.
    const PgnGame q = read_one("[FEN \"r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1\"]\n1. O-O 0-0-0 *");
    CHECK(sans(q) == std::vector<std::string>{"O-O", "O-O-O"});
    // Promotions: =Q, Q, lower case, with capture, under-promotion.
    const std::string promo = "[FEN \"1n2k3/P6P/8/8/8/8/p6p/4K1N1 w - - 0 1\"]\n";
    CHECK(sans(read_one(promo + "1. axb8=Q+ Kd7 *"))[0] == "axb8=Q+");
    CHECK(sans(read_one(promo + "1. axb8Q+ *"))[0] == "axb8=Q+");
    CHECK(sans(read_one(promo + "1. a8=N Kd7 2. h8q hxg1=R+ *")) ==
          std::vector<std::string>{"a8=N", "Kd7", "h8=Q", "hxg1=R+"});
    // Disambiguation by file, by rank, by both; a needless one is accepted.
    // Knights on b4, f4 and b2 all reach d3.
    const std::string dis = "[FEN \"4k3/8/8/8/1N3N2/8/1N6/4K1RR w - - 0 1\"]\n";
    CHECK(sans(read_one(dis + "1. Nfd3 *"))[0] == "Nfd3");
    CHECK(sans(read_one(dis + "1. N2d3 *"))[0] == "N2d3");
    CHECK(sans(read_one(dis + "1. Nb4d3 *"))[0] == "Nb4d3");
    CHECK(sans(read_one(dis + "1. N4a2 *"))[0] == "Na2");
    CHECK(sans(read_one(dis + "1. Rgf1 *"))[0] == "Rf1");
    CHECK(sans(read_one(dis + "1. Rhh2 *"))[0] == "Rh2");
    // Captures written with ':' and a leading P on pawn moves.
    CHECK(sans(read_one("1. Pe4 d5 2. e:d5 *")) == std::vector<std::string>{"e4", "d5", "exd5"});
    check_round_trip(c);
    check_round_trip(q);
}

TEST_CASE("PGN SetUp/FEN and Chess960", "[pgn]") {
    const PgnGame g = read_one("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n40... Kd7 41. e4 *");
    CHECK(g.start.fen() == "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40");
    CHECK(write_pgn(g).find("\n40... Kd7 41. e4 *") != std::string::npos);
    check_round_trip(g);

    // Chess960: king on b1, rooks on a1 and g1. O-O: king to g1, rook to f1; O-O-O with
    // the king beside its rook: king to c1, rook to d1.
    const std::string fen960 = "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1";
    const PgnGame c = read_one("[Variant \"Chess960\"]\n[FEN \"" + fen960 + "\"]\n1. O-O O-O-O *");
    CHECK(c.start.chess960());
    CHECK(sans(c) == std::vector<std::string>{"O-O", "O-O-O"});
    CHECK(c.moves[0].move.kind() == Move::Castling);
    const Position after = c.mainline().position();
    CHECK(after.piece_on(G1) == make_piece(White, King));
    CHECK(after.piece_on(F1) == make_piece(White, Rook));
    CHECK(after.piece_on(C8) == make_piece(Black, King));
    CHECK(after.piece_on(D8) == make_piece(Black, Rook));
    CHECK(write_pgn(c).find("[Variant \"Chess960\"]") != std::string::npos);
    check_round_trip(c);
    // Other spellings of the variant, 0-0-0; a Shredder-FEN without a Variant tag.
    const PgnGame l = read_one("[Variant \"fischerandom\"]\n[FEN \"" + fen960 + "\"]\n1. 0-0-0 *");
    CHECK(l.mainline().position().piece_on(C1) == make_piece(White, King));
    CHECK(l.mainline().position().piece_on(D1) == make_piece(White, Rook));
    CHECK(read_one("[FEN \"" + fen960 + "\"]\n*").start.chess960());
    // The standard start position as a Chess960 game.
    const PgnGame s = read_one("[Variant \"Chess960\"]\n1. e4 *");
    CHECK(s.start.chess960());
    check_round_trip(s);
}

TEST_CASE("PGN several games, line endings, escape lines", "[pgn]") {
    const std::string two = "[Event \"one\"]\n\n1. e4 *\n\n[Event \"two\"]\n\n1. d4 d5 1-0\n";
    for (const std::string& ending : {std::string("\n"), std::string("\r\n"), std::string("\r")}) {
        std::string text;
        for (char c : two) text += c == '\n' ? ending : std::string(1, c);
        const PgnReadResult r = read_pgn(text);
        REQUIRE(r.errors.empty());
        REQUIRE(r.games.size() == 2);
        CHECK(r.games[0].tag("Event") == "one");
        CHECK(r.games[1].tag("Event") == "two");
        CHECK(r.games[1].line == 5);
        CHECK(sans(r.games[1]) == std::vector<std::string>{"d4", "d5"});
    }
    // Games without results, separated only by the next tag section.
    const PgnReadResult r = read_pgn("[Event \"a\"]\n1. e4\n[Event \"b\"]\n1. d4\n");
    REQUIRE(r.games.size() == 2);
    CHECK(r.games[1].moves.size() == 1);
    // A % escape line in the first column is skipped; a byte order mark too.
    CHECK(read_one("\xEF\xBB\xBF% produced by a program\n1. e4 *").moves.size() == 1);
    // A comment outside any game (a preamble, a remark after a result) is no game: the
    // games keep their numbers.
    const PgnReadResult c = read_pgn(
        "{Collected by X}\n\n[Event \"a\"]\n\n1. e4 e5 1-0 {White won on time}\n\n"
        "[Event \"b\"]\n\n1. d4 *\n{the end}\n");
    REQUIRE(c.errors.empty());
    REQUIRE(c.games.size() == 2);
    CHECK(c.games[0].number == 1);
    CHECK(c.games[0].moves.size() == 2);
    CHECK(c.games[1].number == 2);
    CHECK(c.games[1].tag("Event") == "b");
    // With a result it stays a game of its own, with no moves.
    CHECK(read_pgn("{only words} *\n1. e4 *").games.size() == 2);
}

TEST_CASE("PGN errors name the game, the line and the token, other games are kept", "[pgn]") {
    const PgnReadResult r = read_pgn(
        "[Event \"ok\"]\n\n1. e4 e5 1-0\n\n"
        "[Event \"bad\"]\n\n1. e4 e5\n2. Kxx Nc6 0-1\n\n"
        "[Event \"after\"]\n\n1. d4 *\n");
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].game == 2);
    CHECK(r.errors[0].line == 8);
    CHECK(r.errors[0].token == "Kxx");
    CHECK_THAT(r.errors[0].text(), Catch::StartsWith("game 2, line 8, token 'Kxx': "));
    REQUIRE(r.games.size() == 2);
    CHECK(r.games[0].tag("Event") == "ok");
    CHECK(r.games[1].tag("Event") == "after");

    CHECK_THAT(only_error("1. e4 e4 *").message, Catch::Contains("not legal"));
    CHECK(only_error("1. e4 e4 *").token == "e4");
    CHECK_THAT(only_error("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n1. Nf3 *").message, Catch::Contains("not legal"));
    CHECK_THAT(only_error("[FEN \"1k6/8/8/8/8/8/8/R4RK1 w - - 0 1\"]\n1. Rd1 *").message, Catch::Contains("ambiguous"));
    CHECK(only_error("[FEN \"1k6/8/8/8/8/8/8/R4RK1 w - - 0 1\"]\n1. Rd1 *").token == "Rd1");
    CHECK_THAT(only_error("[FEN \"not a fen\"]\n*").message, Catch::Contains("FEN tag: invalid FEN:"));
    CHECK_THAT(only_error("[Variant \"crazyhouse\"]\n*").message, Catch::Contains("unsupported variant"));
    CHECK_THAT(only_error("[Event \"x\"\n1. e4 *").message, Catch::Contains("expected ']'"));
    CHECK_THAT(only_error("[Event x]\n1. e4 *").message, Catch::Contains("quoted value"));
    CHECK_THAT(only_error("[\"x\"]\n*").message, Catch::Contains("tag name"));
    CHECK_THAT(only_error("[Event \"x]\n").message,
               Catch::Contains("unterminated string") || Catch::Contains("quoted"));
    CHECK_THAT(only_error("1. e4 {never closed *").message, Catch::Contains("unterminated comment"));
    CHECK_THAT(only_error("1. e4 (1. d4 *").message, Catch::Contains("variation"));
    CHECK_THAT(only_error("1. e4 (1. d4").message, Catch::Contains("missing ')'"));
    CHECK_THAT(only_error("1. e4 e5) *").message, Catch::Contains("')' without"));
    CHECK_THAT(only_error("(1. e4) *").message, Catch::Contains("must follow the move"));
    CHECK_THAT(only_error("$1 1. e4 *").message, Catch::Contains("must follow a move"));
    CHECK_THAT(only_error("1. e4 $256 *").message, Catch::Contains("NAG out of range"));
    CHECK_THAT(only_error("1. e4 !!! *").message, Catch::Contains("unknown annotation"));
    CHECK_THAT(only_error("1. e4 <e5> *").message, Catch::Contains("unexpected character"));
    CHECK_THAT(only_error("1. e4 \"e5\" *").message, Catch::Contains("unexpected token"));
    CHECK(only_error("1. e4 e5\n\n2. Nf3 Nc6\n3. Bb9 *").line == 4);
    // A tag section cut off by the end of the file (found by the fuzzer).
    CHECK_THAT(only_error("[Event \"a\"]\n[Round").message, Catch::Contains("quoted value"));
    CHECK(only_error("[Variant[Ev").game == 1);
    // An error in a tag section skips that game only.
    const PgnReadResult t = read_pgn("[Event \"a\" junk]\n[Site \"s\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n");
    REQUIRE(t.errors.size() == 1);
    CHECK(t.errors[0].game == 1);
    REQUIRE(t.games.size() == 1);
    CHECK(t.games[0].tag("Event") == "b");
}

TEST_CASE("PGN: the sample files read without an error and round-trip", "[pgn]") {
    for (const char* name : {"engine-games-sample.pgn", "openings-sample.pgn"}) {
        INFO(name);
        const PgnReadResult r = read_pgn(read_file(name));
        for (const PgnError& e : r.errors) INFO(e.text());
        CHECK(r.errors.empty());
        CHECK(r.games.size() >= 2);
        for (const PgnGame& g : r.games) check_round_trip(g);
    }
    const PgnReadResult r = read_pgn(read_file("engine-games-sample.pgn"));
    CHECK(r.games[0].moves.size() == 22);
    CHECK(r.games[0].mainline().status() == GameStatus::Checkmate);
    CHECK(r.games[0].moves[0].comment == "+0.22/18 1.034s");
    CHECK(r.games[0].result == "0-1");
}

TEST_CASE("PGN writer: lines of at most 79 characters, set-up tags from the start position", "[pgn]") {
    PgnGame g;
    Position pos = g.start;
    for (std::string_view san : {"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"}) {
        PgnMove m;
        m.move = *parse_san(pos, san).move;
        m.comment = "[%eval 0.25] a fairly long comment with many words in it to force wrapping";
        pos = pos.apply(m.move);
        g.moves.push_back(m);
    }
    const std::string text = write_pgn(g);
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        CHECK(line.size() <= 79);
        CHECK_FALSE(line.starts_with("%"));
        CHECK((line.find("[%eval") == std::string::npos || line.find("[%eval 0.25]") != std::string::npos));
    }
    CHECK(text.find("[FEN") == std::string::npos);
    check_round_trip(g);
    g.start = test::parse_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    g.moves.clear();
    CHECK(write_pgn(g).find("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n") != std::string::npos);
}

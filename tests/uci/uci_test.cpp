// The UCI session driven line by line, its output captured in a string stream: the
// basic command surface (uci, isready, setoption, position, go perft, d, quit)
// and how it answers bad input.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "uci/session_driver.h"

using arbiter::uci::Session;

namespace {

constexpr std::string_view StartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

using arbiter::test::split_lines;

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// A session and the lines it printed for the last command.
struct Driver : arbiter::test::SessionDriver {
    std::string fen() const { return session.game().position().fen(); }

    // The value after `<label>: ` in the output of `d`.
    std::string display_field(std::string_view label) {
        for (const std::string& line : send("d"))
            if (starts_with(line, label) && line.size() > label.size() && line[label.size()] == ':') {
                std::string value = line.substr(label.size() + 1);
                while (!value.empty() && value.front() == ' ') value.erase(value.begin());
                while (!value.empty() && value.back() == ' ') value.pop_back();
                return value;
            }
        FAIL("d printed no '" << label << ":' line");
        return {};
    }

    // The per-move counts of `go perft <depth>`, checked for the documented layout:
    // `<move>: <count>` lines, an empty line, `Nodes searched: <total>`.
    std::vector<std::pair<std::string, uint64_t>> divide(int depth, uint64_t* total = nullptr) {
        const std::vector<std::string> lines = send("go perft " + std::to_string(depth));
        REQUIRE(lines.size() >= 2);
        REQUIRE(lines[lines.size() - 2].empty());
        const std::string& last = lines.back();
        REQUIRE(starts_with(last, "Nodes searched: "));
        std::vector<std::pair<std::string, uint64_t>> moves;
        uint64_t sum = 0;
        for (size_t i = 0; i + 2 < lines.size(); ++i) {
            const size_t colon = lines[i].find(": ");
            REQUIRE(colon != std::string::npos);
            moves.emplace_back(lines[i].substr(0, colon), std::stoull(lines[i].substr(colon + 2)));
            sum += moves.back().second;
        }
        CHECK(std::to_string(sum) == last.substr(16));
        if (total) *total = std::stoull(last.substr(16));
        return moves;
    }

    std::vector<std::string> divide_moves(int depth) {
        std::vector<std::string> names;
        for (const auto& [move, count] : divide(depth)) names.push_back(move);
        return names;
    }
};

bool contains(const std::vector<std::string>& items, std::string_view item) {
    return std::find(items.begin(), items.end(), item) != items.end();
}

std::string repeat(std::string_view text, int times) {
    std::string result;
    for (int i = 0; i < times; ++i) {
        if (i) result += ' ';
        result += text;
    }
    return result;
}

}  // namespace

TEST_CASE("uci prints the engine's identity, its options and uciok", "[uci]") {
    Driver d;
    const std::vector<std::string> lines = d.send("uci");
    REQUIRE(lines.size() >= 4);
    CHECK(starts_with(lines[0], "id name Arbiter"));
    CHECK(starts_with(lines[1], "id author "));
    CHECK(contains(lines, "option name UCI_Chess960 type check default false"));
    CHECK(lines.back() == "uciok");
}

TEST_CASE("isready answers readyok, also with a Windows line ending", "[uci]") {
    Driver d;
    CHECK(d.send("isready") == std::vector<std::string>{"readyok"});
    CHECK(d.send("isready\r") == std::vector<std::string>{"readyok"});
    CHECK(d.send("  \t isready  ") == std::vector<std::string>{"readyok"});
}

TEST_CASE("setoption UCI_Chess960 switches the castling notation", "[uci]") {
    Driver d;
    const std::string position = "position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";

    d.send(position);
    const std::vector<std::string> standard = d.divide_moves(1);
    CHECK(contains(standard, "e1g1"));
    CHECK(contains(standard, "e1c1"));

    SECTION("names and values compare case-insensitively") {
        CHECK(d.send("setoption name uci_chess960 value TRUE").empty());
        d.send(position);
        const std::vector<std::string> moves = d.divide_moves(1);
        CHECK(contains(moves, "e1h1"));
        CHECK(contains(moves, "e1a1"));
        CHECK_FALSE(contains(moves, "e1g1"));

        CHECK(d.send("setoption name UCI_CHESS960 value false").empty());
        d.send(position);
        const std::vector<std::string> standard_again = d.divide_moves(1);
        CHECK(contains(standard_again, "e1g1"));
    }
}

TEST_CASE("setoption errors print exactly one info string error line", "[uci]") {
    Driver d;
    const char* bad[] = {
        "setoption name NoSuchOption value 1",
        "setoption name UCI_Chess960 value maybe",
        "setoption name UCI_Chess960 value",
        "setoption name UCI_Chess960",
        "setoption name",
        "setoption",
        "setoption value true",
        "setoption name value true",
    };
    for (const char* line : bad) {
        INFO(line);
        const std::vector<std::string> lines = d.send(line);
        REQUIRE(lines.size() == 1);
        CHECK(starts_with(lines[0], "info string error: "));
    }
    // A rejected value leaves the option as it was.
    d.send("position fen 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    const std::vector<std::string> moves = d.divide_moves(1);
    CHECK(contains(moves, "e1g1"));
}

TEST_CASE("position startpos and position fen, with and without moves", "[uci]") {
    Driver d;
    CHECK(d.fen() == StartFen);

    CHECK(d.send("position startpos moves e2e4 c7c5 g1f3").empty());
    CHECK(d.fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");

    CHECK(d.send("position startpos").empty());
    CHECK(d.fen() == StartFen);

    const std::string kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    CHECK(d.send("position fen " + kiwipete).empty());
    CHECK(d.fen() == kiwipete);

    CHECK(d.send("position fen " + kiwipete + " moves e1g1 e8c8").empty());
    CHECK(d.fen() == "2kr3r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 w - - 2 2");

    SECTION("missing clock fields default to 0 1") {
        CHECK(d.send("position fen 4k3/8/8/8/8/8/8/4K2R w K -").empty());
        CHECK(d.fen() == "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    }
    SECTION("an empty move list is accepted") {
        CHECK(d.send("position startpos moves").empty());
        CHECK(d.fen() == StartFen);
    }
    SECTION("promotions are written with a lower-case piece letter") {
        CHECK(d.send("position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8n").empty());
        CHECK(d.fen() == "N3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    }
}

TEST_CASE("ucinewgame is answered silently and a position command follows it", "[uci]") {
    Driver d;
    d.send("position startpos moves e2e4");
    CHECK(d.send("ucinewgame").empty());
    CHECK(d.send("position startpos moves d2d4").empty());
    CHECK(d.fen() == "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
    CHECK(d.send("isready") == std::vector<std::string>{"readyok"});
}

TEST_CASE("a malformed position command prints an error and keeps the previous position", "[uci]") {
    Driver d;
    d.send("position startpos moves e2e4 e7e5");
    const std::string before = d.fen();

    const char* bad[] = {
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",   // unknown piece letter
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",            // seven ranks
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",   // side to move
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",  // impossible en passant
        "position fen 4k3/8/8/8/8/8/8/4K3 w K - 0 1",                              // castling without a rook
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - x 1",                              // clock field
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",                                  // no kings
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 e2e4",                         // a move without 'moves'
        "position fen",
        "position fen moves e2e4",
        "position",
        "position startpos e2e4",
        "position somewhere",
    };
    for (const char* line : bad) {
        INFO(line);
        const std::vector<std::string> lines = d.send(line);
        REQUIRE(lines.size() == 1);
        CHECK(starts_with(lines[0], "info string error: "));
        CHECK(d.fen() == before);
    }

    SECTION("a bad FEN with a move list applies none of the moves") {
        const std::vector<std::string> lines =
            d.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1 moves g1f3");
        REQUIRE(lines.size() == 1);
        CHECK(starts_with(lines[0], "info string error: invalid FEN"));
        CHECK(d.fen() == before);
    }
}

TEST_CASE("an illegal move stops the move list after its legal prefix", "[uci]") {
    Driver d;
    const std::string after_prefix = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

    SECTION("a move that is not legal here") {
        const std::vector<std::string> lines = d.send("position startpos moves e2e4 e7e5 e1e3 g1f3");
        REQUIRE(lines.size() == 1);
        CHECK(starts_with(lines[0], "info string error: illegal move e1e3"));
        CHECK(d.fen() == after_prefix);
    }
    SECTION("a word that is not a move") {
        const std::vector<std::string> lines = d.send("position startpos moves e2e4 e7e5 zz99");
        REQUIRE(lines.size() == 1);
        CHECK(starts_with(lines[0], "info string error: illegal move zz99"));
        CHECK(d.fen() == after_prefix);
    }
    SECTION("the other side's move") {
        const std::vector<std::string> lines = d.send("position startpos moves e2e4 e7e5 d7d5");
        REQUIRE(lines.size() == 1);
        CHECK(starts_with(lines[0], "info string error: illegal move d7d5"));
        CHECK(d.fen() == after_prefix);
    }
    SECTION("a promotion without its piece, and a pawn move with one") {
        std::vector<std::string> lines = d.send("position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8");
        REQUIRE(lines.size() == 1);
        CHECK(starts_with(lines[0], "info string error: illegal move a7a8"));
        CHECK(d.fen() == "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");

        lines = d.send("position startpos moves e2e4q");
        REQUIRE(lines.size() == 1);
        CHECK(starts_with(lines[0], "info string error: illegal move e2e4q"));
        CHECK(d.fen() == StartFen);
    }
    SECTION("a move with a capital letter: UCI moves are lower case") {
        std::vector<std::string> lines = d.send("position startpos moves e2e4 e7e5 G1F3 b8c6");
        REQUIRE(lines.size() == 1);
        CHECK(starts_with(lines[0], "info string error: illegal move G1F3 (UCI moves are lower case)"));
        CHECK(d.fen() == after_prefix);

        lines = d.send("position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8Q");
        REQUIRE(lines.size() == 1);
        CHECK(starts_with(lines[0], "info string error: illegal move a7a8Q (UCI moves are lower case)"));
        CHECK(d.fen() == "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        CHECK(d.send("position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8q").empty());
    }
}

TEST_CASE("unreachable positions: refused by default, accepted on request", "[uci]") {
    Driver d;
    // Two bishops checking along one diagonal (the perft suite's standard.epd #51).
    const std::string fen = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
    std::vector<std::string> lines = d.send("position fen " + fen);
    REQUIRE(lines.size() == 1);
    CHECK(starts_with(lines[0], "info string error: impossible position: double check"));
    CHECK(d.fen() == StartFen);
    CHECK(d.send("setoption name Allow Unreachable Positions value true").empty());
    CHECK(d.send("position fen " + fen).empty());
    CHECK(d.fen() == fen);
    CHECK(d.send("setoption name Allow Unreachable Positions value false").empty());
    CHECK(d.send("position fen " + fen).size() == 1);
}

TEST_CASE("d reports winnability for each side", "[uci]") {
    Driver d;
    CHECK(d.display_field("Winnable") == "white yes, black yes");
    d.send("position fen 8/8/8/8/8/4k3/8/4K2R w - - 0 1");
    CHECK(d.display_field("Winnable") == "white yes, black no");
    d.send("position fen 2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1");
    CHECK(d.display_field("Winnable") == "white no, black no");
    CHECK(d.display_field("Status") == "dead-position");
}

TEST_CASE("move lists of thousands of plies work", "[uci]") {
    Driver d;
    const std::string shuffle = repeat("g1f3 g8f6 f3g1 f6g8", 1000);
    CHECK(d.send("position startpos moves " + shuffle).empty());
    CHECK(d.session.game().moves().size() == 4000);
    CHECK(d.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4000 2001");
    // The fifth occurrence of the start position, after 16 plies, ended the game.
    CHECK(d.display_field("Status") == "fivefold-repetition");

    // The engine must be able to read back the FEN it writes.
    const std::string fen = d.fen();
    CHECK(d.send("position fen " + fen).empty());
    CHECK(d.fen() == fen);
}

// Clocks beyond four digits: a game may be longer than any FEN a person writes, and
// the FEN `d` prints for it must still be exact and readable by `position fen`.
TEST_CASE("very long games keep exact clocks and a FEN the engine reads back", "[uci]") {
    Driver d;
    SECTION("fullmove number above 9999") {
        CHECK(d.send("position startpos moves " + repeat("g1f3 g8f6 f3g1 f6g8", 5000)).empty());
        const std::string fen = d.fen();
        CHECK(fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 20000 10001");
        CHECK(d.send("position fen " + fen).empty());
        CHECK(d.fen() == fen);
    }
    SECTION("halfmove clock above 65535") {
        CHECK(d.send("position startpos moves " + repeat("g1f3 g8f6 f3g1 f6g8", 17000)).empty());
        CHECK(d.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 68000 34001");
    }
}

TEST_CASE("go perft prints a divide, an empty line and the node count", "[uci]") {
    Driver d;
    uint64_t total = 0;
    const auto moves = d.divide(3, &total);
    CHECK(total == 8902);
    CHECK(moves.size() == 20);
    // Published divide counts of the start position at depth 3.
    const std::vector<std::pair<std::string, uint64_t>> known = {{"a2a3", 380}, {"d2d3", 539}, {"e2e4", 600},
                                                                 {"b2b4", 421}, {"g1f3", 440}, {"b1a3", 400}};
    for (const auto& entry : known) {
        INFO(entry.first);
        CHECK(std::find(moves.begin(), moves.end(), entry) != moves.end());
    }

    d.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    d.divide(2, &total);
    CHECK(total == 2039);

    SECTION("perft does not change the position") {
        d.send("position startpos moves e2e4");
        const std::string before = d.fen();
        d.divide(2);
        CHECK(d.fen() == before);
    }
    SECTION("bad depths are refused with one error line") {
        for (const char* line : {"go perft", "go perft 0", "go perft -1", "go perft x", "go perft 3x",
                                 "go perft 99999999999999999999", "go perft 1000"}) {
            INFO(line);
            const std::vector<std::string> lines = d.send(line);
            REQUIRE(lines.size() == 1);
            CHECK(starts_with(lines[0], "info string error: "));
        }
    }
    SECTION("a position without legal moves has an empty divide") {
        d.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
        const auto moves_after_mate = d.divide(1, &total);
        CHECK(moves_after_mate.empty());
        CHECK(total == 0);
    }
}

TEST_CASE("d prints the board and the Fen, Key, Checkers and Status lines", "[uci]") {
    Driver d;
    const std::vector<std::string> lines = d.send("d");
    CHECK(contains(lines, "Fen: " + std::string(StartFen)));
    CHECK(d.display_field("Checkers").empty());
    CHECK(d.display_field("Status") == "ongoing");

    const std::string key = d.display_field("Key");
    CHECK(key.size() == 16);
    CHECK(key.find_first_not_of("0123456789ABCDEFabcdef") == std::string::npos);

    // The board comes first, White at the bottom: read each line without its frame.
    std::vector<std::string> rows;
    for (const std::string& line : lines) {
        std::string row;
        for (char c : line)
            if (c != ' ' && c != '|') row += c;
        rows.push_back(row);
    }
    const auto rank8 = std::find(rows.begin(), rows.end(), "rnbqkbnr8");
    const auto rank1 = std::find(rows.begin(), rows.end(), "RNBQKBNR1");
    const auto fen_line = std::find(lines.begin(), lines.end(), "Fen: " + std::string(StartFen));
    REQUIRE(rank8 != rows.end());
    REQUIRE(rank1 != rows.end());
    CHECK(rank8 < rank1);
    CHECK(rank1 - rows.begin() < fen_line - lines.begin());

    SECTION("the key follows the position, not the way it was reached") {
        d.send("position startpos moves g1f3 g8f6 b1c3");
        const std::string via_knights = d.display_field("Key");
        d.send("position startpos moves b1c3 g8f6 g1f3");
        CHECK(d.display_field("Key") == via_knights);
        CHECK(via_knights != key);
    }
    SECTION("checkmate, with the checking piece") {
        d.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
        CHECK(d.display_field("Status") == "checkmate");
        CHECK(d.display_field("Checkers") == "h4");
    }
    SECTION("double check lists both checkers") {
        // The knight has just come from e5, uncovering the rook.
        CHECK(d.send("position fen k3r3/8/8/8/8/3n4/8/4K3 w - - 0 1").empty());
        const std::string checkers = d.display_field("Checkers");
        CHECK(checkers.find("d3") != std::string::npos);
        CHECK(checkers.find("e8") != std::string::npos);
        CHECK(d.display_field("Status") == "ongoing");
    }
    SECTION("stalemate") {
        d.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
        CHECK(d.display_field("Status") == "stalemate");
        CHECK(d.display_field("Checkers").empty());
    }
    SECTION("threefold repetition, judged on the moves of the position command") {
        d.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
        CHECK(d.display_field("Status") == "threefold-repetition");
        // The same position given as a FEN has no history.
        d.send(std::string("position fen ") + std::string(StartFen));
        CHECK(d.display_field("Status") == "ongoing");
    }
    SECTION("fivefold repetition") {
        d.send("position startpos moves " + repeat("g1f3 g8f6 f3g1 f6g8", 4));
        CHECK(d.display_field("Status") == "fivefold-repetition");
    }
    SECTION("dead position") {
        d.send("position fen 4k3/8/8/8/8/8/8/4KB2 w - - 0 1");
        CHECK(d.display_field("Status") == "dead-position");
    }
    SECTION("fifty-move rule") {
        d.send("position fen 4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
        CHECK(d.display_field("Status") == "fifty-move-rule");
    }
    SECTION("seventy-five-move rule") {
        d.send("position fen 4k3/8/8/8/8/8/8/R3K3 w - - 150 100");
        CHECK(d.display_field("Status") == "seventy-five-move-rule");
    }
    SECTION("the status after a rejected position command is the previous one") {
        d.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
        d.send("position fen not a fen");
        CHECK(d.display_field("Status") == "checkmate");
    }
}

TEST_CASE("Chess960 castling is read and written king-takes-own-rook", "[uci]") {
    Driver d;
    CHECK(d.send("setoption name UCI_Chess960 value true").empty());
    // The position is composed: Black's men are pawns on their starting squares, and a
    // king and rooks that hold their rights, none of which can have made the last move.
    CHECK(d.send("setoption name Allow Unreachable Positions value true").empty());
    // King on d1 between rooks on b1 and g1: both castlings are legal. White has 16
    // pawn moves, 2 king steps, 5 rook moves (a1 c1 e1 f1 h1) and the 2 castlings;
    // Black the same, and neither side's first move changes the other's.
    const std::string fen = "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w GBgb - 0 1";
    CHECK(d.send("position fen " + fen).empty());
    const std::vector<std::string> moves = d.divide_moves(1);
    CHECK(moves.size() == 25);
    CHECK(contains(moves, "d1g1"));
    CHECK(contains(moves, "d1b1"));

    uint64_t total = 0;
    d.divide(2, &total);
    CHECK(total == 25 * 25);
    d.send("position fen " + fen + " moves e2e4");
    const std::vector<std::string> black_moves = d.divide_moves(1);
    CHECK(contains(black_moves, "d8g8"));
    CHECK(contains(black_moves, "d8b8"));

    CHECK(d.send("position fen " + fen + " moves d1g1 d8b8").empty());
    CHECK(d.fen() == "2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 w - - 2 2");

    SECTION("the standard start position in Chess960 mode castles e1h1") {
        d.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6");
        const std::vector<std::string> start_moves = d.divide_moves(1);
        CHECK(contains(start_moves, "e1h1"));
        CHECK_FALSE(contains(start_moves, "e1g1"));
        CHECK(d.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1").empty());
        const std::string after = d.fen();
        CHECK(after.substr(0, after.find(' ')) == "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1");
    }
    SECTION("X-FEN castling letters are read too") {
        CHECK(d.send("position fen 1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w KQkq - 0 1").empty());
        const std::vector<std::string> xfen_moves = d.divide_moves(1);
        CHECK(contains(xfen_moves, "d1g1"));
    }
    SECTION("a Chess960 FEN is refused with the option off") {
        d.send("setoption name UCI_Chess960 value false");
        d.send("position startpos");
        const std::vector<std::string> lines = d.send("position fen " + fen);
        REQUIRE(lines.size() == 1);
        CHECK(starts_with(lines[0], "info string error: impossible position: castling right"));
        CHECK(d.fen() == StartFen);
    }
}

TEST_CASE("an unknown command prints an error and the session goes on", "[uci]") {
    Driver d;
    for (const char* line : {"foo", "go_perft 1", "isready?", "\x01\x02"}) {
        INFO(line);
        const std::vector<std::string> lines = d.send(line);
        REQUIRE(lines.size() == 1);
        CHECK(starts_with(lines[0], "info string error: "));
    }
    CHECK(d.send("isready") == std::vector<std::string>{"readyok"});
}

TEST_CASE("quit ends the session", "[uci]") {
    std::ostringstream out;
    Session session(out);
    CHECK(session.handle("isready"));
    CHECK_FALSE(session.handle("quit"));
    CHECK_FALSE(session.handle("  quit  "));

    SECTION("run stops at quit") {
        std::ostringstream run_out;
        Session run_session(run_out);
        std::istringstream in("isready\nquit\nisready\n");
        run_session.run(in);
        CHECK(run_out.str() == "readyok\n");
    }
    SECTION("run stops at the end of input, with or without a final newline") {
        std::ostringstream run_out;
        Session run_session(run_out);
        std::istringstream in("isready\r\n\nisready");
        run_session.run(in);
        CHECK(run_out.str() == "readyok\nreadyok\n");
    }
}

TEST_CASE("garbage input never crashes the session", "[uci]") {
    Driver d;
    CHECK(d.send("").empty());
    CHECK(d.send("   \t \r ").empty());

    const std::string long_word(1 << 20, 'a');
    CHECK(d.send(long_word).size() == 1);
    CHECK(d.send("position fen " + long_word).size() == 1);
    CHECK(d.send("position startpos moves " + long_word).size() == 1);
    CHECK(d.send("setoption name " + long_word + " value " + long_word).size() == 1);
    CHECK(d.send("position fen " + repeat("8/", 10000)).size() == 1);
    CHECK(d.fen() == StartFen);

    // Random bytes, and random mixtures of the words the commands are made of. `go`
    // appears only as `go perft 1`: a search would print from its own thread.
    std::mt19937 rng(20240601);
    const std::vector<std::string> words = {
        "uci",
        "isready",
        "setoption",
        "name",
        "value",
        "UCI_Chess960",
        "true",
        "false",
        "position",
        "startpos",
        "fen",
        "moves",
        "go perft 1",
        "1",
        "2",
        "0",
        "-3",
        "d",
        "ucinewgame",
        "e2e4",
        "e7e5",
        "e1g1",
        "e1h1",
        "a7a8q",
        "w",
        "b",
        "-",
        "KQkq",
        "HAha",
        "e3",
        "8/8/8/8/8/8/8/8",
        "4k3/8/8/8/8/8/8/4K3",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "r3k2r/8/8/8/8/8/8/R3K2R",
        "\xff\xfe",
        std::string(1, '\0'),
        "99999999999",
    };
    for (int i = 0; i < 3000; ++i) {
        std::string line;
        if (i % 3 == 0) {
            const size_t length = rng() % 200;
            for (size_t j = 0; j < length; ++j) line += char(rng() % 256);
        } else {
            const size_t count = 1 + rng() % 12;
            for (size_t j = 0; j < count; ++j) {
                const std::string& word = words[rng() % words.size()];
                // `go perft 1` keeps its space so that no digit can make the depth larger.
                line += word + (rng() % 4 || word == "go perft 1" ? " " : "");
            }
        }
        INFO(line);
        d.out.str("");
        CHECK(d.session.handle(line));
    }
    CHECK(d.send("isready") == std::vector<std::string>{"readyok"});

    // Random edits of valid FENs exercise the FEN reader's every rejection path.
    const std::vector<std::string> fens = {
        std::string(StartFen),
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w GBgb - 0 1",
    };
    const std::string alphabet = "pnbrqkPNBRQK12345678/ -wbKQkqabcdefghABCDEFGH0x";
    int accepted = 0, refused = 0;
    for (bool chess960 : {false, true}) {
        d.send(chess960 ? "setoption name UCI_Chess960 value true" : "setoption name UCI_Chess960 value false");
        for (int i = 0; i < 5000; ++i) {
            std::string fen = fens[rng() % fens.size()];
            for (int edits = 1 + rng() % 3; edits > 0; --edits) {
                const size_t at = rng() % fen.size();
                switch (rng() % 3) {
                case 0: fen[at] = alphabet[rng() % alphabet.size()]; break;
                case 1: fen.erase(at, 1); break;
                default: fen.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
                }
            }
            INFO(fen);
            const std::vector<std::string> lines = d.send("position fen " + fen);
            if (!lines.empty()) {
                CHECK(lines.size() == 1);
                CHECK(starts_with(lines[0], "info string error: "));
                ++refused;
                continue;
            }
            ++accepted;
            // Accepted: the position must be consistent enough to print and to search.
            const std::string written = d.fen();
            CHECK(d.send("position fen " + written).empty());
            CHECK(d.fen() == written);
            d.send("d");
            d.divide(1);
        }
    }
    // Both paths were taken.
    INFO(accepted << " accepted, " << refused << " refused");
    CHECK(accepted > 100);
    CHECK(refused > 100);
}

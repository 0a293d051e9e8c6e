// Positions that no last move can produce are refused (src/chess/last_move.cpp); each
// rule is tested both ways: the impossible FEN refused with its reason, and a
// near-identical FEN that a game can reach accepted, with the move that reaches it.

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "test_support.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/position.h"

using namespace arbiter;

namespace {

void check_impossible(std::string_view fen, const std::string& reason) {
    INFO("FEN: " << fen);
    const FenResult result = Position::from_fen(fen);
    CHECK_FALSE(result.position.has_value());
    CHECK_THAT(result.error, Catch::Contains("impossible position") && Catch::Contains(reason));
}

void check_possible(std::string_view fen) {
    INFO("FEN: " << fen);
    const FenResult result = Position::from_fen(fen);
    CHECK(result.error.empty());
    CHECK(result.position.has_value());
}

// `before` with `move` played is `after`, the position a game reaches: the proof that
// an accepted FEN is reachable, move for move.
void check_reached(std::string_view before, std::string_view move, std::string_view after) {
    const Position start = test::parse_fen(before);
    const std::optional<Move> m = parse_uci(start, move);
    REQUIRE(m.has_value());
    // The clocks of a hand-written FEN need not match: compare the first four fields.
    const auto without_clocks = [](const std::string& fen) { return fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1)); };
    CHECK(without_clocks(start.apply(*m).fen()) == without_clocks(test::parse_fen(after).fen()));
}

} // namespace

TEST_CASE("an en passant field needs a halfmove clock of 0", "[fen][last-move]") {
    check_impossible("rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 1 2",
                     "the last move was a pawn's double step, but the halfmove clock is 1");
    check_possible("rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2");
}

TEST_CASE("more than two checkers", "[fen][last-move]") {
    check_impossible("7k/8/8/4r3/1b6/3n4/8/4K3 w - - 0 1", "White is in check from 3 pieces");
    // Two of them: ...Bb4 from e7 uncovers the rook.
    check_possible("4r2k/8/8/8/1b6/8/8/4K3 w - - 0 1");
    check_impossible("7k/8/8/4r3/1b6/8/8/4K3 w - - 0 1", "no single move gives both");
}

TEST_CASE("a double check needs a slider uncovered by the move of the other checker", "[fen][last-move]") {
    SECTION("two knights, two pawns, a pawn and a knight") {
        check_impossible("4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", "only a slider can give a discovered check");
        check_impossible("4k3/3P1P2/8/8/8/8/8/4K3 b - - 0 1", "only a slider can give a discovered check");
        check_impossible("4k3/3P4/5N2/8/8/8/8/4K3 b - - 0 1", "only a slider can give a discovered check");
        // A knight and a rook: the knight left the e-file.
        check_possible("4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1");
        check_reached("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", "e4d6", "4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1");
    }
    SECTION("two checkers on one line through the king") {
        check_impossible("8/8/8/R3k2R/8/8/8/4K3 b - - 0 1", "both stand on one line through the king");
        check_impossible("8/8/8/Q3k2R/8/8/8/4K3 b - - 0 1", "both stand on one line through the king");
    }
    SECTION("a check along a line the move could not have opened") {
        // The knight on d7 cannot have come from e2, e3 or e4, the only squares whose
        // emptying uncovers the rook.
        check_impossible("8/3N4/8/4k3/8/8/8/4RK2 b - - 0 1", "no single move gives both");
        // From e3 it can: Ng4 is a double check.
        check_possible("8/8/8/4k3/6N1/8/8/4RK2 b - - 0 1");
        check_reached("8/8/8/4k3/8/4N3/8/4RK2 w - - 0 1", "e3g4", "8/8/8/4k3/6N1/8/8/4RK2 b - - 0 1");
        // A rook and a bishop that no move of either can uncover.
        check_impossible("7B/8/8/R3k3/8/8/8/4K3 b - - 0 1", "no single move gives both");
    }
    SECTION("a promotion gives check and uncovers another") {
        check_possible("5N2/R6k/8/8/8/8/8/4K3 b - - 0 1");
        check_reached("5n2/R3P2k/8/8/8/8/8/4K3 w - - 0 1", "e7f8n", "5N2/R6k/8/8/8/8/8/4K3 b - - 0 1");
    }
    SECTION("an en passant capture uncovers two lines at once") {
        // exd6 e.p. empties e5 (rook e1) and d5 (bishop a2): two sliders, neither moved.
        check_possible("8/8/3Pk3/8/8/8/B7/4R1K1 b - - 0 1");
        check_reached("8/8/4k3/3pP3/8/8/B7/4R1K1 w - d6 0 1", "e5d6", "8/8/3Pk3/8/8/8/B7/4R1K1 b - - 0 1");
        // With d7 occupied, the black pawn cannot have come from there: no en passant.
        check_impossible("8/3p4/3Pk3/8/8/8/B7/4R1K1 b - - 0 1", "no single move gives both");
    }
}

TEST_CASE("a single check that no move can have given", "[fen][last-move]") {
    SECTION("a pawn on its starting rank never moved") {
        check_impossible("8/8/8/8/8/3k4/4P3/K7 b - - 0 1", "the pawn on e2 gives check but has never moved");
        check_impossible("k7/4p3/3K4/8/8/8/8/8 w - - 0 1", "the pawn on e7 gives check but has never moved");
        check_possible("8/8/8/8/3k4/4P3/8/K7 b - - 0 1");
    }
    SECTION("a piece beside the king whose every origin is occupied") {
        // The bishop on b7 can only have come from a6, c6 or c8, all occupied.
        check_impossible("k1b5/1B6/p1p5/8/8/8/8/7K b - - 0 1", "the bishop on b7 gives check but cannot have moved there");
        // With c6 empty it came from there, capturing on b7.
        check_possible("k1b5/1B6/p7/8/8/8/8/7K b - - 0 1");
        check_reached("k1b5/1n6/p1B5/8/8/8/8/7K w - - 0 1", "c6b7", "k1b5/1B6/p7/8/8/8/8/7K b - - 0 1");
    }
    SECTION("castling gives check with the rook") {
        check_possible("5k2/8/8/8/8/8/8/5RK1 b - - 0 1");
        check_reached("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "5k2/8/8/8/8/8/8/5RK1 b - - 0 1");
    }
}

TEST_CASE("with an en passant field, every check comes from the double step", "[fen][last-move]") {
    // A rook's check on the 8th rank has nothing to do with e2-e4.
    check_impossible("R3k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "the rook on a8 gives check, which the double step to e4");
    // The pawn itself gives check.
    check_possible("8/8/8/5k2/3pP3/8/8/4K3 b - e3 0 1");
    // Leaving e2 uncovers the bishop on d1.
    check_possible("8/8/8/7k/3pP3/8/8/3BK3 b - e3 0 1");
    check_reached("8/8/8/7k/3p4/8/4P3/3BK3 w - - 0 1", "e2e4", "8/8/8/7k/3pP3/8/8/3BK3 b - e3 0 1");
    // On e7 a move ago, the pawn attacked d6: the king there was in check on Black's move.
    check_impossible("k7/8/3K4/4p3/8/8/8/8 w - e6 0 1", "says a pawn stood on e7 a move ago");
    check_possible("k7/8/2K5/4p3/8/8/8/8 w - e6 0 1");
    // The same king checked by a bishop whose line does not cross e2.
    check_impossible("4B3/8/8/7k/3pP3/8/8/4K3 b - e3 0 1", "the bishop on e8 gives check");
}

TEST_CASE("a pawn gives check only with a halfmove clock of 0", "[fen][last-move]") {
    SECTION("the pawn's own move gave the check, and set the clock to 0") {
        check_impossible("8/8/8/3k4/4P3/8/8/4K3 b - - 3 40",
                         "the pawn on e4 gives check, which only its own move can have given, but the halfmove clock is 3");
        check_impossible("4k3/8/8/8/8/8/3p4/4K3 w - - 1 40", "the pawn on d2 gives check");
        check_possible("8/8/8/3k4/4P3/8/8/4K3 b - - 0 40");
        check_reached("8/8/8/3k4/8/4P3/8/4K3 w - - 2 40", "e3e4", "8/8/8/3k4/4P3/8/8/4K3 b - - 0 40");
    }
    SECTION("an en passant capture checks with the capturing pawn") {
        check_impossible("8/4k3/3P4/8/8/8/8/4K3 b - - 1 40", "the pawn on d6 gives check");
        check_possible("8/4k3/3P4/8/8/8/8/4K3 b - - 0 40");
        check_reached("8/4k3/8/3pP3/8/8/8/4K3 w - d6 0 40", "e5d6", "8/4k3/3P4/8/8/8/8/4K3 b - - 0 40");
    }
}

TEST_CASE("every position of random games passes the last-move checks", "[fen][last-move]") {
    // Reachable by construction: each FEN of a real game must read back.
    uint64_t seed = 12345;
    for (int game = 0; game < 200; ++game) {
        Position pos = Position::startpos();
        for (int ply = 0; ply < 200; ++ply) {
            const MoveList moves = legal_moves(pos);
            if (moves.size() == 0) break;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            pos = pos.apply(moves[size_t((seed >> 33) % moves.size())]);
            const FenResult result = Position::from_fen(pos.fen());
            INFO("FEN: " << pos.fen());
            REQUIRE(result.error.empty());
        }
    }
}

// Positions that no last move can produce are refused (src/chess/last_move.cpp); each
// rule is tested both ways: the impossible FEN refused with its reason, and a
// near-identical FEN that a game can reach accepted, with the move that reaches it.

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "test_support.h"
#include "chess/chess960.h"
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
    const auto without_clocks = [](const std::string& fen) {
        return fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1));
    };
    CHECK(without_clocks(start.apply(*m).fen()) == without_clocks(test::parse_fen(after).fen()));
}

}  // namespace

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
        check_impossible("k1b5/1B6/p1p5/8/8/8/8/7K b - - 0 1",
                         "the bishop on b7 gives check but cannot have moved there");
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
        check_impossible(
            "8/8/8/3k4/4P3/8/8/4K3 b - - 3 40",
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
    SECTION("a discovered check that only a pawn's capture can have uncovered") {
        // The rook on e1 cannot have moved (d1 and f1 are taken, the e-file keeps the
        // check), the king on h1 stays off the e-file: only exd3 opened the line.
        check_impossible("4k3/8/8/8/8/3P4/8/3bRn1K b - - 5 40",
                         "no move White can have played last gives the check by the rook on e1 "
                         "(with the halfmove clock at 5, it was neither a pawn move nor a capture)");
        check_possible("4k3/8/8/8/8/3P4/8/3bRn1K b - - 0 40");
        check_reached("4k3/8/8/8/8/3r4/4P3/3bRn1K w - - 3 40", "e2d3", "4k3/8/8/8/8/3P4/8/3bRn1K b - - 0 40");
        // A discovered check by a piece's move keeps the clock running.
        check_possible("4k3/8/8/8/8/2N5/8/4R1K1 b - - 5 40");
        check_reached("4k3/8/8/8/8/8/4N3/4R1K1 w - - 4 40", "e2c3", "4k3/8/8/8/8/2N5/8/4R1K1 b - - 5 40");
    }
    SECTION("a check that only a promotion can have given") {
        // The knight on a8 cannot have come from c7 (taken) or b6 (the king): a7-a8=N.
        check_impossible("N7/2p5/1k6/8/8/8/8/7K b - - 3 40",
                         "no move White can have played last gives the check by the knight on a8");
        check_possible("N7/2p5/1k6/8/8/8/8/7K b - - 0 40");
        check_reached("8/P1p5/1k6/8/8/8/8/7K w - - 2 40", "a7a8n", "N7/2p5/1k6/8/8/8/8/7K b - - 0 40");
    }
}

TEST_CASE("some man of the side that just moved can have made the last move", "[fen][last-move]") {
    SECTION("pawns on their starting squares, a king and rooks with castling rights") {
        check_impossible("4k3/8/8/8/8/8/PPPPPPPP/R3K2R b KQ - 0 30",
                         "White made the last move, but none of its men can have made it");
        check_impossible("r3k2r/pppppppp/8/8/8/8/8/4K3 w kq - 0 30",
                         "Black made the last move, but none of its men can have made it");
        // Without the queen-side right the rook on a1 may have come from b1.
        check_possible("4k3/8/8/8/8/8/PPPPPPPP/R3K2R b K - 1 30");
        check_reached("4k3/8/8/8/8/8/PPPPPPPP/1R2K2R w K - 0 30", "b1a1", "4k3/8/8/8/8/8/PPPPPPPP/R3K2R b K - 1 30");
    }
    SECTION("a bishop shut in behind pawns on their starting squares") {
        check_impossible("4k3/8/8/8/8/8/PPPPPPPP/2B1K2R b K - 0 30", "none of its men can have made it");
        check_impossible("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKB1R b KQkq - 0 5",
                         "none of its men can have made it");
        // With the d-pawn gone the bishop came back from d2.
        check_possible("4k3/8/8/8/8/8/PPP1PPPP/2B1K2R b K - 1 30");
        check_reached("4k3/8/8/8/8/8/PPPBPPPP/4K2R w K - 0 30", "d2c1", "4k3/8/8/8/8/8/PPP1PPPP/2B1K2R b K - 1 30");
        // The initial position and its knights' first moves.
        check_possible("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        check_possible("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
    }
    SECTION("a halfmove clock that rules out the pawn moves") {
        check_impossible("4k3/8/8/8/8/4P3/PPPP1PPP/R3K2R b KQ - 1 30",
                         "none of its men can have made it (with the halfmove clock at 1, it was neither a pawn move "
                         "nor a capture)");
        check_possible("4k3/8/8/8/8/4P3/PPPP1PPP/R3K2R b KQ - 0 30");
        check_reached("4k3/8/8/8/8/8/PPPPPPPP/R3K2R w KQ - 0 30", "e2e3", "4k3/8/8/8/8/4P3/PPPP1PPP/R3K2R b KQ - 0 30");
    }
    SECTION("a capture needs a man to capture: a side with all 16 has lost none") {
        // The pawn on e5 checks; with e4 taken it came from d4 or f4, capturing, but
        // Black has all sixteen men.
        check_impossible("rnbq1bnr/ppp2ppp/3kp3/3pP3/4B3/8/PPP2PPP/RNBQK1NR b KQ - 0 6",
                         "no move White can have played last gives the check by the pawn on e5");
        check_possible("rnbq1b1r/ppp2ppp/3kp3/3pP3/4B3/8/PPP2PPP/RNBQK1NR b KQ - 0 6");
        check_reached("rnbq1b1r/ppp2ppp/3kp3/3pn3/3PB3/8/PPP2PPP/RNBQK1NR w KQ - 2 6", "d4e5",
                      "rnbq1b1r/ppp2ppp/3kp3/3pP3/4B3/8/PPP2PPP/RNBQK1NR b KQ - 0 6");
    }
    SECTION("a check that every move leaves in place: the perft page's position 4") {
        // The bishop on b6 checks along c5-d4-e3-f2, which no Black man can have left:
        // the queen from e3 would itself have given check.
        check_impossible("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                         "no move Black can have played last gives the check by the bishop on b6");
        // With the pawn on a7 gone, the bishop came from a7, taking a white man on b6.
        check_possible("r3k2r/1ppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
    }
    SECTION("every move that can have been the last leaves the other king in check") {
        // The white king came from a7 or b7, beside the black king, or from the occupied
        // a5, b5 and b6.
        check_impossible("k7/8/Kn6/pp6/8/8/8/8 b - - 0 50",
                         "White made the last move, but before each move it can have made, Black stood in check");
        check_possible("k7/8/Kn6/p7/1p6/8/8/8 b - - 1 50");
        check_reached("k7/8/1n6/pK6/1p6/8/8/8 w - - 0 50", "b5a6", "k7/8/Kn6/p7/1p6/8/8/8 b - - 1 50");
    }
    SECTION("an en passant capture as the last move") {
        // The bishop checks through d5: exd6 e.p. emptied it. d5-d6 would have come
        // from a square attacking the king, a capture on d6 from a position with d5
        // already open, and the bishop's other origins are taken.
        check_possible("8/8/3Pk3/8/p7/1B6/P1P5/7K b - - 0 40");
        check_reached("8/8/4k3/3pP3/p7/1B6/P1P5/7K w - d6 0 40", "e5d6", "8/8/3Pk3/8/p7/1B6/P1P5/7K b - - 0 40");
        // With d7 taken, Black cannot have played d7-d5 before.
        check_impossible("8/3n4/3Pk3/8/p7/1B6/P1P5/7K b - - 0 40",
                         "no move White can have played last gives the check by the bishop on b3");
        // With the clock at 1, no capture at all.
        check_impossible("8/8/3Pk3/8/p7/1B6/P1P5/7K b - - 1 40", "with the halfmove clock at 1");
    }
}

TEST_CASE("an en passant square whose double step ended a check of its own side", "[fen][last-move]") {
    // e2-e4 blocked the bishop's check on h7: before it, Black stood in check with
    // White to move. The e.p. capture is illegal too (it would open the line again),
    // which alone would only drop the field.
    check_impossible("8/7k/8/8/3pP3/8/8/1B2K3 b - e3 0 40",
                     "the en passant square e3 says the last move was e2-e4, but before it the bishop on b1 gave check "
                     "through e4 with White to move");
    check_impossible("K7/8/8/3pP3/8/8/8/k6q w - d6 0 40",
                     "before it the queen on h1 gave check through d5 with Black to move");
    // Without the field, the bishop came from c2 (or a2).
    check_possible("8/7k/8/8/3pP3/8/8/1B2K3 b - - 0 40");
    // A double step that is possible but whose capture is illegal (it opens the rank to
    // the rook) keeps the field out of the position: accepted, written without it.
    const FenResult pinned = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 40");
    REQUIRE(pinned.position.has_value());
    CHECK(pinned.position->fen() == "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 40");
    check_reached("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 40", "e2e4", "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 40");
}

TEST_CASE("positions refused for their last move are Playable (Allow Unreachable Positions)", "[fen][last-move]") {
    for (const char* fen : {"8/8/8/3k4/4P3/8/8/4K3 b - - 3 40", "4k3/8/8/8/8/8/PPPPPPPP/R3K2R b KQ - 0 30",
                            "k7/8/Kn6/pp6/8/8/8/8 b - - 0 50", "8/7k/8/8/3pP3/8/8/1B2K3 b - e3 0 40"}) {
        INFO("FEN: " << fen);
        CHECK(Position::from_fen(fen).error.starts_with("impossible position: "));
        CHECK(Position::from_fen(fen, false, FenCheck::Playable).position.has_value());
    }
}

namespace {

// The FEN of `pos` with the en passant square of `last` if it was a double step,
// whether or not a capture is legal: a FEN writer may name it either way.
std::string fen_claiming_double_step(const Position& pos, Move last) {
    std::string fen = pos.fen();
    const Square from = last.from(), to = last.to();
    const int step = int(to) - int(from);
    if (type_of(pos.piece_on(to)) != Pawn || (step != 16 && step != -16)) return fen;
    const size_t ep_at = fen.find(' ', fen.find(' ', fen.find(' ') + 1) + 1) + 1;
    const size_t ep_end = fen.find(' ', ep_at);
    return fen.substr(0, ep_at) + square_name(Square((int(from) + int(to)) / 2)) + fen.substr(ep_end);
}

// Plays random games from the initial position and from Chess960 starts until
// `positions` positions were reached, reading each back from its FEN (and, after a
// double step, from the FEN naming its en passant square); returns how many FENs
// were refused, each reported.
int refused_in_random_games(int positions, uint64_t seed) {
    constexpr int MaxPlies = 200;
    int reached = 0, refused = 0, game = 0;
    while (reached < positions) {
        const bool chess960 = game % 2 == 1;
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        Position pos = chess960 ? *Position::from_fen(chess960_start_fen(int((seed >> 33) % 960)), true).position
                                : Position::startpos();
        for (int ply = 0; ply < MaxPlies && reached < positions; ++ply) {
            const MoveList moves = legal_moves(pos);
            if (moves.size() == 0) break;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            const Move move = moves[size_t((seed >> 33) % moves.size())];
            pos = pos.apply(move);
            ++reached;
            for (const std::string& fen : {pos.fen(), fen_claiming_double_step(pos, move)}) {
                const FenResult result = Position::from_fen(fen, chess960);
                if (result.position) continue;
                ++refused;
                UNSCOPED_INFO("refused: " << fen << " (" << result.error << ")");
            }
        }
        ++game;
    }
    return refused;
}

}  // namespace

TEST_CASE("every position of random games passes the last-move checks", "[fen][last-move]") {
    // Reachable by construction: each FEN of a real game must read back.
    CHECK(refused_in_random_games(40'000, 12345) == 0);
}

// A million positions, for a change to the rules above: run by hand with
//     build/tests/arbiter_tests "[last-move-million]"
TEST_CASE("a million positions of random games pass the last-move checks", "[.explicit][last-move-million]") {
    CHECK(refused_in_random_games(1'000'000, 20240601) == 0);
}

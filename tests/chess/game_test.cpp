// Game status (FIDE Articles 5 and 9) judged on a whole game history: the automatic
// endings, the claimable draws, their order of precedence, and what "the same
// position" means for repetition (en passant and castling rights included).

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "test_support.h"
#include "chess/game.h"
#include "chess/notation.h"

using namespace arbiter;

namespace {

Position fen_position(std::string_view fen, FenCheck check = FenCheck::Reachable) {
    return test::parse_fen(fen, false, check);
}

void play_uci(Game& game, const std::vector<std::string_view>& moves) {
    for (std::string_view text : moves) {
        const std::optional<Move> move = parse_uci(game.position(), text);
        INFO("move " << std::string(text) << " in " << game.position().fen());
        REQUIRE(move.has_value());
        game.play(*move);
    }
}

void play_san(Game& game, const std::vector<std::string_view>& moves) {
    for (std::string_view text : moves) {
        const SanResult result = parse_san(game.position(), text);
        INFO("move " << std::string(text) << " in " << game.position().fen() << ": " << result.error);
        REQUIRE(result.move.has_value());
        game.play(*result.move);
    }
}

// The board part of the FEN: piece placement only.
std::string placement(const Position& pos) {
    const std::string fen = pos.fen();
    return fen.substr(0, fen.find(' '));
}

// One round trip of both sides' king knights: returns to the position it started from.
const std::vector<std::string_view> KnightRoundTrip = {"g1f3", "g8f6", "f3g1", "f6g8"};

}  // namespace

TEST_CASE("status_token names every status", "[game]") {
    CHECK(status_token(GameStatus::Ongoing) == "ongoing");
    CHECK(status_token(GameStatus::Checkmate) == "checkmate");
    CHECK(status_token(GameStatus::Stalemate) == "stalemate");
    CHECK(status_token(GameStatus::DeadPosition) == "dead-position");
    CHECK(status_token(GameStatus::FivefoldRepetition) == "fivefold-repetition");
    CHECK(status_token(GameStatus::SeventyFiveMoveRule) == "seventy-five-move-rule");
    CHECK(status_token(GameStatus::ThreefoldRepetition) == "threefold-repetition");
    CHECK(status_token(GameStatus::FiftyMoveRule) == "fifty-move-rule");
}

TEST_CASE("a new game is ongoing", "[game]") {
    const Game game;
    CHECK(game.status() == GameStatus::Ongoing);
    CHECK(game.moves().empty());
    CHECK(game.positions().size() == 1);
    CHECK(game.occurrences(0) == 1);
    CHECK(game.position().fen() == Position::StartFen);
}

TEST_CASE("checkmate", "[game]") {
    SECTION("Fool's mate played in UCI notation") {
        Game game;
        play_uci(game, {"f2f3", "e7e5", "g2g4"});
        CHECK(game.status() == GameStatus::Ongoing);
        play_uci(game, {"d8h4"});
        CHECK(game.status() == GameStatus::Checkmate);
        CHECK(game.position().in_check());
    }
    SECTION("Fool's mate played in SAN") {
        Game game;
        play_san(game, {"f3", "e5", "g4", "Qh4#"});
        CHECK(game.status() == GameStatus::Checkmate);
    }
    SECTION("back-rank mate played from a FEN") {
        Game game(fen_position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"));
        CHECK(game.status() == GameStatus::Ongoing);
        play_uci(game, {"a1a8"});
        CHECK(game.status() == GameStatus::Checkmate);
    }
    SECTION("a game that starts in checkmate") {
        const Game game(fen_position("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1"));
        CHECK(game.status() == GameStatus::Checkmate);
    }
    SECTION("check that can be escaped is not mate") {
        // Same back-rank idea with luft on h6: the king walks out.
        Game game(fen_position("6k1/5pp1/7p/8/8/8/8/R5K1 w - - 0 1"));
        play_uci(game, {"a1a8"});
        CHECK(game.position().in_check());
        CHECK(game.status() == GameStatus::Ongoing);
    }
}

TEST_CASE("stalemate", "[game]") {
    SECTION("reached by a move") {
        Game game(fen_position("7k/8/6K1/8/8/8/5Q2/8 w - - 0 1"));
        CHECK(game.status() == GameStatus::Ongoing);
        play_uci(game, {"f2f7"});
        CHECK_FALSE(game.position().in_check());
        CHECK(game.status() == GameStatus::Stalemate);
    }
    SECTION("given by a FEN, with pawns on the board") {
        // Black's king is boxed in and the only pawn is blocked.
        const Game game(fen_position("k7/P7/1K6/8/8/8/8/8 b - - 0 1"));
        CHECK(game.status() == GameStatus::Stalemate);
    }
}

TEST_CASE("threefold and fivefold repetition by knight shuffles", "[game]") {
    Game game;
    play_uci(game, KnightRoundTrip);
    CHECK(game.occurrences(4) == 2);
    CHECK(game.status() == GameStatus::Ongoing);

    play_uci(game, {"g1f3", "g8f6", "f3g1"});
    CHECK(game.status() == GameStatus::Ongoing);
    play_uci(game, {"f6g8"});
    CHECK(game.occurrences(8) == 3);
    CHECK(game.status() == GameStatus::ThreefoldRepetition);

    // Every intermediate position repeats in step with the start position.
    CHECK(game.occurrences(0) == 1);
    CHECK(game.occurrences(1) == 1);
    CHECK(game.occurrences(5) == 2);
    CHECK(game.occurrences(3) == 1);
    CHECK(game.occurrences(7) == 2);

    // The position after Nf3 occurs for the third time too.
    play_uci(game, {"g1f3"});
    CHECK(game.occurrences(9) == 3);
    CHECK(game.status() == GameStatus::ThreefoldRepetition);
    play_uci(game, {"g8f6", "f3g1", "f6g8"});
    CHECK(game.occurrences(12) == 4);
    CHECK(game.status() == GameStatus::ThreefoldRepetition);

    play_uci(game, {"g1f3", "g8f6", "f3g1"});
    CHECK(game.occurrences(15) == 4);
    CHECK(game.status() == GameStatus::ThreefoldRepetition);
    play_uci(game, {"f6g8"});
    CHECK(game.occurrences(16) == 5);
    CHECK(game.status() == GameStatus::FivefoldRepetition);
}

TEST_CASE("an automatic ending stands when moves are played after it", "[game]") {
    SECTION("fivefold repetition, then pawn moves") {
        Game game;
        for (int i = 0; i < 4; ++i) play_uci(game, KnightRoundTrip);
        REQUIRE(game.status() == GameStatus::FivefoldRepetition);
        play_uci(game, {"e2e4", "e7e5", "g1f3"});
        CHECK(game.occurrences(game.positions().size() - 1) == 1);
        CHECK(game.status() == GameStatus::FivefoldRepetition);
    }
    SECTION("seventy-five-move rule in the starting FEN, then a pawn move") {
        Game game(fen_position("4k3/8/8/8/8/8/4P3/R3K3 w - - 150 100"));
        CHECK(game.status() == GameStatus::SeventyFiveMoveRule);
        play_uci(game, {"e2e4"});
        CHECK(game.position().halfmove_clock() == 0);
        CHECK(game.status() == GameStatus::SeventyFiveMoveRule);
    }
    SECTION("seventy-five-move rule reached in play, then a capture") {
        Game game(fen_position("4k3/8/8/8/8/8/7r/R3K3 w - - 149 100"));
        CHECK(game.status() == GameStatus::FiftyMoveRule);
        play_uci(game, {"a1a2"});
        CHECK(game.status() == GameStatus::SeventyFiveMoveRule);
        play_uci(game, {"h2a2"});
        CHECK(game.position().halfmove_clock() == 0);
        CHECK(game.status() == GameStatus::SeventyFiveMoveRule);
    }
}

TEST_CASE("a threefold repetition that was not claimed lapses", "[game]") {
    Game game;
    play_uci(game, KnightRoundTrip);
    play_uci(game, KnightRoundTrip);
    REQUIRE(game.status() == GameStatus::ThreefoldRepetition);
    play_uci(game, {"b1c3"});
    CHECK(game.status() == GameStatus::Ongoing);
    // Returning to it makes the start position the fourth time: claimable again.
    play_uci(game, {"g8f6", "c3b1", "f6g8"});
    CHECK(game.occurrences(12) == 4);
    CHECK(game.status() == GameStatus::ThreefoldRepetition);
}

TEST_CASE("repetition: an unusable en passant right does not make positions differ", "[game]") {
    SECTION("after 1.e4 no black pawn can capture") {
        Game game;
        play_uci(game, {"e2e4"});
        CHECK(game.position().ep_square() == NoSquare);
        play_uci(game, {"g8f6", "g1f3", "f6g8", "f3g1"});
        CHECK(game.occurrences(5) == 2);
        play_uci(game, {"g8f6", "g1f3", "f6g8", "f3g1"});
        CHECK(game.occurrences(9) == 3);
        CHECK(game.status() == GameStatus::ThreefoldRepetition);
    }
    SECTION("a FEN naming an unusable en passant square equals the position without it") {
        const Position with_ep = fen_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        const Position without = fen_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        CHECK(with_ep.ep_square() == NoSquare);
        CHECK(with_ep.same_position(without));
        CHECK(with_ep.key() == without.key());

        Game game(with_ep);
        play_uci(game, {"g8f6", "g1f3", "f6g8", "f3g1"});
        play_uci(game, {"g8f6", "g1f3", "f6g8", "f3g1"});
        CHECK(game.occurrences(8) == 3);
        CHECK(game.status() == GameStatus::ThreefoldRepetition);
    }
    SECTION("the capturing pawn is pinned to its king along a file") {
        Game game(fen_position("3k2n1/8/8/8/3p4/8/4P3/3R2NK w - - 0 1"));
        play_uci(game, {"e2e4"});
        CHECK(game.position().ep_square() == NoSquare);
        play_uci(game, {"g8f6", "g1f3", "f6g8", "f3g1"});
        CHECK(game.occurrences(5) == 2);
        play_uci(game, {"g8f6", "g1f3", "f6g8", "f3g1"});
        CHECK(game.occurrences(9) == 3);
        CHECK(game.status() == GameStatus::ThreefoldRepetition);
    }
    SECTION("the capture would expose the king along the rank") {
        // Rook a4, pawns d4 and e4, king h4: dxe3 takes both pawns off the rank.
        Game game(fen_position("6n1/8/8/8/R2p3k/8/4P3/1N5K w - - 0 1"));
        play_uci(game, {"e2e4"});
        CHECK(game.position().ep_square() == NoSquare);
        play_uci(game, {"g8f6", "b1c3", "f6g8", "c3b1"});
        CHECK(game.occurrences(5) == 2);
        play_uci(game, {"g8f6", "b1c3", "f6g8", "c3b1"});
        CHECK(game.occurrences(9) == 3);
        CHECK(game.status() == GameStatus::ThreefoldRepetition);
    }
}

TEST_CASE("repetition: a usable en passant right makes the first occurrence differ", "[game]") {
    // After e2-e4 Black's d4 pawn could take en passant; once a knight move passes,
    // that right is gone, so the same board later is a different position.
    Game game(fen_position("4k1n1/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1"));
    play_uci(game, {"e2e4"});
    REQUIRE(game.position().ep_square() == E3);
    play_uci(game, {"g8f6", "g1f3", "f6g8", "f3g1"});
    CHECK(placement(game.positions()[5]) == placement(game.positions()[1]));
    CHECK_FALSE(game.positions()[5].same_position(game.positions()[1]));
    CHECK(game.occurrences(5) == 1);

    play_uci(game, {"g8f6", "g1f3", "f6g8", "f3g1"});
    CHECK(game.occurrences(9) == 2);
    CHECK(game.status() == GameStatus::Ongoing);

    play_uci(game, {"g8f6", "g1f3", "f6g8", "f3g1"});
    CHECK(game.occurrences(13) == 3);
    CHECK(game.status() == GameStatus::ThreefoldRepetition);
}

TEST_CASE("repetition: lost castling rights make earlier positions differ", "[game]") {
    SECTION("rooks step out and back") {
        // Kings and rooks alone with their rights: no Black man can have moved last.
        Game game(fen_position("4k2r/8/8/8/8/8/8/4K2R w Kk - 0 1", FenCheck::Playable));
        play_uci(game, {"h1g1", "h8g8", "g1h1", "g8h8"});
        CHECK(game.position().castling_rights() == 0);
        CHECK(placement(game.positions()[4]) == placement(game.positions()[0]));
        CHECK_FALSE(game.positions()[4].same_position(game.positions()[0]));
        CHECK(game.occurrences(4) == 1);

        play_uci(game, {"h1g1", "h8g8", "g1h1", "g8h8"});
        CHECK(game.occurrences(8) == 2);
        CHECK(game.status() == GameStatus::Ongoing);
        play_uci(game, {"h1g1", "h8g8", "g1h1", "g8h8"});
        CHECK(game.occurrences(12) == 3);
        CHECK(game.status() == GameStatus::ThreefoldRepetition);
    }
    SECTION("kings step out and back") {
        Game game(fen_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", FenCheck::Playable));
        play_uci(game, {"e1d1", "e8d8", "d1e1", "d8e8"});
        CHECK(game.occurrences(4) == 1);
        play_uci(game, {"e1d1", "e8d8", "d1e1", "d8e8"});
        play_uci(game, {"e1d1", "e8d8", "d1e1", "d8e8"});
        CHECK(game.occurrences(12) == 3);
        CHECK(game.status() == GameStatus::ThreefoldRepetition);
    }
    SECTION("only one side loses a right: still different") {
        Game game(fen_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", FenCheck::Playable));
        play_uci(game, {"a1b1", "e8d8", "b1a1", "d8e8"});
        CHECK(game.position().castling_rights() == (castling_bit(White, KingSide)));
        CHECK(game.occurrences(4) == 1);
    }
}

TEST_CASE("repetition counts only since the last pawn move or capture", "[game]") {
    SECTION("a pawn move starts a new window") {
        Game game;
        play_uci(game, KnightRoundTrip);
        CHECK(game.occurrences(4) == 2);
        play_uci(game, {"e2e4", "e7e5"});
        CHECK(game.occurrences(6) == 1);
        play_uci(game, KnightRoundTrip);
        CHECK(game.occurrences(10) == 2);
        CHECK(game.status() == GameStatus::Ongoing);
        play_uci(game, KnightRoundTrip);
        CHECK(game.occurrences(14) == 3);
        CHECK(game.status() == GameStatus::ThreefoldRepetition);
    }
    SECTION("a capture starts a new window") {
        Game game(fen_position("4k1n1/8/8/3p4/8/8/8/1N2K2R w - - 0 1"));
        play_uci(game, {"b1c3", "g8f6", "c3b1", "f6g8"});
        CHECK(game.occurrences(4) == 2);
        play_uci(game, {"b1c3", "g8f6", "c3d5", "f6d5"});
        CHECK(game.position().halfmove_clock() == 0);
        CHECK(game.occurrences(8) == 1);
    }
}

TEST_CASE("repetition in a game that starts from a FEN", "[game]") {
    SECTION("a zero halfmove clock does not hide later repetitions") {
        Game game(fen_position("4k1n1/8/8/8/8/8/8/4K1NR w - - 0 1"));
        play_uci(game, KnightRoundTrip);
        play_uci(game, KnightRoundTrip);
        CHECK(game.occurrences(8) == 3);
        CHECK(game.status() == GameStatus::ThreefoldRepetition);
    }
    SECTION("a large halfmove clock does not reach before the first position") {
        Game game(fen_position("4k1n1/8/8/8/8/8/8/4K1NR w - - 60 40"));
        play_uci(game, KnightRoundTrip);
        CHECK(game.occurrences(4) == 2);
        CHECK(game.occurrences(2) == 1);
        CHECK(game.status() == GameStatus::Ongoing);
    }
}

TEST_CASE("fifty-move rule", "[game]") {
    SECTION("claimable at halfmove 100, not at 99") {
        Game game(fen_position("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"));
        CHECK(game.status() == GameStatus::Ongoing);
        play_uci(game, {"a1a2"});
        CHECK(game.position().halfmove_clock() == 100);
        CHECK(game.status() == GameStatus::FiftyMoveRule);
    }
    SECTION("a pawn move on the 100th half-move resets the count") {
        Game game(fen_position("4k3/8/8/8/8/8/P7/R3K3 w - - 99 80"));
        play_uci(game, {"a2a3"});
        CHECK(game.status() == GameStatus::Ongoing);
    }
    SECTION("a capture on the 100th half-move resets the count") {
        Game game(fen_position("4k3/8/8/8/8/8/r7/R3K3 w - - 99 80"));
        play_uci(game, {"a1a2"});
        CHECK(game.status() == GameStatus::Ongoing);
    }
    SECTION("checkmate on the 100th half-move is checkmate") {
        Game game(fen_position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80"));
        play_uci(game, {"a1a8"});
        CHECK(game.position().halfmove_clock() == 100);
        CHECK(game.status() == GameStatus::Checkmate);
    }
    SECTION("stalemate on the 100th half-move is stalemate") {
        Game game(fen_position("7k/8/6K1/8/8/8/5Q2/8 w - - 99 80"));
        play_uci(game, {"f2f7"});
        CHECK(game.status() == GameStatus::Stalemate);
    }
    SECTION("threefold repetition comes before the fifty-move rule") {
        Game game(fen_position("4k1n1/8/8/8/8/8/8/4K1NR w - - 92 80"));
        play_uci(game, KnightRoundTrip);
        play_uci(game, KnightRoundTrip);
        CHECK(game.position().halfmove_clock() == 100);
        CHECK(game.status() == GameStatus::ThreefoldRepetition);
    }
}

TEST_CASE("seventy-five-move rule", "[game]") {
    SECTION("automatic at halfmove 150, claimable fifty-move draw at 149") {
        Game game(fen_position("4k3/8/8/8/8/8/8/R3K3 w - - 149 100"));
        CHECK(game.status() == GameStatus::FiftyMoveRule);
        play_uci(game, {"a1a2"});
        CHECK(game.position().halfmove_clock() == 150);
        CHECK(game.status() == GameStatus::SeventyFiveMoveRule);
    }
    SECTION("checkmate on the 150th half-move is checkmate") {
        Game game(fen_position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100"));
        play_uci(game, {"a1a8"});
        CHECK(game.position().halfmove_clock() == 150);
        CHECK(game.status() == GameStatus::Checkmate);
    }
    SECTION("stalemate on the 150th half-move is stalemate") {
        Game game(fen_position("7k/8/6K1/8/8/8/5Q2/8 w - - 149 100"));
        play_uci(game, {"f2f7"});
        CHECK(game.position().halfmove_clock() == 150);
        CHECK(game.status() == GameStatus::Stalemate);
    }
    SECTION("a dead position comes before the seventy-five-move rule") {
        const Game game(fen_position("8/8/4k3/8/8/8/8/4KB2 w - - 150 100"));
        CHECK(game.status() == GameStatus::DeadPosition);
    }
    SECTION("fivefold repetition on the same half-move comes before it") {
        Game game(fen_position("4k1n1/8/8/8/8/8/8/4K1NR w - - 134 100"));
        for (int i = 0; i < 3; ++i) play_uci(game, KnightRoundTrip);
        play_uci(game, {"g1f3", "g8f6", "f3g1"});
        CHECK(game.status() == GameStatus::ThreefoldRepetition);
        play_uci(game, {"f6g8"});
        CHECK(game.position().halfmove_clock() == 150);
        CHECK(game.occurrences(16) == 5);
        CHECK(game.status() == GameStatus::FivefoldRepetition);
    }
    SECTION("the 75-move rule reached first stands over a later fivefold") {
        Game game(fen_position("4k1n1/8/8/8/8/8/8/4K1NR w - - 135 100"));
        play_uci(game, KnightRoundTrip);
        play_uci(game, KnightRoundTrip);
        play_uci(game, KnightRoundTrip);
        play_uci(game, {"g1f3", "g8f6", "f3g1"});
        CHECK(game.position().halfmove_clock() == 150);
        CHECK(game.status() == GameStatus::SeventyFiveMoveRule);
        play_uci(game, {"f6g8"});
        CHECK(game.occurrences(16) == 5);
        CHECK(game.status() == GameStatus::SeventyFiveMoveRule);
    }
}

TEST_CASE("dead position reached in a game", "[game]") {
    SECTION("the last capture leaves king and bishop against king") {
        Game game(fen_position("4k3/8/8/8/8/8/3r4/4KB2 w - - 0 1"));
        CHECK(game.status() == GameStatus::Ongoing);
        play_uci(game, {"e1d2"});
        CHECK(game.status() == GameStatus::DeadPosition);
        // Moves played after the game ended do not change the result.
        play_uci(game, {"e8e7", "d2d3"});
        CHECK(game.status() == GameStatus::DeadPosition);
    }
    SECTION("capturing the last pawn leaves bare kings") {
        Game game(fen_position("8/8/8/8/8/8/3Pk3/6K1 b - - 0 1"));
        play_uci(game, {"e2d2"});
        CHECK(game.status() == GameStatus::DeadPosition);
    }
    SECTION("a game that starts dead") {
        const Game game(fen_position("8/8/4k3/8/8/8/8/4K3 w - - 0 1"));
        CHECK(game.status() == GameStatus::DeadPosition);
    }
    SECTION("a dead position proven from above") {
        // Locked pawns, and bishops that never reach a square of the other colour: the
        // rules core's own test cannot tell; a verdict from above (the winnability
        // decider's, tests/winnability) can, and the status takes it.
        Game game(fen_position("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1"));
        CHECK(game.status() == GameStatus::Ongoing);
        CHECK(game.status(true) == GameStatus::DeadPosition);
    }
    SECTION("checkmate and stalemate come before a verdict of dead") {
        Game mated;
        play_uci(mated, {"f2f3", "e7e5", "g2g4", "d8h4"});
        CHECK(mated.status(true) == GameStatus::Checkmate);
        const Game stalemated(fen_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));
        CHECK(stalemated.status(true) == GameStatus::Stalemate);
    }
}

TEST_CASE("undo restores the previous state", "[game]") {
    SECTION("one move") {
        Game game;
        play_uci(game, {"e2e4"});
        game.undo();
        CHECK(game.moves().empty());
        CHECK(game.positions().size() == 1);
        CHECK(game.position().same_position(Position::startpos()));
        CHECK(game.position().fen() == Position::StartFen);
    }
    SECTION("undoing the mating move") {
        Game game;
        play_uci(game, {"f2f3", "e7e5", "g2g4", "d8h4"});
        REQUIRE(game.status() == GameStatus::Checkmate);
        game.undo();
        CHECK(game.status() == GameStatus::Ongoing);
        CHECK(game.moves().size() == 3);
        CHECK(game.position().side_to_move() == Black);
        play_uci(game, {"d8h4"});
        CHECK(game.status() == GameStatus::Checkmate);
    }
    SECTION("undoing into and out of a repetition") {
        Game game;
        play_uci(game, KnightRoundTrip);
        play_uci(game, KnightRoundTrip);
        REQUIRE(game.status() == GameStatus::ThreefoldRepetition);
        game.undo();
        CHECK(game.status() == GameStatus::Ongoing);
        CHECK(game.occurrences(game.positions().size() - 1) == 2);
        play_uci(game, {"f6g8"});
        CHECK(game.status() == GameStatus::ThreefoldRepetition);
    }
    SECTION("undoing the move that reached the seventy-five-move rule") {
        Game game(fen_position("4k3/8/8/8/8/8/8/R3K3 w - - 149 100"));
        play_uci(game, {"a1a2"});
        REQUIRE(game.status() == GameStatus::SeventyFiveMoveRule);
        game.undo();
        CHECK(game.position().halfmove_clock() == 149);
        CHECK(game.status() == GameStatus::FiftyMoveRule);
    }
}

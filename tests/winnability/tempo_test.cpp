// The pawn race of the winnability decider (tempo.h): a winner whose king
// and pieces can never move has its pawn moves and nothing else, and runs out of them
// before any mating net can close. It must fire where the vectors say the winner
// cannot mate, and never where a mate exists.

#include <catch2/catch.hpp>

#include <optional>
#include <string_view>

#include "test_support.h"
#include "random_games.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "winnability/winnability.h"
#include "winnability/sketch.h"
#include "winnability/tempo.h"

using namespace arbiter;
using namespace arbiter::winnability;

namespace {

bool races_out(std::string_view fen, Color winner) { return pawn_race_cannot_mate(test::parse_fen(fen), winner); }

}  // namespace

TEST_CASE("a king shut in on b8 runs out of pawn moves before it can mate", "[winnability]") {
    // Black's king never leaves b8 (a7 and c7 are guarded by b6, a8 and c8 by b7, and
    // b7 by the walled-in bishop), so Black has its three pawns' pushes and nothing
    // else. White's king can take them and White can promote, but every line runs
    // Black out of moves (stalemate) before a net for White's king is ready, and a
    // queen or rook promoted on the eighth rank mates Black at once.
    const char* shut[] = {
        "1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - - 0 1",
        "1k6/1P3p1p/BP1p4/1P6/8/8/3P1PKP/8 w - - 0 1",
        "1k6/1P5p/BP6/1P1p1p2/8/8/3P1PKP/8 w - - 0 1",
        "1k6/1P5p/BP6/pPp4p/8/8/P1P3KP/8 b - - 0 1",
    };
    for (const char* fen : shut) {
        INFO(fen);
        const Position pos = test::parse_fen(fen);
        // The sketch counts no tempo: it cannot prove this.
        CHECK_FALSE(winnability::sketch_proves_no_mate(pos, Black, 300, 1200));
        CHECK(pawn_race_cannot_mate(pos, Black));
        CHECK(can_win(pos, Black) == Winnable::No);
        // White's king is free: the race is not for White.
        CHECK_FALSE(pawn_race_cannot_mate(pos, White));
    }
    // White, freed of the other side's search, still finds its long mate.
    const Winnability both = decide(test::parse_fen("1k6/1P5p/BP6/1P1p1p2/8/8/3P1PKP/8 w - - 0 1"));
    CHECK(both.white == Winnable::Yes);
    CHECK(both.black == Winnable::No);
}

TEST_CASE("the race leaves alone the shut-in kings that can still mate", "[winnability]") {
    // One more Black pawn (h6, h5), or a b4 pawn that can take on a3 or c3, gives
    // Black the tempo or the way out that a mate needs (all labelled WB).
    const char* live[] = {
        "1k6/1P1p1p1p/BP5p/1P6/8/8/3P1PKP/8 w - - 0 1",    "1k6/1P1p1p1p/BP6/1P5p/8/8/3P1PKP/8 w - - 0 1",
        "1k6/1P1p1p1p/BP6/1P6/1p6/8/1P1P1PKP/8 w - - 0 1", "1k6/1P1p3p/BP3p2/1P5p/8/3P4/5PKP/8 b - - 0 1",
        "1k6/1P1p3p/BP3p2/1P5p/8/8/3P1PKP/8 b - - 0 1",
    };
    for (const char* fen : live) {
        INFO(fen);
        CHECK_FALSE(races_out(fen, Black));
        CHECK(can_win(test::parse_fen(fen), Black) != Winnable::No);
    }
    // Without the a6 bishop Black's king takes b7 and walks out: nothing is frozen.
    CHECK_FALSE(races_out("1k6/1P1p1p1p/1P6/1P6/8/8/3P1PKP/8 w - - 0 1", Black));
}

TEST_CASE("a king boxed in the corner has too few pawn moves to mate", "[winnability]") {
    // White's king on h1 never moves (g1 is guarded by h2, which g3 guards, and g2 is
    // its own pawn, blocked for ever). White has its a, c and e pawns' moves, Black's
    // king roams: White never mates (labelled -B: Black can).
    const Position boxed = test::parse_fen("k7/p1p1p3/8/8/P7/6p1/2P1P1Pp/7K w - - 0 1");
    CHECK(pawn_race_cannot_mate(boxed, White));
    CHECK(can_win(boxed, White) == Winnable::No);
    // Castling rights or an en passant right are not modelled.
    CHECK_FALSE(races_out("r3k3/p1p1p3/8/8/P7/6p1/2P1P1Pp/7K w q - 0 1", White));
    CHECK_FALSE(races_out("k7/p3p3/8/8/Pp6/6p1/2P1P1Pp/7K b - a3 0 1", White));
}

TEST_CASE("the race's king steps from every square of its set, to squares of the set too", "[winnability]") {
    // With White's pawn on e3 Black's king takes it on e6, Black's e-pawn promotes to
    // a knight that the frozen g2 pawn takes on f3, and that pawn runs to f8 and
    // mates (e4 Kd8 e5 Kd7 e6 Kxe6 c3 Kf5 a4 e5 c4 e4 a5 e3 c5 e2 a6 e1=N c6 Nf3
    // gxf3 Ke5 f4 Kd6 f5 Ke7 f6 Kd8 f7 Kc8 f8=Q#). The king's walk to d7 passes d8
    // and d7 from a set holding both: a step from one square of the set may end on
    // another of its squares.
    const char* walks = "2k5/p1p1p3/8/8/8/P3P1p1/2P3Pp/7K w - - 0 1";
    CHECK_FALSE(races_out(walks, White));
    Position line = test::parse_fen(walks);
    for (const char* uci : {"e3e4", "c8d8", "e4e5", "d8d7", "e5e6", "d7e6", "c2c3",  "e6f5", "a3a4", "e7e5", "c3c4",
                            "e5e4", "a4a5", "e4e3", "c4c5", "e3e2", "a5a6", "e2e1n", "c5c6", "e1f3", "g2f3", "f5e5",
                            "f3f4", "e5d6", "f4f5", "d6e7", "f5f6", "e7d8", "f6f7",  "d8c8", "f7f8q"}) {
        const std::optional<Move> move = parse_uci(line, uci);
        REQUIRE(move.has_value());
        line = line.apply(*move);
    }
    CHECK(line.in_check());
    CHECK_FALSE(has_legal_move(line));
}

TEST_CASE("a loser mated already is no race", "[winnability]") {
    // The race tests for mate after the winner's moves only. (Both this and the case
    // above were found by checking the race against the decider without it on
    // random variations of the vectors it settles.)
    const Position mated = test::parse_fen("8/3p1p1p/1p6/kP6/BP6/KP6/PP1P1P1P/8 b - - 0 1");
    CHECK_FALSE(pawn_race_cannot_mate(mated, White));
    CHECK(can_win(mated, White) == Winnable::Yes);
}

TEST_CASE("No from the race is never followed by a mate in random games", "[winnability]") {
    const char* starts[] = {
        "1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - - 0 1",  "1k6/1P5p/BP5p/pPp5/8/8/P1P4P/7K b - - 0 1",
        "k7/p1p1p3/8/8/P7/6p1/2P1P1Pp/7K w - - 0 1",    "8/3p1p1p/8/1p6/1P6/KP6/PP1P1P1P/k7 w - - 0 1",
        "8/p1p1p3/6p1/6P1/6PK/P5PP/2P1P3/k7 w - - 0 1",
    };
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    int refuted = 0;
    for (const char* fen : starts) {
        refuted += test::random_games_never_refute(
            fen, 20, 200, seed, [](const Position& pos, int, Color c) { return pawn_race_cannot_mate(pos, c); });
    }
    CHECK(refuted > 0);
}

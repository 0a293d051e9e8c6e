// The correction history: what it learns from one position reaches exactly the
// positions that share a feature with it (pawn structure, one side's pieces, the last
// two moves), for the same side to move only, and its entries stay bounded.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string_view>

#include "test_support.h"
#include "search/correction.h"

using namespace arbiter;
using namespace arbiter::search;

namespace {

// Italian game; the same with White's bishop on b5 (same pawns, same Black pieces);
// the same with Black to move; a rook endgame sharing nothing with them.
constexpr std::string_view Italian = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
constexpr std::string_view BishopB5 = "r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
constexpr std::string_view BlackToMove = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4";
constexpr std::string_view RookEnding = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

const ContinuationContext NoMoves{};
const ContinuationContext Moves{continuation_index(WKnight, F3), continuation_index(BKnight, C6)};
const ContinuationContext OtherMoves{continuation_index(WBishop, C4), continuation_index(BKnight, F6)};

CorrectionHistory::Keys keys(std::string_view fen) { return CorrectionHistory::keys_of(test::parse_fen(fen)); }

}  // namespace

TEST_CASE("the keys separate the features", "[search][correction]") {
    const auto italian = keys(Italian), b5 = keys(BishopB5), black = keys(BlackToMove), ending = keys(RookEnding);
    CHECK(italian.pawn == b5.pawn);
    CHECK(italian.non_pawn[Black] == b5.non_pawn[Black]);
    CHECK(italian.non_pawn[White] != b5.non_pawn[White]);
    CHECK((black.us == Black && italian.us == White));
    CHECK((black.pawn == italian.pawn && black.non_pawn[White] == italian.non_pawn[White]));
    CHECK(ending.pawn != italian.pawn);
    CHECK(ending.non_pawn[White] != italian.non_pawn[White]);
    CHECK(ending.non_pawn[Black] != italian.non_pawn[Black]);
}

TEST_CASE("a correction reaches the positions that share a feature, for the same side", "[search][correction]") {
    auto table = std::make_unique<CorrectionHistory>();
    for (std::string_view fen : {Italian, BishopB5, BlackToMove, RookEnding})
        CHECK(table->correction(keys(fen), Moves) == 0);

    // The search found the Italian position 200 cp better than its evaluation said.
    table->update(keys(Italian), Moves, 200, 8);
    const int learnt = table->correction(keys(Italian), Moves);
    CHECK(learnt > 0);
    // The bishop on b5 shares the pawns and Black's pieces, not White's, nor the moves' entry.
    const int shared = table->correction(keys(BishopB5), OtherMoves);
    CHECK(shared > 0);
    CHECK(shared < learnt);
    // The same board with the other side to move, and a position sharing nothing: untouched.
    // (The continuation entry tells the sides apart by the moves' colours: before a
    // Black move the last move is White's, so Black to move never has this context.)
    CHECK(table->correction(keys(BlackToMove), NoMoves) == 0);
    CHECK(table->correction(keys(RookEnding), NoMoves) == 0);
    // The continuation entry is the last two moves': other moves lose that part only.
    CHECK(table->correction(keys(Italian), OtherMoves) < learnt);
    CHECK(table->correction(keys(Italian), OtherMoves) > 0);

    // An error the other way brings it back down; clear() forgets everything.
    for (int i = 0; i < 20; ++i) table->update(keys(Italian), Moves, -200, 8);
    CHECK(table->correction(keys(Italian), Moves) < 0);
    table->clear();
    CHECK(table->correction(keys(Italian), Moves) == 0);
}

TEST_CASE("corrections stay bounded however often the same error is seen", "[search][correction]") {
    auto table = std::make_unique<CorrectionHistory>();
    // Each entry lies in [-Limit, Limit] (1/8 cp) and the correction is their weighted
    // sum: four entries with weights that sum as below, over 8 * 128.
    const int bound = (tune::corr_pawn_weight + 2 * tune::corr_non_pawn_weight + tune::corr_continuation_weight) *
                      CorrectionHistory::Limit / (8 * 128);
    for (int sign : {1, -1}) {
        int previous = table->correction(keys(Italian), Moves);
        for (int i = 0; i < 1000; ++i) {
            table->update(keys(Italian), Moves, sign * 5000, 30);
            const int now = table->correction(keys(Italian), Moves);
            CHECK(std::abs(now) <= bound);
            if (i < 5) CHECK(sign * now > sign * previous);  // it still learns at first
            previous = now;
        }
        CHECK(std::abs(previous) >= bound / 2);
    }
}

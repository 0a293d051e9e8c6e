// The move-ordering memory of a search thread (search/history.h): which entries an
// update touches, the gravity rule's bounds, the bonus by depth, killers and
// countermoves.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <memory>

#include "search/history.h"

using namespace arbiter;
using namespace arbiter::search;

namespace {

const Move NgF3(G1, F3), Ne5(F3, E5), Bb5(F1, B5);
const ContinuationIndex AfterE5 = continuation_index(BPawn, E5);
const ContinuationIndex AfterE4 = continuation_index(WPawn, E4);
const ContinuationIndex AfterNc6 = continuation_index(BKnight, C6);
constexpr Bitboard NoThreats = 0;

}  // namespace

TEST_CASE("the history bonus grows with depth up to its cap", "[search][history]") {
    int previous = 0;
    for (int depth = 1; depth <= 64; ++depth) {
        const int bonus = History::bonus(depth);
        CHECK(bonus >= previous);
        CHECK(bonus >= 0);
        CHECK(bonus <= tune::history_bonus_max);
        previous = bonus;
    }
    CHECK(History::bonus(64) == tune::history_bonus_max);
    CHECK(History::bonus(8) > History::bonus(2));
}

TEST_CASE("a quiet update reaches the butterfly entry and each continuation entry", "[search][history]") {
    auto h = std::make_unique<History>();
    const ContinuationIndex current = continuation_index(WKnight, F3);
    const ContinuationContext context{AfterE5, AfterE4, NoContinuation};
    CHECK(h->quiet_score(White, NgF3, NoThreats, current, context) == 0);

    h->update_quiet(White, NgF3, NoThreats, current, context, 1000);
    CHECK(h->quiet(White, NgF3, NoThreats) == 1000);
    CHECK(h->continuation(AfterE5, current) == 1000);
    CHECK(h->continuation(AfterE4, current) == 1000);
    CHECK(h->quiet_score(White, NgF3, NoThreats, current, context) == 3000);  // butterfly + two continuations
    // Other sides, moves and contexts are untouched.
    CHECK(h->quiet(Black, NgF3, NoThreats) == 0);
    CHECK(h->quiet(White, Bb5, NoThreats) == 0);
    CHECK(h->continuation(AfterNc6, current) == 0);
    CHECK(h->continuation(NoContinuation, current) == 0);
    CHECK(h->quiet_score(White, NgF3, NoThreats, current,
                         ContinuationContext{AfterNc6, NoContinuation, NoContinuation}) == 1000);

    h->clear();
    CHECK(h->quiet_score(White, NgF3, NoThreats, current, context) == 0);
}

TEST_CASE("the butterfly entry depends on whether the origin and destination are attacked", "[search][history]") {
    auto h = std::make_unique<History>();
    const ContinuationIndex current = continuation_index(WKnight, E5);
    const ContinuationContext none{};
    const Bitboard from_attacked = square_bb(F3), to_attacked = square_bb(E5);
    h->update_quiet(White, Ne5, from_attacked, current, none, 1000);
    CHECK(h->quiet(White, Ne5, from_attacked) == 1000);
    CHECK(h->quiet(White, Ne5, from_attacked | square_bb(A1)) == 1000);  // other squares do not matter
    CHECK(h->quiet(White, Ne5, NoThreats) == 0);
    CHECK(h->quiet(White, Ne5, to_attacked) == 0);
    CHECK(h->quiet(White, Ne5, from_attacked | to_attacked) == 0);
    h->update_quiet(White, Ne5, to_attacked, current, none, -700);
    CHECK(h->quiet(White, Ne5, to_attacked) == -700);
    CHECK(h->quiet(White, Ne5, from_attacked) == 1000);
    h->clear();
    CHECK(h->quiet(White, Ne5, from_attacked) == 0);
    CHECK(h->quiet(White, Ne5, to_attacked) == 0);
}

TEST_CASE("a butterfly update leaves the continuation entries alone", "[search][history]") {
    auto h = std::make_unique<History>();
    const ContinuationIndex current = continuation_index(WKnight, F3);
    const ContinuationContext context{AfterE5, AfterE4, NoContinuation};
    h->update_butterfly(White, NgF3, NoThreats, 800);
    CHECK(h->quiet(White, NgF3, NoThreats) == 800);
    CHECK(h->continuation(AfterE5, current) == 0);
    CHECK(h->continuation(AfterE4, current) == 0);
    CHECK(h->quiet_score(White, NgF3, NoThreats, current, context) == 800);
    CHECK(h->quiet(Black, NgF3, NoThreats) == 0);
    h->update_butterfly(White, NgF3, NoThreats, -800);
    CHECK(h->quiet(White, NgF3, NoThreats) <= 0);  // undone, and gravity took a little more
}

TEST_CASE("gravity keeps every entry within bounds and lets new results win", "[search][history]") {
    auto h = std::make_unique<History>();
    const ContinuationIndex current = continuation_index(WKnight, E5);
    const ContinuationContext context{AfterNc6, NoContinuation, NoContinuation};
    for (int i = 0; i < 500; ++i) {
        h->update_quiet(White, Ne5, NoThreats, current, context, 40'000);  // beyond Max: clamped
        h->update_capture(WKnight, E5, Pawn, 40'000);
        CHECK(std::abs(h->quiet(White, Ne5, NoThreats)) <= History::Max);
        CHECK(std::abs(h->capture(WKnight, E5, Pawn)) <= History::Max);
    }
    CHECK(h->quiet(White, Ne5, NoThreats) > History::Max * 9 / 10);
    // A near-saturated entry moves little for a reward, much for a penalty.
    const int high = h->quiet(White, Ne5, NoThreats);
    h->update_quiet(White, Ne5, NoThreats, current, context, 1000);
    CHECK(h->quiet(White, Ne5, NoThreats) - high < 100);
    h->update_quiet(White, Ne5, NoThreats, current, context, -1000);
    CHECK(high - h->quiet(White, Ne5, NoThreats) > 1000);
    for (int i = 0; i < 50; ++i) h->update_quiet(White, Ne5, NoThreats, current, context, -3000);
    CHECK(h->quiet(White, Ne5, NoThreats) < 0);
}

TEST_CASE("capture history is indexed by the captured type, a quiet promotion counts as a pawn", "[search][history]") {
    auto h = std::make_unique<History>();
    h->update_capture(WQueen, D7, Knight, 800);
    CHECK(h->capture(WQueen, D7, Knight) == 800);
    CHECK(h->capture(WQueen, D7, Bishop) == 0);
    CHECK(h->capture(BQueen, D7, Knight) == 0);
    h->update_capture(WPawn, A8, NoPieceType, 500);
    CHECK(h->capture(WPawn, A8, Pawn) == 500);
}

TEST_CASE("killers keep the two latest distinct moves of a ply, countermoves answer a move", "[search][history]") {
    auto h = std::make_unique<History>();
    h->add_killer(3, NgF3);
    h->add_killer(3, NgF3);
    CHECK(h->killers(3)[0] == NgF3);
    CHECK(h->killers(3)[1] == Move());
    h->add_killer(3, Bb5);
    CHECK(h->killers(3)[0] == Bb5);
    CHECK(h->killers(3)[1] == NgF3);
    h->add_killer(3, Ne5);
    CHECK(h->killers(3)[0] == Ne5);
    CHECK(h->killers(3)[1] == Bb5);
    CHECK(h->killers(4)[0] == Move());
    h->clear_killers(3);
    CHECK(h->killers(3)[0] == Move());

    CHECK(h->counter(AfterNc6) == Move());
    h->set_counter(AfterNc6, Bb5);
    CHECK(h->counter(AfterNc6) == Bb5);
    CHECK(h->counter(AfterE5) == Move());
    h->set_counter(NoContinuation, NgF3);  // no previous move: nothing to remember
    CHECK(h->counter(NoContinuation) == Move());
}

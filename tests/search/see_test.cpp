// Static exchange evaluation on hand-made positions. Each exchange is checked at its
// exact value from both sides: see_ge(v) holds and see_ge(v + 1) does not, which
// pins the result down to the centipawn with the values of eval::PieceValue.

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "test_support.h"
#include "chess/notation.h"
#include "eval/evaluate.h"
#include "search/see.h"

using namespace arbiter;
using namespace arbiter::search;

namespace {

constexpr int P = eval::PieceValue[Pawn];
constexpr int N = eval::PieceValue[Knight];
constexpr int B = eval::PieceValue[Bishop];
constexpr int R = eval::PieceValue[Rook];
constexpr int Q = eval::PieceValue[Queen];

Position parse(std::string_view fen) { return test::parse_fen(fen); }

Move move(const Position& pos, std::string_view uci) {
    const std::optional<Move> m = parse_uci(pos, uci);
    INFO(std::string(uci) << " in " << pos.fen());
    REQUIRE(m.has_value());
    return *m;
}

// The exchange started by `uci` is worth exactly `value`.
void check_exact(std::string_view fen, std::string_view uci, int value) {
    const Position pos = parse(fen);
    const Move m = move(pos, uci);
    INFO(std::string(fen) << " " << std::string(uci) << " expected " << value);
    CHECK(see_ge(pos, m, value));
    CHECK_FALSE(see_ge(pos, m, value + 1));
    // Every threshold below the value holds too.
    CHECK(see_ge(pos, m, value - 1));
    CHECK(see_ge(pos, m, value - 1000));
}

}  // namespace

TEST_CASE("SEE: capture of an undefended piece wins the piece", "[see]") {
    check_exact("4k3/8/8/4n3/8/8/8/4RK2 w - - 0 1", "e1e5", N);
    check_exact("4k3/8/8/4q3/8/8/8/4RK2 w - - 0 1", "e1e5", Q);
    // Black captures, by a pawn.
    check_exact("4k3/8/8/4p3/3B4/8/8/4K3 b - - 0 1", "e5d4", B);
}

TEST_CASE("SEE: pawn takes a defended knight", "[see]") {
    // dxe5 dxe5: a knight for a pawn.
    check_exact("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5", N - P);
    // The same from Black's side, on the mirrored board.
    check_exact("4k3/8/8/3p4/4N3/3P4/8/4K3 b - - 0 1", "d5e4", N - P);
}

TEST_CASE("SEE: queen takes a defended pawn and loses", "[see]") {
    check_exact("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", P - Q);
    const Position pos = parse("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1");
    CHECK_FALSE(see_ge(pos, move(pos, "d1d5"), 0));
    // Defended by the least valuable piece first: a queen also defending changes nothing.
    check_exact("3qk3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", P - Q);
}

TEST_CASE("SEE: equal trade", "[see]") {
    // Rxd5 cxd5: a rook for a rook.
    check_exact("4k3/8/2p5/3r4/8/8/8/3RK3 w - - 0 1", "d1d5", 0);
    // Nxe5 dxe5.
    check_exact("4k3/8/3p4/4n3/8/5N2/8/4K3 w - - 0 1", "f3e5", 0);
}

TEST_CASE("SEE: the least valuable attacker recaptures", "[see]") {
    // Nxd5: defended by the e6 pawn and the d8 queen, the pawn takes back.
    check_exact("3qk3/8/4p3/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", P - N);
    // Two attackers against one defender: Nxd5 exd5 Bxd5 trades knights and wins a pawn.
    check_exact("4k3/8/4p3/3n4/8/1B2N3/8/4K3 w - - 0 1", "e3d5", P);
    // Starting with the bishop gives a bishop for a knight on the way.
    check_exact("4k3/8/4p3/3n4/8/1B2N3/8/4K3 w - - 0 1", "b3d5", N - B + P);
}

TEST_CASE("SEE: x-ray recapture through a battery", "[see]") {
    // Rxe5 Rxe5 Rxe5: the second rook behind the first recaptures.
    check_exact("4r1k1/8/8/4n3/8/8/4R3/4R1K1 w - - 0 1", "e2e5", N);
    // Without the second rook the knight costs a rook.
    check_exact("4r1k1/8/8/4n3/8/8/4R3/6K1 w - - 0 1", "e2e5", N - R);
    // Black has a battery too: the last rook to recapture is Black's, so after
    // Rxe5 Rxe5 White does better to stop, a rook for a knight down.
    check_exact("4r1k1/4r3/8/4n3/8/8/4R3/4R1K1 w - - 0 1", "e2e5", N - R);
    // Queen behind a bishop on a diagonal: Bxd5 cxd5 Qxd5.
    check_exact("4k3/8/2p5/3n4/8/1B6/Q7/4K3 w - - 0 1", "b3d5", N - B + P);
    // The capturing pawn uncovers the f3 bishop, which makes Qxd5 a blunder for Black.
    check_exact("3qk3/8/8/3n4/4P3/5B2/8/4K3 w - - 0 1", "e4d5", N);
}

TEST_CASE("SEE: en passant", "[see]") {
    // Undefended: a pawn.
    check_exact("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", P);
    // Defended by c7: pawn for pawn.
    check_exact("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0);
    // Removing the captured e4 pawn opens the e-file for the e7 rook: pawn for pawn.
    check_exact("k7/4R3/8/8/3pP3/8/8/4K3 b - e3 0 1", "d4e3", 0);
}

TEST_CASE("SEE: promotions", "[see]") {
    // Quiet promotion to an undefended square: a queen for a pawn.
    check_exact("7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", Q - P);
    check_exact("7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", N - P);
    // Promotion on a square the b8 rook guards: the new queen is lost.
    check_exact("1r5k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", -P);
    // Capturing promotion, recaptured by the c7 knight.
    check_exact("r3k3/1Pn5/8/8/8/8/8/4K3 w - - 0 1", "b7a8q", R - P);
    check_exact("r3k3/1Pn5/8/8/8/8/8/4K3 w - - 0 1", "b7a8n", R - P);
    // Undefended capturing promotion: rook plus the promotion gain.
    check_exact("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q", R + Q - P);
}

TEST_CASE("SEE: the king cannot recapture on a defended square", "[see]") {
    // Qxf7+: the king may not take because the c4 bishop guards f7.
    check_exact("4k3/5p2/8/8/2B5/5Q2/8/4K3 w - - 0 1", "f3f7", P);
    // Without the bishop the king takes the queen.
    check_exact("4k3/5p2/8/8/8/5Q2/8/4K3 w - - 0 1", "f3f7", P - Q);
    // The king as the only defender of a piece attacked twice: it cannot take back.
    check_exact("8/8/8/4k3/3n4/8/1B6/3RK3 w - - 0 1", "d1d4", N);
    // A king capture that is safe counts as a recapture.
    check_exact("8/8/8/4k3/3n4/8/8/3RK3 w - - 0 1", "d1d4", N - R);
}

TEST_CASE("SEE: castling is neutral", "[see]") {
    // Composed (no Black man can have moved last): read as Playable.
    const Position pos = test::parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, FenCheck::Playable);
    for (std::string_view uci : {"e1g1", "e1c1"}) {
        const Move m = move(pos, uci);
        CHECK(see_ge(pos, m, 0));
        CHECK_FALSE(see_ge(pos, m, 1));
    }
}

TEST_CASE("SEE: quiet moves to attacked squares", "[see]") {
    // Nf3-e5?? walks into the d6 pawn.
    check_exact("4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1", "f3e5", -N);
    // A safe square.
    check_exact("4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1", "f3g5", 0);
    // Defended square: Ne5 dxe5 Bxe5, a knight for a pawn.
    check_exact("4k3/8/3p4/8/8/2B2N2/8/4K3 w - - 0 1", "f3e5", P - N);
}

// The opponent's attacks by cheapest attacker (search/threats.h), checked square by
// square against the rules core's attackers_to, and the ordering bonus the move
// picker derives from them.

#include <catch2/catch.hpp>

#include <string_view>

#include "test_support.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "search/move_picker.h"
#include "search/threats.h"

using namespace arbiter;
using namespace arbiter::search;

TEST_CASE("threats: each class holds the squares attacked by that class or a cheaper one", "[search][threats]") {
    for (std::string_view fen : {
             std::string_view(Position::StartFen),
             std::string_view("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
             std::string_view("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1"),
             std::string_view("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"),
             std::string_view("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
         }) {
        // Playable: position 4 (mirrored here) is composed, its check given by no move.
        const Position pos = test::parse_fen(fen, false, FenCheck::Playable);
        const Threats threats = threats_against_side_to_move(pos);
        const Color them = ~pos.side_to_move();
        INFO(fen);
        for (Square s = A1; s <= H8; s = Square(s + 1)) {
            const Bitboard attackers = pos.attackers_to(s, pos.occupied()) & pos.pieces(them);
            const auto by = [&](std::initializer_list<PieceType> types) {
                Bitboard b = 0;
                for (PieceType t : types) b |= attackers & pos.pieces(t);
                return b != 0;
            };
            INFO(square_name(s));
            CHECK(bool(threats.by_pawn & square_bb(s)) == by({Pawn}));
            CHECK(bool(threats.by_minor & square_bb(s)) == by({Pawn, Knight, Bishop}));
            CHECK(bool(threats.by_rook & square_bb(s)) == by({Pawn, Knight, Bishop, Rook}));
            CHECK(bool(threats.any & square_bb(s)) == (attackers != 0));
        }
    }
}

TEST_CASE("threat bonus: escaping a cheaper attacker is rewarded, walking into one is not", "[search][threats]") {
    // White's queen on d4 is attacked by the rook on d8, the knight on c3 by the pawn on
    // b4; the knight on f3 and the bishop on e2 stand safe, and the pawn on f6 guards
    // e5 and g5.
    const Position pos = test::parse_fen("3r2k1/6pp/5p2/8/1p1Q4/2N2N2/4BPPP/6K1 w - - 0 1");
    const Threats threats = threats_against_side_to_move(pos);
    const auto bonus = [&](std::string_view uci) { return threat_bonus(pos, *parse_uci(pos, uci), threats); };
    CHECK(bonus("d4e4") > 0);   // the queen leaves the rook's file
    CHECK(bonus("d4d5") == 0);  // and here stays on it
    CHECK(bonus("d4c4") > 0);
    CHECK(bonus("c3e4") > 0);  // the knight escapes the pawn
    CHECK(bonus("f3e5") < 0);  // a safe knight walks into a pawn's attack
    CHECK(bonus("f3g5") < 0);
    CHECK(bonus("f3h4") == 0);
    CHECK(bonus("e2a6") == 0);  // a safe bishop to a safe square
    CHECK(bonus("g1f1") == 0);  // the king and pawns have none
    CHECK(bonus("h2h3") == 0);
    CHECK(bonus("d4e4") > bonus("c3e4"));  // a queen's escape counts for more than a knight's
}

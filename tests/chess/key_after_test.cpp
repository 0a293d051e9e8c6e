// Position::key_after(), the child's key without making the move, against the key
// apply() computes: every legal move two plies deep from every position of the perft
// suites (castling of both kinds, en passant, promotions, captures of castling rooks).

#include <catch2/catch.hpp>

#include <string>

#include "test_support.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/position.h"
#include "chess/zobrist.h"

using namespace arbiter;

namespace {

// Checks every legal move of `pos` and, `plies` - 1 deep, of its children; returns
// the number of moves checked.
int check_moves(const Position& pos, int plies) {
    int checked = 0;
    for (Move m : legal_moves(pos)) {
        const Position child = pos.apply(m);
        // The one difference allowed: a double push that gives the opponent a legal
        // en passant capture puts its file into the child's key.
        const zobrist::Key en_passant =
            child.ep_square() != NoSquare ? zobrist::en_passant(file_of(child.ep_square())) : 0;
        if (pos.key_after(m) != (child.key() ^ en_passant))
            FAIL("key_after differs from apply() in " << pos.fen() << " for " << to_uci(m, pos.chess960()));
        ++checked;
        if (plies > 1) checked += check_moves(child, plies - 1);
    }
    return checked;
}

}  // namespace

TEST_CASE("key_after gives the key apply() computes", "[position]") {
    int checked = 0;
    for (const std::string& fen : test::epd_fens("standard.epd"))
        checked += check_moves(test::parse_fen(fen, false, FenCheck::Playable), 2);
    for (const std::string& fen : test::epd_fens("chess960.epd"))
        checked += check_moves(test::parse_fen(fen, true, FenCheck::Playable), 2);
    CHECK(checked > 500'000);
}

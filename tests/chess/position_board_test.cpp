// Position::apply_board() is apply() without the check information: after
// add_check_info() the two positions must agree in everything, on every legal move
// of positions with castling, en passant, promotions, pins and checks, and along
// seeded random games from them.

#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "chess/movegen.h"
#include "chess/position.h"

using namespace arbiter;

namespace {

void check_every_move(const Position& pos) {
    for (Move m : legal_moves(pos)) {
        const Position full = pos.apply(m);
        Position board = pos.apply_board(m);
        INFO(pos.fen() << " move " << m.from() << "-" << m.to());
        CHECK(board.checkers() == 0);
        CHECK(board.pinned() == 0);
        board.add_check_info();
        CHECK(board.same_position(full));
        CHECK(board.fen() == full.fen());
        CHECK(board.key() == full.key());
        CHECK(board.pawn_key() == full.pawn_key());
        CHECK(board.ep_square() == full.ep_square());
        CHECK(board.checkers() == full.checkers());
        CHECK(board.pinned() == full.pinned());
    }
}

}  // namespace

TEST_CASE("apply_board makes the move apply makes", "[position]") {
    const char* fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/8/8/2k5/3Pp3/8/8/4K2R b K d3 0 1",  // en passant
        "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",   // a pinned pawn
        "3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",  // promotions with capture
    };
    std::mt19937 rng(2024);
    for (const char* fen : fens) {
        Position pos = *Position::from_fen(fen, false, FenCheck::Playable).position;
        for (int ply = 0; ply < 60; ++ply) {
            check_every_move(pos);
            const MoveList moves = legal_moves(pos);
            if (moves.size() == 0) break;
            pos = pos.apply(moves[rng() % moves.size()]);
        }
    }
}

#pragma once
// Random scored games for the tests of the self-play formats (`.agame`, `.apack`):
// starts that cover Chess960, en passant rights and partial castling rights, moves
// that prefer castling, en passant and promotions, and scores with mates among them.

#include <catch2/catch.hpp>

#include <random>

#include "chess/chess960.h"
#include "chess/movegen.h"
#include "search/score.h"
#include "tools/game_record.h"

namespace arbiter::test {

using tools::ScoredGame;
using tools::TrainingResult;

// Special moves counted over the random games, so the test knows it saw each kind.
struct Coverage {
    int castling = 0, en_passant = 0, promotion = 0, ep_start = 0, chess960 = 0;
};

// A random game: a start reached by a few random plies from the standard or a Chess960
// start, then random plies preferring special moves, with random scores.
inline ScoredGame random_game(std::mt19937_64& rng, Coverage& seen) {
    const bool chess960 = rng() % 2;
    Position pos =
        chess960 ? *Position::from_fen(chess960_start_fen(int(rng() % 960)), true).position : Position::startpos();
    for (int i = int(rng() % 12); i > 0; --i) {
        const MoveList moves = legal_moves(pos);
        if (moves.empty()) break;
        pos = pos.apply(moves[rng() % moves.size()]);
    }
    // Starts random plies rarely reach: an en passant right, partial castling rights.
    if (rng() % 10 == 0)
        pos = *Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w Kq f6 0 3").position;
    if (rng() % 10 == 0)
        pos = *Position::from_fen("1r2k1r1/pppppppp/8/8/4P3/8/PPPP1PPP/1R2K1R1 b Gb e3 0 1", true).position;
    ScoredGame game;
    game.start = pos;
    seen.ep_start += pos.ep_square() != NoSquare;
    seen.chess960 += chess960;
    const int length = int(rng() % 160);
    for (int ply = 0; ply < length; ++ply) {
        const MoveList moves = legal_moves(pos);
        if (moves.empty()) break;
        Move move = moves[rng() % moves.size()];
        for (Move m : moves)
            if (m.kind() != Move::Normal && rng() % 2) move = m;
        seen.castling += move.kind() == Move::Castling;
        seen.en_passant += move.kind() == Move::EnPassant;
        seen.promotion += move.kind() == Move::Promotion;
        const int score =
            rng() % 8 == 0 ? (rng() % 2 ? 1 : -1) * search::mate_in(int(rng() % 200)) : int(rng() % 80001) - 40000;
        game.plies.push_back(tools::make_ply(move, score));
        pos = pos.apply(move);
    }
    game.result = TrainingResult(rng() % 3);
    return game;
}

inline void check_same(const ScoredGame& a, const ScoredGame& b) {
    CHECK(a.start.fen() == b.start.fen());
    CHECK(a.start.chess960() == b.start.chess960());
    CHECK(a.start.key() == b.start.key());
    CHECK(a.result == b.result);
    REQUIRE(a.plies.size() == b.plies.size());
    for (size_t i = 0; i < a.plies.size(); ++i) {
        CHECK(a.plies[i].move == b.plies[i].move);
        CHECK(a.plies[i].score_white == b.plies[i].score_white);
        CHECK(a.plies[i].mate == b.plies[i].mate);
    }
}

}  // namespace arbiter::test

#pragma once
// Helpmate playouts towards a composed mating position, for the winnability decider
// (winnability.h).
//
// The guided playouts (helpmate.h) steer towards a target square and let
// the last moves fall into place; that rarely finds the mates of the minor pieces,
// where the loser's own piece must stand on the one flight square the winner leaves
// (KB v KN: Ka8, Na7, Kc7, Bb7#). Here a playout first composes such a position: the
// loser's king on an edge square it can reach, the winner's king two steps away, a
// checker, the loser's pieces on flight squares, the pawns where they stand, checked
// to be mate by the rules core (the loser's men that could answer the check moved
// elsewhere, a few times over). Then both sides walk every piece to its square in
// that position, and a small full-width search plays the last moves.
//
// True only when a mating line was played on the board; false claims nothing.

#include <array>
#include <cstdint>
#include <optional>

#include "chess/position.h"

namespace arbiter::winnability {

class TemplateHelpmates {
public:
    TemplateHelpmates(const Position& root, Color winner);
    // Makes about `budget` more positions; true once a mate was played.
    bool run(uint64_t budget);

private:
    // The square each man should reach, indexed by the square it stands on now
    // (NoSquare for none: pawns that stay, men the template has no square for). A
    // pawn that is to promote has its promotion square, and the piece it becomes
    // gets `promoted`'s square of its colour.
    struct Goals {
        std::array<Square, 64> square;
        Square promoted[2];
        PieceType promote_to[2];
    };

    bool compose(Goals& goals);
    std::optional<Position> repair(std::array<Piece, 64>& board, Bitboard used, Square t);
    bool play(Goals goals);
    int random_below(int n);

    Position root_;
    Color winner_;
    uint64_t budget_ = 0;
    uint64_t nodes_ = 0;
    uint64_t rng_;
    Bitboard targets_ = 0;
};

}  // namespace arbiter::winnability

#pragma once
// Goal-directed helpmate playouts for the winnability decider (winnability.h).
//
// After CHA's idea of deciding where the mate happens before playing for it: each
// playout picks a target square for the loser's king (a square the static sketch says
// a mate is possible on, else an edge or corner it can reach), then both sides play
// greedily down a potential: the loser's king walks to the target, the winner's king
// and pieces gather round it, pawns run to promote, and the loser's pieces stay near
// their king to plug its flight squares. Each playout varies the weights and the
// noise, so a long mate (a king walk, a promotion to a blocking piece) is found where
// a full-width search cannot reach.
//
// True only when a mating line was played on the board; false claims nothing.

#include <cstdint>

#include "chess/move.h"
#include "chess/position.h"

namespace arbiter::winnability {

// Plays guided games from `root` until one ends in a mate of `~winner`. Each run()
// makes about `budget` more positions (playouts are cut at a slice's end and the next
// run starts a new one) and is true once a mate was played.
class GuidedHelpmates {
public:
    GuidedHelpmates(const Position& root, Color winner);
    bool run(uint64_t budget);

    // Target square and weights of one playout (defined in the .cpp).
    struct Plan;

private:
    Square pick(Bitboard set);
    Plan make_plan();
    bool allows_mate(const Position& pos, Move m);
    bool play(const Plan& plan);

    Position root_;
    Color winner_;
    uint64_t budget_ = 0;
    uint64_t nodes_ = 0;
    uint64_t rng_;
    Bitboard region_ = 0, mate_squares_ = 0, edges_ = 0;
};

}  // namespace arbiter::winnability

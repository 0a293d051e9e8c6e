#pragma once
// A game: the starting position and the moves played from it, with the FIDE game
// status (Articles 5 and 9) judged on the whole history.

#include <span>
#include <string_view>
#include <vector>

#include "chess/position.h"

namespace arbiter {

// In FIDE's order of precedence. The first five end the game by themselves; the
// last two are draws a player may claim.
enum class GameStatus {
    Ongoing,
    Checkmate,
    Stalemate,
    DeadPosition,
    FivefoldRepetition,
    SeventyFiveMoveRule,
    ThreefoldRepetition,
    FiftyMoveRule,
};

// The token printed by `d`: ongoing, checkmate, stalemate, dead-position, ...
std::string_view status_token(GameStatus status);

class Game {
public:
    explicit Game(const Position& start = Position::startpos());

    const Position& position() const { return positions_.back(); }
    const Position& start() const { return positions_.front(); }
    std::span<const Move> moves() const { return moves_; }
    std::span<const Position> positions() const { return positions_; }

    // Plays a move; it must be legal in the current position.
    void play(Move m);
    // Takes back the last move (there must be one).
    void undo();

    // How often the position after `ply` moves has occurred up to and including that
    // point (FIDE 9.2.3 sameness, see Position::same_position).
    int occurrences(size_t ply) const;

    // The game's result so far. An automatic ending (checkmate, stalemate, dead
    // position, fivefold repetition, 75-move rule) at any point of the history ends
    // the game there, even if moves were played after it. Otherwise the current
    // position is checked for the claimable draws.
    //
    // Dead positions: the rules core's own test (is_dead_position) runs on every
    // position; it is cheap and incomplete. `current_dead` is a verdict from above on
    // the current position, such as the winnability decider's (src/winnability/),
    // which proves many more positions dead but costs up to tens of milliseconds:
    // every successor of a dead position is dead, so a game that went through a dead
    // position is dead now, and one verdict on the current position covers the whole
    // history. (The ply at which the game died may then be unknown; when a fivefold
    // repetition or the 75-move rule came between, either token names a draw that
    // ended the game.)
    GameStatus status(bool current_dead = false) const;

private:
    std::vector<Position> positions_;
    std::vector<Move> moves_;
};

}  // namespace arbiter

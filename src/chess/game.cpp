#include "chess/game.h"

#include "chess/dead_position.h"
#include "chess/movegen.h"

namespace arbiter {

std::string_view status_token(GameStatus status) {
    switch (status) {
    case GameStatus::Ongoing: return "ongoing";
    case GameStatus::Checkmate: return "checkmate";
    case GameStatus::Stalemate: return "stalemate";
    case GameStatus::DeadPosition: return "dead-position";
    case GameStatus::FivefoldRepetition: return "fivefold-repetition";
    case GameStatus::SeventyFiveMoveRule: return "seventy-five-move-rule";
    case GameStatus::ThreefoldRepetition: return "threefold-repetition";
    case GameStatus::FiftyMoveRule: return "fifty-move-rule";
    }
    return "ongoing";
}

Game::Game(const Position& start) : positions_{start} {}

void Game::play(Move m) {
    positions_.push_back(positions_.back().apply(m));
    moves_.push_back(m);
}

void Game::undo() {
    positions_.pop_back();
    moves_.pop_back();
}

int Game::occurrences(size_t ply) const {
    const Position& pos = positions_[ply];
    // Only positions since the last capture or pawn move can be the same; the clock
    // may reach back before the game's first position when it came from a FEN.
    const size_t window = std::min<size_t>(pos.halfmove_clock(), ply);
    int count = 1;
    for (size_t back = 2; back <= window; back += 2)
        if (positions_[ply - back].same_position(pos)) ++count;
    return count;
}

GameStatus Game::status(bool current_dead) const {
    const size_t last = positions_.size() - 1;
    for (size_t ply = 0; ply <= last; ++ply) {
        const Position& pos = positions_[ply];
        if (ply == last && !has_legal_move(pos)) return pos.in_check() ? GameStatus::Checkmate : GameStatus::Stalemate;
        if (is_dead_position(pos)) return GameStatus::DeadPosition;
        if (ply == last && current_dead) return GameStatus::DeadPosition;
        if (occurrences(ply) >= 5) return GameStatus::FivefoldRepetition;
        // FIDE 9.6.2: 75 moves by each player without capture or pawn move; a mate on
        // the last of them takes precedence (the checkmate test above came first).
        if (pos.halfmove_clock() >= 150) return GameStatus::SeventyFiveMoveRule;
    }
    if (occurrences(last) >= 3) return GameStatus::ThreefoldRepetition;
    if (positions_[last].halfmove_clock() >= 100) return GameStatus::FiftyMoveRule;
    return GameStatus::Ongoing;
}

}  // namespace arbiter

#include "syzygy/root_ranking.h"

#include <algorithm>
#include <cstdlib>

#include "chess/movegen.h"
#include "syzygy/probe.h"

namespace arbiter::syzygy {

namespace {

// What a root move leads to, for its mover.
struct MoveOutcome {
    Wdl result = Wdl::Draw;
    // Plies from the root to the next zeroing move (or mate) with best play, the
    // root move counted: at most this many. 100 more for a cursed win or blessed
    // loss.
    int plies = 0;
};

constexpr int FiftyMovePlies = 100;

// Whether some position since the last zeroing move has already occurred twice:
// the game is going round, and the next round must make progress.
bool repeated_since_zeroing(const Game& game) {
    const size_t last = game.positions().size() - 1;
    const size_t window = std::min<size_t>(size_t(game.position().halfmove_clock()), last);
    for (size_t ply = last - window; ply <= last; ++ply)
        if (game.occurrences(ply) >= 2) return true;
    return false;
}

// The outcome of a zeroing move: the child's WDL is all there is, one ply away.
std::optional<MoveOutcome> after_zeroing_move(const Tablebases& tables, const Position& child) {
    const std::optional<Wdl> wdl = probe_wdl(tables, child);
    if (!wdl) return std::nullopt;
    const Wdl mine = Wdl(-int(*wdl));
    return MoveOutcome{mine, mine == Wdl::CursedWin || mine == Wdl::BlessedLoss ? 1 + FiftyMovePlies : 1};
}

// The outcome of a move that keeps the counter running, through the child's DTZ:
// its sign and size say the result (beyond 100 a cursed one). Its distance is from
// the child's side to move: one ply more from the root, and one more again because
// a table that counts in moves can be a ply short (a mate the loser walks into
// counts as the loser's own move: -1 where it takes two plies). The plies are
// then never fewer than the game will take, so a win called sure is sure.
std::optional<MoveOutcome> after_quiet_move(const Tablebases& tables, const Position& child) {
    const std::optional<int> dtz = probe_dtz(tables, child);
    if (!dtz) return std::nullopt;
    constexpr int RoundingPly = 1;
    const int plies = std::abs(*dtz) + 1 + RoundingPly;
    const bool cursed = std::abs(*dtz) > FiftyMovePlies;
    if (*dtz > 0) return MoveOutcome{cursed ? Wdl::BlessedLoss : Wdl::Loss, plies};
    if (*dtz < 0) return MoveOutcome{cursed ? Wdl::CursedWin : Wdl::Win, plies};
    return MoveOutcome{};
}

int rank_of(const MoveOutcome& outcome, int counter, bool repeated) {
    const int spent = counter + outcome.plies;  // plies since zeroing when the next one comes
    switch (outcome.result) {
    case Wdl::Win:
    case Wdl::CursedWin:
        if (spent <= FiftyMovePlies && !repeated) return SureWinRank;
        return std::max(1, SureWinRank - spent);
    case Wdl::Loss:
    case Wdl::BlessedLoss:
        if (spent <= FiftyMovePlies) return -SureWinRank;
        return std::min(-1, -SureWinRank + spent);
    case Wdl::Draw: break;
    }
    return 0;
}

}  // namespace

std::optional<std::vector<int>> rank_root_moves(const Tablebases& tables, const Game& game,
                                                std::span<const Move> moves) {
    const int counter = game.position().halfmove_clock();
    const bool repeated = repeated_since_zeroing(game);
    Game line = game;  // each move played on a copy, for the repetition count
    std::vector<int> ranks;
    ranks.reserve(moves.size());
    for (Move m : moves) {
        line.play(m);
        const Position& child = line.position();
        const bool mates = child.in_check() && !has_legal_move(child);
        std::optional<MoveOutcome> outcome;
        if (mates) {
            outcome = MoveOutcome{Wdl::Win, 1};
        } else if (child.halfmove_clock() == 0) {
            outcome = after_zeroing_move(tables, child);
        } else if (child.halfmove_clock() >= FiftyMovePlies || line.occurrences(line.moves().size()) >= 3) {
            outcome = MoveOutcome{};  // the move lets a draw be claimed
        } else {
            outcome = after_quiet_move(tables, child);
        }
        line.undo();
        if (!outcome) return std::nullopt;
        ranks.push_back(rank_of(*outcome, counter, repeated));
    }
    return ranks;
}

std::optional<std::vector<int>> rank_root_moves_by_wdl(const Tablebases& tables, const Game& game,
                                                       std::span<const Move> moves, bool fifty_move_rule) {
    const Position& root = game.position();
    std::vector<int> ranks;
    ranks.reserve(moves.size());
    for (Move m : moves) {
        const std::optional<Wdl> wdl = probe_wdl(tables, root.apply(m));
        if (!wdl) return std::nullopt;
        int rank = 0;
        switch (Wdl(-int(*wdl))) {
        case Wdl::Win: rank = SureWinRank; break;
        // Halfway between a draw and a win the rule allows, when the rule applies.
        case Wdl::CursedWin: rank = fifty_move_rule ? SureWinRank / 2 : SureWinRank; break;
        case Wdl::Draw: rank = 0; break;
        case Wdl::BlessedLoss: rank = fifty_move_rule ? -SureWinRank / 2 : -SureWinRank; break;
        case Wdl::Loss: rank = -SureWinRank; break;
        }
        ranks.push_back(rank);
    }
    return ranks;
}

}  // namespace arbiter::syzygy

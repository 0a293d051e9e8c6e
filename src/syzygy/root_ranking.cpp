#include "syzygy/root_ranking.h"

#include "chess/movegen.h"
#include "syzygy/probe.h"

namespace arbiter::syzygy {

namespace {

// How often a position with `key` occurred in the game since its last zeroing move.
int occurrences_since_zeroing(std::span<const Position> positions, Key key, int halfmove_clock) {
    int count = 0;
    const size_t window = std::min<size_t>(size_t(halfmove_clock), positions.size() - 1);
    for (size_t back = 0; back <= window; ++back)
        if (positions[positions.size() - 1 - back].key() == key) ++count;
    return count;
}

// Whether any position since the last zeroing move occurred twice.
bool repeated_since_zeroing(const Game& game) {
    const std::span<const Position> positions = game.positions();
    const size_t window = std::min<size_t>(size_t(game.position().halfmove_clock()), positions.size() - 1);
    for (size_t i = positions.size() - 1 - window; i < positions.size(); ++i)
        for (size_t j = i + 1; j < positions.size(); ++j)
            if (positions[i].key() == positions[j].key()) return true;
    return false;
}

int rank_of(int dtz, int counter, bool repeated) {
    if (dtz > 0) return dtz + counter <= 99 && !repeated ? MaxDtz : MaxDtz - (dtz + counter);
    if (dtz < 0) return -dtz * 2 + counter < 100 ? -MaxDtz : -MaxDtz + (-dtz + counter);
    return 0;
}

} // namespace

std::optional<std::vector<int>> rank_root_moves(const Tablebases& tables, const Game& game,
                                                std::span<const Move> moves) {
    const Position& root = game.position();
    const int counter = root.halfmove_clock();
    const bool repeated = repeated_since_zeroing(game);
    std::vector<int> ranks;
    for (Move m : moves) {
        const Position child = root.apply(m);
        int dtz;
        if (child.halfmove_clock() == 0) {
            // A zeroing move: the child's WDL says it all (its DTZ restarts).
            const std::optional<Wdl> wdl = probe_wdl(tables, child);
            if (!wdl) return std::nullopt;
            switch (*wdl) {
            case Wdl::Loss: dtz = 1; break;
            case Wdl::BlessedLoss: dtz = 101; break;
            case Wdl::CursedWin: dtz = -101; break;
            case Wdl::Win: dtz = -1; break;
            default: dtz = 0;
            }
        } else if ((child.halfmove_clock() >= 100 && (!child.in_check() || has_legal_move(child))) ||
                   occurrences_since_zeroing(game.positions(), child.key(), counter) >= 2) {
            // The move draws by the fifty-move rule or a threefold repetition.
            dtz = 0;
        } else {
            const std::optional<int> child_dtz = probe_dtz(tables, child);
            if (!child_dtz) return std::nullopt;
            dtz = -*child_dtz;
            dtz += dtz > 0 ? 1 : dtz < 0 ? -1 : 0;
        }
        // A mate is a win in one ply, however the tables count it.
        if (dtz == 2 && child.in_check() && !has_legal_move(child)) dtz = 1;
        ranks.push_back(rank_of(dtz, counter, repeated));
    }
    return ranks;
}

std::optional<std::vector<int>> rank_root_moves_by_wdl(const Tablebases& tables, const Game& game,
                                                       std::span<const Move> moves, bool fifty_move_rule) {
    const Position& root = game.position();
    std::vector<int> ranks;
    for (Move m : moves) {
        const std::optional<Wdl> wdl = probe_wdl(tables, root.apply(m));
        if (!wdl) return std::nullopt;
        int value = -int(*wdl);
        if (!fifty_move_rule) value = value > 0 ? 2 : value < 0 ? -2 : 0;
        static constexpr int RankOf[5] = {-MaxDtz, -MaxDtz + 101, 0, MaxDtz - 101, MaxDtz};
        ranks.push_back(RankOf[value + 2]);
    }
    return ranks;
}

} // namespace arbiter::syzygy

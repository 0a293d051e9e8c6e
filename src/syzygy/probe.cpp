#include "syzygy/probe.h"

#include "chess/movegen.h"

namespace arbiter::syzygy {

namespace {

constexpr int LossValue = -2, WinValue = 2;

bool zeroing(const Position& pos, Move m) { return pos.is_capture(m) || type_of(pos.piece_on(m.from())) == Pawn; }

// The distance a zeroing move's result gives its mover: the move itself counts
// one ply (101 within a cursed result).
int dtz_of_zeroing(int wdl) {
    switch (wdl) {
    case 2: return 1;
    case 1: return 101;
    case -1: return -101;
    case -2: return -1;
    default: return 0;
    }
}

class Prober {
public:
    explicit Prober(const Tablebases& tables) : tables_(tables) {}

    // The WDL value of `pos` and whether the best move zeroes the fifty-move
    // counter, by alpha-beta (fail-soft, window alpha..beta) over the captures
    // (also pawn moves when `with_pawn_moves`), each child resolved the same way,
    // against the table's value for the position itself. `failed` is set when a
    // needed table is missing.
    int search(const Position& pos, int alpha, int beta, bool with_pawn_moves, bool& zeroing_best) {
        zeroing_best = false;
        MoveList moves;
        generate<GenKind::All>(pos, moves);
        int best = LossValue - 1;
        size_t searched = 0;
        for (Move m : moves) {
            if (!pos.is_capture(m) && !(with_pawn_moves && type_of(pos.piece_on(m.from())) == Pawn)) continue;
            ++searched;
            bool ignored = false;
            const int value = -search(pos.apply(m), -beta, -std::max(alpha, best), false, ignored);
            if (failed_) return 0;
            if (value > best) {
                best = value;
                if (value >= beta) {
                    zeroing_best = true;
                    return value;
                }
            }
        }
        // When every legal move was searched, the table is not needed (and may be
        // wrong: it ignores an en passant right, the only move in some positions).
        const bool all_searched = searched > 0 && searched == moves.size();
        int stored = best;
        if (!all_searched) {
            const std::optional<int> value = wdl_table(pos);
            if (!value) {
                failed_ = true;
                return 0;
            }
            stored = *value;
        }
        if (best >= stored) {
            zeroing_best = best > 0 || all_searched;
            return best;
        }
        return stored;
    }

    int wdl(const Position& pos) {
        bool zeroing_best = false;
        return search(pos, LossValue - 1, WinValue, false, zeroing_best);
    }

    // See probe_dtz. `other_side_allowed`: the DTZ table may store the other side to
    // move, answered by a search of one ply (whose children are then stored).
    int dtz(const Position& pos, bool other_side_allowed = true) {
        bool zeroing_best = false;
        const int wdl = search(pos, LossValue - 1, WinValue, true, zeroing_best);
        if (failed_ || wdl == 0) return 0;
        // Where a zeroing move is best the table holds no useful distance.
        if (zeroing_best) return dtz_of_zeroing(wdl);

        const TableValue stored = dtz_table(pos, wdl);
        if (stored.status == TableValue::Failed) {
            failed_ = true;
            return 0;
        }
        if (stored.status == TableValue::Ok) {
            const int distance = stored.value + (wdl == 1 || wdl == -1 ? 100 : 0);
            return wdl > 0 ? distance : -distance;
        }
        if (!other_side_allowed) {
            failed_ = true;
            return 0;
        }
        // The table stores the other side to move: one ply, keeping the best
        // distance of the same sign as the result (wins shortest, losses too, as
        // the table would: the loser's best move is then the longest, and with the
        // sign that is the smallest value).
        int best = 0xFFFF;
        MoveList moves;
        generate<GenKind::All>(pos, moves);
        for (Move m : moves) {
            const Position child = pos.apply(m);
            int value;
            if (zeroing(pos, m)) {
                value = -dtz_of_zeroing(wdl_search_child(child));
            } else {
                value = -dtz(child, false);
                if (value == 1 && child.in_check() && !has_legal_move(child)) best = 1;  // mate
                value += value > 0 ? 1 : value < 0 ? -1 : 0;
            }
            if (failed_) return 0;
            if (value < best && (value > 0) == (wdl > 0) && value != 0) best = value;
        }
        return best == 0xFFFF ? -1 : best;
    }

    bool failed() const { return failed_; }

private:
    int wdl_search_child(const Position& child) {
        bool zeroing_best = false;
        return search(child, LossValue - 1, WinValue, false, zeroing_best);
    }

    std::optional<int> wdl_table(const Position& pos) const {
        if (popcount(pos.occupied()) == 2) return 0;  // two bare kings
        const TablePair* pair = tables_.find(material_key(pos));
        if (!pair) return std::nullopt;
        const TableValue v = pair->wdl->probe(pos);
        if (v.status != TableValue::Ok) return std::nullopt;
        return v.value;
    }

    TableValue dtz_table(const Position& pos, int wdl) const {
        const TablePair* pair = tables_.find(material_key(pos));
        if (!pair || !pair->dtz) return {TableValue::Failed, 0};
        return pair->dtz->probe(pos, wdl);
    }

    const Tablebases& tables_;
    bool failed_ = false;
};

bool probeable(const Tablebases& tables, const Position& pos) {
    return !tables.empty() && pos.castling_rights() == 0 && popcount(pos.occupied()) <= tables.max_pieces();
}

} // namespace

std::optional<Wdl> probe_wdl(const Tablebases& tables, const Position& pos) {
    if (!probeable(tables, pos)) return std::nullopt;
    Prober prober(tables);
    const int value = prober.wdl(pos);
    if (prober.failed()) return std::nullopt;
    return Wdl(value);
}

std::optional<int> probe_dtz(const Tablebases& tables, const Position& pos) {
    if (!probeable(tables, pos)) return std::nullopt;
    Prober prober(tables);
    const int value = prober.dtz(pos);
    if (prober.failed()) return std::nullopt;
    return value;
}

const char* wdl_token(Wdl wdl) {
    switch (wdl) {
    case Wdl::Loss: return "loss";
    case Wdl::BlessedLoss: return "blessed-loss";
    case Wdl::Draw: return "draw";
    case Wdl::CursedWin: return "cursed-win";
    case Wdl::Win: return "win";
    }
    return "?";
}

} // namespace arbiter::syzygy

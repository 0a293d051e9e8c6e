#include "syzygy/probe.h"

#include <algorithm>

#include "chess/movegen.h"

namespace arbiter::syzygy {

namespace {

// WDL values as numbers: -2 loss ... 2 win, negated when the side to move changes.
constexpr int LossScore = int(Wdl::Loss), WinScore = int(Wdl::Win);

bool is_cursed(int wdl) { return wdl == int(Wdl::CursedWin) || wdl == int(Wdl::BlessedLoss); }

// The moves that reset the fifty-move counter: the ones whose results the tables
// may leave out (captures) or store nowhere useful (both, for DTZ).
enum class ZeroingMoves { Captures, CapturesAndPawnMoves };

bool is_zeroing(const Position& pos, Move m, ZeroingMoves which) {
    if (pos.is_capture(m)) return true;
    return which == ZeroingMoves::CapturesAndPawnMoves && type_of(pos.piece_on(m.from())) == Pawn;
}

// A bound-limited question to `resolve`: only whether the value is at most `low`,
// at least `high`, or exactly what in between.
struct Window {
    int low, high;
    Window flipped_above(int floor) const { return {-high, -std::max(low, floor)}; }
};
constexpr Window FullWindow{LossScore - 1, WinScore};

// A position's WDL value and what settled it. Where a zeroing move did, the DTZ
// table's entry for the position is no answer (the generator may store anything
// there) and the distance is the one ply of that move; where the rules did (no
// legal move), the position is checkmate or stalemate.
enum class SettledBy { Rules, ZeroingMove, Table };
struct Resolution {
    int wdl = 0;
    SettledBy by = SettledBy::Table;
};

// A distance to zeroing, as the mover sees it: the result and the plies until the
// next capture or pawn move with best play (that move included). Without the 100
// the DTZ50 convention adds for cursed results: `wdl` says which kind it is.
struct Distance {
    int wdl = 0;
    int plies = 0;

    int as_dtz50() const {
        if (wdl == 0) return 0;
        const int magnitude = plies + (is_cursed(wdl) ? 100 : 0);
        return wdl > 0 ? magnitude : -magnitude;
    }
};

// All lookups of one probe. Every function answers nullopt when a table it needs
// is missing or damaged, and the whole probe then has no answer.
class Resolver {
public:
    explicit Resolver(const Tablebases& tables) : tables_(tables) {}

    // The value of `pos` within `window` (fail-soft: beyond the window, a bound on
    // that side). It is the better of two things: the best zeroing move's result,
    // each child resolved the same way, and the WDL table's entry. The entry is the
    // position's value where no capture beats the other moves, and otherwise at most
    // the best capture's result, so taking the better of the two is always exact.
    std::optional<Resolution> resolve(const Position& pos, Window window, ZeroingMoves which) {
        MoveList moves;
        generate<GenKind::All>(pos, moves);
        // Case 1: no move at all. The rules decide; no table is read.
        if (moves.size() == 0) return Resolution{pos.in_check() ? LossScore : 0, SettledBy::Rules};

        // Case 2: the zeroing moves, searched with the window narrowing as they
        // improve; one that reaches the window's top settles the question.
        int best = LossScore - 1;
        size_t zeroing_count = 0;
        for (Move m : moves) {
            if (!is_zeroing(pos, m, which)) continue;
            ++zeroing_count;
            const std::optional<Resolution> child =
                resolve(pos.apply(m), window.flipped_above(best), ZeroingMoves::Captures);
            if (!child) return std::nullopt;
            best = std::max(best, -child->wdl);
            if (best >= window.high) return Resolution{best, SettledBy::ZeroingMove};
        }

        // Case 3: every legal move zeroes. The search above saw them all, and the
        // table is not consulted: its entry assumes no en passant right, and an en
        // passant capture may be the only legal move.
        if (zeroing_count == moves.size()) return Resolution{best, SettledBy::ZeroingMove};

        // Case 4: quiet moves exist; the table has the value unless a zeroing move
        // does better. A zeroing move that wins (cursed or not) as well as the table
        // says is also the fastest route to zeroing; a drawing or losing one is not
        // known to be the best defence, so the distance then comes from the table.
        const std::optional<int> stored = stored_wdl(pos);
        if (!stored) return std::nullopt;
        if (best >= *stored) return Resolution{best, best > 0 ? SettledBy::ZeroingMove : SettledBy::Table};
        return Resolution{*stored, SettledBy::Table};
    }

    // The distance of `pos` (see probe_dtz). `may_look_one_ply`: when the DTZ table
    // holds only the other side to move, the children (which it does hold) give it.
    std::optional<Distance> distance(const Position& pos, bool may_look_one_ply) {
        // A draw is 0 whatever the pawn moves lead to: the WDL value (captures
        // resolved) says so without the tables that promotions reach.
        const std::optional<Resolution> value = resolve(pos, FullWindow, ZeroingMoves::Captures);
        if (!value) return std::nullopt;
        if (value->wdl == 0) return Distance{0, 0};
        const std::optional<Resolution> here = resolve(pos, FullWindow, ZeroingMoves::CapturesAndPawnMoves);
        if (!here) return std::nullopt;
        if (here->wdl == 0) return Distance{0, 0};
        // Where a zeroing move is best, it is the one ply; checkmate counts as a loss
        // one ply from zeroing (DTZ -1, as the tables' convention has it).
        if (here->by != SettledBy::Table) return Distance{here->wdl, 1};

        const TablePair* pair = tables_.find(material_key(pos));
        if (!pair || !pair->dtz) return std::nullopt;
        const TableValue stored = pair->dtz->probe(pos, here->wdl);
        switch (stored.status) {
        case TableValue::Ok: return Distance{here->wdl, stored.value};
        case TableValue::Failed: return std::nullopt;
        case TableValue::OtherSideToMove: break;
        }
        if (!may_look_one_ply) return std::nullopt;
        return distance_from_children(pos, here->wdl);
    }

private:
    // One ply: each move's distance for the mover, and among the moves that keep
    // the position's result, the winner's shortest or the loser's longest.
    std::optional<Distance> distance_from_children(const Position& pos, int wdl) {
        MoveList moves;
        generate<GenKind::All>(pos, moves);
        std::optional<int> chosen_plies;
        for (Move m : moves) {
            const Position child = pos.apply(m);
            Distance through;
            if (child.in_check() && !has_legal_move(child)) {
                through = {WinScore, 1};
            } else if (is_zeroing(pos, m, ZeroingMoves::CapturesAndPawnMoves)) {
                const std::optional<Resolution> after = resolve(child, FullWindow, ZeroingMoves::Captures);
                if (!after) return std::nullopt;
                through = {-after->wdl, 1};
            } else {
                const std::optional<Distance> after = distance(child, false);
                if (!after) return std::nullopt;
                through = {-after->wdl, after->plies + 1};
            }
            if (through.wdl != wdl) continue;
            if (!chosen_plies) chosen_plies = through.plies;
            else if (wdl > 0) chosen_plies = std::min(*chosen_plies, through.plies);
            else chosen_plies = std::max(*chosen_plies, through.plies);
        }
        // Some move keeps the result, or the tables contradict each other.
        if (!chosen_plies) return std::nullopt;
        return Distance{wdl, *chosen_plies};
    }

    std::optional<int> stored_wdl(const Position& pos) const {
        // Bare kings have no table of their own.
        if (popcount(pos.occupied()) == 2) return 0;
        const TablePair* pair = tables_.find(material_key(pos));
        if (!pair) return std::nullopt;
        const TableValue v = pair->wdl->probe(pos);
        if (v.status != TableValue::Ok) return std::nullopt;
        return v.value;
    }

    const Tablebases& tables_;
};

bool within_tables(const Tablebases& tables, const Position& pos) {
    return !tables.empty() && pos.castling_rights() == 0 && popcount(pos.occupied()) <= tables.max_pieces();
}

}  // namespace

std::optional<Wdl> probe_wdl(const Tablebases& tables, const Position& pos) {
    if (!within_tables(tables, pos)) return std::nullopt;
    const std::optional<Resolution> r = Resolver(tables).resolve(pos, FullWindow, ZeroingMoves::Captures);
    if (!r) return std::nullopt;
    return Wdl(r->wdl);
}

std::optional<int> probe_dtz(const Tablebases& tables, const Position& pos) {
    if (!within_tables(tables, pos)) return std::nullopt;
    const std::optional<Distance> d = Resolver(tables).distance(pos, true);
    if (!d) return std::nullopt;
    return d->as_dtz50();
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

}  // namespace arbiter::syzygy

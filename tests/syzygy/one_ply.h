#pragma once
// The one-ply check the Syzygy tests share: a position's probed WDL and DTZ must
// agree with one ply of search over its children's probes. A win needs a move to a
// lost child (or a winning zeroing move) with its DTZ one less; a loss needs every
// move to lose, the longest resistance giving its DTZ; a draw needs a drawing move
// and no winning one. A capture or a promotion leads to another table (a smaller one,
// or for a promotion a pawnless one), so a table is checked against its neighbours.

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.h"
#include "chess/movegen.h"
#include "syzygy/probe.h"
#include "syzygy/tablebases.h"

namespace arbiter::test {

// The class of a move's result from the mover's view, from its DTZ-like value:
// wins within the fifty-move rule, cursed wins beyond it, and so on.
inline syzygy::Wdl class_of(int v) {
    using syzygy::Wdl;
    if (v > 100) return Wdl::CursedWin;
    if (v > 0) return Wdl::Win;
    if (v == 0) return Wdl::Draw;
    if (v >= -100) return Wdl::Loss;
    return Wdl::BlessedLoss;
}

// Empty if pos's probes agree with its children's; otherwise what disagrees.
// nullopt when some child is outside the tables used here.
inline std::optional<std::string> check_one_ply(const syzygy::Tablebases& tables, const Position& pos) {
    using syzygy::Wdl;
    const std::optional<Wdl> wdl = syzygy::probe_wdl(tables, pos);
    const std::optional<int> dtz = syzygy::probe_dtz(tables, pos);
    if (!wdl || !dtz) return std::nullopt;

    // Each move's value for the mover in DTZ units, counted from `pos`.
    std::vector<int> values;
    bool zeroing_win = false;
    for (Move m : legal_moves(pos)) {
        const Position child = pos.apply(m);
        int v;
        if (child.halfmove_clock() == 0) {
            const std::optional<Wdl> cw = syzygy::probe_wdl(tables, child);
            if (!cw) return std::nullopt;
            constexpr int Zeroing[5] = {1, 101, 0, -101, -1};  // by the child's wdl + 2
            v = Zeroing[int(*cw) + 2];
            zeroing_win |= v == 1;
        } else {
            const std::optional<int> cd = syzygy::probe_dtz(tables, child);
            if (!cd) return std::nullopt;
            v = -*cd;
            v += v > 0 ? 1 : v < 0 ? -1 : 0;
            if (child.in_check() && !has_legal_move(child)) v = 1;  // mate
        }
        values.push_back(v);
    }

    std::ostringstream problem;
    problem << pos.fen() << ": wdl " << syzygy::wdl_token(*wdl) << " dtz " << *dtz << " moves";
    for (int v : values) problem << ' ' << v;

    Wdl best = pos.in_check() ? Wdl::Loss : Wdl::Draw;  // no legal move: mate or stalemate
    if (!values.empty()) {
        best = Wdl::Loss;
        for (int v : values) best = std::max(best, class_of(v));
    }
    if (best != *wdl) return problem.str() + " (WDL disagrees with the children)";

    if (*wdl == Wdl::Draw) return *dtz == 0 ? std::string() : problem.str() + " (a draw has DTZ 0)";
    if (*wdl == Wdl::Win || *wdl == Wdl::CursedWin) {
        if (zeroing_win) return *dtz == 1 ? std::string() : problem.str() + " (a winning zeroing move: DTZ 1)";
        int shortest = 1 << 20;
        for (int v : values)
            if (v > 0) shortest = std::min(shortest, v);
        // A table may count in moves: its distances can be one ply long.
        return std::abs(*dtz - shortest) <= 1 ? std::string() : problem.str() + " (DTZ is not the best child's + 1)";
    }
    if (values.empty()) return *dtz == -1 ? std::string() : problem.str() + " (checkmate has DTZ -1)";
    int longest = 0;
    for (int v : values) longest = std::min(longest, v);
    return std::abs(*dtz - longest) <= 1 ? std::string() : problem.str() + " (DTZ is not the longest defence's)";
}

}  // namespace arbiter::test

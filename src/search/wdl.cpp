#include "search/wdl.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "syzygy/probe.h"

namespace arbiter::search {

namespace {

constexpr int FiftyMovePlies = 100;

double polynomial(const double (&c)[4], double x) { return ((c[0] * x + c[1]) * x + c[2]) * x + c[3]; }

int per_mille(double probability) { return int(std::lround(1000 * probability)); }

// The tables' verdict on `pos`, from its side to move's point of view.
std::optional<Wdl> tablebase_wdl(const syzygy::Tablebases& tables, const Position& pos, bool fifty_move_rule) {
    const std::optional<syzygy::Wdl> wdl = syzygy::probe_wdl(tables, pos);
    if (!wdl) return std::nullopt;
    switch (*wdl) {
    case syzygy::Wdl::Draw: return CertainDraw;
    case syzygy::Wdl::CursedWin: return fifty_move_rule ? CertainDraw : CertainWin;
    case syzygy::Wdl::BlessedLoss: return fifty_move_rule ? CertainDraw : CertainLoss;
    case syzygy::Wdl::Win:
    case syzygy::Wdl::Loss: break;
    }
    const Wdl decided = *wdl == syzygy::Wdl::Win ? CertainWin : CertainLoss;
    if (!fifty_move_rule || pos.halfmove_clock() == 0) return decided;
    // Plies already on the clock can turn a table win into a draw. A DTZ that may be a
    // ply off (syzygy/probe.h) is trusted only with a ply to spare.
    const std::optional<int> dtz = syzygy::probe_dtz(tables, pos);
    if (dtz && pos.halfmove_clock() + std::abs(*dtz) < FiftyMovePlies) return decided;
    return std::nullopt;
}

}  // namespace

int wdl_material(const Position& pos) {
    return popcount(pos.pieces(Pawn)) + 3 * popcount(pos.pieces(Knight) | pos.pieces(Bishop)) +
           5 * popcount(pos.pieces(Rook)) + 9 * popcount(pos.pieces(Queen));
}

Wdl wdl_of(Score score, int material) {
    if (is_decisive(score)) return score > 0 ? CertainWin : CertainLoss;
    const double x = std::clamp(material, WdlMinMaterial, WdlMaxMaterial) / WdlNormalisingMaterial;
    const double a = polynomial(WdlA, x), b = polynomial(WdlB, x);
    const int win = per_mille(1 / (1 + std::exp((a - score) / b)));
    const int loss = per_mille(1 / (1 + std::exp((a + score) / b)));
    return {win, 1000 - win - loss, loss};
}

std::optional<Wdl> proven_wdl(const Game& game, const syzygy::Tablebases& tables, bool fifty_move_rule) {
    switch (game.status()) {
    case GameStatus::Checkmate: return CertainLoss;
    case GameStatus::Stalemate:
    case GameStatus::DeadPosition:
    case GameStatus::FivefoldRepetition:
    case GameStatus::SeventyFiveMoveRule: return CertainDraw;
    // Claimable draws end the game only when claimed: the game may go on.
    case GameStatus::ThreefoldRepetition:
    case GameStatus::FiftyMoveRule:
    case GameStatus::Ongoing: break;
    }
    return tablebase_wdl(tables, game.position(), fifty_move_rule);
}

Wdl line_wdl(const Game& root, Score score, Move first, const syzygy::Tablebases& tables, bool fifty_move_rule) {
    if (first.is_null()) {
        if (const std::optional<Wdl> known = proven_wdl(root, tables, fifty_move_rule)) return *known;
    } else {
        Game after = root;
        after.play(first);
        if (const std::optional<Wdl> known = proven_wdl(after, tables, fifty_move_rule)) return known->flipped();
    }
    return wdl_of(score, wdl_material(root.position()));
}

}  // namespace arbiter::search

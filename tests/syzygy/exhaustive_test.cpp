// Every position of KQvK, KRvK and KPvK (both sides to move, both colour orders)
// probed against a solver written here: value iteration over the whole game graph
// built with the rules core's move generator. Three-piece endings have no cursed
// wins or blessed losses (every win zeroes or mates well within fifty moves), so
// the solver's plain win/draw/loss must be the tables' value exactly.

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "test_support.h"
#include "chess/movegen.h"
#include "syzygy/probe.h"
#include "syzygy/tablebases.h"

using namespace arbiter;
using syzygy::Wdl;

namespace {

const std::string TableFolder = std::string(ARBITER_TEST_DATA) + "/syzygy";

// Index of (white king, white piece, black king, side to move).
size_t index_of(Square wk, Square piece, Square bk, Color stm) {
    return ((size_t(wk) * 64 + piece) * 64 + bk) * 2 + stm;
}
constexpr size_t IndexCount = 64 * 64 * 64 * 2;

std::string fen_of(Square wk, PieceType type, Square piece, Square bk, Color stm, bool colours_swapped) {
    char board[64];
    for (char& c : board) c = 0;
    constexpr std::string_view Letters = "PNBRQK";
    // Swapped: Black owns the extra piece, on the board turned upside down.
    const auto put = [&](Square s, PieceType t, Color c) {
        const Square at = colours_swapped ? flip_rank(s) : s;
        const Color colour = colours_swapped ? ~c : c;
        board[at] = colour == White ? Letters[t] : char(Letters[t] + 32);
    };
    put(wk, King, White);
    put(piece, type, White);
    put(bk, King, Black);
    std::string fen = test::board_fen(board);
    const Color side = colours_swapped ? ~stm : stm;
    fen += side == White ? " w - - 0 1" : " b - - 0 1";
    return fen;
}

// The solved value of every position of K + `type` v K with the piece White's,
// from the side to move's view: 2 win, 0 draw, -2 loss; 1 marks an illegal index.
// `promoted` gives the solved tables a pawn promotes into (queen, rook).
std::vector<int8_t> solve(PieceType type, const std::vector<int8_t>* queen, const std::vector<int8_t>* rook) {
    constexpr int8_t Unknown = 3, Illegal = 1;
    std::vector<int8_t> value(IndexCount, Illegal);
    // Successors: an index into `value`, or a fixed value from the child's view
    // (encoded as a negative number: -1 - (value + 2)).
    std::vector<std::vector<int32_t>> children(IndexCount);
    for (int wk = 0; wk < 64; ++wk)
        for (int p = 0; p < 64; ++p)
            for (int bk = 0; bk < 64; ++bk)
                for (Color stm : {White, Black}) {
                    if (wk == p || wk == bk || p == bk) continue;
                    if (type == Pawn && (rank_of(Square(p)) == Rank1 || rank_of(Square(p)) == Rank8)) continue;
                    const FenResult parsed = Position::from_fen(
                        fen_of(Square(wk), type, Square(p), Square(bk), stm, false), false, FenCheck::Playable);
                    if (!parsed.position) continue;
                    const Position& pos = *parsed.position;
                    const size_t at = index_of(Square(wk), Square(p), Square(bk), stm);
                    const MoveList moves = legal_moves(pos);
                    if (moves.size() == 0) {
                        value[at] = pos.in_check() ? -2 : 0;
                        continue;
                    }
                    value[at] = Unknown;
                    for (Move m : moves) {
                        const Position child = pos.apply(m);
                        const Bitboard extra = child.pieces(White) & ~child.pieces(White, King);
                        if (!extra) {
                            children[at].push_back(-1 - 2);  // bare kings: a draw
                            continue;
                        }
                        const Square s = lsb(extra);
                        const PieceType t = type_of(child.piece_on(s));
                        const size_t child_index =
                            index_of(child.king_square(White), s, child.king_square(Black), child.side_to_move());
                        if (t == type) children[at].push_back(int32_t(child_index));
                        else if (t == Queen) children[at].push_back(-1 - ((*queen)[child_index] + 2));
                        else if (t == Rook) children[at].push_back(-1 - ((*rook)[child_index] + 2));
                        else children[at].push_back(-1 - 2);  // a lone minor piece cannot win
                    }
                }
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t at = 0; at < IndexCount; ++at) {
            if (value[at] != Unknown) continue;
            bool all_children_win = true, some_child_loses = false;
            for (int32_t c : children[at]) {
                const int v = c >= 0 ? value[size_t(c)] : -1 - c - 2;
                if (v == -2) some_child_loses = true;
                if (v != 2) all_children_win = false;
            }
            if (some_child_loses) value[at] = 2;
            else if (all_children_win) value[at] = -2;
            else continue;
            changed = true;
        }
    }
    for (int8_t& v : value)
        if (v == Unknown) v = 0;
    return value;
}

// Probes every legal position of the solved table, in both colour orders.
void compare(const syzygy::Tablebases& tables, PieceType type, const std::vector<int8_t>& solved) {
    size_t positions = 0, mismatches = 0;
    for (int wk = 0; wk < 64; ++wk)
        for (int p = 0; p < 64; ++p)
            for (int bk = 0; bk < 64; ++bk)
                for (Color stm : {White, Black}) {
                    const int8_t expected = solved[index_of(Square(wk), Square(p), Square(bk), stm)];
                    if (expected == 1) continue;
                    for (bool swapped : {false, true}) {
                        const std::string fen = fen_of(Square(wk), type, Square(p), Square(bk), stm, swapped);
                        const Position pos = *Position::from_fen(fen, false, FenCheck::Playable).position;
                        const std::optional<Wdl> probed = syzygy::probe_wdl(tables, pos);
                        ++positions;
                        if (!probed || int(*probed) != expected) {
                            if (++mismatches <= 5)
                                FAIL_CHECK(fen << ": table " << (probed ? syzygy::wdl_token(*probed) : "none")
                                               << ", solver " << int(expected));
                        }
                    }
                }
    INFO(positions << " positions probed");
    CHECK(positions > 100000);
    CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("every KQvK, KRvK and KPvK position matches a brute-force solver", "[syzygy][slow]") {
    syzygy::Tablebases tables;
    REQUIRE(tables.load(TableFolder).tables > 0);
    const std::vector<int8_t> queen = solve(Queen, nullptr, nullptr);
    const std::vector<int8_t> rook = solve(Rook, nullptr, nullptr);
    const std::vector<int8_t> pawn = solve(Pawn, &queen, &rook);
    compare(tables, Queen, queen);
    compare(tables, Rook, rook);
    compare(tables, Pawn, pawn);
}

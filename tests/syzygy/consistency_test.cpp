// Sampled four-piece positions: each probed WDL and DTZ must agree with one ply of
// search over the children's probes (tests/syzygy/one_ply.h). Covers captures,
// promotions (children in other tables) and en passant (positions built with a
// capturable double step).

#include <catch2/catch.hpp>

#include <cstdlib>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include "random_position.h"
#include "test_support.h"
#include "syzygy/one_ply.h"
#include "chess/movegen.h"
#include "syzygy/probe.h"
#include "syzygy/tablebases.h"

using namespace arbiter;
using syzygy::Wdl;
using test::check_one_ply;
using test::random_position;

namespace {

const std::string TableFolder = std::string(ARBITER_TEST_DATA) + "/syzygy";

}  // namespace

TEST_CASE("sampled four-piece WDL and DTZ agree with one ply of search", "[syzygy]") {
    syzygy::Tablebases tables;
    REQUIRE(tables.load(TableFolder).tables > 0);
    std::mt19937 rng(20261125);
    const char* materials[] = {"KQvKR", "KRvKQ", "KPvKP", "KQvKP", "KpvKQ", "KBNvK", "KvKBN", "KRPvK", "KPPvK"};
    for (const char* material : materials) {
        // "Kp": a black pawn beside the white king's side (KQvKP with colours swapped).
        std::string spec = material;
        if (spec == "KpvKQ") spec = "KPvKQ";
        int checked = 0, wins = 0, losses = 0, draws = 0;
        for (int attempt = 0; attempt < 4000 && checked < 400; ++attempt) {
            const std::optional<Position> pos = random_position(spec, rng);
            if (!pos) continue;
            const std::optional<std::string> problem = check_one_ply(tables, *pos);
            if (!problem) continue;
            ++checked;
            INFO(material);
            CHECK(*problem == "");
            const Wdl w = *syzygy::probe_wdl(tables, *pos);
            (w > Wdl::Draw ? wins : w < Wdl::Draw ? losses : draws)++;
        }
        INFO(material << ": " << checked << " positions, " << wins << " wins, " << draws << " draws, " << losses
                      << " losses");
        CHECK(checked >= 200);
        CHECK(wins + losses > 0);
    }
}

TEST_CASE("en passant: positions right after a double step agree with one ply", "[syzygy]") {
    syzygy::Tablebases tables;
    REQUIRE(tables.load(TableFolder).tables > 0);
    std::mt19937 rng(5);
    int checked = 0, with_en_passant = 0;
    for (int attempt = 0; attempt < 20000 && checked < 300; ++attempt) {
        // White pawn on rank 5, a black pawn just arrived beside it from rank 7 (or
        // the same for Black on rank 4), kings anywhere else.
        const bool white_captures = rng() & 1;
        const int file = int(rng() % 8);
        const int side = file == 0 ? 1 : file == 7 ? -1 : (rng() & 1) ? 1 : -1;
        const int rank = white_captures ? 4 : 3;
        char board[64] = {};
        const int capturer = rank * 8 + file, pushed = rank * 8 + file + side;
        board[capturer] = white_captures ? 'P' : 'p';
        board[pushed] = white_captures ? 'p' : 'P';
        // The squares the double step passed must be empty.
        const int passed = pushed + (white_captures ? 8 : -8), start = pushed + (white_captures ? 16 : -16);
        int k1, k2;
        do k1 = int(rng() % 64);
        while (board[k1] || k1 == passed || k1 == start);
        board[k1] = 'K';
        do k2 = int(rng() % 64);
        while (board[k2] || k2 == passed || k2 == start);
        board[k2] = 'k';
        const char ep_file = char('a' + file + side);
        const std::string fen = test::board_fen(board) + (white_captures ? " w - " : " b - ") + ep_file +
                                (white_captures ? "6" : "3") + " 0 1";
        const FenResult parsed = Position::from_fen(fen, false, FenCheck::Playable);
        if (!parsed.position) continue;
        const std::optional<std::string> problem = check_one_ply(tables, *parsed.position);
        if (!problem) continue;
        ++checked;
        with_en_passant += parsed.position->ep_square() != NoSquare;
        CHECK(*problem == "");
    }
    CHECK(checked >= 200);
    CHECK(with_en_passant >= 100);
}

TEST_CASE("en passant changes a table's verdict where it is the saving capture", "[syzygy]") {
    syzygy::Tablebases tables;
    REQUIRE(tables.load(TableFolder).tables > 0);
    // Black has just played c7-c5. Without the capture b5xc6 the black pawn runs and
    // queens with the white king far away; the capture leaves White a won KPvK.
    const Position with_ep = *Position::from_fen("8/8/8/1Pp5/8/8/k7/7K w - c6 0 2").position;
    const Position without = *Position::from_fen("8/8/8/1Pp5/8/8/k7/7K w - - 0 2").position;
    REQUIRE(with_ep.ep_square() == C6);
    const std::optional<Wdl> a = syzygy::probe_wdl(tables, with_ep);
    const std::optional<Wdl> b = syzygy::probe_wdl(tables, without);
    REQUIRE(a);
    REQUIRE(b);
    // The capture is the winning move, available only with the right: the table
    // (which knows no en passant) says draw, the probe must say win, zeroing now.
    const Position after = with_ep.apply(Move(B5, C6, Move::EnPassant));
    const std::optional<Wdl> child = syzygy::probe_wdl(tables, after);
    REQUIRE(child);
    CHECK(*child == Wdl::Loss);
    CHECK(*a == Wdl::Win);
    CHECK(*b == Wdl::Draw);
    CHECK(syzygy::probe_dtz(tables, with_ep) == 1);
    CHECK(syzygy::probe_dtz(tables, without) == 0);
    CHECK(*check_one_ply(tables, with_ep) == "");
    CHECK(*check_one_ply(tables, without) == "");
}

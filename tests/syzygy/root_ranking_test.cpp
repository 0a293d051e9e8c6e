// Ranking root moves by DTZ: winning moves above drawing ones above losing ones,
// the fifty-move counter and repetitions taken into account.

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>

#include "test_support.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "syzygy/probe.h"
#include "syzygy/root_ranking.h"

using namespace arbiter;
using syzygy::SureWinRank;
using syzygy::Wdl;

namespace {

const std::string TableFolder = std::string(ARBITER_TEST_DATA) + "/syzygy";

Position parse(const std::string& fen) { return *Position::from_fen(fen, false, FenCheck::Playable).position; }

std::vector<Move> moves_of(const Position& pos) {
    const MoveList list = legal_moves(pos);
    return {list.begin(), list.end()};
}

int sign(int x) { return (x > 0) - (x < 0); }

// A KQvKR position, White to move and winning, whose DTZ is at least `minimum`.
Position long_kqkr_win(const syzygy::Tablebases& tables, int minimum) {
    std::mt19937 rng(7);
    for (;;) {
        char board[64] = {};
        for (char c : std::string("KQkr")) {
            int s;
            do s = int(rng() % 64);
            while (board[s]);
            board[s] = c;
        }
        const std::string fen = test::board_fen(board);
        const FenResult parsed = Position::from_fen(fen + " w - - 0 1", false, FenCheck::Playable);
        if (!parsed.position) continue;
        const std::optional<int> dtz = syzygy::probe_dtz(tables, *parsed.position);
        if (dtz && *dtz >= minimum && *dtz < 90) return *parsed.position;
    }
}

Position with_counter(const Position& pos, int counter) {
    std::string fen = pos.fen();
    fen = fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1)) + " " + std::to_string(counter) + " 60";
    return parse(fen);
}

}  // namespace

TEST_CASE("root ranks have the sign of each move's tablebase result", "[syzygy]") {
    syzygy::Tablebases tables;
    REQUIRE(tables.load(TableFolder).tables > 0);
    for (const std::string fen :
         {"8/8/8/4k3/8/8/8/KQ4r1 w - - 0 1", "4k3/8/8/8/8/8/8/3QK2r w - - 0 1", "8/8/8/8/3k4/8/3P4/3K4 b - - 0 1",
          "8/8/8/1Pp5/8/8/k7/7K w - c6 0 2", "8/2k5/8/8/8/8/8/KBN5 w - - 0 1", "8/8/8/8/8/1k6/3p4/K7 w - - 0 1"}) {
        INFO(fen);
        const Game game(parse(fen));
        const std::vector<Move> moves = moves_of(game.position());
        const std::optional<std::vector<int>> ranks = syzygy::rank_root_moves(tables, game, moves);
        REQUIRE(ranks);
        REQUIRE(ranks->size() == moves.size());
        for (size_t i = 0; i < moves.size(); ++i) {
            INFO(to_uci(moves[i], false) << " rank " << (*ranks)[i]);
            const std::optional<Wdl> child = syzygy::probe_wdl(tables, game.position().apply(moves[i]));
            REQUIRE(child);
            CHECK(sign((*ranks)[i]) == -sign(int(*child)));
            // No four-piece win needs more than the fifty moves from a zero counter.
            if ((*ranks)[i] > 0) CHECK((*ranks)[i] == SureWinRank);
        }
        // The WDL ranking agrees on the order of results.
        const std::optional<std::vector<int>> by_wdl = syzygy::rank_root_moves_by_wdl(tables, game, moves, true);
        REQUIRE(by_wdl);
        for (size_t i = 0; i < moves.size(); ++i) CHECK(sign((*by_wdl)[i]) == sign((*ranks)[i]));
    }
}

TEST_CASE("the fifty-move counter turns a long win into a draw-ranked one", "[syzygy]") {
    syzygy::Tablebases tables;
    REQUIRE(tables.load(TableFolder).tables > 0);
    const Position start = long_kqkr_win(tables, 20);
    const int dtz = *syzygy::probe_dtz(tables, start);
    INFO(start.fen() << " dtz " << dtz);
    const auto best_rank = [&](int counter) {
        const Game game(with_counter(start, counter));
        const std::optional<std::vector<int>> ranks = syzygy::rank_root_moves(tables, game, moves_of(game.position()));
        REQUIRE(ranks);
        return *std::max_element(ranks->begin(), ranks->end());
    };
    // Enough moves left (a ply of slack for tables counting in moves): a sure win.
    CHECK(best_rank(99 - dtz - 2) == SureWinRank);
    CHECK(best_rank(99 - dtz - 2) >= syzygy::win_rank_bound(true));
    // Too few: the win counts as a draw under the rule, still ranked above a draw,
    // and as a win when the rule is off.
    const int late = best_rank(100 - dtz + 2);
    CHECK(late > 0);
    CHECK(late < syzygy::win_rank_bound(true));
    CHECK(late >= syzygy::win_rank_bound(false));
}

TEST_CASE("after a repetition the shortest win ranks first, a third occurrence is a draw", "[syzygy]") {
    syzygy::Tablebases tables;
    REQUIRE(tables.load(TableFolder).tables > 0);
    const Position start = parse("8/8/8/4k3/8/2r5/8/K5Q1 w - - 0 1");
    REQUIRE(syzygy::probe_wdl(tables, start) == Wdl::Win);
    Game game(start);
    const auto play = [&](std::string_view text) {
        const std::optional<Move> m = parse_uci(game.position(), text);
        REQUIRE(m);
        game.play(*m);
    };
    for (const char* m : {"a1b1", "e5e6", "b1a1", "e6e5"}) play(m);
    REQUIRE(game.occurrences(game.moves().size()) == 2);

    const std::vector<Move> moves = moves_of(game.position());
    std::optional<std::vector<int>> ranks = syzygy::rank_root_moves(tables, game, moves);
    REQUIRE(ranks);
    // Winning moves are now told apart by distance: the best has the least.
    int best = 0, least_distance = 1 << 20;
    size_t best_index = 0;
    for (size_t i = 0; i < moves.size(); ++i) {
        const Position child = game.position().apply(moves[i]);
        if ((*ranks)[i] <= 0) continue;
        CHECK((*ranks)[i] < SureWinRank);
        const int distance = child.halfmove_clock() == 0 ? 1 : 1 - *syzygy::probe_dtz(tables, child);
        least_distance = std::min(least_distance, distance);
        if ((*ranks)[i] > best) {
            best = (*ranks)[i];
            best_index = i;
        }
    }
    REQUIRE(best > 0);
    const Position best_child = game.position().apply(moves[best_index]);
    CHECK((best_child.halfmove_clock() == 0 ? 1 : 1 - *syzygy::probe_dtz(tables, best_child)) == least_distance);

    // Once more round: a1b1 now reaches its position for the third time.
    for (const char* m : {"a1b1", "e5e6", "b1a1", "e6e5"}) play(m);
    const std::vector<Move> again = moves_of(game.position());
    ranks = syzygy::rank_root_moves(tables, game, again);
    REQUIRE(ranks);
    const size_t repeat =
        size_t(std::find(again.begin(), again.end(), *parse_uci(game.position(), "a1b1")) - again.begin());
    REQUIRE(repeat < again.size());
    CHECK((*ranks)[repeat] == 0);
}

TEST_CASE("checkmate on the hundredth ply still wins, stalemate and mate have their DTZ", "[syzygy]") {
    syzygy::Tablebases tables;
    REQUIRE(tables.load(TableFolder).tables > 0);
    // Mate and stalemate decide without a table entry: DTZ -1 and 0.
    const Position mated = parse("k6Q/8/1K6/8/8/8/8/8 b - - 1 1");
    REQUIRE(mated.in_check());
    CHECK(syzygy::probe_wdl(tables, mated) == Wdl::Loss);
    CHECK(syzygy::probe_dtz(tables, mated) == -1);
    const Position stalemate = parse("k7/8/1Q6/8/8/8/8/7K b - - 0 1");
    CHECK(syzygy::probe_wdl(tables, stalemate) == Wdl::Draw);
    CHECK(syzygy::probe_dtz(tables, stalemate) == 0);

    // With the counter at 99 only the mate wins under the rule; every other winning
    // move needs more plies than the rule leaves, and ranks below the bound.
    for (int counter : {0, 99}) {
        INFO("counter " << counter);
        const Game game(parse("k7/8/1K6/8/8/8/7Q/8 w - - " + std::to_string(counter) + " 80"));
        const std::vector<Move> moves = moves_of(game.position());
        const std::optional<std::vector<int>> ranks = syzygy::rank_root_moves(tables, game, moves);
        REQUIRE(ranks);
        bool mate_seen = false;
        for (size_t i = 0; i < moves.size(); ++i) {
            INFO(to_uci(moves[i], false) << " rank " << (*ranks)[i]);
            const bool mate = to_uci(moves[i], false) == "h2h8";
            mate_seen |= mate;
            if (mate) CHECK((*ranks)[i] == SureWinRank);
            else if (counter == 99) CHECK((*ranks)[i] < syzygy::win_rank_bound(true));
            if (counter == 99) CHECK((*ranks)[i] >= 0);
        }
        CHECK(mate_seen);
    }
}

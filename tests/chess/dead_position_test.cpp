// The dead-position detector (FIDE 5.2.2 / 6.9) must be sound: a position from
// which some sequence of legal moves mates is never called dead. It is allowed to
// miss dead positions; the reference vectors measure how many it recognises.

#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "test_support.h"
#include "chess/dead_position.h"
#include "chess/movegen.h"

using namespace arbiter;

namespace {

Position fen_position(std::string_view fen) { return test::parse_fen(fen); }

bool dead(std::string_view fen) { return is_dead_position(fen_position(fen)); }

// What an exhaustive walk over the positions reachable by king moves alone found.
struct KingWalk {
    size_t positions = 0;
    bool other_move = false;  // some reachable position has a non-king move or a capture
    bool mate = false;        // some reachable position is checkmate
};

// Explores every position reachable from `start` while only king moves are played,
// stopping at the first position that offers anything else. For kings and pawns that
// are truly locked the walk is finite (two king squares and the side to move) and
// proves the position dead by brute force, independently of the detector's reasoning.
KingWalk walk_king_moves(const Position& start) {
    KingWalk walk;
    std::unordered_set<Key> seen{start.key()};
    std::vector<Position> frontier{start};
    while (!frontier.empty() && !walk.other_move) {
        const Position pos = frontier.back();
        frontier.pop_back();
        ++walk.positions;
        const MoveList moves = legal_moves(pos);
        if (moves.size() == 0 && pos.in_check()) walk.mate = true;
        for (Move m : moves) {
            if (type_of(pos.piece_on(m.from())) != King || pos.is_capture(m)) {
                walk.other_move = true;
                break;
            }
            const Position next = pos.apply(m);
            if (seen.insert(next.key()).second) frontier.push_back(next);
        }
    }
    return walk;
}

using Vector = test::UnwinnabilityVector;

}  // namespace

TEST_CASE("insufficient material is dead", "[dead]") {
    CHECK(dead("8/8/4k3/8/8/8/8/4K3 w - - 0 1"));    // K v K
    CHECK(dead("8/8/4k3/8/8/8/8/4KN2 w - - 0 1"));   // KN v K
    CHECK(dead("8/8/4k3/8/8/8/8/4K1n1 b - - 0 1"));  // K v KN
    CHECK(dead("8/8/4k3/8/8/8/8/4KB2 w - - 0 1"));   // KB v K
    CHECK(dead("8/8/4k3/8/8/8/8/2b1K3 w - - 0 1"));  // K v KB
    // Bishops all on squares of one colour, however many and on whichever side: a king
    // on the other colour can never be checked, and it always has such a flight square.
    CHECK(dead("8/8/4k3/8/8/8/8/4KB1b w - - 0 1"));          // f1 and h1: both light
    CHECK(dead("5b2/8/4k3/8/8/8/8/2B1K3 w - - 0 1"));        // c1 and f8: both dark
    CHECK(dead("5b2/8/4k3/8/8/B7/8/2B1K3 b - - 0 1"));       // a3, c1, f8: all dark
    CHECK(dead("b1b1b1b1/8/4k3/8/8/8/8/4K3 w - - 0 1"));     // four light bishops, one side
    CHECK(dead("b1b1b1b1/7B/4k3/8/8/8/8/1B2K3 w - - 0 1"));  // light bishops on both sides
}

TEST_CASE("enough material is live", "[dead]") {
    // Bishops on both colours.
    CHECK_FALSE(dead("8/8/4k3/8/8/8/8/4KBb1 w - - 0 1"));     // KB v KB: f1 light, g1 dark
    CHECK_FALSE(dead("8/8/4k3/8/8/8/8/2b1KB2 w - - 0 1"));    // KB v KB: c1 dark, f1 light
    CHECK_FALSE(dead("8/8/4k3/8/8/8/8/2B1KB2 w - - 0 1"));    // KBB v K: c1 dark, f1 light
    CHECK_FALSE(dead("5b2/8/4k3/8/8/8/B7/2B1K3 b - - 0 1"));  // a2 light among dark ones
    CHECK_FALSE(dead("2b2b2/8/4k3/8/8/8/8/4K3 w - - 0 1"));   // c8 light, f8 dark
    // Any knight beside another minor piece.
    CHECK_FALSE(dead("8/8/4k3/8/8/8/8/4KN1n w - - 0 1"));  // KN v KN
    CHECK_FALSE(dead("8/8/4k3/8/8/8/8/4KNN1 w - - 0 1"));  // KNN v K: helpmate exists
    CHECK_FALSE(dead("8/8/4k3/8/8/8/8/4KBN1 w - - 0 1"));  // KBN v K
    CHECK_FALSE(dead("8/8/4k3/8/8/8/8/4KB1n w - - 0 1"));  // KB v KN
    // Any pawn, rook or queen outside a locked pawn structure.
    CHECK_FALSE(dead("8/8/4k3/8/8/8/4P3/4K3 w - - 0 1"));  // KP v K
    CHECK_FALSE(dead("8/4p3/4k3/8/8/8/8/4K3 w - - 0 1"));  // K v KP
    CHECK_FALSE(dead("8/8/4k3/8/8/8/8/R3K3 w - - 0 1"));   // KR v K
    CHECK_FALSE(dead("8/8/4k3/8/8/8/8/3QK3 w - - 0 1"));   // KQ v K
    CHECK_FALSE(dead("3qk3/8/8/8/8/8/8/4K3 w - - 0 1"));   // K v KQ
    CHECK_FALSE(dead(Position::StartFen));
}

TEST_CASE("a helpmate with the minimal live material exists", "[dead]") {
    // Cross-check the live verdicts above with actual mates.
    SECTION("KNN v K: mate in the corner") {
        const Position mate = fen_position("7k/4NN2/6K1/8/8/8/8/8 b - - 0 1");
        CHECK(mate.in_check());
        CHECK(count_legal_moves(mate) == 0);
        CHECK_FALSE(is_dead_position(mate));
    }
    SECTION("KN v KB: the bishop blocks its own king") {
        const Position mate = fen_position("6bk/8/6NK/8/8/8/8/8 b - - 0 1");
        CHECK(mate.in_check());
        CHECK(count_legal_moves(mate) == 0);
        CHECK_FALSE(is_dead_position(mate));
    }
    SECTION("KB v KB of opposite colours") {
        const Position mate = fen_position("kb6/8/1K6/8/4B3/8/8/8 b - - 0 1");
        CHECK(mate.in_check());
        CHECK(count_legal_moves(mate) == 0);
        CHECK_FALSE(is_dead_position(mate));
    }
}

TEST_CASE("locked pawn fortresses are dead", "[dead]") {
    const char* fens[] = {
        "8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/8 w - - 0 1",
        "8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/8 b - - 0 1",
        "8/8/4k3/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1",
        // Two-rank chains: a pawn blocked by a pawn of its own colour.
        "8/1k6/1p1p1p1p/1P1P1P1P/1P1P1P1P/8/6K1/8 w - - 0 1",
        // The chain one rank higher, Black to move.
        "k7/8/p1p1p1p1/P1P1P1P1/8/8/8/7K b - - 0 1",
    };
    for (const char* fen : fens) {
        INFO(fen);
        const Position pos = fen_position(fen);
        // Brute force first: no king walk ever offers a pawn move, a capture or a mate.
        const KingWalk walk = walk_king_moves(pos);
        REQUIRE_FALSE(walk.other_move);
        REQUIRE_FALSE(walk.mate);
        CHECK(walk.positions > 10);
        CHECK(is_dead_position(pos));
    }
}

TEST_CASE("pawn structures that can still change are live", "[dead]") {
    struct Case {
        const char* fen;
        const char* why;
    };
    const Case cases[] = {
        {"8/8/4k3/1p1p1p2/1P1P1P1P/8/4K3/8 w - - 0 1", "the h-pawn can advance"},
        {"8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/8 w - - 0 1", "(control: locked)"},
        {"8/8/4k3/1p1ppp1p/1P1P1P1P/8/4K3/8 w - - 0 1", "d4 and f4 can capture on e5"},
        {"8/8/4k3/1p1p1p2/1P1P1P2/8/4K3/8 w - - 0 1", "the white king walks round by h4 to f5"},
        {"8/8/4k3/1p1p1p2/1P1P1P2/8/4K3/8 b - - 0 1", "the black king walks round by h5 to f4"},
        {"8/8/4k3/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1", "(control: locked)"},
        {"8/8/4k3/p1p1p1pK/P1P1P1P1/8/8/8 w - - 0 1", "the white king stands next to g5"},
        {"8/8/4k3/p1p1p1p1/P1P1P1PK/8/8/8 w - - 0 1", "the white king is in check from g5 and takes it"},
        {"8/8/8/1p1p1p1p/1P1P1P1P/4k3/8/4K3 w - - 0 1", "the black king is inside White's camp"},
    };
    for (const Case& c : cases) {
        INFO(c.fen << ": " << c.why);
        const Position pos = fen_position(c.fen);
        const bool locked = std::string_view(c.why).starts_with("(control");
        CHECK(walk_king_moves(pos).other_move == !locked);
        CHECK(is_dead_position(pos) == locked);
    }
}

TEST_CASE("fortress edge cases", "[dead]") {
    SECTION("a pawn that may be taken en passant is not locked") {
        // d5 can take e5 en passant: the e- and d-files open up.
        const Position pos = fen_position("8/8/3k4/p1pPp1p1/P1P3P1/8/4K3/8 w - e6 0 2");
        REQUIRE(pos.ep_square() == E6);
        CHECK_FALSE(is_dead_position(pos));
    }
    SECTION("a piece besides kings and pawns is left to the material test") {
        CHECK_FALSE(dead("8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/7B w - - 0 1"));
        CHECK_FALSE(dead("8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/7N w - - 0 1"));
    }
}

TEST_CASE("reference unwinnability vectors", "[dead]") {
    const std::vector<Vector> vectors = test::unwinnability_vectors();
    REQUIRE(vectors.size() > 1500);

    int rejected = 0, dead_total = 0, dead_found = 0, live_total = 0;
    for (const Vector& v : vectors) {
        INFO(v.label << " " << v.fen);
        REQUIRE((v.label == "WB" || v.label == "W-" || v.label == "-B" || v.label == "--"));
        // Read as Playable: the vectors include constructed positions with more
        // material than promotions can give, which the default reader refuses.
        const FenResult result = Position::from_fen(v.fen, false, FenCheck::Playable);
        if (!result.position) {
            // One line of the file has only two FEN fields; anything else would be a
            // reader regression.
            INFO(result.error);
            CHECK(result.error.find("expected 6 fields") != std::string::npos);
            ++rejected;
            continue;
        }
        const bool detected = is_dead_position(*result.position);
        if (v.label == "--") {
            ++dead_total;
            dead_found += detected;
        } else {
            ++live_total;
            // Soundness: a position where either side can still mate is never dead.
            CHECK_FALSE(detected);
        }
    }
    WARN("unwinnability vectors: " << dead_found << " of " << dead_total << " dead positions detected; " << live_total
                                   << " winnable positions checked; " << rejected << " FENs rejected by the parser");
    // One of 1,803 lines is refused (a truncated FEN).
    CHECK(rejected <= 1);
    CHECK(live_total >= 996);
    CHECK(dead_found >= 90);
}

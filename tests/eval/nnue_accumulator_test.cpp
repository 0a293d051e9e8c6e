// Accumulators and evaluation: a hand-computed evaluation of a tiny net (the spec's
// integer formula, truncation toward zero included); the incremental stack against
// refresh-from-scratch over random games with every special move, null moves and lazy
// batches; the RAII guard; colour symmetry.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "test_support.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue_test_support.h"

using namespace arbiter;
using namespace arbiter::eval::nnue;

namespace {

// The first `hidden` values of each perspective: the rest of an Accumulator is unused.
bool same(const Accumulator& a, const Accumulator& b, int hidden) {
    return std::memcmp(a.values[0], b.values[0], size_t(hidden) * 2) == 0 &&
           std::memcmp(a.values[1], b.values[1], size_t(hidden) * 2) == 0;
}

int pieces(const Position& pos) { return popcount(pos.occupied()); }

Accumulator fresh(const Network& net, const Position& pos) {
    Accumulator acc;
    refresh(net, pos, acc);
    return acc;
}

// The position with every square s taken from square `from(s)` of `pos`, colours
// swapped when `swap_colours` (and then the other side to move). Castling and en
// passant rights are dropped: the network does not see them.
template <typename SquareMap>
Position transformed(const Position& pos, SquareMap from, bool swap_colours) {
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Piece p = pos.piece_on(from(make_square(File(file), Rank(rank))));
            if (p == NoPiece) {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            const char letter = "pnbrqk"[type_of(p)];
            fen += (color_of(p) == White) != swap_colours ? char(std::toupper(letter)) : letter;
        }
        if (empty) fen += char('0' + empty);
        if (rank) fen += '/';
    }
    fen += (pos.side_to_move() == White) != swap_colours ? " w - - 0 1" : " b - - 0 1";
    return test::parse_fen(fen, false, FenCheck::Playable);
}

// Colours swapped and ranks flipped, the other side to move.
Position mirrored(const Position& pos) {
    return transformed(
        pos, [](Square s) { return Square(s ^ 56); }, true);
}

// Mirrored left-right (file a <-> h).
Position mirrored_files(const Position& pos) {
    return transformed(
        pos, [](Square s) { return Square(s ^ 7); }, false);
}

struct Coverage {
    int castling = 0, castling960 = 0, castling960_piece_stays = 0;
    int en_passant = 0, promotion_capture = 0, null_moves = 0;
    int checks = 0, lazy_batches = 0, max_depth = 0;
    int view_changes = 0;  // king moves that change their side's view (architecture 3)
};

void note_move(const Position& pos, Move m, Coverage& cov) {
    if (m.kind() == Move::Castling) {
        ++(pos.chess960() ? cov.castling960 : cov.castling);
        const Color us = pos.side_to_move();
        const bool king_side = m.to() > m.from();
        if (pos.chess960() && (m.from() == relative_square(us, king_side ? G1 : C1) ||
                               m.to() == relative_square(us, king_side ? F1 : D1)))
            ++cov.castling960_piece_stays;
    }
    if (m.kind() == Move::EnPassant) ++cov.en_passant;
    if (m.kind() == Move::Promotion && pos.piece_on(m.to()) != NoPiece) ++cov.promotion_capture;
}

// A random move, but half the time one of the rare kinds when there is one (castling,
// en passant, promotion), so that a few hundred steps see each of them many times.
Move pick_move(const MoveList& moves, std::mt19937& rng) {
    MoveList rare;
    for (const Move m : moves)
        if (m.kind() != Move::Normal) rare.push_back(m);
    if (!rare.empty() && rng() % 2 == 0) return rare[rng() % rare.size()];
    return moves[rng() % moves.size()];
}

// The top of the stack against a refresh of `pos`, accumulator and evaluation.
void check_top(AccumulatorStack& stack, const Network& net, const Position& pos) {
    const Accumulator expected = fresh(net, pos);
    INFO(pos.fen() << " at depth " << stack.depth());
    REQUIRE(same(stack.current(), expected, net.hidden_size()));
    REQUIRE(stack.evaluate(pos) == evaluate(net, expected, pos.side_to_move(), pieces(pos)));
}

// A random walk through the tree below `root`: moves, null moves and returns to the
// parent, with the top checked at random moments so that several pending entries are
// often computed at once. A shallow walk returns to its parent more often the deeper
// it is, so it hovers around a dozen plies and keeps revisiting the moves near the
// root (castling); a deep one climbs to the stack's capacity.
enum class Walk { Shallow, Deep };

void random_walk(const Network& net, Isa isa, const Position& root, uint32_t seed, int steps, Walk walk,
                 Coverage& cov) {
    std::mt19937 rng(seed);
    AccumulatorStack stack(isa);
    stack.reset(net, root);
    std::vector<Position> path{root};
    int pushes_since_check = 0;
    const auto back_up = [&] {
        stack.pop();
        path.pop_back();
    };
    for (int step = 0; step < steps; ++step) {
        const Position pos = path.back();
        const unsigned roll = rng() % 100;
        const unsigned pop_below = walk == Walk::Deep ? 15 : std::min<unsigned>(90, 10 + 3 * unsigned(path.size()));
        if ((roll < pop_below && path.size() > 1) || path.size() == size_t(AccumulatorStack::Capacity)) {
            back_up();
        } else if (roll < pop_below + 5 && !pos.in_check()) {
            stack.push_null();
            path.push_back(pos.apply_null_move());
            ++cov.null_moves;
            ++pushes_since_check;
        } else {
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) {
                if (path.size() == 1) break;
                back_up();
            } else {
                const Move m = pick_move(moves, rng);
                note_move(pos, m, cov);
                stack.push(pos, m);
                path.push_back(pos.apply(m));
                const Color us = pos.side_to_move();
                cov.view_changes += net.view(us, pos.king_square(us)) != net.view(us, path.back().king_square(us));
                ++pushes_since_check;
            }
        }
        REQUIRE(stack.depth() == int(path.size()) - 1);
        cov.max_depth = std::max(cov.max_depth, stack.depth());
        if (rng() % 4 == 0) {
            check_top(stack, net, path.back());
            ++cov.checks;
            if (pushes_since_check >= 2) ++cov.lazy_batches;
            pushes_since_check = 0;
        }
    }
    check_top(stack, net, path.back());
}

std::vector<Position> start_positions() {
    std::vector<Position> starts;
    for (const std::string& fen : test::epd_fens("standard.epd"))
        starts.push_back(test::parse_fen(fen, false, FenCheck::Playable));
    const std::vector<std::string> fens960 = test::epd_fens("chess960.epd");
    for (size_t i = 0; i < fens960.size(); i += 16) starts.push_back(test::parse_fen(fens960[i], true));
    // Pawns about to promote with pieces to take, and an en passant capture on the board.
    starts.push_back(test::parse_fen("r1n1kn1r/1P4P1/8/8/8/8/1p4p1/R1N1KN1R w KQkq - 0 1"));
    starts.push_back(test::parse_fen("rnbqkbnr/ppp2ppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"));
    return starts;
}

}  // namespace

TEST_CASE("a tiny hand-made net evaluates as the spec's formula says", "[nnue]") {
    auto net = std::make_unique<Network>();  // all zero
    // Kings only; the White king on e1 is feature 324 for White. For Black it is feature
    // 764 and the Black king on a8 is 320 (White) / 384+320+56 (Black): all zero rows.
    const Position white_to_move = test::parse_fen("k7/8/8/8/8/8/8/4K3 w - - 0 1");
    const Position black_to_move = test::parse_fen("k7/8/8/8/8/8/8/4K3 b - - 0 1");
    REQUIRE(feature_index(White, WKing, E1) == 324);

    SECTION("one neuron inside the clamp, both divisions truncate toward zero") {
        net->feature_weights[324 * 256 + 0] = 200;
        net->output_weights[0] = 37;         // side to move's accumulator
        net->output_weights[256 + 0] = -50;  // the other side's
        const Accumulator acc = fresh(*net, white_to_move);
        CHECK(acc.values[White][0] == 200);
        CHECK(acc.values[Black][0] == 0);
        // White to move: 200^2 * 37 = 1480000; / 255 = 5803; 5803 * 400 / 16320 = 142.2 -> 142.
        CHECK(evaluate(*net, acc, White, 2) == 142);
        // Black to move: 200^2 * -50 = -2000000; / 255 = -7843 (not -7844);
        // -7843 * 400 / 16320 = -192.2 -> -192 (not -193).
        CHECK(evaluate(*net, fresh(*net, black_to_move), Black, 2) == -192);
        CHECK(evaluate(*net, white_to_move) == 142);
        CHECK(evaluate(*net, black_to_move) == -192);
        // With an output bias of 1000: (5803 + 1000) * 400 / 16320 = 166.7 -> 166 and
        // (-7843 + 1000) * 400 / 16320 = -167.7 -> -167.
        net->output_biases[0] = 1000;
        CHECK(evaluate(*net, acc, White, 2) == 166);
        CHECK(evaluate(*net, acc, Black, 2) == -167);
        // One output: the piece count changes nothing.
        CHECK(evaluate(*net, acc, White, 32) == 166);
    }
    SECTION("the clamp: above QA counts as QA, below zero as zero") {
        net->feature_biases[1] = -40;
        net->feature_weights[324 * 256 + 1] = 300;
        net->output_weights[1] = 3;
        net->output_weights[256 + 1] = 64;
        const Accumulator acc = fresh(*net, white_to_move);
        CHECK(acc.values[White][1] == 260);
        CHECK(acc.values[Black][1] == -40);
        // White to move: 255^2 * 3 = 195075; / 255 = 765; 765 * 400 / 16320 = 18.75 -> 18
        // (Black's -40 clamps to 0).
        CHECK(evaluate(*net, acc, White, 2) == 18);
        // Black to move: 0 + 255^2 * 64 = 4161600; / 255 = 16320; 16320 * 400 / 16320 = 400.
        CHECK(evaluate(*net, acc, Black, 2) == 400);
    }
}

TEST_CASE("a bucketed net evaluates with the bucket of the piece count", "[nnue]") {
    Network net(Architecture::MaterialBuckets, 384);
    // Every bucket b: bias (b + 1) * 16320 / 4, i.e. (b + 1) * 100 cp with a zero sum;
    // neuron 0 of the White king on e1 feeds only bucket 1's weight.
    for (int b = 0; b < MaterialBucketCount; ++b) net.output_biases[b] = (b + 1) * QA * QB / 4;
    net.feature_weights[324 * 384 + 0] = 100;
    net.output_weights[1 * 768 + 0] = 10;                                      // bucket 1, side to move's accumulator
    const Position kings = test::parse_fen("k7/8/8/8/8/8/8/4K3 w - - 0 1");    // 2 pieces: bucket 0
    const Position six = test::parse_fen("k7/8/8/8/8/8/PPPP4/4K3 w - - 0 1");  // 6 pieces: bucket 1
    const Position full = test::parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");  // 32: 7
    CHECK(evaluate(net, kings) == 100);
    // Bucket 1: 100^2 * 10 = 100000; / 255 = 392; (392 + 8160) * 400 / 16320 = 209.6 -> 209.
    CHECK(evaluate(net, six) == 209);
    CHECK(evaluate(net, full) == 800);
    AccumulatorStack stack;
    stack.reset(net, six);
    CHECK(stack.evaluate(six) == 209);
    Accumulator acc;
    refresh(net, six, acc);
    for (int pieces = 2; pieces <= 32; ++pieces)
        CHECK(evaluate(net, acc, White, pieces) ==
              (output_bucket(pieces) == 1 ? 209 : (output_bucket(pieces) + 1) * 100));
}

TEST_CASE("the incremental stack matches refresh with bucketed nets of other sizes", "[nnue]") {
    Coverage cov;
    uint32_t seed = 300;
    const std::vector<Position> starts = start_positions();
    for (const int hidden : {384, 512}) {
        const auto net = test::random_network(uint32_t(hidden), Architecture::MaterialBuckets, hidden);
        for (size_t i = 0; i < starts.size(); i += 3) {
            random_walk(*net, best_isa(), starts[i], seed++, 400, Walk::Shallow, cov);
            random_walk(*net, Isa::Scalar, starts[i], seed++, 200, Walk::Deep, cov);
        }
    }
    CHECK(cov.checks > 1000);
    CHECK(cov.lazy_batches > 100);
}

TEST_CASE("a king-bucketed net reads the features of its king's view", "[nnue]") {
    Network net(Architecture::KingBuckets, 256);
    // The White king's own feature in bucket 1 mirrored: e1 (and d1, its mirror image).
    const int feature = 768 + 5 * 64 + 3;
    net.feature_weights[size_t(feature) * 256] = 200;
    net.output_weights[0] = 37;  // bucket 0 (2 pieces), side to move's accumulator
    // 200^2 * 37 / 255 = 5803; 5803 * 400 / 16320 = 142 (the tiny net's figure above).
    for (const auto& [fen, expected] : std::vector<std::pair<std::string, int>>{
             {"k7/8/8/8/8/8/8/4K3 w - - 0 1", 142},  // e1: bucket 1, mirrored, square d1
             {"k7/8/8/8/8/8/8/3K4 w - - 0 1", 142},  // d1: bucket 1, square d1
             {"k7/8/8/8/8/8/8/5K2 w - - 0 1", 0},    // f1: bucket 1, square c1
             {"k7/8/8/8/8/8/8/6K1 w - - 0 1", 0},    // g1: bucket 0
             {"k7/8/8/8/8/8/4K3/8 w - - 0 1", 0},    // e2: bucket 2
             {"4k3/8/8/8/8/8/8/K7 b - - 0 1", 142},  // Black's e8 is its own e1
         }) {
        INFO(fen);
        const Position pos = test::parse_fen(fen);
        CHECK(evaluate(net, pos) == expected);
        AccumulatorStack stack;
        stack.reset(net, pos);
        CHECK(stack.evaluate(pos) == expected);
    }
    // Incrementally: Ke1-d1 keeps the feature, Ke1-f1 loses it, Ke1-e2 changes bucket.
    const Position e1 = test::parse_fen("k7/8/8/8/8/8/8/4K3 w - - 0 1");
    AccumulatorStack stack;
    stack.reset(net, e1);
    for (const auto& [uci, expected] :
         std::vector<std::pair<std::string, int>>{{"e1d1", 142}, {"e1f1", 0}, {"e1e2", 0}}) {
        INFO(uci);
        const Move m = *parse_uci(e1, uci);
        AccumulatorGuard guard(stack, e1, m);
        const Position child = e1.apply(m);
        // Black to move now: White's accumulator is the other side's (output weight 256 + i).
        CHECK(same(stack.current(), fresh(net, child), 256));
        CHECK(stack.current().values[White][0] == (expected ? 200 : 0));
    }
}

TEST_CASE("the incremental stack matches refresh with king-bucketed nets", "[nnue]") {
    Coverage cov;
    uint32_t seed = 500;
    const std::vector<Position> starts = start_positions();
    for (const int hidden : {256, 384}) {
        const auto net = test::random_network(uint32_t(hidden) + 1, Architecture::KingBuckets, hidden);
        for (size_t i = 0; i < starts.size(); ++i) {
            random_walk(*net, best_isa(), starts[i], seed++, 600, Walk::Shallow, cov);
            random_walk(*net, Isa::Scalar, starts[i], seed++, 200, Walk::Deep, cov);
        }
    }
    INFO("view changes " << cov.view_changes << ", castling " << cov.castling << ", Chess960 castling "
                         << cov.castling960 << ", null moves " << cov.null_moves);
    CHECK(cov.view_changes > 500);
    CHECK(cov.castling > 50);
    CHECK(cov.castling960 > 50);
    CHECK(cov.null_moves > 100);
    CHECK(cov.checks > 1000);
    CHECK(cov.lazy_batches > 100);
}

TEST_CASE("the incremental stack matches refresh over random games", "[nnue]") {
    const auto net = test::random_network(7);
    Coverage cov;
    uint32_t seed = 100;
    for (const Position& start : start_positions()) {
        random_walk(*net, best_isa(), start, seed++, 1000, Walk::Shallow, cov);
        random_walk(*net, best_isa(), start, seed++, 500, Walk::Deep, cov);
        random_walk(*net, Isa::Scalar, start, seed++, 300, Walk::Shallow, cov);
    }
    INFO("castling " << cov.castling << ", Chess960 castling " << cov.castling960 << " (" << cov.castling960_piece_stays
                     << " with a piece staying), en passant " << cov.en_passant << ", promotion captures "
                     << cov.promotion_capture << ", null moves " << cov.null_moves << ", checks " << cov.checks
                     << ", lazy batches " << cov.lazy_batches << ", deepest " << cov.max_depth);
    CHECK(cov.castling > 50);
    CHECK(cov.castling960 > 100);
    CHECK(cov.castling960_piece_stays > 10);
    CHECK(cov.en_passant > 50);
    CHECK(cov.promotion_capture > 50);
    CHECK(cov.null_moves > 100);
    CHECK(cov.lazy_batches > 100);
    CHECK(cov.max_depth == AccumulatorStack::Capacity - 1);
}

namespace {

// Evaluates every leaf of a depth-limited tree through guards, and a null move at
// each inner node not in check.
void walk_with_guards(AccumulatorStack& stack, const Network& net, const Position& pos, int depth, int& leaves) {
    if (depth == 0) {
        ++leaves;
        const int expected = evaluate(net, fresh(net, pos), pos.side_to_move(), pieces(pos));
        if (stack.evaluate(pos) != expected) FAIL("incremental evaluation differs at " << pos.fen());
        return;
    }
    for (const Move m : legal_moves(pos)) {
        AccumulatorGuard guard(stack, pos, m);
        walk_with_guards(stack, net, pos.apply(m), depth - 1, leaves);
    }
    if (!pos.in_check()) {
        AccumulatorGuard guard(stack, AccumulatorGuard::NullMove{});
        walk_with_guards(stack, net, pos.apply_null_move(), depth - 1, leaves);
    }
}

}  // namespace

TEST_CASE("guards pop what they push, only the leaves are computed", "[nnue]") {
    const Architecture arch = GENERATE(Architecture::Plain, Architecture::KingBuckets);
    const auto net = test::random_network(8, arch);
    AccumulatorStack stack;
    for (const auto& [fen, chess960] : std::vector<std::pair<std::string, bool>>{
             {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
             {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false},
             {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
         }) {
        const Position root = test::parse_fen(fen, chess960);
        stack.reset(*net, root);
        int leaves = 0;
        walk_with_guards(stack, *net, root, 3, leaves);
        CHECK(leaves > 100);
        CHECK(stack.depth() == 0);
        CHECK(stack.evaluate(root) == evaluate(*net, fresh(*net, root), root.side_to_move(), pieces(root)));
    }
}

TEST_CASE("a position and its colour-flipped mirror evaluate the same", "[nnue]") {
    const Architecture arch = GENERATE(Architecture::Plain, Architecture::KingBuckets);
    const auto net = test::random_network(9, arch);
    std::mt19937 rng(4);
    int compared = 0;
    for (const Position& start : start_positions()) {
        Position pos = start;
        for (int ply = 0; ply < 40; ++ply) {
            const Position mirror = mirrored(pos);
            const Accumulator a = fresh(*net, pos), b = fresh(*net, mirror);
            INFO(pos.fen() << "  vs  " << mirror.fen());
            // Each side's view of one board is the other side's view of the mirror.
            CHECK(std::memcmp(a.values[White], b.values[Black], 2 * size_t(net->hidden_size())) == 0);
            CHECK(std::memcmp(a.values[Black], b.values[White], 2 * size_t(net->hidden_size())) == 0);
            CHECK(evaluate(*net, a, pos.side_to_move(), pieces(pos)) ==
                  evaluate(*net, b, mirror.side_to_move(), pieces(mirror)));
            ++compared;
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            pos = pos.apply(moves[rng() % moves.size()]);
        }
    }
    CHECK(compared > 1000);
}

TEST_CASE("a king-bucketed net cannot tell a position from its left-right mirror", "[nnue]") {
    // Each side's king puts its features in files a-d: the mirror has the same features.
    const auto net = test::random_network(12, Architecture::KingBuckets, 384);
    const auto plain = test::random_network(12, Architecture::MaterialBuckets, 384);
    std::mt19937 rng(5);
    int compared = 0, plain_differs = 0;
    for (const Position& start : start_positions()) {
        Position pos = start;
        for (int ply = 0; ply < 40; ++ply) {
            const Position mirror = mirrored_files(pos);
            INFO(pos.fen() << "  vs  " << mirror.fen());
            const Accumulator a = fresh(*net, pos), b = fresh(*net, mirror);
            CHECK(same(a, b, net->hidden_size()));
            CHECK(evaluate(*net, pos) == evaluate(*net, mirror));
            plain_differs += evaluate(*plain, pos) != evaluate(*plain, mirror);
            ++compared;
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            pos = pos.apply(moves[rng() % moves.size()]);
        }
    }
    CHECK(compared > 1000);
    CHECK(plain_differs > compared / 2);  // the test can tell: an unbucketed net does differ
}

TEST_CASE("a king-bucketed net handles positions with more than 32 pieces", "[nnue]") {
    // "Allow Unreachable Positions" admits boards like this one (50 pieces): a king move
    // that changes its view rebuilds that perspective from every piece on the board.
    const auto net = test::random_network(13, Architecture::KingBuckets, 256);
    const Position pos = test::parse_fen("1k6/nnnnnnnn/nnnnnnnn/nnnnnnnn/NNNNNNNN/NNNNNNNN/NNNNNNNN/1K6 w - - 0 1",
                                         false, FenCheck::Playable);
    REQUIRE(pieces(pos) == 50);
    AccumulatorStack stack;
    stack.reset(*net, pos);
    int view_changes = 0, king_moves = 0;
    for (const Move m : legal_moves(pos)) {
        if (type_of(pos.piece_on(m.from())) != King) continue;
        ++king_moves;
        AccumulatorGuard guard(stack, pos, m);
        const Position child = pos.apply(m);
        view_changes += net->view(White, pos.king_square(White)) != net->view(White, child.king_square(White));
        CHECK(same(stack.current(), fresh(*net, child), net->hidden_size()));
    }
    CHECK(king_moves == 2);
    CHECK(view_changes == 1);  // Kb1-c1 changes the view (bucket 0 to 1), Kb1-a1 does not
}

TEST_CASE("a king-bucketed stack starts its view cache over with each reset", "[nnue]") {
    // The same stack, one root, two nets of the same shape: were the cached views of the
    // first net kept, the second's rebuilt perspectives would hold the first's rows.
    const auto first = test::random_network(14, Architecture::KingBuckets, 256);
    const auto second = test::random_network(15, Architecture::KingBuckets, 256);
    const Position root = test::parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    AccumulatorStack stack;
    for (const Network* net : {first.get(), second.get(), first.get()}) {
        stack.reset(*net, root);
        int leaves = 0;
        walk_with_guards(stack, *net, root, 3, leaves);
        CHECK(leaves > 1000);
    }
}

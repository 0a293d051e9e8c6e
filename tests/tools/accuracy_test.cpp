// Accuracy as lichess computes it (tools/accuracy.h), on evaluations whose figures were
// worked out by hand from the published formulas (a calculator for the exponentials).

#include <catch2/catch.hpp>

#include <vector>

#include "tools/accuracy.h"

using namespace arbiter;
using namespace arbiter::tools;

TEST_CASE("Win percentage from centipawns", "[tools][accuracy]") {
    CHECK(win_percent(0) == Approx(50));
    // 50 + 50 (2 / (1 + e^-0.368208) - 1) = 50 + 50 * 0.182052 = 59.1026
    CHECK(win_percent(100) == Approx(59.1026).margin(1e-3));
    CHECK(win_percent(-100) == Approx(100 - 59.1026).margin(1e-3));
    // e^-3.68208 = 0.025168: 50 + 50 (2 / 1.025168 - 1) = 97.5447; beyond 1000 cp it is clamped.
    CHECK(win_percent(1000) == Approx(97.5447).margin(1e-3));
    CHECK(win_percent(5000) == win_percent(1000));
    CHECK(win_percent(-32000) == Approx(2.4553).margin(1e-3));
}

TEST_CASE("A move's accuracy from the drop in win percentage", "[tools][accuracy]") {
    CHECK(move_accuracy(60, 60) == 100);
    CHECK(move_accuracy(40, 70) == 100);  // no drop, however lucky
    // A drop of 20: 103.16681 e^-0.870883 - 3.16692 + 1 = 103.16681 * 0.418584 - 2.16692 = 41.0168
    CHECK(move_accuracy(60, 40) == Approx(41.0168).margin(1e-3));
    // A drop of 0.5: 103.16681 e^-0.0217721 - 2.16692 = 100.94493 - 2.16692 = 98.7780
    CHECK(move_accuracy(50, 49.5) == Approx(98.7780).margin(1e-3));
    CHECK(move_accuracy(97.5, 2.5) == 0);
}

TEST_CASE("Game accuracy: volatility-weighted and harmonic means", "[tools][accuracy]") {
    SECTION("White drops from equal to lost in four plies") {
        // Positions 0 0 0 -1000 -1000 (White's side), White first; 4 plies: window 2.
        // White's win%: 50 50 50 2.4553 2.4553. Moves: W 100, B 100, W a, B 100 with
        // a = 103.16681 e^(-0.0435442 * 47.5447) - 2.16692 = 10.8474.
        // Weights (std of each move's two positions): 0.5 (0, clamped up), 0.5, 12
        // (23.77 clamped down), 0.5. White: weighted (0.5*100 + 12a) / 12.5 = 14.4135,
        // harmonic 2 / (1/100 + 1/a) = 19.5718, accuracy 16.9927. Black: 100.
        const std::vector<int> cps = {0, 0, 0, -1000, -1000};
        const GameAccuracy a = game_accuracy(cps, White);
        REQUIRE(a.white);
        REQUIRE(a.black);
        CHECK(*a.white == Approx(16.9927).margin(1e-3));
        CHECK(*a.black == Approx(100));
    }
    SECTION("One blunder by Black in thirty plies: window 3") {
        // +0.20 for 22 positions, then +6.00 for 9: Black's 11th move (ply 21) throws
        // the game away. 30 plies: window 30 / 10 = 3. Black's win% 48.1598 -> 9.8923, a
        // drop of 38.2675: accuracy 17.3254. Its window (positions 20-22: 20 20 600 cp)
        // has std 17.99, clamped to 12; Black's 14 other moves are 100 with windows of
        // equal values, weight 0.5. Weighted (7 * 100 + 12 * 17.3254) / 19 = 47.7845;
        // harmonic 15 / (14/100 + 1/17.3254) = 75.8654; accuracy 61.8249. White: 100.
        std::vector<int> cps(22, 20);
        cps.resize(31, 600);
        const GameAccuracy a = game_accuracy(cps, White);
        CHECK(*a.black == Approx(61.8249).margin(1e-3));
        CHECK(*a.white == Approx(100));
    }
    SECTION("Black moves first") {
        // Positions +0.15 +0.40 +0.20 +0.30 -3.00 -2.80, Black first; five plies, window 2.
        // White's win%: 51.3804 53.6754 51.8402 52.7588 24.8874 26.2894.
        //   ply  mover  mover's win%        drop     accuracy  weight (std of the two)
        //   0    Black  48.6196 -> 46.3246   2.2950  91.1884   1.1475
        //   1    White  53.6754 -> 51.8402   1.8352  93.0763   0.9176
        //   2    Black  48.1598 -> 47.2412   0.9185  96.9549   0.5 (0.4593)
        //   3    White  52.7588 -> 24.8874  27.8713  28.4856  12 (13.9357)
        //   4    Black  75.1126 -> 73.7106   1.4019  94.8904   0.7010
        // White: weighted (0.9176 * 93.0763 + 12 * 28.4856) / 12.9176 = 33.0738, harmonic
        // 2 / (1/93.0763 + 1/28.4856) = 43.6211: 38.3475. Black: weighted 93.5211,
        // harmonic 94.2837: 93.9024.
        const std::vector<int> cps = {15, 40, 20, 30, -300, -280};
        const GameAccuracy a = game_accuracy(cps, Black);
        CHECK(*a.white == Approx(38.3475).margin(1e-3));
        CHECK(*a.black == Approx(93.9024).margin(1e-3));
        const std::vector<double> moves = move_accuracies(cps, Black);
        REQUIRE(moves.size() == 5);
        CHECK(moves[0] == Approx(91.1884).margin(1e-3));
        CHECK(moves[3] == Approx(28.4856).margin(1e-3));
    }
    SECTION("No moves, or one side without a move") {
        CHECK_FALSE(game_accuracy(std::vector<int>{15}, White).white);
        const GameAccuracy one = game_accuracy(std::vector<int>{15, 20}, White);
        CHECK(*one.white == Approx(100));
        CHECK_FALSE(one.black);
    }
}

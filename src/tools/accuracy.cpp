#include "tools/accuracy.h"

#include <algorithm>
#include <cmath>

namespace arbiter::tools {

namespace {

// lichess's constants (lila: WinPercent, AccuracyPercent, gameAccuracy).
constexpr int CentipawnCeiling = 1000;
constexpr double WinSlope = 0.00368208;
constexpr double AccuracyScale = 103.1668100711649, AccuracyDecay = 0.04354415386753951,
                 AccuracyOffset = -3.166924740191411, AnalysisAllowance = 1;
constexpr int MinWindow = 2, MaxWindow = 8, PliesPerWindowPosition = 10;
constexpr double MinWeight = 0.5, MaxWeight = 12;
constexpr double MinHarmonicTerm = 1;

double standard_deviation(std::span<const double> values) {
    double mean = 0;
    for (double v : values) mean += v;
    mean /= double(values.size());
    double sum = 0;
    for (double v : values) sum += (v - mean) * (v - mean);
    return std::sqrt(sum / double(values.size()));
}

Color mover_of(size_t ply, Color first_mover) { return ply % 2 == 0 ? first_mover : ~first_mover; }

}  // namespace

double win_percent(int centipawns) {
    const int e = std::clamp(centipawns, -CentipawnCeiling, CentipawnCeiling);
    return 50 + 50 * (2 / (1 + std::exp(-WinSlope * e)) - 1);
}

double move_accuracy(double win_before, double win_after) {
    if (win_after >= win_before) return 100;
    const double drop = win_before - win_after;
    return std::clamp(AccuracyScale * std::exp(-AccuracyDecay * drop) + AccuracyOffset + AnalysisAllowance, 0.0, 100.0);
}

std::vector<double> move_accuracies(std::span<const int> white_centipawns, Color first_mover) {
    std::vector<double> out;
    for (size_t i = 0; i + 1 < white_centipawns.size(); ++i) {
        const int sign = mover_of(i, first_mover) == White ? 1 : -1;
        out.push_back(
            move_accuracy(win_percent(sign * white_centipawns[i]), win_percent(sign * white_centipawns[i + 1])));
    }
    return out;
}

GameAccuracy game_accuracy(std::span<const int> white_centipawns, Color first_mover) {
    const size_t positions = white_centipawns.size();
    if (positions < 2) return {};
    const size_t plies = positions - 1;
    std::vector<double> white_win(positions);
    for (size_t i = 0; i < positions; ++i) white_win[i] = win_percent(white_centipawns[i]);
    const size_t window =
        std::min(std::clamp(plies / PliesPerWindowPosition, size_t(MinWindow), size_t(MaxWindow)), positions);
    const std::vector<double> accuracy = move_accuracies(white_centipawns, first_mover);

    double weighted[2] = {}, weights[2] = {}, reciprocals[2] = {};
    int moves[2] = {};
    for (size_t i = 0; i < plies; ++i) {
        // The window ending at the position after the move, kept inside the game.
        const size_t first = i + 2 >= window ? i + 2 - window : 0;
        const double weight =
            std::clamp(standard_deviation(std::span(white_win).subspan(first, window)), MinWeight, MaxWeight);
        const Color side = mover_of(i, first_mover);
        weighted[side] += accuracy[i] * weight;
        weights[side] += weight;
        reciprocals[side] += 1 / std::max(MinHarmonicTerm, accuracy[i]);
        ++moves[side];
    }
    GameAccuracy result;
    for (Color side : {White, Black}) {
        if (moves[side] == 0) continue;
        const double volatility_weighted = weighted[side] / weights[side];
        const double harmonic = moves[side] / reciprocals[side];
        (side == White ? result.white : result.black) = (volatility_weighted + harmonic) / 2;
    }
    return result;
}

}  // namespace arbiter::tools

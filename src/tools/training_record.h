#pragma once
// One position of training data in the 32-byte `.abin` record documented in
// nets/README.md (the trainer in scripts/nnue/ reads the same layout).

#include <array>
#include <cstdint>

#include "chess/position.h"

namespace arbiter::tools {

using TrainingRecord = std::array<uint8_t, 32>;

// Game results as the record stores them, from White's point of view.
enum class TrainingResult : uint8_t { BlackWins = 0, Draw = 1, WhiteWins = 2 };

// `score_white` is in centipawns from White's point of view (clamped to i16).
TrainingRecord encode_record(const Position& pos, int score_white, TrainingResult result, bool chess960_start);

// The fields of a record, decoded (for tests and tools).
struct DecodedRecord {
    Piece board[64];
    Color side_to_move;
    int score_white;
    TrainingResult result;
    int halfmove_clock;
    int fullmove_number;
    bool chess960_start;
};
DecodedRecord decode_record(const TrainingRecord& record);

}  // namespace arbiter::tools

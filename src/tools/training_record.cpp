#include "tools/training_record.h"

#include <algorithm>

#include "chess/bitboard.h"

namespace arbiter::tools {

namespace {

// Record piece codes: 0-5 White pawn..king, 6-11 Black pawn..king.
uint8_t piece_code(Piece p) { return uint8_t(color_of(p) * 6 + type_of(p)); }
Piece code_piece(uint8_t code) { return make_piece(Color(code / 6), PieceType(code % 6)); }

void put_le(TrainingRecord& r, int offset, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) r[size_t(offset + i)] = uint8_t(value >> (8 * i));
}
uint64_t get_le(const TrainingRecord& r, int offset, int bytes) {
    uint64_t value = 0;
    for (int i = 0; i < bytes; ++i) value |= uint64_t(r[size_t(offset + i)]) << (8 * i);
    return value;
}

}  // namespace

TrainingRecord encode_record(const Position& pos, int score_white, TrainingResult result, bool chess960_start) {
    TrainingRecord r{};
    const Bitboard occupied = pos.occupied();
    put_le(r, 0, occupied, 8);
    int index = 0;
    for (Bitboard b = occupied; b; b &= b - 1) {
        const uint8_t code = piece_code(pos.piece_on(lsb(b)));
        r[size_t(8 + index / 2)] |= uint8_t(index % 2 ? code << 4 : code);
        ++index;
    }
    put_le(r, 24, uint16_t(int16_t(std::clamp(score_white, -32767, 32767))), 2);
    r[26] = uint8_t(result);
    r[27] = uint8_t(pos.side_to_move());
    r[28] = uint8_t(std::min(pos.halfmove_clock(), 255));
    r[29] = chess960_start ? 1 : 0;
    put_le(r, 30, uint64_t(std::min(pos.fullmove_number(), 65535)), 2);
    return r;
}

DecodedRecord decode_record(const TrainingRecord& r) {
    DecodedRecord d{};
    std::fill(std::begin(d.board), std::end(d.board), NoPiece);
    int index = 0;
    for (Bitboard b = get_le(r, 0, 8); b; b &= b - 1) {
        const uint8_t byte = r[size_t(8 + index / 2)];
        d.board[lsb(b)] = code_piece(index % 2 ? byte >> 4 : byte & 15);
        ++index;
    }
    d.score_white = int16_t(get_le(r, 24, 2));
    d.result = TrainingResult(r[26]);
    d.side_to_move = Color(r[27]);
    d.halfmove_clock = r[28];
    d.chess960_start = (r[29] & 1) != 0;
    d.fullmove_number = int(get_le(r, 30, 2));
    return d;
}

}  // namespace arbiter::tools

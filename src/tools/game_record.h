#pragma once
// Self-play games in the compact `.agame` format: a start position, then one move and
// one score per ply, about 4 bytes per position. A file keeps every searched position
// of every game, unfiltered; convert_games() turns it into `.abin` training records,
// applying the filters a trainer wants then, so one file serves future filters too.
//
// A file is a plain sequence of games, little-endian, no file header (files can be
// appended to and concatenated, like `.abin`). One game:
//
//   offset      size  field
//   0           8     occupancy: u64, bit s set when square s holds a piece (a1 = 0 ... h8 = 63)
//   8           16    pieces: 4-bit codes in increasing square order, the first in the low
//                     nibble of byte 8: 0-5 White pawn..king, 6-11 Black; unused nibbles 0
//   24          1     flags: bit 0 Black to move, bit 1 Chess960 game; other bits 0
//   25          1     en passant square 0-63 (only when a capture there is legal), 255 none
//   26          2     castling: four nibbles, the file (0-7) of the castling rook or 15 for
//                     no right: White king side (low nibble of byte 26), White queen side,
//                     Black king side (low nibble of byte 27), Black queen side
//   28          1     halfmove clock: u8 (saturates at 255)
//   29          1     game marker: 0x47 ('G'), a check that a reader is at a game's start
//   30          2     fullmove number: u16 (saturates at 65535)
//   32 + 4i     2     ply i: the move searched and played (src/chess/move.h's raw 16 bits;
//                     never 0). In an adjudicated game the last ply's move was searched
//                     but not played.
//   34 + 4i     2     ply i: the search score, i16, from White's point of view:
//                     -32000..32000 centipawns (clamped); |v| > 32000 a mate score for
//                     the side of v's sign, 32767 - |v| plies to mate (clamped to 766)
//   32 + 4n     2     end marker: u16 0 (the null move) after the n plies
//   34 + 4n     1     result: u8, White's point of view: 0 Black won, 1 draw, 2 White won
//   35 + 4n     1     reserved: u8 0
//
// A game of n plies takes 36 + 4n bytes. The reader replays every move on the rules
// core and refuses an illegal one, so a damaged file fails with the game and ply
// where the damage starts instead of yielding wrong positions.

#include <array>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iosfwd>
#include <string>
#include <vector>

#include "chess/position.h"
#include "search/score.h"
#include "tools/training_record.h"

namespace arbiter::tools {

struct ScoredPly {
    Move move;
    int score_white = 0;  // centipawns, or for a mate score the engine's Mate-relative value
    bool mate = false;
    // False for a move read without a score (PGN: tools/pgn_training.h); `.agame`
    // files have a score for every ply and cannot store this.
    bool scored = true;
};

// The ply a search result gives: `score_white` is a search score from White's point
// of view, mate scores included; the value is clamped as the file stores it.
ScoredPly make_ply(Move move, search::Score score_white);

struct ScoredGame {
    Position start = Position::startpos();
    std::vector<ScoredPly> plies;
    TrainingResult result = TrainingResult::Draw;
};

// The 32 bytes of a game's start position as the table above lays them out.
constexpr size_t GameStartBytes = 32;
std::array<uint8_t, GameStartBytes> encode_game_start(const Position& pos);
// The start position those bytes hold, or the reason they hold none (then `pos` is
// untouched). Only bytes encode_game_start() would write are accepted.
std::string decode_game_start(const std::array<uint8_t, GameStartBytes>& bytes, Position& pos);

// A ply's score as the file stores it (i16, mate scores folded), and back.
int16_t encode_ply_score(const ScoredPly& ply);
ScoredPly decode_ply(Move move, int16_t stored_score);

// Appends one game's bytes. The plies must be legal moves from `start`.
void append_game(std::vector<uint8_t>& out, const ScoredGame& game);
// The same, to a stream; false when the stream fails.
bool write_game(std::ostream& out, const ScoredGame& game);

// Reads games one by one, validating each (see the header comment).
class GameReader {
public:
    explicit GameReader(std::istream& in) : in_(in) {}
    // The next game: true on success; false at the end of the file or on damage, with
    // error() then non-empty ("game 3 (byte 1234), ply 17: ...", games counted from 1).
    bool next(ScoredGame& game);
    const std::string& error() const { return error_; }
    uint64_t games_read() const { return games_; }

private:
    std::istream& in_;
    std::string error_;
    uint64_t games_ = 0;
    uint64_t offset_ = 0;
};

// What a conversion wrote and dropped. A position is counted under the first reason
// that applies, in the order of the fields.
struct ConversionStats {
    uint64_t games = 0, plies = 0, written = 0;
    uint64_t in_check = 0, tactical = 0, unscored = 0, mate = 0;  // capture or promotion played: tactical
};

// The `.abin` records of one game, without positions in check, positions whose move is
// a capture or promotion, positions without a score and positions with a mate score.
std::vector<TrainingRecord> game_records(const ScoredGame& game, ConversionStats& stats);

// Converts a whole `.agame` stream to `.abin` records. The records of the games before
// a damaged one are written; the error message is returned (empty on success).
std::string convert_games(std::istream& in, std::ostream& out, ConversionStats& stats);

// Opens `input` for a conversion to `output`: false, with the reason on `log`, when
// the two are the same file or `input` cannot be read.
bool open_conversion_input(const std::string& input, const std::string& output, std::ifstream& in, std::ostream& log);

}  // namespace arbiter::tools

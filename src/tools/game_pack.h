#pragma once
// Self-play games packed for keeping: the `.apack` format of nets/data/. The same
// games as `.agame` (start position, then a move and a score per ply), laid out in
// columns that compress well and stored as one .xz stream, about 1.7 bytes a ply
// against `.agame`'s 4.3. `arbiter pack` writes it from `.agame`, `arbiter unpack` and
// `arbiter convert` read it. nets/README.md describes the store around it.
//
// The .xz stream holds (little-endian):
//
//   offset  size        field
//   0       8           magic: "ARBPACK" and a zero byte
//   8       4           version: u32, 1
//   12      4           games: u32, G
//   16      8           plies: u64, P (all games together)
//   24      32 G        start positions: the `.agame` start encoding (game_record.h), game by game
//   ...     varies      plies per game: G unsigned LEB128 numbers (7 bits a byte, low first)
//   ...     G           results: u8 per game, 0 Black won, 1 draw, 2 White won
//   ...     P           moves: u8 per ply, the move's rank among the position's legal moves
//                       in the order of ranked_moves() below (0 = first)
//   ...     P           score deltas, low bytes
//   ...     P           score deltas, high bytes: the stored score (`.agame`'s i16, White's
//                       point of view, mates folded) minus the previous ply's, modulo 2^16,
//                       zigzag-coded (0, -1, 1, -2 ... as 0, 1, 2, 3 ...); a game's first
//                       ply is taken from 0
//
// Nothing follows. The moves, in order, and the score differences are what makes the
// columns small: the played move is usually among the first of the ranking, and a
// search score changes little from one ply to the next.

#include <cstdint>
#include <string>
#include <vector>

#include "chess/move.h"
#include "chess/position.h"
#include "tools/game_record.h"

namespace arbiter::tools {

// The legal moves of `pos`, the moves a search tends to choose first. Part of the
// format: a file written with one ranking is read with the same one, so this order
// never changes within a version (a new ranking is a new version). The key, highest
// first, ties by the move's 16-bit code: material won (the captured man, a
// promotion's gain), minus the mover's value when it lands where the opponent takes
// it for free (or where a pawn attacks it: value minus one), plus the mover's value
// when it leaves such a square; then how far it moves toward the centre.
MoveList ranked_moves(const Position& pos);

// The payload of a file holding `games` (before compression).
std::vector<uint8_t> pack_games(const std::vector<ScoredGame>& games);
// The games of a payload, each replayed and checked on the rules core; false with
// `error` set (what is wrong, and where) when the bytes are not such a payload.
bool unpack_games(const std::vector<uint8_t>& payload, std::vector<ScoredGame>& games, std::string& error);

// A file: the payload compressed (tools/xz.h).
bool write_pack_file(const std::string& path, const std::vector<ScoredGame>& games, std::string& error);
bool read_pack_file(const std::string& path, std::vector<ScoredGame>& games, std::string& error);

// A 64-bit fingerprint of a game's content (start, moves, scores, result): two games
// with the same fingerprint are taken to be the same game when pools are merged.
uint64_t game_fingerprint(const ScoredGame& game);

}  // namespace arbiter::tools

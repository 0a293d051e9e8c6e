#pragma once
// How the tools write scores, WDL and lines of moves for people.

#include <span>
#include <string>

#include "chess/move.h"
#include "chess/position.h"
#include "search/score.h"
#include "search/wdl.h"

namespace arbiter::tools {

// A score from the side to move's point of view, turned to White's.
inline search::Score white_score(search::Score score, Color side_to_move) {
    return side_to_move == White ? score : -score;
}

// Full moves to mate in a mate score from White's point of view: positive when White
// mates, negative when Black does, whoever is to move (a side mated now: 0).
int white_mate_moves(search::Score white);

// A score from White's point of view in pawns, signed: `+1.25`, `-0.40`, `0.00`; mates
// in full moves, `#5` when White mates, `#-3` when Black does; `#0` and `#-0` when
// Black or White is checkmated on the board; `+TB` / `-TB` for a win / loss the
// Syzygy tablebases prove (no mate distance known).
std::string format_score(search::Score white);

// The same as lichess writes it in `[%eval ...]`: `1.25`, `-0.40`, `#5`, `#-3`; a
// tablebase win or loss as `100.00` / `-100.00`.
std::string lichess_eval(search::Score white);

// A line of moves from `pos` in SAN with move numbers: `12. Nf3 Nc6 13. Bb5`, or
// `12... Nc6 13. Bb5` when Black moves first. Stops at the first illegal move.
std::string san_line(const Position& pos, std::span<const Move> moves);

// The score clamped to +-1000 centipawns (mates at the ends), for centipawn loss.
int clamped_centipawns(search::Score score);

}  // namespace arbiter::tools

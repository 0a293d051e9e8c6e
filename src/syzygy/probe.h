#pragma once
// Probing: a position's value from the tables, exact for every position the
// tables cover (castling rights make a position uncovered).
//
// The tables leave out what one ply of captures decides: a WDL file may store any
// value no better than the best capture where a capture is best, and nothing about
// en passant rights. A probe therefore searches the captures (en passant included)
// down to positions whose value the table gives, and takes the better of the two.
// DTZ files store one side to move and no value where a zeroing move is best; the
// probe finds those by a search of one ply.
//
// The probe path allocates nothing: moves are generated into fixed-size lists.

#include <optional>

#include "chess/position.h"
#include "syzygy/tablebases.h"

namespace arbiter::syzygy {

// From the side to move's point of view. Cursed wins and blessed losses are wins
// and losses that the fifty-move rule turns into draws.
enum class Wdl : int8_t { Loss = -2, BlessedLoss = -1, Draw = 0, CursedWin = 1, Win = 2 };

// nullopt: not in the loaded tables (too many pieces, castling rights, a table
// missing or damaged).
std::optional<Wdl> probe_wdl(const Tablebases& tables, const Position& pos);

// Distance to zeroing in plies, signed like the WDL value, as the DTZ50 tables
// give it: 0 for a draw; n > 0 for a win whose next capture or pawn move (or mate)
// comes after n plies with best play, 100 more for a cursed win. A table that
// counts in whole moves can make n a ply off (root_ranking.cpp allows for it).
// Negative values mirror this for losses; -1 for checkmate, and for a loss where
// every move zeroes.
std::optional<int> probe_dtz(const Tablebases& tables, const Position& pos);

// The token `d` prints: win, cursed-win, draw, blessed-loss, loss.
const char* wdl_token(Wdl wdl);

}  // namespace arbiter::syzygy

#pragma once
// Training records from engine games in PGN: `arbiter convert GAMES.pgn OUT.abin`.
//
// Tournament managers (fastchess, cutechess) write each engine move's search result in
// the comment after the move: "{+0.34/10 0.027s}" is +0.34 pawns for the side that
// moved, from a search of depth 10; "{-M10/22 0.014s}" a mate in 10 moves against it.
// Each move with such a comment gives the position before it, scored from White's
// point of view, and the game's result; the filters of `.agame` conversion apply (in
// check, capture or promotion played, mate score), and a move without a score (a book
// move, a comment of another form) gives nothing. Games whose result is `*` give
// nothing: the records need a result.
//
// `player`, when not empty, keeps only the moves of the side whose White or Black tag
// is that name: in a match against another engine, Arbiter's own scores.

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "chess/pgn.h"
#include "tools/game_record.h"

namespace arbiter::tools {

// The score a move comment starts with, from White's point of view (`mover` made the
// move), or nullopt for a comment that does not start with one.
std::optional<ScoredPly> scored_ply_from_comment(Move move, std::string_view comment, Color mover);

// One PGN game as a scored game; nullopt for a game without a result. Moves without a
// score, and with `player` set the other side's moves, are marked unscored.
std::optional<ScoredGame> scored_game_from_pgn(const PgnGame& game, const std::string& player);

// `arbiter convert IN.pgn OUT.abin [--player NAME]`: the summary line and any error
// (unreadable games are skipped, named, and make the exit code 1) go to `log`.
int run_convert_pgn(const std::string& input, const std::string& output, const std::string& player, std::ostream& log);

}  // namespace arbiter::tools

#pragma once
// PGN (Portable Game Notation) reading and writing.
//
// The reader takes what people and programs write, not only the export format:
//   tag pairs           [Name "value"], with \" and \\ escapes in the value
//   SetUp / FEN         the start position; FENs may be standard, X-FEN or Shredder-FEN
//   Variant             "Chess960" (also "fischerandom", "chess 960"): Chess960 castling
//   move numbers        1.  1...  and 1.e4 without a space
//   SAN                 + and #, x or :, disambiguation by file, rank or both, =Q and Q
//                       promotions, O-O and 0-0, a trailing e.p., a leading P on pawn moves
//   annotations         ! ? !! ?? !? ?! (glued to the move or alone), stored as NAGs 1-6
//   NAGs                $n, n from 0 to 255
//   comments            {brace comments} across lines, ; rest-of-line comments
//   variations          ( ... ) nested to any depth; each holds alternatives to the move before it
//   escape lines        % in the first column: the line is ignored
//   results             1-0  0-1  1/2-1/2  *; a game may also end at the next tag section or the
//                       end of the file without one (its result is then the Result tag's if that is one, else *)
//   line endings        \n, \r\n and \r
//
// Errors name the game (1-based, counting every game of the file), the line and the
// token. A bad game is skipped up to the next tag section and reading goes on: the
// games before and after it are returned.
//
// The writer produces the export format (Seven Tag Roster first, then the other tags in
// their order; movetext wrapped at 79 columns; NAGs as $n), and reading its output gives
// the same games: comments are stored with runs of whitespace collapsed to one space.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chess/game.h"
#include "chess/move.h"
#include "chess/position.h"

namespace arbiter {

struct PgnVariation;

struct PgnMove {
    Move move;
    std::vector<int> nags;                 // $n and suffix annotations, in reading order
    std::string comment_before;            // a comment between the previous move and this one
    std::string comment;                   // the comment after this move
    std::vector<PgnVariation> variations;  // alternatives to this move, from the position before it
};

// A variation's first comment is its first move's comment_before; an empty variation
// (a comment alone between parentheses included) is dropped.
struct PgnVariation {
    std::vector<PgnMove> moves;
};

struct PgnGame {
    std::vector<std::pair<std::string, std::string>> tags;
    Position start = Position::startpos();
    std::vector<PgnMove> moves;  // the main line
    std::string result = "*";    // 1-0, 0-1, 1/2-1/2 or *
    std::string comment;         // the comment of a game without moves
    int number = 0;              // the game's place in its file (1-based, bad games counted)
    int line = 0;                // where the game starts in its file (1-based)

    // The tag's value, or nullopt.
    std::optional<std::string> tag(std::string_view name) const;
    // Sets (or adds) a tag.
    void set_tag(std::string_view name, std::string value);
    // The main line as a Game (history, repetitions, status).
    Game mainline() const;
};

struct PgnError {
    int game = 0;       // 1-based position of the game in the file
    int line = 0;       // 1-based line of the token
    std::string token;  // the offending token as written
    std::string message;
    // "game 3, line 57, token 'Kxx': move 'Kxx' is not legal here"
    std::string text() const;
};

struct PgnReadResult {
    std::vector<PgnGame> games;
    std::vector<PgnError> errors;
};

PgnReadResult read_pgn(std::string_view text);

// One game in export format, ending with a blank line.
std::string write_pgn(const PgnGame& game);

// NAG for a suffix annotation (! 1, ? 2, !! 3, ?? 4, !? 5, ?! 6), or 0 if `text` is none.
int nag_of_annotation(std::string_view text);

}  // namespace arbiter

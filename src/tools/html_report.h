#pragma once
// The game review as one self-contained HTML page (`arbiter analyse --pgn FILE --html
// OUT.html`): no network, no file beside it, no script. Per game:
// - the players, the result and each side's accuracy, marks and average centipawn loss;
// - the eval graph (inline SVG): White's expected score after every move, White's share
//   light and Black's dark, the marked moves as coloured dots, and below it the
//   evaluation in pawns clamped to +-10 (the data `--plot` draws);
// - the move list with the marks (?!, ?, ??) and comments of the annotated PGN and the
//   engine's line after each marked move; a marked move links to its diagram;
// - a board diagram (svg_board.h) at every inaccuracy, mistake and blunder, from the
//   mover's side, with the move played (yellow, orange, red) and the engine's better move
//   (green) drawn as arrows.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "chess/move.h"
#include "chess/pgn.h"

namespace arbiter::tools {

enum class Mark { None, Inaccuracy, Mistake, Blunder };

// The position after a ply (index 0: the start).
struct ReviewPoint {
    bool evaluated = false;
    double expected = 0.5;    // White's expected score, 0 to 1 (search/wdl.h)
    int centipawns = 0;       // White's side, clamped to +-1000
    std::optional<int> mate;  // full moves to mate, White's side (0: mated on the board)
};

struct ReviewMove {
    Mark mark = Mark::None;
    Move best;                       // the engine's choice where the move is marked
    std::optional<double> accuracy;  // lichess's, where the mover was reviewed
};

struct ReviewSide {
    bool reviewed = false;
    double accuracy = 0, acpl = 0;
    int inaccuracies = 0, mistakes = 0, blunders = 0;
};

struct GameReview {
    PgnGame game;                     // the annotated game: comments, NAGs, the engine's lines
    std::vector<ReviewPoint> points;  // one per position: game.moves.size() + 1
    std::vector<ReviewMove> moves;    // one per move of the main line
    ReviewSide sides[2];              // White, Black
    std::string limit;                // the search per position, in words
};

// The whole page.
std::string html_report(std::span<const GameReview> games);

}  // namespace arbiter::tools

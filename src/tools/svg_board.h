#pragma once
// A chess diagram as SVG, for the HTML game report: the board, the pieces (Unicode chess
// glyphs, so no image files), coordinates and arrows for moves. The result is a
// standalone XML element: it parses on its own and embeds in HTML as it is.

#include <span>
#include <string>
#include <string_view>

#include "chess/move.h"
#include "chess/position.h"

namespace arbiter::tools {

struct BoardArrow {
    Move move;                // a move of the diagram's position (castling: the king's path)
    std::string_view colour;  // a CSS colour
};

// `pos` seen from `bottom`'s side, arrows drawn in order (the last on top); `label`
// becomes the diagram's accessible name.
std::string svg_board(const Position& pos, Color bottom, std::span<const BoardArrow> arrows, std::string_view label);

}  // namespace arbiter::tools

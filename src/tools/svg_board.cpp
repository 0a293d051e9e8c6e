#include "tools/svg_board.h"

#include <fmt/format.h>

#include <cmath>

#include "tools/html_text.h"

namespace arbiter::tools {

namespace {

constexpr int SquareSize = 35;
constexpr int Margin = 18;  // room for the coordinates, left and below
constexpr int BoardSize = 8 * SquareSize;
constexpr std::string_view LightSquare = "#f0d9b5", DarkSquare = "#b58863";
// The filled glyphs of U+265A-U+265F for both sides, white ones painted white with a
// dark outline: one glyph shape per piece, whatever the font does with the outlined
// set. U+FE0E asks for the text (not emoji) form of the pawn.
constexpr std::string_view Glyphs[6] = {"\u265F\uFE0E", "\u265E", "\u265D", "\u265C", "\u265B", "\u265A"};
constexpr double ArrowWidth = 0.16, ArrowHeadLength = 0.42, ArrowHeadWidth = 0.46;  // in squares

struct Point {
    double x, y;
};

// The centre of `s` in pixels.
Point centre(Square s, Color bottom) {
    const int column = bottom == White ? int(file_of(s)) : 7 - int(file_of(s));
    const int row = bottom == White ? 7 - int(rank_of(s)) : int(rank_of(s));
    return {Margin + (column + 0.5) * SquareSize, (row + 0.5) * SquareSize};
}

// Where the moving piece ends: a castling king on the g- or c-file.
Square destination(Move m) {
    if (m.kind() != Move::Castling) return m.to();
    return make_square(m.to() > m.from() ? FileG : FileC, rank_of(m.from()));
}

// An arrow as one polygon: a shaft from the origin's centre and a head touching the
// destination's centre.
std::string arrow(Move m, Color bottom, std::string_view colour) {
    const Point a = centre(m.from(), bottom), b = centre(destination(m), bottom);
    const double dx = b.x - a.x, dy = b.y - a.y, length = std::hypot(dx, dy);
    if (length == 0) return {};
    const double ux = dx / length, uy = dy / length, nx = -uy, ny = ux;
    const double half = ArrowWidth * SquareSize / 2, head = ArrowHeadLength * SquareSize,
                 head_half = ArrowHeadWidth * SquareSize / 2;
    const double neck = std::max(0.0, length - head);
    const Point points[7] = {
        {a.x + nx * half, a.y + ny * half},
        {a.x + ux * neck + nx * half, a.y + uy * neck + ny * half},
        {a.x + ux * neck + nx * head_half, a.y + uy * neck + ny * head_half},
        {b.x, b.y},
        {a.x + ux * neck - nx * head_half, a.y + uy * neck - ny * head_half},
        {a.x + ux * neck - nx * half, a.y + uy * neck - ny * half},
        {a.x - nx * half, a.y - ny * half},
    };
    std::string text = "<polygon class=\"arrow\" points=\"";
    for (const Point& p : points) text += fmt::format("{:.1f},{:.1f} ", p.x, p.y);
    text.back() = '"';
    return text + fmt::format(" fill=\"{}\" fill-opacity=\"0.78\"/>", colour);
}

}  // namespace

std::string svg_board(const Position& pos, Color bottom, std::span<const BoardArrow> arrows, std::string_view label) {
    const int width = Margin + BoardSize, height = BoardSize + Margin;
    std::string svg = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" width=\"{0}\" height=\"{1}\" "
        "viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"{2}\">",
        width, height, html_escape(label));
    for (int s = 0; s < 64; ++s) {
        const Square sq = square_at(s);
        const Point c = centre(sq, bottom);
        const bool light = (int(file_of(sq)) + int(rank_of(sq))) % 2 == 1;
        svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>", c.x - SquareSize / 2.0,
                           c.y - SquareSize / 2.0, SquareSize, SquareSize, light ? LightSquare : DarkSquare);
    }
    // Coordinates: files below the board, ranks to its left.
    for (int i = 0; i < 8; ++i) {
        const int file = bottom == White ? i : 7 - i, rank = bottom == White ? 7 - i : i;
        svg += fmt::format("<text class=\"coord\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                           Margin + (i + 0.5) * SquareSize, BoardSize + Margin - 5, char('a' + file));
        svg += fmt::format("<text class=\"coord\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", Margin / 2,
                           (i + 0.5) * SquareSize + 4, char('1' + rank));
    }
    for (int s = 0; s < 64; ++s) {
        const Piece p = pos.piece_on(square_at(s));
        if (p == NoPiece) continue;
        const Point c = centre(square_at(s), bottom);
        const bool white = color_of(p) == White;
        svg += fmt::format(
            "<text class=\"piece\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" "
            "dominant-baseline=\"central\" font-size=\"{}\" fill=\"{}\" stroke=\"{}\" "
            "stroke-width=\"{}\" paint-order=\"stroke\">{}</text>",
            c.x, c.y + SquareSize * 0.04, int(SquareSize * 0.86), white ? "#ffffff" : "#111111",
            white ? "#111111" : "#ffffff", white ? "1.6" : "0.6", Glyphs[type_of(p)]);
    }
    for (const BoardArrow& a : arrows) svg += arrow(a.move, bottom, a.colour);
    return svg + "</svg>";
}

}  // namespace arbiter::tools

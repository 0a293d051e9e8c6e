#include "tools/html_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "chess/notation.h"
#include "tools/format.h"
#include "tools/html_text.h"
#include "tools/svg_board.h"

namespace arbiter::tools {

namespace {

// The graph's geometry in pixels: the expected-score panel above the evaluation panel.
constexpr int GraphWidth = 960, GraphLeft = 40, GraphRight = 10;
constexpr int ScoreTop = 10, ScoreHeight = 170, PanelGap = 14, EvalHeight = 80, AxisHeight = 22;
constexpr double EvalClampPawns = 10;
constexpr std::string_view BestMoveColour = "#2e7d32";

constexpr std::string_view Style = R"(
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 24px auto; max-width: 1000px; color: #222;
       background: #fafafa; }
h1 { font-size: 24px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 22px 0 8px; }
.meta { color: #666; margin: 0 0 12px; }
section.game { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 16px 20px; margin-bottom: 28px; }
table.summary { border-collapse: collapse; margin: 8px 0 16px; }
table.summary th, table.summary td { padding: 4px 12px; border-bottom: 1px solid #e5e5e5; text-align: right; }
table.summary th:first-child, table.summary td:first-child { text-align: left; }
.moves { line-height: 1.9; font-size: 15px; }
.num { color: #888; margin-left: 6px; }
.move { font-weight: 600; color: #222; text-decoration: none; padding: 1px 3px; border-radius: 3px; }
.comment { color: #555; font-style: italic; }
.line { color: #888; font-size: 13px; }
.move.inaccuracy { background: #fff3c4; color: #8a6d00; }
.move.mistake { background: #ffe0c2; color: #a34f00; }
.move.blunder { background: #ffd0d0; color: #b71c1c; }
.diagrams { display: flex; flex-wrap: wrap; gap: 10px; }
figure.diagram { margin: 0; width: 310px; box-sizing: border-box; padding: 5px; background: #fff; border: 1px solid #ddd;
                 border-top: 5px solid #999; border-radius: 4px; }
figure.diagram.inaccuracy { border-top-color: #e6b400; }
figure.diagram.mistake { border-top-color: #f07c00; }
figure.diagram.blunder { border-top-color: #d32f2f; }
figure.diagram figcaption { font-size: 13px; margin-top: 6px; line-height: 1.45; }
figure.diagram figcaption a { color: #222; }
figure.graph { margin: 0; }
figure.graph figcaption { color: #666; font-size: 13px; }
svg text.coord { font-size: 11px; fill: #555; font-family: "DejaVu Sans", Arial, sans-serif; }
svg text.piece { font-family: "DejaVu Sans", "Noto Sans Symbols 2", "Segoe UI Symbol", sans-serif; }
svg text.axis { font-size: 11px; fill: #666; font-family: "DejaVu Sans", Arial, sans-serif; }
.key-played { color: #b71c1c; font-weight: 600; } .key-best { color: #2e7d32; font-weight: 600; }
)";

std::string_view mark_class(Mark m) {
    return m == Mark::Blunder ? "blunder" : m == Mark::Mistake ? "mistake" : m == Mark::Inaccuracy ? "inaccuracy" : "";
}
std::string_view mark_name(Mark m) {
    return m == Mark::Blunder ? "Blunder" : m == Mark::Mistake ? "Mistake" : m == Mark::Inaccuracy ? "Inaccuracy" : "";
}
std::string_view mark_colour(Mark m) {
    return m == Mark::Blunder ? "#d32f2f" : m == Mark::Mistake ? "#f07c00" : "#e6b400";
}

// The suffix for NAGs 1-6 (PGN's ! ? !! ?? !? ?!), nothing for others.
std::string nag_suffixes(const std::vector<int>& nags) {
    static constexpr std::string_view Suffix[] = {"", "!", "?", "!!", "??", "!?", "?!"};
    std::string text;
    for (int n : nags)
        if (n >= 1 && n <= 6) text += Suffix[n];
    return text;
}

// A comment without its embedded commands ([%eval ...], [%clk ...]): what a person reads.
std::string readable_comment(std::string_view comment) {
    std::string out;
    for (size_t i = 0; i < comment.size();) {
        if (comment.compare(i, 2, "[%") == 0) {
            const size_t end = comment.find(']', i);
            if (end != std::string_view::npos) {
                i = end + 1;
                continue;
            }
        }
        out += comment[i++];
    }
    const size_t first = out.find_first_not_of(' '), last = out.find_last_not_of(' ');
    return first == std::string::npos ? std::string() : out.substr(first, last - first + 1);
}

// "12." before White's move, "12..." before Black's when it opens a run of text.
std::string move_number(const Position& pos, bool after_text) {
    if (pos.side_to_move() == White) return fmt::format("{}.", pos.fullmove_number());
    return after_text ? fmt::format("{}...", pos.fullmove_number()) : std::string();
}

std::string eval_label(const ReviewPoint& p) {
    if (!p.evaluated) return "not evaluated";
    if (p.mate) return *p.mate == 0 ? "checkmate" : fmt::format("#{}", *p.mate);
    return fmt::format("{:+.2f}", p.centipawns / 100.0);
}

std::string anchor(const GameReview& r, size_t ply) { return fmt::format("g{}-ply{}", r.game.number, ply); }

std::string graph(const GameReview& r) {
    const size_t plies = r.game.moves.size();
    const double span = GraphWidth - GraphLeft - GraphRight;
    const auto x_of = [&](size_t ply) { return GraphLeft + span * double(ply) / double(std::max<size_t>(plies, 1)); };
    const auto score_y = [&](double expected) { return ScoreTop + ScoreHeight * (1 - expected); };
    const int eval_top = ScoreTop + ScoreHeight + PanelGap;
    const auto eval_y = [&](const ReviewPoint& p) {
        const double pawns = p.mate ? (p.centipawns >= 0 ? EvalClampPawns : -EvalClampPawns)
                                    : std::clamp(p.centipawns / 100.0, -EvalClampPawns, EvalClampPawns);
        return eval_top + EvalHeight * (0.5 - pawns / (2 * EvalClampPawns));
    };
    const int height = eval_top + EvalHeight + AxisHeight;
    std::string svg = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"graph\" width=\"{0}\" "
        "height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"Eval graph\">",
        GraphWidth, height);
    // Black's share is the dark background, White's the light area under the line, both
    // only where positions were evaluated (--side leaves some out).
    size_t first = 0, last = 0;
    while (first < plies && !r.points[first].evaluated) ++first;
    for (size_t ply = first; ply <= plies; ++ply)
        if (r.points[ply].evaluated) last = ply;
    svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#eeeeee\"/>", GraphLeft, ScoreTop,
                       span, ScoreHeight);
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" fill=\"#4a4a4a\"/>", x_of(first),
                       ScoreTop, x_of(last) - x_of(first), ScoreHeight);
    std::string area = fmt::format("{:.1f},{:.1f}", x_of(first), score_y(0)), line, eval_line;
    for (size_t ply = first; ply <= plies; ++ply) {
        const ReviewPoint& p = r.points[ply];
        if (!p.evaluated) continue;
        area += fmt::format(" {:.1f},{:.1f}", x_of(ply), score_y(p.expected));
        line += fmt::format("{}{:.1f},{:.1f}", line.empty() ? "" : " ", x_of(ply), score_y(p.expected));
        eval_line += fmt::format("{}{:.1f},{:.1f}", eval_line.empty() ? "" : " ", x_of(ply), eval_y(p));
    }
    area += fmt::format(" {:.1f},{:.1f}", x_of(last), score_y(0));
    svg += fmt::format("<polygon points=\"{}\" fill=\"#f2f2f2\"/>", area);
    svg += fmt::format(
        "<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"#999\" "
        "stroke-dasharray=\"4 3\"/>",
        GraphLeft, GraphLeft + span, score_y(0.5));
    svg += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"#888\" stroke-width=\"1.5\"/>", line);
    svg += fmt::format("<text class=\"axis\" x=\"{}\" y=\"{}\" text-anchor=\"end\">1</text>", GraphLeft - 6,
                       ScoreTop + 10);
    svg += fmt::format("<text class=\"axis\" x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">½</text>", GraphLeft - 6,
                       score_y(0.5) + 4);
    svg += fmt::format("<text class=\"axis\" x=\"{}\" y=\"{}\" text-anchor=\"end\">0</text>", GraphLeft - 6,
                       ScoreTop + ScoreHeight);
    // The evaluation panel: pawns from White's side, clamped.
    svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#ffffff\" stroke=\"#ddd\"/>",
                       GraphLeft, eval_top, span, EvalHeight);
    svg += fmt::format("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"#bbb\"/>", GraphLeft,
                       GraphLeft + span, eval_top + EvalHeight / 2.0);
    svg += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"1.5\"/>", eval_line);
    svg += fmt::format("<text class=\"axis\" x=\"{}\" y=\"{}\" text-anchor=\"end\">+10</text>", GraphLeft - 6,
                       eval_top + 10);
    svg += fmt::format("<text class=\"axis\" x=\"{}\" y=\"{}\" text-anchor=\"end\">-10</text>", GraphLeft - 6,
                       eval_top + EvalHeight);
    // Move numbers along the bottom, about ten of them.
    const int first_number = r.game.start.fullmove_number();
    const int moves = int((plies + 1) / 2), step = std::max(1, (moves + 9) / 10);
    const int white_offset = r.game.start.side_to_move() == White ? 0 : 1;
    for (int n = first_number; n <= first_number + moves; n += step) {
        const size_t ply = size_t(std::max(0, 2 * (n - first_number) - white_offset));
        if (ply > plies) break;
        svg += fmt::format("<text class=\"axis\" x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>", x_of(ply),
                           height - 6, n);
    }
    // The marked moves as dots on the expected-score line, named in a tooltip.
    Position pos = r.game.start;
    for (size_t i = 0; i < plies; ++i) {
        const Move m = r.game.moves[i].move;
        const Mark mark = r.moves[i].mark;
        if (mark != Mark::None && r.points[i + 1].evaluated) {
            const std::string name = fmt::format("{} {} {}", move_number(pos, true), to_san(pos, m), mark_name(mark));
            svg += fmt::format(
                "<a href=\"#{}\"><circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"{}\" stroke=\"#fff\" "
                "stroke-width=\"1.5\"><title>{}</title></circle></a>",
                anchor(r, i), x_of(i + 1), score_y(r.points[i + 1].expected), mark_colour(mark), html_escape(name));
        }
        pos = pos.apply(m);
    }
    return svg + "</svg>";
}

std::string summary_table(const GameReview& r) {
    std::string html =
        "<table class=\"summary\"><tr><th>Side</th><th>Player</th><th>Accuracy</th>"
        "<th>Inaccuracies</th><th>Mistakes</th><th>Blunders</th><th>ACPL</th></tr>";
    for (Color c : {White, Black}) {
        const ReviewSide& s = r.sides[c];
        const std::string player = html_escape(r.game.tag(c == White ? "White" : "Black").value_or("?"));
        if (!s.reviewed) {
            html += fmt::format("<tr><td>{}</td><td>{}</td><td colspan=\"5\">not reviewed</td></tr>",
                                c == White ? "White" : "Black", player);
            continue;
        }
        html += fmt::format(
            "<tr><td>{}</td><td>{}</td><td>{:.1f}%</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{:.0f}</td></tr>",
            c == White ? "White" : "Black", player, s.accuracy, s.inaccuracies, s.mistakes, s.blunders, s.acpl);
    }
    return html + "</table>";
}

std::string move_list(const GameReview& r) {
    std::string html = "<p class=\"moves\">";
    Position pos = r.game.start;
    bool after_text = true;  // Black's move needs its number after a comment or at the start
    for (size_t i = 0; i < r.game.moves.size(); ++i) {
        const PgnMove& m = r.game.moves[i];
        const Mark mark = r.moves[i].mark;
        const std::string number = move_number(pos, after_text);
        if (!number.empty()) html += fmt::format("<span class=\"num\">{}</span> ", number);
        const std::string text = html_escape(to_san(pos, m.move) + nag_suffixes(m.nags));
        const std::string title = html_escape(
            fmt::format("after it: {}{}", eval_label(r.points[i + 1]),
                        r.moves[i].accuracy ? fmt::format(", accuracy {:.0f}%", *r.moves[i].accuracy) : std::string()));
        if (mark != Mark::None)
            html += fmt::format("<a class=\"move {}\" id=\"{}-move\" href=\"#{}\" title=\"{}\">{}</a> ",
                                mark_class(mark), anchor(r, i), anchor(r, i), title, text);
        else html += fmt::format("<span class=\"move\" title=\"{}\">{}</span> ", title, text);
        after_text = false;
        if (const std::string comment = readable_comment(m.comment); !comment.empty()) {
            html += fmt::format("<span class=\"comment\">{}</span> ", html_escape(comment));
            after_text = true;
        }
        if (mark != Mark::None && !m.variations.empty()) {
            std::vector<Move> line;
            for (const PgnMove& v : m.variations.front().moves) line.push_back(v.move);
            html += fmt::format("<span class=\"line\">({})</span> ", html_escape(san_line(pos, line)));
            after_text = true;
        }
        pos = pos.apply(m.move);
    }
    return html + fmt::format("<strong>{}</strong></p>", html_escape(r.game.result));
}

std::string diagrams(const GameReview& r) {
    std::string html;
    Position pos = r.game.start;
    for (size_t i = 0; i < r.game.moves.size(); ++i) {
        const PgnMove& m = r.game.moves[i];
        const ReviewMove& review = r.moves[i];
        if (review.mark != Mark::None) {
            const std::string played = move_number(pos, true) + " " + to_san(pos, m.move);
            std::vector<BoardArrow> arrows = {{m.move, mark_colour(review.mark)}};
            std::string best;
            if (!review.best.is_null() && review.best != m.move) {
                arrows.push_back({review.best, BestMoveColour});
                best = to_san(pos, review.best);
            }
            const std::string label = fmt::format("{} {}{}", played, mark_name(review.mark),
                                                  best.empty() ? "" : fmt::format("; {} was best", best));
            html += fmt::format("<figure class=\"diagram {}\" id=\"{}\" data-ply=\"{}\" data-fen=\"{}\">{}",
                                mark_class(review.mark), anchor(r, i), i, html_escape(pos.fen()),
                                svg_board(pos, pos.side_to_move(), arrows, label));
            html += fmt::format(
                "<figcaption><a href=\"#{}-move\"><strong>{}{}</strong></a> {}: "
                "<span class=\"key-played\" style=\"color:{}\">played {}</span> ({} &#8594; {})",
                anchor(r, i), html_escape(played), nag_suffixes(m.nags), mark_name(review.mark),
                mark_colour(review.mark), html_escape(to_san(pos, m.move)), html_escape(eval_label(r.points[i])),
                html_escape(eval_label(r.points[i + 1])));
            if (!best.empty()) html += fmt::format(", <span class=\"key-best\">{} was best</span>", html_escape(best));
            if (!m.variations.empty()) {
                std::vector<Move> line;
                for (const PgnMove& v : m.variations.front().moves) line.push_back(v.move);
                html += fmt::format(": {}", html_escape(san_line(pos, line)));
            }
            html += ".</figcaption></figure>";
        }
        pos = pos.apply(m.move);
    }
    return html.empty() ? "<p>No inaccuracy, mistake or blunder.</p>" : "<div class=\"diagrams\">" + html + "</div>";
}

std::string game_section(const GameReview& r) {
    const PgnGame& g = r.game;
    const std::string white = g.tag("White").value_or("?"), black = g.tag("Black").value_or("?");
    std::string meta;
    for (const char* tag : {"Event", "Site", "Date"})
        if (const std::optional<std::string> v = g.tag(tag);
            v && !v->empty() && *v != "?" && v->find("??") == std::string::npos)
            meta += (meta.empty() ? "" : ", ") + *v;
    meta += fmt::format("{}reviewed by Arbiter, {} per position", meta.empty() ? "" : "; ", r.limit);
    std::string html = fmt::format(
        "<section class=\"game\" id=\"game-{}\"><h1>{} &#8211; {} <span class=\"result\">"
        "{}</span></h1><p class=\"meta\">{}</p>",
        g.number, html_escape(white), html_escape(black), html_escape(g.result), html_escape(meta));
    html += summary_table(r);
    html += fmt::format(
        "<figure class=\"graph\">{}<figcaption>Above: White's expected score after each move (win 1, "
        "draw &#189;), White's share light, Black's dark; dots mark inaccuracies (yellow), mistakes "
        "(orange) and blunders (red). Below: the evaluation in pawns, clamped to &#177;10."
        "</figcaption></figure>",
        graph(r));
    html += "<h2>Moves</h2>" + move_list(r);
    html += "<h2>Inaccuracies, mistakes and blunders</h2>" + diagrams(r);
    return html + "</section>";
}

}  // namespace

std::string html_report(std::span<const GameReview> games) {
    std::string title = "Game review";
    if (games.size() == 1)
        title += fmt::format(": {} - {}", games[0].game.tag("White").value_or("?"),
                             games[0].game.tag("Black").value_or("?"));
    std::string html = fmt::format(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"generator\" content=\"Arbiter\"><title>{}</title><style>{}</style>"
        "</head><body>\n",
        html_escape(title), Style);
    for (const GameReview& r : games) html += game_section(r) + "\n";
    return html + "</body></html>\n";
}

}  // namespace arbiter::tools

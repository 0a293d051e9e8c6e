#include "tools/pgn_training.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <fstream>
#include <ostream>
#include <sstream>
#include <vector>

#include "tools/cli.h"
#include "util/parse.h"

namespace arbiter::tools {

namespace {

// Reads the digits at `text[i]` on, six at the most; false when there are none.
bool read_digits(std::string_view text, size_t& i, int& value) {
    const size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && i - start < 6) ++i;
    const ParsedNumber<int> number = parse_number<int>(text.substr(start, i - start));
    if (number) value = *number;
    return number.has_value();
}

}  // namespace

std::optional<ScoredPly> scored_ply_from_comment(Move move, std::string_view comment, Color mover) {
    // [+-] (M<moves> | <pawns>[.<hundredths>]) "/" <depth>
    size_t i = 0;
    int sign = 1;
    if (i < comment.size() && (comment[i] == '+' || comment[i] == '-')) sign = comment[i++] == '-' ? -1 : 1;
    const bool mate = i < comment.size() && comment[i] == 'M';
    if (mate) ++i;
    int whole = 0, hundredths = 0;
    if (!read_digits(comment, i, whole)) return std::nullopt;
    if (!mate && i < comment.size() && comment[i] == '.') {
        ++i;
        const size_t start = i;
        if (!read_digits(comment, i, hundredths) || i - start > 2) return std::nullopt;
        if (i - start == 1) hundredths *= 10;
    }
    int depth = 0;
    if (i >= comment.size() || comment[i++] != '/' || !read_digits(comment, i, depth)) return std::nullopt;
    const int mover_sign = mover == White ? sign : -sign;
    if (mate) return ScoredPly{move, mover_sign * (search::Mate - std::max(0, 2 * whole - 1)), true};
    return ScoredPly{move, mover_sign * (whole * 100 + hundredths), false};
}

std::optional<ScoredGame> scored_game_from_pgn(const PgnGame& game, const std::string& player) {
    ScoredGame scored;
    if (game.result == "1-0") scored.result = TrainingResult::WhiteWins;
    else if (game.result == "0-1") scored.result = TrainingResult::BlackWins;
    else if (game.result == "1/2-1/2") scored.result = TrainingResult::Draw;
    else return std::nullopt;
    scored.start = game.start;
    const std::string white = game.tag("White").value_or(""), black = game.tag("Black").value_or("");
    Color mover = game.start.side_to_move();
    for (const PgnMove& m : game.moves) {
        std::optional<ScoredPly> ply;
        if (player.empty() || player == (mover == White ? white : black))
            ply = scored_ply_from_comment(m.move, m.comment, mover);
        if (!ply) ply = ScoredPly{m.move, 0, false, false};
        scored.plies.push_back(*ply);
        mover = ~mover;
    }
    return scored;
}

int run_convert_pgn(const std::string& input, const std::string& output, const std::string& player, std::ostream& log) {
    std::ifstream in;
    if (!open_conversion_input(input, output, in, log)) return 1;
    std::ostringstream text;
    text << in.rdbuf();
    const PgnReadResult pgn = read_pgn(text.str());
    errno = 0;
    std::ofstream out(output, std::ios::binary | std::ios::trunc);
    if (!out) {
        log << "arbiter convert: cannot open " << output << " for writing: " << system_error_text(errno) << '\n';
        return 1;
    }
    ConversionStats stats;
    uint64_t without_result = 0;
    for (const PgnGame& game : pgn.games) {
        const std::optional<ScoredGame> scored = scored_game_from_pgn(game, player);
        if (!scored) {
            ++without_result;
            continue;
        }
        const std::vector<TrainingRecord> records = game_records(*scored, stats);
        out.write(reinterpret_cast<const char*>(records.data()),
                  std::streamsize(records.size() * sizeof(TrainingRecord)));
    }
    out.close();
    log << fmt::format(
        "games {} (without a result, skipped: {})  plies {}  positions written {}  filtered: in check {}, "
        "capture or promotion {}, no score {}, mate score {}\n",
        stats.games, without_result, stats.plies, stats.written, stats.in_check, stats.tactical, stats.unscored,
        stats.mate);
    for (const PgnError& e : pgn.errors) log << "arbiter convert: " << input << ": " << e.text() << "; game skipped\n";
    if (!out) {
        log << "arbiter convert: write to " << output << " failed\n";
        return 1;
    }
    return pgn.errors.empty() ? 0 : 1;
}

}  // namespace arbiter::tools

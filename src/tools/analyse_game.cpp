// `arbiter analyse --pgn FILE ...`: a game review in the manner of lichess's.
//
// Every position of the main line is searched (with --side, those before and after the
// side's moves). A move is judged by the expected score (win 1, draw 1/2, from the WDL
// model of search/wdl.h) its mover kept: the loss is E(before, best play) - E(after the
// move), zero when the move was the engine's choice. Judging by expected score and not
// by centipawns means that dropping two pawns at +8 is no blunder, while at 0.00 it is.
//
//   loss >= 0.08  inaccuracy  ?!  ($6)      about 55 cp lost from an equal opening position
//   loss >= 0.15  mistake     ?   ($2)      about 105 cp
//   loss >= 0.25  blunder     ??  ($4)      about 185 cp
//
// Accuracy is lichess's (tools/accuracy.h): each move's from the drop in its mover's win
// percentage, a side's the mean of the volatility-weighted and harmonic means of its
// moves' accuracies.
//
// Output: the games as PGN, each move followed by `[%eval E]` (the evaluation after it,
// White's side, lichess's format), a NAG and a comment at each inaccuracy, mistake and
// blunder, and the engine's line as a variation; each side's accuracy, counts and
// average centipawn loss (scores clamped to +-10 pawns) as tags of the game
// (WhiteAccuracy, WhiteInaccuracies, WhiteMistakes, WhiteBlunders, WhiteACPL; Black's
// likewise). The same summary as a table goes to standard error, so that standard
// output is a PGN file and nothing else. --json writes only JSON instead: one object per
// searched position, then one with the game's summary (--output still writes the PGN).

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sys/wait.h>
#include <unistd.h>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/pgn.h"
#include "search/engine.h"
#include "tools/accuracy.h"
#include "tools/format.h"
#include "tools/html_report.h"
#include "tools/progress.h"
#include "tools/tools.h"

#ifndef ARBITER_SCRIPTS_DIR
#define ARBITER_SCRIPTS_DIR "scripts"
#endif

namespace arbiter::tools {

namespace {

constexpr int64_t DefaultMovetimeMs = 1000;
constexpr double InaccuracyLoss = 0.08, MistakeLoss = 0.15, BlunderLoss = 0.25;
constexpr size_t VariationPlies = 8;

enum class Judgement { None, Inaccuracy, Mistake, Blunder };

constexpr std::string_view judgement_name(Judgement j) {
    return j == Judgement::Blunder      ? "Blunder"
           : j == Judgement::Mistake    ? "Mistake"
           : j == Judgement::Inaccuracy ? "Inaccuracy"
                                        : "";
}
constexpr int judgement_nag(Judgement j) {
    return j == Judgement::Blunder ? 4 : j == Judgement::Mistake ? 2 : j == Judgement::Inaccuracy ? 6 : 0;
}

// One searched position.
struct Evaluation {
    bool searched = false;
    bool checkmate = false;   // no search: the side to move is mated
    search::Score white = 0;  // White's point of view
    search::Wdl wdl;          // White's point of view
    std::vector<Move> pv;     // pv[0] is the engine's move (empty when there is none)
    int depth = 0;
    uint64_t nodes = 0;
};

struct MoveReview {
    bool judged = false;
    double loss = 0;        // expected score lost by the mover, 0 to 1
    double accuracy = 100;  // lichess's, 0 to 100
    int cp_loss = 0;
    Judgement judgement = Judgement::None;
};

struct SideSummary {
    int moves = 0;
    long cp_loss = 0;
    int counts[4] = {};     // by Judgement
    double accuracy = 100;  // lichess's, over the side's moves (tools/accuracy.h)
    double acpl() const { return moves ? double(cp_loss) / moves : 0.0; }
};

struct Options {
    std::string pgn_path;
    int game = 0;  // 0: all
    bool side[2] = {true, true};
    std::string output_path;
    bool json = false;
    std::string plot_path;
    std::string html_path;
    SearchOptions search;
};

int fail(std::ostream& err, std::string_view message) {
    err << "arbiter analyse: " << message << '\n';
    err.flush();
    return 2;
}

std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += {'\\', c};
        else if (c == '\n') out += "\\n";
        else if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", int(c));
        else out += c;
    }
    return out + "\"";
}

double expected_for(const Evaluation& e, Color side) {
    const double white = e.wdl.expected_score();
    return side == White ? white : 1.0 - white;
}

MoveReview review_move(const Position& before, Move played, const Evaluation& at, const Evaluation& after) {
    MoveReview r;
    // Only a searched position with a PV has a move to compare with (every search
    // completes its first iteration, so only a position without legal moves has none).
    if (!at.searched || !after.searched || at.pv.empty()) return r;
    const Color mover = before.side_to_move();
    r.judged = true;
    if (!at.pv.empty() && at.pv[0] == played) return r;  // the engine's own choice loses nothing
    r.loss = std::max(0.0, expected_for(at, mover) - expected_for(after, mover));
    const int sign = mover == White ? 1 : -1;
    r.cp_loss = std::max(0, sign * (clamped_centipawns(at.white) - clamped_centipawns(after.white)));
    r.judgement = r.loss >= BlunderLoss      ? Judgement::Blunder
                  : r.loss >= MistakeLoss    ? Judgement::Mistake
                  : r.loss >= InaccuracyLoss ? Judgement::Inaccuracy
                                             : Judgement::None;
    return r;
}

class GameAnalyser {
public:
    GameAnalyser(const Options& options, search::Engine& engine) : options_(options), engine_(engine) {
        engine_.set_listener(
            {[this](const std::vector<search::SearchInfo>& lines) { last_ = lines.front(); }, nullptr, nullptr});
    }

    // The positions (by ply) a review of `game` searches.
    std::vector<bool> wanted(const PgnGame& game) const {
        const size_t plies = game.moves.size();
        std::vector<bool> want(plies + 1, false);
        Color mover = game.start.side_to_move();
        for (size_t i = 0; i < plies; ++i, mover = ~mover)
            if (options_.side[mover]) want[i] = want[i + 1] = true;
        return want;
    }

    std::vector<Evaluation> evaluate(const PgnGame& pgn, Progress& progress, size_t& done) {
        const std::vector<bool> want = wanted(pgn);
        std::vector<Evaluation> evals(want.size());
        engine_.new_game();
        Game game(pgn.start);
        for (size_t ply = 0; ply < want.size(); ++ply) {
            if (ply > 0) game.play(pgn.moves[ply - 1].move);
            if (!want[ply]) continue;
            evals[ply] = evaluate_position(game);
            progress.update(++done);
        }
        return evals;
    }

private:
    Evaluation evaluate_position(const Game& game) {
        const Position& pos = game.position();
        Evaluation e;
        e.searched = true;
        if (!has_legal_move(pos)) {
            e.checkmate = pos.in_check();
            e.white = e.checkmate ? white_score(search::mated_in(0), pos.side_to_move()) : 0;
        } else {
            last_ = {};
            engine_.set_game(game);
            engine_.go(options_.search.limits);
            engine_.wait();
            e.white = white_score(last_.score, pos.side_to_move());
            e.pv = last_.pv;
            e.depth = last_.depth;
            e.nodes = engine_.last_search_nodes();
        }
        // White's point of view, as `white`; certain where the game or the tables decide.
        const search::Wdl wdl =
            search::line_wdl(game, white_score(e.white, pos.side_to_move()), e.pv.empty() ? Move() : e.pv.front(),
                             engine_.tablebases(), engine_.tb_fifty_move_rule());
        e.wdl = pos.side_to_move() == White ? wdl : wdl.flipped();
        return e;
    }

    const Options& options_;
    search::Engine& engine_;
    search::SearchInfo last_;
};

// The annotated game: evals, NAGs, comments and the engine's lines added to a copy.
PgnGame annotate(const PgnGame& source, const std::vector<Evaluation>& evals, const std::vector<MoveReview>& reviews,
                 const SideSummary summary[2], const Options& options) {
    PgnGame game = source;
    Position pos = game.start;
    for (size_t i = 0; i < game.moves.size(); ++i) {
        PgnMove& m = game.moves[i];
        const Evaluation& after = evals[i + 1];
        std::string comment;
        if (after.searched && !after.checkmate) comment = fmt::format("[%eval {}]", lichess_eval(after.white));
        const MoveReview& r = reviews[i];
        if (r.judgement != Judgement::None && !evals[i].pv.empty()) {
            std::erase_if(m.nags, [](int nag) { return nag >= 1 && nag <= 6; });
            m.nags.push_back(judgement_nag(r.judgement));
            const std::vector<Move>& best = evals[i].pv;
            comment += fmt::format(" {}. {} was best.", judgement_name(r.judgement), to_san(pos, best[0]));
            PgnVariation line;
            Position p = pos;
            for (size_t k = 0; k < best.size() && k < VariationPlies && is_legal(p, best[k]); ++k) {
                line.moves.push_back({best[k], {}, {}, {}, {}});
                p = p.apply(best[k]);
            }
            m.variations.insert(m.variations.begin(), std::move(line));
        }
        if (!m.comment.empty()) comment += " " + m.comment;
        m.comment = comment.starts_with(" ") ? comment.substr(1) : comment;
        pos = pos.apply(m.move);
    }
    for (Color c : {White, Black}) {
        if (!options.side[c]) continue;
        const std::string name = c == White ? "White" : "Black";
        game.set_tag(name + "Accuracy", fmt::format("{:.1f}", summary[c].accuracy));
        game.set_tag(name + "Inaccuracies", std::to_string(summary[c].counts[int(Judgement::Inaccuracy)]));
        game.set_tag(name + "Mistakes", std::to_string(summary[c].counts[int(Judgement::Mistake)]));
        game.set_tag(name + "Blunders", std::to_string(summary[c].counts[int(Judgement::Blunder)]));
        game.set_tag(name + "ACPL", fmt::format("{:.0f}", summary[c].acpl()));
    }
    game.set_tag("Annotator", fmt::format("Arbiter, {} per position", describe_limit(options.search.limits)));
    return game;
}

std::string summary_text(const PgnGame& game, const SideSummary summary[2], const Options& options) {
    std::string text = fmt::format("Game {}: {} - {}, {}\n", game.number, game.tag("White").value_or("?"),
                                   game.tag("Black").value_or("?"), game.result);
    text += fmt::format("  {:<6} {:>8} {:>13} {:>9} {:>9} {:>6}\n", "side", "accuracy", "inaccuracies", "mistakes",
                        "blunders", "ACPL");
    for (Color c : {White, Black}) {
        if (!options.side[c]) continue;
        const SideSummary& s = summary[c];
        text += fmt::format("  {:<6} {:>8.1f} {:>13} {:>9} {:>9} {:>6.0f}\n", c == White ? "White" : "Black",
                            s.accuracy, s.counts[int(Judgement::Inaccuracy)], s.counts[int(Judgement::Mistake)],
                            s.counts[int(Judgement::Blunder)], s.acpl());
    }
    return text;
}

// The summary as one JSON object, after the game's positions.
std::string summary_json(const PgnGame& game, const SideSummary summary[2], const Options& options) {
    std::string sides;
    for (Color c : {White, Black}) {
        if (!options.side[c]) continue;
        const SideSummary& s = summary[c];
        sides += fmt::format(
            "{}\"{}\":{{\"accuracy\":{:.1f},\"acpl\":{:.1f},\"moves\":{},\"inaccuracies\":{},"
            "\"mistakes\":{},\"blunders\":{}}}",
            sides.empty() ? "" : ",", c == White ? "white" : "black", s.accuracy, s.acpl(), s.moves,
            s.counts[int(Judgement::Inaccuracy)], s.counts[int(Judgement::Mistake)], s.counts[int(Judgement::Blunder)]);
    }
    return fmt::format("{{\"game\":{},\"summary\":{{{}}},\"white\":{},\"black\":{},\"result\":{}}}", game.number, sides,
                       json_string(game.tag("White").value_or("?")), json_string(game.tag("Black").value_or("?")),
                       json_string(game.result));
}

// One JSON object per searched position.
void write_json(std::ostream& out, const PgnGame& game, const std::vector<Evaluation>& evals,
                const std::vector<MoveReview>& reviews) {
    Position pos = game.start;
    for (size_t ply = 0; ply < evals.size(); ++ply) {
        const Evaluation& e = evals[ply];
        if (e.searched) {
            std::string pv;
            Position p = pos;
            for (Move m : e.pv) {
                if (!is_legal(p, m)) break;
                if (!pv.empty()) pv += ',';
                pv += json_string(to_san(p, m));
                p = p.apply(m);
            }
            // A checkmated position has no evaluation, as lichess writes it (no [%eval] after
            // the mating move, no entry in its analysis): eval, cp and mate are null and
            // checkmate is true. The WDL says who won.
            const bool mate = search::is_mate(e.white) && !e.checkmate;
            const bool cp = !mate && !e.checkmate;
            std::string text = fmt::format(
                "{{\"game\":{},\"ply\":{},\"move_number\":{},\"side\":\"{}\",\"fen\":{},\"eval\":{},\"cp\":{},"
                "\"mate\":{},\"checkmate\":{},\"wdl\":[{},{},{}],\"depth\":{},\"nodes\":{},\"best\":{},\"best_uci\":{},"
                "\"pv\":[{}]",
                game.number, ply, pos.fullmove_number(), pos.side_to_move() == White ? "white" : "black",
                json_string(pos.fen()), e.checkmate ? "null" : json_string(format_score(e.white)),
                cp ? std::to_string(e.white) : "null", mate ? std::to_string(white_mate_moves(e.white)) : "null",
                e.checkmate ? "true" : "false", e.wdl.win, e.wdl.draw, e.wdl.loss, e.depth, e.nodes,
                e.pv.empty() ? "null" : json_string(to_san(pos, e.pv[0])),
                e.pv.empty() ? "null" : json_string(to_uci(e.pv[0], pos.chess960())), pv);
            if (ply < game.moves.size()) {
                const Move played = game.moves[ply].move;
                const MoveReview& r = reviews[ply];
                text += fmt::format(",\"played\":{},\"played_uci\":{}", json_string(to_san(pos, played)),
                                    json_string(to_uci(played, pos.chess960())));
                if (r.judged)
                    text += fmt::format(",\"loss\":{:.4f},\"accuracy\":{:.1f},\"cp_loss\":{},\"judgement\":{}", r.loss,
                                        r.accuracy, r.cp_loss,
                                        r.judgement == Judgement::None
                                            ? "null"
                                            : json_string(fmt::format("{}", judgement_name(r.judgement))));
            }
            out << text << "}\n";
        }
        if (ply < game.moves.size()) pos = pos.apply(game.moves[ply].move);
    }
    out.flush();
}

// The evaluations (White's side, centipawns clamped to +-1000) lichess's accuracy reads,
// one per position. A position not searched (--side) takes lichess's value for an
// unanalysed start at the start, else its predecessor's.
std::vector<int> accuracy_evals(const std::vector<Evaluation>& evals) {
    std::vector<int> cps(evals.size());
    for (size_t i = 0; i < evals.size(); ++i)
        cps[i] = evals[i].searched ? clamped_centipawns(evals[i].white) : i == 0 ? StartCentipawns : cps[i - 1];
    return cps;
}

// What the HTML page shows of one reviewed game (tools/html_report.h).
GameReview html_review(const PgnGame& annotated, const std::vector<Evaluation>& evals,
                       const std::vector<MoveReview>& reviews, const SideSummary summary[2], const Options& options) {
    GameReview r;
    r.game = annotated;
    r.limit = describe_limit(options.search.limits);
    for (const Evaluation& e : evals) {
        const bool mate = e.searched && search::is_mate(e.white);
        r.points.push_back({e.searched, e.wdl.expected_score(), clamped_centipawns(e.white),
                            mate ? std::optional<int>(white_mate_moves(e.white)) : std::nullopt});
    }
    Position pos = annotated.start;
    for (size_t i = 0; i < reviews.size(); ++i) {
        const MoveReview& m = reviews[i];
        const Mark mark = m.judgement == Judgement::Blunder      ? Mark::Blunder
                          : m.judgement == Judgement::Mistake    ? Mark::Mistake
                          : m.judgement == Judgement::Inaccuracy ? Mark::Inaccuracy
                                                                 : Mark::None;
        r.moves.push_back({mark, evals[i].pv.empty() ? Move() : evals[i].pv.front(),
                           options.side[pos.side_to_move()] ? std::optional<double>(m.accuracy) : std::nullopt});
        pos = pos.apply(annotated.moves[i].move);
    }
    for (Color c : {White, Black}) {
        const SideSummary& s = summary[c];
        r.sides[c] = {options.side[c],
                      s.accuracy,
                      s.acpl(),
                      s.counts[int(Judgement::Inaccuracy)],
                      s.counts[int(Judgement::Mistake)],
                      s.counts[int(Judgement::Blunder)]};
    }
    return r;
}

// Writes the page to `file`, opened before the games were searched; false (with the
// reason on `err`) when writing fails.
bool write_html(std::ofstream& file, const std::string& path, std::span<const GameReview> games, std::ostream& err) {
    errno = 0;
    file << html_report(games);
    file.flush();
    if (!file) {
        err << fmt::format("arbiter analyse: writing '{}' failed: {}\n", path, system_error_text(errno));
        return false;
    }
    err << fmt::format("Game report written to {}\n", path);
    return true;
}

std::string quote_shell(const std::string& text) {
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The eval graph through scripts/plot_eval.py, run by `python3` (ARBITER_PYTHON in the
// environment names another interpreter; the script re-runs itself under
// /usr/bin/python3, where Debian installs matplotlib, when the first lacks it).
// Returns false when the plot failed;
// a missing matplotlib is reported and counts as success (the plot is optional).
bool plot(const PgnGame& game, const std::vector<Evaluation>& evals, const std::vector<MoveReview>& reviews,
          const SideSummary summary[2], const Options& options, const std::string& png, std::ostream& err) {
    const char* env = std::getenv("ARBITER_SCRIPTS_DIR");
    const std::filesystem::path script = std::filesystem::path(env ? env : ARBITER_SCRIPTS_DIR) / "plot_eval.py";
    if (!std::filesystem::exists(script)) {
        err << fmt::format("arbiter analyse: no plot: {} not found (set ARBITER_SCRIPTS_DIR to the scripts folder)\n",
                           script.string());
        return false;
    }
    const std::filesystem::path data =
        std::filesystem::temp_directory_path() / fmt::format("arbiter-plot-{}-{}.json", getpid(), game.number);
    {
        std::ofstream f(data);
        std::string points;
        Position pos = game.start;
        for (size_t i = 0; i < game.moves.size(); ++i) {
            const Evaluation& e = evals[i + 1];
            const std::string label = san_line(pos, std::span(&game.moves[i].move, 1));
            const int number = pos.fullmove_number();
            const bool white = pos.side_to_move() == White;
            pos = pos.apply(game.moves[i].move);
            if (!e.searched) continue;
            points += fmt::format(
                "{}{{\"ply\":{},\"number\":{},\"white\":{},\"move\":{},\"cp\":{},\"mate\":{},\"expected\":{:.4f},"
                "\"judgement\":{}}}",
                points.empty() ? "" : ",", i + 1, number, white ? "true" : "false", json_string(label),
                clamped_centipawns(e.white),
                search::is_mate(e.white) ? std::to_string(white_mate_moves(e.white)) : "null", e.wdl.expected_score(),
                reviews[i].judgement == Judgement::None
                    ? "null"
                    : json_string(fmt::format("{}", judgement_name(reviews[i].judgement))));
        }
        f << fmt::format(
            "{{\"white\":{},\"black\":{},\"result\":{},\"event\":{},\"white_accuracy\":{},"
            "\"black_accuracy\":{},\"limit\":{},\"start_number\":{},\"start_expected\":{},"
            "\"start_cp\":{},\"points\":[{}]}}\n",
            json_string(game.tag("White").value_or("White")), json_string(game.tag("Black").value_or("Black")),
            json_string(game.result), json_string(game.tag("Event").value_or("")),
            options.side[White] ? fmt::format("{:.1f}", summary[White].accuracy) : "null",
            options.side[Black] ? fmt::format("{:.1f}", summary[Black].accuracy) : "null",
            json_string(describe_limit(options.search.limits)), game.start.fullmove_number(),
            evals[0].searched ? fmt::format("{:.4f}", evals[0].wdl.expected_score()) : "null",
            evals[0].searched ? clamped_centipawns(evals[0].white) : 0, points);
    }
    const char* python = std::getenv("ARBITER_PYTHON");
    const std::string command = fmt::format("{} {} {} {} 1>&2", quote_shell(python ? python : "python3"),
                                            quote_shell(script.string()), quote_shell(data.string()), quote_shell(png));
    const int status = std::system(command.c_str());
    std::filesystem::remove(data);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code == 0) {
        err << fmt::format("Eval graph written to {}\n", png);
        return true;
    }
    if (code == 3) {  // the script's "matplotlib is missing" (it printed how to install it)
        err << "arbiter analyse: plot skipped\n";
        return true;
    }
    err << fmt::format("arbiter analyse: the plot script failed (exit status {})\n", code);
    return false;
}

std::string plot_name(const std::string& path, int game_number, bool several) {
    if (!several) return path;
    std::filesystem::path p(path);
    const std::string ext = p.has_extension() ? p.extension().string() : ".png";
    return (p.parent_path() / fmt::format("{}-{}{}", p.stem().string(), game_number, ext)).string();
}

}  // namespace

int analyse_game_main(const Args& args, std::ostream& out, std::ostream& err) {
    Options options;
    ArgReader reader(args);
    while (!reader.done()) {
        const std::string_view flag = reader.next();
        std::string error;
        if (flag == "--pgn" || flag == "--output" || flag == "--plot" || flag == "--html" || flag == "--side") {
            const std::optional<std::string_view> value = reader.value();
            if (!value) return fail(err, fmt::format("{} needs a value", flag));
            if (flag == "--pgn") options.pgn_path = *value;
            else if (flag == "--output") options.output_path = *value;
            else if (flag == "--plot") options.plot_path = *value;
            else if (flag == "--html") options.html_path = *value;
            else if (*value == "white") options.side[Black] = false;
            else if (*value == "black") options.side[White] = false;
            else return fail(err, fmt::format("--side takes white or black, not '{}'", *value));
        } else if (flag == "--game") {
            if (!reader.number(flag, 1, 1 << 30, options.game, error)) return fail(err, error);
        } else if (flag == "--json") {
            options.json = true;
        } else if (flag == "--infinite") {
            return fail(err, "--infinite is for a single position; give --movetime, --depth or --nodes");
        } else if (flag == "--multipv" || flag == "--fen" || flag == "--moves") {
            return fail(err, fmt::format("{} is for a single position, not with --pgn", flag));
        } else if (read_search_flag(reader, flag, options.search, false, error)) {
            if (!error.empty()) return fail(err, error);
        } else {
            return fail(err, flag.starts_with("--") ? fmt::format("unknown option '{}'", flag)
                                                    : fmt::format("unexpected argument '{}'", flag));
        }
    }
    if (!options.search.limited) options.search.limits.movetime = DefaultMovetimeMs;

    std::string error;
    const std::optional<std::string> text = read_file(options.pgn_path, error);
    if (!text) return fail(err, error);
    PgnReadResult pgn = read_pgn(*text);
    int status = 0;
    std::vector<PgnGame> games;
    for (const PgnError& e : pgn.errors) {
        if (options.game && e.game != options.game) continue;
        err << fmt::format("arbiter analyse: {}: {}\n", options.pgn_path, e.text());
        status = 1;
    }
    for (PgnGame& g : pgn.games)
        if (!options.game || g.number == options.game) games.push_back(std::move(g));
    if (options.game && games.empty() && status == 0)
        return fail(err, fmt::format("{} has no game {}", options.pgn_path, options.game));
    if (games.empty() && status == 0) return fail(err, fmt::format("{} holds no game", options.pgn_path));

    std::ofstream file;
    if (!options.output_path.empty()) {
        errno = 0;
        file.open(options.output_path, std::ios::binary);
        if (!file)
            return fail(err, fmt::format("cannot write '{}': {}", options.output_path, system_error_text(errno)));
    }
    std::ostream& pgn_out = options.output_path.empty() ? out : file;
    std::ofstream html_file;
    if (!options.html_path.empty()) {
        errno = 0;
        html_file.open(options.html_path, std::ios::binary);
        if (!html_file)
            return fail(err, fmt::format("cannot write '{}': {}", options.html_path, system_error_text(errno)));
    }

    search::Engine engine;
    if (const std::optional<std::string> problem = configure_engine(engine, options.search, err))
        return fail(err, *problem);
    GameAnalyser analyser(options, engine);
    size_t total = 0;
    for (const PgnGame& g : games)
        for (bool w : analyser.wanted(g)) total += w;
    Progress progress(err, total, "positions");
    size_t done = 0;
    progress.update(0);
    std::vector<GameReview> html_games;

    for (const PgnGame& game : games) {
        const std::vector<Evaluation> evals = analyser.evaluate(game, progress, done);
        std::vector<MoveReview> reviews(game.moves.size());
        SideSummary summary[2];
        Position pos = game.start;
        for (size_t i = 0; i < game.moves.size(); ++i) {
            const Color mover = pos.side_to_move();
            if (options.side[mover]) {
                reviews[i] = review_move(pos, game.moves[i].move, evals[i], evals[i + 1]);
                if (reviews[i].judged) {
                    SideSummary& s = summary[mover];
                    ++s.moves;
                    s.cp_loss += reviews[i].cp_loss;
                    ++s.counts[int(reviews[i].judgement)];
                }
            }
            pos = pos.apply(game.moves[i].move);
        }
        const std::vector<int> cps = accuracy_evals(evals);
        const std::vector<double> accuracies = move_accuracies(cps, game.start.side_to_move());
        for (size_t i = 0; i < reviews.size(); ++i) reviews[i].accuracy = accuracies[i];
        const GameAccuracy accuracy = game_accuracy(cps, game.start.side_to_move());
        if (accuracy.white) summary[White].accuracy = *accuracy.white;
        if (accuracy.black) summary[Black].accuracy = *accuracy.black;
        const PgnGame annotated = annotate(game, evals, reviews, summary, options);
        if (options.json) {
            progress.finish();
            write_json(out, game, evals, reviews);
            out << summary_json(game, summary, options) << '\n';
            out.flush();
            if (!options.output_path.empty()) pgn_out << write_pgn(annotated);
        } else {
            progress.finish();
            pgn_out << write_pgn(annotated);
            pgn_out.flush();
            // Standard output carries the PGN and nothing else: the table is for the
            // person watching (the game's tags carry the same figures).
            err << summary_text(game, summary, options);
            err.flush();
        }
        if (!options.html_path.empty()) html_games.push_back(html_review(annotated, evals, reviews, summary, options));
        if (!options.plot_path.empty() && !plot(game, evals, reviews, summary, options,
                                                plot_name(options.plot_path, game.number, games.size() > 1), err))
            status = 1;
    }
    progress.finish();
    if (html_file.is_open() && !write_html(html_file, options.html_path, html_games, err)) status = 2;
    if (file.is_open()) {
        file.flush();
        if (!file) return fail(err, fmt::format("writing '{}' failed", options.output_path));
    }
    return status;
}

}  // namespace arbiter::tools

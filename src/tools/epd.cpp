// `arbiter epd FILE [limits] [--threads T] [--hash MB]`: runs a test suite. Each EPD line
// is a position (four FEN fields, optionally the two clocks) and operations `opcode
// operands;`. Used here: `bm` (best moves: the engine must choose one), `am` (avoid
// moves: it must choose none), each in SAN or UCI, and `id`. A position is solved when
// the engine's final move passes both; its time to solution is when the search settled
// on a passing move for good (the first iteration from which every later one passed).
//
//   WAC.001  found      Qg6    0.05 s  bm Qg6
//   WAC.002  not found  Kf6    -       bm Rxb2
//   ...
//   WAC: 291 / 300

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <ostream>

#include "chess/game.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "search/engine.h"
#include "tools/format.h"
#include "tools/tools.h"

namespace arbiter::tools {

namespace {

constexpr int64_t DefaultMovetimeMs = 1000;

struct EpdEntry {
    int line = 0;
    Position pos = Position::startpos();
    std::string id;
    std::vector<Move> best, avoid;
};

int fail(std::ostream& err, std::string_view message) {
    err << "arbiter epd: " << message << '\n';
    err.flush();
    return 2;
}

struct Operation {
    std::string opcode;
    std::vector<std::string> operands;
};

// `opcode operand ...;` repeated; quoted operands may hold spaces and ';'.
std::vector<Operation> parse_operations(std::string_view text) {
    std::vector<Operation> ops;
    size_t i = 0;
    auto skip_space = [&] {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    };
    while (true) {
        skip_space();
        if (i >= text.size()) break;
        if (text[i] == ';') {
            ++i;
            continue;
        }
        Operation op;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != ';') op.opcode += text[i++];
        while (true) {
            skip_space();
            if (i >= text.size() || text[i] == ';') break;
            std::string operand;
            if (text[i] == '"') {
                ++i;
                while (i < text.size() && text[i] != '"') operand += text[i++];
                if (i < text.size()) ++i;
            } else {
                while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != ';') operand += text[i++];
            }
            op.operands.push_back(operand);
        }
        ops.push_back(std::move(op));
    }
    return ops;
}

bool is_number(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// One line to an entry; an empty `error` and no entry means a blank or comment line.
std::optional<EpdEntry> parse_epd_line(std::string_view line, int number, std::string& error) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') return std::nullopt;
    line.remove_prefix(first);
    // The four FEN fields, then the clocks if both are there.
    std::vector<std::string_view> fields;
    size_t i = 0;
    while (fields.size() < 6 && i < line.size()) {
        while (i < line.size() && line[i] == ' ') ++i;
        const size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != ';') ++i;
        fields.push_back(line.substr(start, i - start));
    }
    if (fields.size() < 4) {
        error = "expected at least the four FEN fields";
        return std::nullopt;
    }
    std::string fen = fmt::format("{} {} {} {}", fields[0], fields[1], fields[2], fields[3]);
    size_t ops_at;
    if (fields.size() == 6 && is_number(fields[4]) && is_number(fields[5])) {
        fen += fmt::format(" {} {}", fields[4], fields[5]);
        ops_at = size_t(fields[5].data() + fields[5].size() - line.data());
    } else {
        ops_at = size_t(fields[3].data() + fields[3].size() - line.data());
    }
    const FenResult parsed = read_any_fen(fen);
    if (!parsed.position) {
        error = fmt::format("{} ('{}')", parsed.error, fen);
        return std::nullopt;
    }
    EpdEntry entry;
    entry.line = number;
    entry.pos = *parsed.position;
    for (const Operation& op : parse_operations(line.substr(ops_at))) {
        if (op.opcode == "id" && !op.operands.empty()) entry.id = op.operands[0];
        if (op.opcode != "bm" && op.opcode != "am") continue;
        for (const std::string& text : op.operands) {
            const std::optional<Move> move = parse_move(entry.pos, text);
            if (!move) {
                error = fmt::format("{} '{}' is not a legal move in {}", op.opcode, text, entry.pos.fen());
                return std::nullopt;
            }
            (op.opcode == "bm" ? entry.best : entry.avoid).push_back(*move);
        }
    }
    if (entry.best.empty() && entry.avoid.empty()) {
        error = "no bm or am operation";
        return std::nullopt;
    }
    if (entry.id.empty()) entry.id = fmt::format("line {}", number);
    return entry;
}

bool passes(const EpdEntry& e, Move m) {
    if (!e.best.empty() && std::find(e.best.begin(), e.best.end(), m) == e.best.end()) return false;
    return std::find(e.avoid.begin(), e.avoid.end(), m) == e.avoid.end();
}

std::string expectation(const EpdEntry& e) {
    std::string text;
    for (const auto& [name, moves] : {std::pair{"bm", &e.best}, std::pair{"am", &e.avoid}}) {
        if (moves->empty()) continue;
        if (!text.empty()) text += "; ";
        text += name;
        for (Move m : *moves) {
            text += ' ';
            text += to_san(e.pos, m);
        }
    }
    return text;
}

// The suite's name: the ids' common prefix before a '.', as in WAC.001, else the file's name.
std::string suite_name(const std::vector<EpdEntry>& entries, const std::string& path) {
    std::string prefix;
    for (const EpdEntry& e : entries) {
        const size_t dot = e.id.find('.');
        const std::string p = dot == std::string::npos || dot == 0 ? "" : e.id.substr(0, dot);
        if (p.empty() || (!prefix.empty() && p != prefix)) return std::filesystem::path(path).stem().string();
        prefix = p;
    }
    return prefix.empty() ? std::filesystem::path(path).stem().string() : prefix;
}

}  // namespace

int epd_main(const Args& args, std::ostream& out, std::ostream& err) {
    SearchOptions options;
    std::string path;
    ArgReader reader(args);
    while (!reader.done()) {
        const std::string_view arg = reader.next();
        std::string error;
        if (!arg.starts_with("--")) {
            if (!path.empty()) return fail(err, fmt::format("unexpected argument '{}' (one EPD file only)", arg));
            path = arg;
        } else if (arg == "--infinite") {
            return fail(err, "--infinite would never finish a suite; give --movetime, --depth or --nodes");
        } else if (read_search_flag(reader, arg, options, false, error)) {
            if (!error.empty()) return fail(err, error);
        } else {
            return fail(err, fmt::format("unknown option '{}'", arg));
        }
    }
    if (path.empty()) return fail(err, "expected an EPD file");
    if (!options.limited) options.limits.movetime = DefaultMovetimeMs;

    std::string error;
    const std::optional<std::string> text = read_file(path, error);
    if (!text) return fail(err, error);
    std::vector<EpdEntry> entries;
    int status = 0;
    int number = 0;
    for (size_t start = 0; start < text->size();) {
        size_t end = text->find('\n', start);
        if (end == std::string::npos) end = text->size();
        ++number;
        std::string line_error;
        if (std::optional<EpdEntry> e =
                parse_epd_line(std::string_view(*text).substr(start, end - start), number, line_error))
            entries.push_back(std::move(*e));
        else if (!line_error.empty()) {
            err << fmt::format("arbiter epd: {}:{}: {}; skipped\n", path, number, line_error);
            status = 1;
        }
        start = end + 1;
    }
    if (entries.empty()) return fail(err, fmt::format("{} holds no position to test", path));

    search::Engine engine;
    if (const std::optional<std::string> problem = configure_engine(engine, options, err)) return fail(err, *problem);
    std::vector<std::pair<int64_t, Move>> iterations;
    Move best;
    engine.set_listener({[&](const std::vector<search::SearchInfo>& lines) {
                             if (!lines.front().pv.empty())
                                 iterations.emplace_back(lines.front().time_ms, lines.front().pv[0]);
                         },
                         nullptr, [&](Move m, Move) { best = m; }});

    const std::string suite = suite_name(entries, path);
    size_t id_width = 0;
    for (const EpdEntry& e : entries) id_width = std::max(id_width, e.id.size());
    out << fmt::format("{}: {} positions, {} each, {} thread{}, {} MB hash\n", suite, entries.size(),
                       describe_limit(options.limits), options.threads, options.threads == 1 ? "" : "s",
                       options.hash_mb);
    out.flush();
    int solved = 0;
    for (const EpdEntry& e : entries) {
        iterations.clear();
        best = Move();
        engine.new_game();
        engine.set_game(Game(e.pos));
        engine.go(options.limits);
        engine.wait();
        const bool found = !best.is_null() && passes(e, best);
        std::string when = "-";
        if (found) {
            int64_t since = iterations.empty() ? 0 : iterations.back().first;
            for (auto it = iterations.rbegin(); it != iterations.rend() && passes(e, it->second); ++it)
                since = it->first;
            when = fmt::format("{:.3f} s", double(since) / 1000.0);
        }
        solved += found;
        const std::string chosen = best.is_null() ? "(none)" : to_san(e.pos, best);
        out << fmt::format("{:<{}}  {:<9}  {:<7}  {:<8}  {}\n", e.id, id_width, found ? "found" : "not found", chosen,
                           when, expectation(e));
        out.flush();
    }
    out << fmt::format("{}: {} / {}\n", suite, solved, entries.size());
    out.flush();
    return status;
}

}  // namespace arbiter::tools

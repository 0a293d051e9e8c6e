#include "tools/cli.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "chess/notation.h"
#include "search/score.h"

namespace arbiter::tools {

namespace {

bool is_flag(std::string_view arg) { return arg.size() > 2 && arg.starts_with("--"); }

// The longest --movetime: a year, in milliseconds.
constexpr int64_t MaxMovetimeMs = int64_t(365) * 24 * 60 * 60 * 1000;
// The most --nodes: a trillion, days of searching on any machine.
constexpr uint64_t MaxNodes = 1'000'000'000'000;

}  // namespace

std::optional<std::string_view> ArgReader::value() {
    if (done() || is_flag(args_[i_])) return std::nullopt;
    return args_[i_++];
}

std::vector<std::string_view> ArgReader::values() {
    std::vector<std::string_view> out;
    while (!done() && !is_flag(args_[i_])) out.push_back(args_[i_++]);
    return out;
}

template <typename T>
bool ArgReader::number(std::string_view flag, T min, T max, T& out, std::string& error, std::string_view what) {
    const std::optional<std::string_view> text = value();
    const ParsedNumber<T> parsed = text ? parse_number<T>(*text, min, max) : NumberError::NotANumber;
    if (!parsed) {
        error = text ? fmt::format("{} needs {} from {} to {}, not '{}'", flag, what, min, max, *text)
                     : fmt::format("{} needs {} from {} to {}", flag, what, min, max);
        return false;
    }
    out = *parsed;
    return true;
}
template bool ArgReader::number<int>(std::string_view, int, int, int&, std::string&, std::string_view);
template bool ArgReader::number<int64_t>(std::string_view, int64_t, int64_t, int64_t&, std::string&, std::string_view);
template bool ArgReader::number<uint64_t>(std::string_view, uint64_t, uint64_t, uint64_t&, std::string&,
                                          std::string_view);

int usage_error(std::ostream& err, std::string_view tool, std::string_view message) {
    err << "arbiter " << tool << ": " << message << '\n';
    err.flush();
    return 2;
}

bool read_search_flag(ArgReader& args, std::string_view flag, SearchOptions& options, bool multipv,
                      std::string& error) {
    search::SearchLimits& limits = options.limits;
    const bool is_limit = flag == "--depth" || flag == "--movetime" || flag == "--nodes" || flag == "--infinite";
    if (is_limit && options.limited) {
        error = fmt::format("{}: give only one of --depth, --movetime, --nodes and --infinite", flag);
        return true;
    }
    options.limited |= is_limit;
    if (flag == "--depth") args.number(flag, 1, search::MaxPly - 1, limits.depth, error);
    else if (flag == "--movetime") args.number(flag, int64_t(1), MaxMovetimeMs, limits.movetime, error, "milliseconds");
    else if (flag == "--nodes") args.number(flag, uint64_t(1), MaxNodes, limits.nodes, error, "a number of nodes");
    else if (flag == "--infinite") limits.infinite = true;
    else if (flag == "--threads") args.number(flag, 1, 1024, options.threads, error);
    else if (flag == "--hash") args.number(flag, 1, 65536, options.hash_mb, error);
    else if (flag == "--syzygy") {
        if (const std::optional<std::string_view> path = args.value()) options.syzygy = std::string(*path);
        else error = "--syzygy needs a folder (several separated by ':')";
    } else if (flag == "--multipv" && multipv) args.number(flag, 1, 256, options.multipv, error);
    else return false;
    return true;
}

std::optional<std::string> configure_engine(search::Engine& engine, const SearchOptions& options, std::ostream& err) {
    if (!engine.set_hash_mb(size_t(options.hash_mb)))
        return fmt::format("cannot allocate {} MB for the hash table", options.hash_mb);
    engine.set_threads(options.threads);
    if (options.syzygy.empty()) return std::nullopt;
    const syzygy::LoadReport report = engine.load_tablebases(options.syzygy);
    for (const std::string& problem : report.problems) err << "tablebases: " << problem << '\n';
    if (report.tables == 0) return fmt::format("no tablebases found in '{}'", options.syzygy);
    return std::nullopt;
}

std::string describe_limit(const search::SearchLimits& limits) {
    if (limits.depth) return fmt::format("depth {}", limits.depth);
    if (limits.nodes) return fmt::format("{} nodes", limits.nodes);
    if (limits.movetime) return fmt::format("{} ms", limits.movetime);
    return "infinite";
}

FenResult read_any_fen(std::string_view fen) {
    FenResult standard = Position::from_fen(fen, false, FenCheck::Playable);
    if (standard.position) return standard;
    FenResult chess960 = Position::from_fen(fen, true, FenCheck::Playable);
    return chess960.position ? chess960 : standard;
}

std::optional<Move> parse_move(const Position& pos, std::string_view text) {
    if (const std::optional<Move> uci = parse_uci(pos, text)) return uci;
    return parse_san(pos, text).move;
}

std::string system_error_text(int error) { return error ? std::strerror(error) : "unknown error"; }

std::optional<std::string> read_file(const std::string& path, std::string& error) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        error = fmt::format("'{}' is a directory", path);
        return std::nullopt;
    }
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = fmt::format("cannot open '{}': {}", path, system_error_text(errno));
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        error = fmt::format("cannot read '{}'", path);
        return std::nullopt;
    }
    return text.str();
}

}  // namespace arbiter::tools

#include "tools/pool.h"

#include <fmt/format.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <unordered_map>
#include <utility>

#include "tools/game_pack.h"
#include "tools/cli.h"
#include "tools/game_record.h"
#include "tools/tools.h"

namespace arbiter::tools {

namespace {

bool has_extension(const std::string& path, std::string_view extension) {
    return std::filesystem::path(path).extension() == extension;
}

// The kept positions of `games` (the filters of `convert`) and their plies.
ConversionStats count_positions(const std::vector<ScoredGame>& games) {
    ConversionStats stats;
    for (const ScoredGame& game : games) game_records(game, stats);
    return stats;
}

// Feeds every game of one input to `take`; the reason when the input is unreadable
// or damaged (the games before the damage have been fed).
template <typename Take>
std::string read_games(const std::string& path, Take take) {
    if (has_extension(path, ".apack")) {
        std::vector<ScoredGame> games;
        std::string error;
        if (!read_pack_file(path, games, error)) return error;
        for (const ScoredGame& game : games) take(game);
        return {};
    }
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) return fmt::format("cannot open {}: {}", path, system_error_text(errno));
    GameReader reader(in);
    for (ScoredGame game; reader.next(game);) take(game);
    return reader.error().empty() ? std::string() : fmt::format("{}: {}", path, reader.error());
}

}  // namespace

int pack_main(const Args& args, std::ostream&, std::ostream& err) {
    std::vector<std::string> files;
    uint64_t skip = 0, count = UINT64_MAX;
    std::string error;
    for (ArgReader reader(args); !reader.done() && error.empty();) {
        const std::string_view arg = reader.next();
        if (arg == "--skip") reader.number<uint64_t>(arg, 0, UINT64_MAX, skip, error);
        else if (arg == "--games") reader.number<uint64_t>(arg, 1, UINT64_MAX, count, error);
        else if (arg.starts_with("--")) error = fmt::format("unknown option '{}'", arg);
        else files.emplace_back(arg);
    }
    if (error.empty() && files.size() != 2) error = "expected an input .agame file and an output .apack file";
    if (error.empty() && !has_extension(files[1], ".apack"))
        error = fmt::format("{}: the output must end in .apack", files[1]);
    if (!error.empty()) {
        err << "arbiter pack: " << error << '\n';
        return 2;
    }
    errno = 0;
    std::ifstream in(files[0], std::ios::binary);
    if (!in) {
        err << fmt::format("arbiter pack: cannot open {}: {}\n", files[0], system_error_text(errno));
        return 1;
    }
    GameReader reader(in);
    std::vector<ScoredGame> games;
    uint64_t index = 0;
    for (ScoredGame game; games.size() < count && reader.next(game); ++index)
        if (index >= skip) games.push_back(game);
    // A run that is still writing ends in a part of a game: that game goes into the
    // next shard. Any other damage is an error.
    const bool truncated_tail = reader.error().find("truncated file") != std::string::npos;
    if (!reader.error().empty() && !truncated_tail) {
        err << fmt::format("arbiter pack: {}: {}\n", files[0], reader.error());
        return 1;
    }
    if (games.empty()) {
        err << fmt::format("arbiter pack: {} has no complete game from game {} on\n", files[0], skip);
        return 1;
    }
    if (!write_pack_file(files[1], games, error)) {
        err << "arbiter pack: " << error << '\n';
        return 1;
    }
    const ConversionStats stats = count_positions(games);
    const auto bytes = std::filesystem::file_size(files[1]);
    err << fmt::format(
        "games {} (from {})  plies {}  kept positions {}  bytes {}  bytes a ply {:.3f}  "
        "bytes a kept position {:.3f}\n",
        games.size(), skip, stats.plies, stats.written, bytes, double(bytes) / double(stats.plies),
        double(bytes) / double(std::max<uint64_t>(stats.written, 1)));
    return 0;
}

int unpack_main(const Args& args, std::ostream&, std::ostream& err) {
    if (args.size() != 2 || !has_extension(std::string(args[0]), ".apack")) {
        err << "arbiter unpack: expected an input .apack file and an output .agame file\n";
        return 2;
    }
    std::vector<ScoredGame> games;
    std::string error;
    if (!read_pack_file(std::string(args[0]), games, error)) {
        err << "arbiter unpack: " << error << '\n';
        return 1;
    }
    std::ofstream out(std::string(args[1]), std::ios::binary | std::ios::trunc);
    for (const ScoredGame& game : games) write_game(out, game);
    out.close();
    if (!out) {
        err << fmt::format("arbiter unpack: cannot write {}\n", args[1]);
        return 1;
    }
    err << fmt::format("games {}\n", games.size());
    return 0;
}

int run_convert_pool(const std::vector<std::string>& inputs, const std::string& output, std::ostream& log) {
    namespace fs = std::filesystem;
    for (const std::string& input : inputs) {
        std::error_code ec;
        if (fs::exists(output) && fs::equivalent(input, output, ec)) {
            log << "arbiter convert: an input and the output are the same file\n";
            return 1;
        }
    }
    for (const std::string& input : inputs) {
        errno = 0;
        if (!std::ifstream(input, std::ios::binary)) {
            log << fmt::format("arbiter convert: cannot open {}: {}\n", input, system_error_text(errno));
            return 1;
        }
    }
    errno = 0;
    std::ofstream out(output, std::ios::binary | std::ios::trunc);
    if (!out) {
        log << fmt::format("arbiter convert: cannot open {} for writing: {}\n", output, system_error_text(errno));
        return 1;
    }
    ConversionStats stats;
    uint64_t duplicates = 0;
    // Each game's fingerprint and the input it was first read from; the duplicates are
    // counted by (the input repeating a game, the input that had it first).
    std::unordered_map<uint64_t, size_t> first_input;
    std::map<std::pair<size_t, size_t>, uint64_t> repeats;
    int status = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
        const std::string& input = inputs[i];
        const std::string error = read_games(input, [&](const ScoredGame& game) {
            const auto [it, inserted] = first_input.try_emplace(game_fingerprint(game), i);
            if (!inserted) {
                ++duplicates;
                ++repeats[{i, it->second}];
                return;
            }
            const std::vector<TrainingRecord> records = game_records(game, stats);
            out.write(reinterpret_cast<const char*>(records.data()),
                      std::streamsize(records.size() * sizeof(TrainingRecord)));
        });
        if (!error.empty()) {
            log << "arbiter convert: " << error << "; the games before it were converted\n";
            status = 1;
        }
    }
    out.close();
    log << fmt::format(
        "games {}  plies {}  positions written {}  filtered: in check {}, capture or promotion {}, "
        "mate score {}  duplicate games dropped {}\n",
        stats.games, stats.plies, stats.written, stats.in_check, stats.tactical, stats.mate, duplicates);
    for (const auto& [files, count] : repeats)
        log << fmt::format("  {} of them in {}, first read from {}\n", count, inputs[files.first],
                           inputs[files.second]);
    if (!out) {
        log << fmt::format("arbiter convert: write to {} failed\n", output);
        return 1;
    }
    return status;
}

}  // namespace arbiter::tools

#include "syzygy/tablebases.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "syzygy/byte_reader.h"

namespace arbiter::syzygy {

namespace fs = std::filesystem;

namespace {

#ifdef _WIN32
constexpr char PathSeparator = ';';
#else
constexpr char PathSeparator = ':';
#endif

// Every table file ends in a 16-byte checksum after data padded to 64 bytes.
constexpr uintmax_t SizeModulus = 64, SizeRemainder = 16;

// Why a file cannot be a table of the type its extension says, or "".
std::string check_file(const fs::path& path, TableType type) {
    std::error_code ec;
    const uintmax_t size = fs::file_size(path, ec);
    if (ec) return fmt::format("{}: {}", path.string(), ec.message());
    std::ifstream in(path, std::ios::binary);
    uint8_t magic[4] = {};
    if (!in.read(reinterpret_cast<char*>(magic), 4))
        return fmt::format("{}: too short for a Syzygy table ({} bytes)", path.string(), size);
    if (load_le32(magic) != (type == TableType::Wdl ? WdlMagic : DtzMagic))
        return fmt::format("{}: not a Syzygy {} table (bad magic number)", path.string(),
                           type == TableType::Wdl ? "WDL" : "DTZ");
    if (size % SizeModulus != SizeRemainder)
        return fmt::format("{}: truncated or damaged ({} bytes, not a table file's size)", path.string(), size);
    return {};
}

}  // namespace

void Tablebases::clear() {
    by_key_.clear();
    pairs_.clear();
    max_pieces_ = 0;
}

LoadReport Tablebases::load(std::string_view paths) {
    clear();
    LoadReport report;
    if (paths.empty() || paths == "<empty>") return report;

    // Table name -> its files, first folder first.
    struct Found {
        fs::path wdl, dtz;
    };
    std::map<std::string, Found> found;
    size_t start = 0;
    while (start <= paths.size()) {
        size_t end = paths.find(PathSeparator, start);
        if (end == std::string_view::npos) end = paths.size();
        const std::string folder(paths.substr(start, end - start));
        start = end + 1;
        if (folder.empty()) continue;
        std::error_code ec;
        const fs::file_status status = fs::status(folder, ec);
        if (!fs::exists(status)) {
            report.problems.push_back(fmt::format("SyzygyPath: folder '{}' does not exist", folder));
            continue;
        }
        if (!fs::is_directory(status)) {
            report.problems.push_back(fmt::format("SyzygyPath: '{}' is a file, not a folder", folder));
            continue;
        }
        for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
            const fs::path& path = entry.path();
            const std::string extension = path.extension().string();
            if (extension != ".rtbw" && extension != ".rtbz") continue;
            const std::string name = path.stem().string();
            if (!parse_table_name(name)) {
                report.problems.push_back(fmt::format("{}: not a table name; skipped", path.string()));
                continue;
            }
            fs::path& slot = extension == ".rtbw" ? found[name].wdl : found[name].dtz;
            if (slot.empty()) slot = path;
        }
        if (ec) report.problems.push_back(fmt::format("SyzygyPath: cannot read '{}': {}", folder, ec.message()));
    }

    for (const auto& [name, files] : found) {
        const Material material = *parse_table_name(name);
        if (files.wdl.empty()) {
            report.problems.push_back(fmt::format("{}: no {}.rtbw beside it; skipped", files.dtz.string(), name));
            continue;
        }
        if (const std::string problem = check_file(files.wdl, TableType::Wdl); !problem.empty()) {
            report.problems.push_back(problem + "; skipped");
            continue;
        }
        // The same material in the other colour order names the same table.
        if (by_key_.count(material.key()) || by_key_.count(material.mirrored().key())) continue;
        // The headers are read now: a file cut short at a size a table can have
        // is found here rather than by a probe that then silently fails.
        auto pair = std::make_unique<TablePair>();
        pair->name = name;
        pair->wdl = std::make_unique<Table>(TableType::Wdl, files.wdl.string(), material);
        if (const std::string problem = pair->wdl->prepare(); !problem.empty()) {
            report.problems.push_back(problem + "; skipped");
            continue;
        }
        if (!files.dtz.empty()) {
            std::string problem = check_file(files.dtz, TableType::Dtz);
            if (problem.empty()) {
                pair->dtz = std::make_unique<Table>(TableType::Dtz, files.dtz.string(), material);
                problem = pair->dtz->prepare();
                if (!problem.empty()) pair->dtz.reset();
            }
            if (!problem.empty()) report.problems.push_back(problem + "; only its WDL table is used");
        }
        by_key_[material.key()] = pair.get();
        by_key_[material.mirrored().key()] = pair.get();
        max_pieces_ = std::max(max_pieces_, material.total());
        pairs_.push_back(std::move(pair));
    }
    report.tables = size();
    return report;
}

}  // namespace arbiter::syzygy

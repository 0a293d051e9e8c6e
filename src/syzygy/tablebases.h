#pragma once
// The set of loaded tables: found by listing folders, looked up by material.
//
// Thread safety: load() and clear() must not run while anyone probes; probing
// from many threads at once is safe (load() has parsed every table's headers;
// a table parses itself at most once, under its own lock).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "syzygy/table.h"

namespace arbiter::syzygy {

// One material's pair of files. The DTZ file is optional: without it only WDL
// probes (and a WDL ranking of root moves) are possible.
struct TablePair {
    std::string name;  // "KQvKR"
    std::unique_ptr<Table> wdl;
    std::unique_ptr<Table> dtz;
};

struct LoadReport {
    int tables = 0;                     // table pairs found (WDL files)
    std::vector<std::string> problems;  // one sentence each: folders and files skipped
};

class Tablebases {
public:
    // Replaces the loaded set by the tables in `paths`: folders separated by ':'
    // (';' on Windows). Empty or "<empty>" unloads. Each table file is mapped and
    // its headers read here: a file that fails (bad name, magic number, size, or
    // headers that do not fit the file) is reported and skipped; a DTZ file that
    // fails leaves its pair with the WDL table alone. The values themselves are
    // read only when probed.
    LoadReport load(std::string_view paths);
    void clear();

    int size() const { return int(pairs_.size()); }
    bool empty() const { return pairs_.empty(); }
    // The most pieces (kings included) of any loaded table; 0 when none.
    int max_pieces() const { return max_pieces_; }

    // The pair for a material key in either colour order, or nullptr.
    const TablePair* find(uint64_t key) const {
        const auto it = by_key_.find(key);
        return it == by_key_.end() ? nullptr : it->second;
    }

private:
    std::vector<std::unique_ptr<TablePair>> pairs_;
    std::unordered_map<uint64_t, const TablePair*> by_key_;
    int max_pieces_ = 0;
};

}  // namespace arbiter::syzygy

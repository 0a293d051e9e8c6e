#pragma once
// What every command-line tool shares: reading its arguments, the search options
// (limits, threads, hash), FENs, moves and files. Errors are returned as text for the
// tool to print on standard error with its name.

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/position.h"
#include "search/engine.h"
#include "search/limits.h"
#include "util/parse.h"

namespace arbiter::tools {

using Args = std::vector<std::string_view>;

// Reads flags one at a time: `--name value...`.
class ArgReader {
public:
    explicit ArgReader(const Args& args) : args_(args) {}

    bool done() const { return i_ >= args_.size(); }
    std::string_view next() { return args_[i_++]; }
    // The next argument, if there is one that is not a flag.
    std::optional<std::string_view> value();
    // Every argument up to the next flag (FENs and move lists span several).
    std::vector<std::string_view> values();
    // An integer from `min` to `max` as the value of `flag`; else sets `error`, which
    // calls the value `what` ("{flag} needs {what} from {min} to {max}").
    template <typename T>
    bool number(std::string_view flag, T min, T max, T& out, std::string& error, std::string_view what = "a number");

private:
    const Args& args_;
    size_t i_ = 0;
};

// The search options of `analyse` and `epd`.
struct SearchOptions {
    search::SearchLimits limits;
    bool limited = false;  // a limit was given (else the tool's default applies)
    int threads = 1;
    int hash_mb = 16;
    int multipv = 1;
    std::string syzygy;  // --syzygy: tablebase folders, ':'-separated; empty: none
};

// A bad command line: "arbiter <tool>: <message>" on `err`. Returns the exit status, 2.
int usage_error(std::ostream& err, std::string_view tool, std::string_view message);

// If `flag` is one of --depth, --movetime, --nodes, --infinite, --threads, --hash,
// --syzygy (--multipv too when `multipv` is set), reads its value into `options` and returns
// true; a bad value sets `error`. Returns false for any other flag.
bool read_search_flag(ArgReader& args, std::string_view flag, SearchOptions& options, bool multipv, std::string& error);

// Applies the hash size, threads and tablebases of `options` to `engine`; the
// reason on failure (no memory, a tablebase folder that cannot be used). A file
// skipped inside a usable folder is reported on `err` and is no failure.
std::optional<std::string> configure_engine(search::Engine& engine, const SearchOptions& options, std::ostream& err);

// "depth 12", "1000 ms", "100000 nodes" or "infinite": the limit in words.
std::string describe_limit(const search::SearchLimits& limits);

// A FEN in standard notation, or else in Chess960's (X-FEN or Shredder-FEN). Read as
// FenCheck::Playable: test suites and composed problems hold positions no game reaches.
FenResult read_any_fen(std::string_view fen);

// A move of `pos` in UCI notation or SAN.
std::optional<Move> parse_move(const Position& pos, std::string_view text);

// errno's text ("No such file or directory"), for messages on files; "unknown error" for 0.
std::string system_error_text(int error);

// The file's bytes, or nullopt with `error` set (saying why: no such file, no permission).
std::optional<std::string> read_file(const std::string& path, std::string& error);

}  // namespace arbiter::tools

// Fuzzes the UCI command handler: the input is a whole session, one command per line,
// given to an arbiter::uci::Session that writes into a string stream (reset to the
// state of a new session before each input, see reset()).
//
// Some commands are rewritten before they are handled. The rules exist only to keep
// every input fast (libFuzzer wants thousands of runs a minute and a bounded time per
// run), never to hide a bug: each one bounds time or memory and nothing else, and
// whatever the rewritten line does, the engine must handle it correctly.
// 1. `go`: the words `infinite` and `ponder` are dropped (their bestmove would wait
//    for a `stop` that comes only after handle() returns), and ` nodes 200 depth 3`
//    is appended; the last value of a limit wins, so every search ends after at most
//    200 nodes or depth 3. Clock values (wtime, movetime, ...) are kept, however
//    large: the node limit bounds the search, and odd clock values are worth fuzzing.
//    After the line the harness waits for the search's bestmove.
// 2. `go perft N` (and a `perft N` line) with N above 3 becomes depth 3.
// 3. `bench` lines are skipped: a benchmark takes seconds even at depth 1.
// 4. `setoption name Hash` above 64 MB becomes 64, `Threads` above 2 becomes 2.
// 5. At most 8 searches and 16 hash-table allocations or clears (`setoption name
//    Hash`, `Clear Hash`, `ucinewgame`) per input; further such lines are skipped.
//
// What the harness checks, besides the sanitizers: every `go` that does not ask for
// perft prints exactly one bestmove, or none when it is refused for a bad limit (its
// error line ends in "not searching"); the bestmove is `(none)` exactly when the position has no
// legal move, otherwise a legal move (one of `searchmoves` when any of them is
// legal), and its ponder move is legal after it; every `pv` printed is a legal move
// sequence from the searched position.

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "uci/uci.h"
#include "util/strings.h"

namespace {

using namespace arbiter;

void check(bool condition) {
    if (!condition) __builtin_trap();
}

constexpr std::string_view SearchLimit = " nodes 200 depth 3";
constexpr int MaxPerftDepth = 3;
constexpr long long MaxHashMb = 64;
constexpr long long MaxThreads = 2;
constexpr int MaxSearches = 8;
constexpr int MaxHashWork = 16;

// The keywords that end a `searchmoves` list, as uci.cpp reads `go`.
bool is_go_keyword(std::string_view word) {
    static constexpr std::string_view Keywords[] = {"searchmoves", "ponder",    "wtime", "btime", "winc",
                                                    "binc",        "movestogo", "depth", "nodes", "mate",
                                                    "movetime",    "infinite",  "perft"};
    return std::find(std::begin(Keywords), std::end(Keywords), word) != std::end(Keywords);
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

// The whole word as a number, the way options.cpp and uci.cpp read numbers.
std::optional<long long> whole_number(std::string_view text) {
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

std::string join(const std::vector<std::string>& words) {
    std::string text;
    for (const std::string& w : words) {
        if (!text.empty()) text += ' ';
        text += w;
    }
    return text;
}

struct Budget {
    int searches = 0;
    int hash_work = 0;
};

enum class LineKind { Other, Search };

struct Rewritten {
    std::string line;
    LineKind kind = LineKind::Other;
};

// Caps the depth after the first `perft` word from `first` on (in `go`, the one
// uci.cpp acts on).
void cap_perft(std::vector<std::string>& words, size_t first) {
    const auto perft = std::find(words.begin() + first, words.end(), "perft");
    if (perft == words.end() || perft + 1 == words.end()) return;
    const std::optional<long long> depth = whole_number(*(perft + 1));
    if (depth && *depth > MaxPerftDepth) *(perft + 1) = std::to_string(MaxPerftDepth);
}

// Applies the rules of the header comment; nullopt: skip the line.
std::optional<Rewritten> rewrite(std::string_view line, Budget& budget) {
    const std::vector<std::string_view> views = split_words(line);
    if (views.empty()) return Rewritten{std::string(line)};
    std::vector<std::string> words(views.begin(), views.end());
    const std::string_view command = views[0];

    if (command == "bench") return std::nullopt;
    if (command == "perft") {
        cap_perft(words, 0);
        return Rewritten{join(words)};
    }
    if (command == "ucinewgame") {
        if (++budget.hash_work > MaxHashWork) return std::nullopt;
        return Rewritten{std::string(line)};
    }
    if (command == "setoption") {
        // setoption name <name words> [value <value words>], split as uci.cpp does.
        if (words.size() < 3 || words[1] != "name") return Rewritten{std::string(line)};
        size_t value_at = 2;
        while (value_at < words.size() && words[value_at] != "value") ++value_at;
        const std::string name = join_words(views, 2, value_at);
        const std::optional<long long> number = whole_number(join_words(views, value_at + 1, views.size()));
        const bool hash = equal_ignoring_case(name, "Hash");
        if ((hash || equal_ignoring_case(name, "Clear Hash")) && ++budget.hash_work > MaxHashWork) return std::nullopt;
        long long cap = 0;
        if (hash) cap = MaxHashMb;
        else if (equal_ignoring_case(name, "Threads")) cap = MaxThreads;
        if (cap && number && *number > cap)
            return Rewritten{"setoption name " + name + " value " + std::to_string(cap)};
        return Rewritten{std::string(line)};
    }
    if (command != "go") return Rewritten{std::string(line)};

    std::erase_if(words, [](const std::string& w) { return w == "infinite" || w == "ponder"; });
    cap_perft(words, 1);
    if (std::find(words.begin() + 1, words.end(), "perft") != words.end()) return Rewritten{join(words)};
    if (++budget.searches > MaxSearches) return std::nullopt;
    return Rewritten{join(words) + std::string(SearchLimit), LineKind::Search};
}

// The moves of every `searchmoves` list in `go` that are legal in `pos`, read as
// uci.cpp reads them: each list runs to the next go keyword.
std::vector<Move> search_moves(const Position& pos, const std::vector<std::string_view>& words) {
    std::vector<Move> moves;
    for (size_t i = 1; i < words.size(); ++i) {
        if (words[i] != "searchmoves") continue;
        for (size_t j = i + 1; j < words.size() && !is_go_keyword(words[j]); ++j)
            if (const std::optional<Move> m = parse_uci(pos, words[j])) moves.push_back(*m);
    }
    return moves;
}

// Checks what one search printed (see the header comment).
void check_search_output(std::string_view output, const Position& root, const std::vector<Move>& restricted) {
    int bestmoves = 0;
    // A `go` with a bad limit is refused: its error line ends in "not searching", and no
    // search (and no bestmove) follows.
    bool refused = false;
    size_t begin = 0;
    while (begin < output.size()) {
        size_t end = output.find('\n', begin);
        if (end == std::string_view::npos) end = output.size();
        const std::vector<std::string_view> words = split_words(output.substr(begin, end - begin));
        begin = end + 1;
        if (words.empty()) continue;

        if (words[0] == "bestmove") {
            ++bestmoves;
            check(words.size() == 2 || (words.size() == 4 && words[2] == "ponder"));
            if (words[1] == "(none)") {
                check(!has_legal_move(root));
                continue;
            }
            const std::optional<Move> best = parse_uci(root, words[1]);
            check(best.has_value());
            if (!restricted.empty()) check(std::find(restricted.begin(), restricted.end(), *best) != restricted.end());
            if (words.size() == 4) check(parse_uci(root.apply(*best), words[3]).has_value());
            continue;
        }
        // `info string` lines are free text (an error may quote a word such as "pv").
        if (words.size() > 1 && words[0] == "info" && words[1] == "string") {
            refused = refused || (words.back() == "searching" && words[words.size() - 2] == "not");
            continue;
        }
        if (words[0] != "info") continue;
        const auto pv = std::find(words.begin(), words.end(), "pv");
        if (pv == words.end()) continue;
        check(pv + 1 != words.end());
        Position pos = root;
        for (auto it = pv + 1; it != words.end(); ++it) {
            const std::optional<Move> m = parse_uci(pos, *it);
            check(m.has_value());
            pos = pos.apply(*m);
        }
    }
    check(bestmoves == (refused ? 0 : 1));
}

// One Session serves every input: a fresh one allocates and clears a 16 MB hash
// table, which costs more than most inputs. Before each input, reset() puts the
// session back into the state of a new one, but with a 1 MB table: the same two steps
// the Engine constructor takes (a new table, new search threads with cleared
// histories), every other option at its default, and the start position. An input
// therefore behaves the same whether it runs first or after a thousand others, and a
// saved crash reproduces on its own. (`ucinewgame` would clear the same tables again.)
uci::Session& reset(std::ostringstream& out) {
    static uci::Session* session = new uci::Session(out);  // never destroyed, by design
    static constexpr std::string_view Reset[] = {
        "stop",
        "setoption name Threads value 1",
        "setoption name Hash value 1",
        "setoption name MultiPV value 1",
        "setoption name Move Overhead value 10",
        "setoption name Ponder value false",
        "setoption name UCI_Chess960 value false",
        "setoption name UCI_ShowWDL value false",
        "position startpos",
    };
    session->wait_for_search();
    for (std::string_view line : Reset) session->handle(line);
    out.str({});
    out.clear();
    return *session;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    static std::ostringstream out;
    uci::Session& session = reset(out);
    Budget budget;
    size_t begin = 0;
    while (begin < input.size()) {
        size_t end = input.find('\n', begin);
        if (end == std::string_view::npos) end = input.size();
        const std::string_view line = input.substr(begin, end - begin);
        begin = end + 1;

        const std::optional<Rewritten> command = rewrite(line, budget);
        if (!command) continue;
        const size_t printed = out.str().size();
        const bool more = session.handle(command->line);
        if (command->kind == LineKind::Search) {
            session.wait_for_search();
            const Position& root = session.game().position();
            const std::string output = out.str().substr(printed);
            check_search_output(output, root, search_moves(root, split_words(command->line)));
        }
        // `quit` ends the session (and its search): the rest of the input is unread.
        if (!more) break;
    }
    session.wait_for_search();
    return 0;
}

// Fuzzes the PGN reader and writer of chess/pgn.h.
//
// Input: any bytes, read as a PGN file. The harness traps when:
// - an error does not name a game (from 1) and a line (from 1), or has no message;
// - a game read does not replay: its main line and variations hold illegal moves;
// - a game written by write_pgn() does not read back as exactly one game without an
//   error, or writing that again gives other text (the round trip of pgn.h).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "chess/movegen.h"
#include "chess/pgn.h"

namespace {

using namespace arbiter;

void check(bool condition) {
    if (!condition) __builtin_trap();
}

void check_line(Position pos, const std::vector<PgnMove>& line) {
    for (const PgnMove& m : line) {
        check(is_legal(pos, m.move));
        for (const PgnVariation& v : m.variations) check_line(pos, v.moves);
        pos = pos.apply(m.move);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const PgnReadResult result = read_pgn(text);
    for (const PgnError& e : result.errors) check(e.game >= 1 && e.line >= 1 && !e.message.empty());
    for (const PgnGame& game : result.games) {
        check_line(game.start, game.moves);
        const std::string written = write_pgn(game);
        const PgnReadResult again = read_pgn(written);
        check(again.errors.empty() && again.games.size() == 1);
        check(write_pgn(again.games[0]) == written);
    }
    return 0;
}

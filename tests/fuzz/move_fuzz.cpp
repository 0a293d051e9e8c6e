// Fuzzes the move parsers of chess/notation.h, UCI long algebraic and SAN.
//
// Input: the first byte chooses one of the fixed positions below (standard and
// Chess960, with castling, en passant and promotions available); the rest is text,
// split into words. Each word is given to parse_uci() and parse_san() in the current
// position, and a word that either of them reads is played, so that one input can
// walk into positions of its own. The harness traps when:
// - a parsed move is not one of the position's legal moves;
// - a move read by parse_uci() is not written back by to_uci() as the same text (the
//   reader ignores case, so the comparison is with the text in lower case);
// - a move read by parse_san() is not read back from its to_san() text, or the reader
//   gives neither a move nor an error message;
// - a word read by both parsers names two different moves;
// - in any position reached, some legal move does not survive to_uci/parse_uci or
//   to_san/parse_san.

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/movegen.h"
#include "chess/notation.h"
#include "chess/position.h"
#include "util/strings.h"

namespace {

using namespace arbiter;

void check(bool condition) {
    if (!condition) __builtin_trap();
}

struct Start {
    std::string_view fen;
    bool chess960;
};

// Each is here for a rule the parsers must get right; the comment names it.
constexpr Start Starts[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    // Kiwipete: castling both ways, pins, many captures.
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    // En passant for White (exf6) next to an ordinary capture.
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
    // En passant for Black (exd3).
    {"rnbqkbnr/pppp1ppp/8/8/3PpP2/8/PPP1P1PP/RNBQKBNR b KQkq d3 0 3", false},
    // Promotions by push and by capture, a castling right through an attacked square.
    {"r3k1n1/1P4P1/8/8/8/8/6p1/R3K2R w KQq - 0 1", false},
    // Promotions for Black, some giving check.
    {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false},
    // SAN disambiguation by file (Nde5/Nfe5), by rank (N3d4/N5d4).
    {"1k6/8/8/3N1N2/8/3N1N2/8/K7 w - - 0 1", false},
    // SAN disambiguation by file and rank: Qa1b2.
    {"6k1/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", false},
    // Checkmated: nothing parses.
    {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", false},
    // Chess960: the king castles onto its own rook's square (e1g1 is O-O here).
    {"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", true},
    // Chess960: king next to the castling rook on both sides of the board.
    {"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true},
    // Chess960 from the perft suite: castling blocked by the other rook.
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
    // Chess960 start position with the king between rooks on b and g.
    {"nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1", true},
    // Standard start read as Chess960: e1h1 castles, e1g1 is not a move.
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", true},
};

constexpr size_t MaxWords = 32;

std::string lower(std::string_view text) {
    std::string out;
    for (char c : text) out += char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string upper(std::string_view text) {
    std::string out;
    for (char c : text) out += char(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

bool contains_move(const MoveList& list, Move m) { return std::find(list.begin(), list.end(), m) != list.end(); }

// Every legal move survives writing and reading back in both notations.
void check_all_round_trips(const Position& pos, const MoveList& moves) {
    for (Move m : moves) {
        const std::string uci = to_uci(m, pos.chess960());
        check(parse_uci(pos, uci) == m);
        // UCI moves are lower case: the capitalised spelling is no move (castling
        // written O-O aside, every UCI move has a letter).
        check(!parse_uci(pos, upper(uci)));
        const std::string san = to_san(pos, m);
        const SanResult back = parse_san(pos, san);
        check(back.move == m && back.error.empty());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const Start& start = Starts[data[0] % std::size(Starts)];
    // Playable: some of the starts are composed (the Chess960 kings and rooks alone
    // with their rights have no last move).
    const FenResult parsed = Position::from_fen(start.fen, start.chess960, FenCheck::Playable);
    check(parsed.position.has_value());
    Position pos = *parsed.position;
    MoveList moves = legal_moves(pos);
    check_all_round_trips(pos, moves);

    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    const std::vector<std::string_view> words = split_words(text);
    for (size_t i = 0; i < words.size() && i < MaxWords; ++i) {
        const std::string_view word = words[i];

        const std::optional<Move> uci = parse_uci(pos, word);
        if (uci) {
            check(contains_move(moves, *uci));
            check(to_uci(*uci, pos.chess960()) == lower(word));
        }

        const SanResult san = parse_san(pos, word);
        check(san.move.has_value() == san.error.empty());
        if (san.move) {
            check(contains_move(moves, *san.move));
            const SanResult again = parse_san(pos, to_san(pos, *san.move));
            check(again.move == san.move);
        }

        if (uci && san.move) check(*uci == *san.move);

        const std::optional<Move> played = uci ? uci : san.move;
        if (!played) continue;
        pos = pos.apply(*played);
        moves = legal_moves(pos);
        check_all_round_trips(pos, moves);
    }
    return 0;
}

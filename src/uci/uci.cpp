#include "uci/uci.h"

#include <fmt/format.h>

#include <charconv>
#include <istream>
#include <ostream>

#include "chess/notation.h"
#include "chess/perft.h"
#include "util/strings.h"

#ifndef ARBITER_VERSION
#define ARBITER_VERSION "dev"
#endif

namespace arbiter::uci {

namespace {

constexpr int MaxPerftDepth = 12;

std::optional<int> parse_int(std::string_view text) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// A FEN given on the command line may be standard or Chess960; it is read as standard
// first so that standard positions keep the e1g1 castling notation.
FenResult read_any_fen(std::string_view fen) {
    FenResult standard = Position::from_fen(fen, false);
    if (standard.position) return standard;
    FenResult chess960 = Position::from_fen(fen, true);
    return chess960.position ? chess960 : standard;
}

std::string divide_report(const Position& pos, int depth) {
    std::string text;
    uint64_t total = 0;
    for (const auto& [move, nodes] : divide(pos, depth)) {
        text += fmt::format("{}: {}\n", to_uci(move, pos.chess960()), nodes);
        total += nodes;
    }
    text += fmt::format("\nNodes searched: {}\n", total);
    return text;
}

} // namespace

Session::Session(std::ostream& out) : out_(out) {
    options_.add_check("UCI_Chess960", false, [this](const std::string& v) { chess960_ = v == "true"; });
}

void Session::println(std::string_view text) {
    out_ << text << '\n';
    out_.flush();
}

void Session::error(std::string_view message) { println(fmt::format("info string error: {}", message)); }

void Session::run(std::istream& in) {
    std::string line;
    while (std::getline(in, line))
        if (!handle(line)) break;
}

bool Session::handle(std::string_view line) {
    const std::vector<std::string_view> words = split_words(line);
    if (words.empty()) return true;
    const std::string_view command = words[0];
    if (command == "quit") return false;
    if (command == "uci") cmd_uci();
    else if (command == "isready") println("readyok");
    else if (command == "setoption") cmd_setoption(words);
    else if (command == "ucinewgame") game_ = Game(Position::startpos());
    else if (command == "position") cmd_position(words);
    else if (command == "go") cmd_go(words);
    else if (command == "d") cmd_display();
    else error(fmt::format("unknown command '{}'", command));
    return true;
}

void Session::cmd_uci() {
    println(fmt::format("id name Arbiter {}", ARBITER_VERSION));
    println("id author the Arbiter developers");
    for (const std::string& line : options_.describe()) println(line);
    println("uciok");
}

void Session::cmd_setoption(const std::vector<std::string_view>& words) {
    // setoption name <name, may contain spaces> [value <value, may contain spaces>]
    if (words.size() < 3 || words[1] != "name") {
        error("setoption needs 'name <option>'");
        return;
    }
    size_t value_at = 2;
    while (value_at < words.size() && words[value_at] != "value") ++value_at;
    const std::string name = join_words(words, 2, value_at);
    const std::string value = join_words(words, value_at + 1, words.size());
    if (name.empty()) {
        error("setoption needs 'name <option>'");
        return;
    }
    if (const std::string message = options_.set(name, value); !message.empty()) error(message);
}

void Session::cmd_position(const std::vector<std::string_view>& words) {
    size_t moves_at = 1;
    while (moves_at < words.size() && words[moves_at] != "moves") ++moves_at;
    FenResult start;
    if (words.size() >= 2 && words[1] == "startpos") {
        start = Position::from_fen(Position::StartFen, chess960_);
        if (moves_at != 2) {
            error("position startpos takes no more than a move list");
            return;
        }
    } else if (words.size() >= 2 && words[1] == "fen") {
        start = Position::from_fen(join_words(words, 2, moves_at), chess960_);
    } else {
        error("position needs 'startpos' or 'fen <fen>'");
        return;
    }
    if (!start.position) {
        error(fmt::format("invalid FEN: {}", start.error));
        return;
    }
    game_ = Game(*start.position);
    for (size_t i = moves_at + 1; i < words.size(); ++i) {
        const std::optional<Move> move = parse_uci(game_.position(), words[i]);
        if (!move) {
            error(fmt::format("illegal move {} in position {}", words[i], game_.position().fen()));
            return;
        }
        game_.play(*move);
    }
}

void Session::cmd_go(const std::vector<std::string_view>& words) {
    if (words.size() >= 2 && words[1] == "perft") {
        const std::optional<int> depth = words.size() >= 3 ? parse_int(words[2]) : std::nullopt;
        if (!depth || *depth < 1 || *depth > MaxPerftDepth) {
            error(fmt::format("go perft needs a depth from 1 to {}", MaxPerftDepth));
            return;
        }
        cmd_perft(*depth);
        return;
    }
    error("only 'go perft <depth>' is available in this version");
}

void Session::cmd_perft(int depth) {
    out_ << divide_report(game_.position(), depth);
    out_.flush();
}

void Session::cmd_display() {
    const Position& pos = game_.position();
    std::string checkers;
    for (Square s : squares(pos.checkers())) checkers += square_name(s) + " ";
    if (!checkers.empty()) checkers.pop_back();
    out_ << board_diagram(pos) << '\n';
    out_ << fmt::format("Fen: {}\nKey: {:016X}\nCheckers: {}\nStatus: {}\n", pos.fen(), pos.key(), checkers,
                        status_token(game_.status()));
    out_.flush();
}

std::string board_diagram(const Position& pos) {
    constexpr std::string_view Letters = "PNBRQK";
    const std::string border = " +---+---+---+---+---+---+---+---+\n";
    std::string text = border;
    for (int rank = 7; rank >= 0; --rank) {
        for (int file = 0; file < 8; ++file) {
            const Piece p = pos.piece_on(make_square(File(file), Rank(rank)));
            char c = ' ';
            if (p != NoPiece) c = color_of(p) == White ? Letters[type_of(p)] : char(Letters[type_of(p)] + 32);
            text += fmt::format(" | {}", c);
        }
        text += fmt::format(" | {}\n", rank + 1);
        text += border;
    }
    text += "   a   b   c   d   e   f   g   h\n";
    return text;
}

int perft_command(int depth, std::string_view fen, std::ostream& out, std::ostream& err) {
    if (depth < 1 || depth > MaxPerftDepth) {
        err << fmt::format("arbiter: perft depth must be from 1 to {}\n", MaxPerftDepth);
        return 2;
    }
    const FenResult start = read_any_fen(fen.empty() ? Position::StartFen : fen);
    if (!start.position) {
        err << fmt::format("arbiter: invalid FEN: {}\n", start.error);
        return 2;
    }
    out << divide_report(*start.position, depth);
    out.flush();
    return 0;
}

} // namespace arbiter::uci

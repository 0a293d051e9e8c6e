#include "chess/pgn.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "chess/notation.h"
#include "util/parse.h"

namespace arbiter {

namespace {

// ---------------------------------------------------------------------------------
// Lexer: the whole text to tokens, each with its line.

enum class Tok {
    TagOpen,
    TagClose,
    String,
    Symbol,
    MoveNumber,
    Comment,
    VarOpen,
    VarClose,
    Nag,
    Annotation,
    Result,
    Invalid,
    End
};

struct Token {
    Tok kind;
    std::string text;
    int line;
};

bool is_symbol_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '+' || c == '#' || c == '=' || c == ':' ||
           c == '-' || c == '/' || c == '.';
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Runs of whitespace (line breaks included) become one space; no space at either end.
std::string collapse_spaces(std::string_view text) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = !out.empty();
        } else {
            if (space) out += ' ';
            space = false;
            out += c;
        }
    }
    return out;
}

class Lexer {
public:
    explicit Lexer(std::string_view text) : text_(text) {}

    std::vector<Token> run() {
        std::vector<Token> tokens;
        while (true) {
            Token t = next();
            const bool end = t.kind == Tok::End;
            tokens.push_back(std::move(t));
            if (end) return tokens;
        }
    }

private:
    bool at_end() const { return i_ >= text_.size(); }
    char peek(size_t ahead = 0) const { return i_ + ahead < text_.size() ? text_[i_ + ahead] : '\0'; }

    // Consumes one character, counting lines (\r\n, \r and \n each end one line).
    char advance() {
        const char c = text_[i_++];
        if (c == '\n' || (c == '\r' && peek() != '\n')) {
            ++line_;
            column0_ = true;
        } else if (c != '\r') {
            column0_ = false;
        }
        return c;
    }

    void skip_line() {
        while (!at_end() && peek() != '\n' && peek() != '\r') advance();
    }

    Token next() {
        while (!at_end()) {
            const char c = peek();
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
                advance();
            } else if (c == '%' && column0_) {
                skip_line();  // export escape line
            } else {
                break;
            }
        }
        const int line = line_;
        if (at_end()) return {Tok::End, "", line};
        const char c = advance();
        switch (c) {
        case '[': return {Tok::TagOpen, "[", line};
        case ']': return {Tok::TagClose, "]", line};
        case '(': return {Tok::VarOpen, "(", line};
        case ')': return {Tok::VarClose, ")", line};
        case '*': return {Tok::Result, "*", line};
        case '"': return string(line);
        case '{': {
            std::string body;
            while (!at_end() && peek() != '}') body += advance();
            if (at_end()) return {Tok::Invalid, "{", line};
            advance();
            return {Tok::Comment, collapse_spaces(body), line};
        }
        case ';': {
            const size_t start = i_;
            skip_line();
            return {Tok::Comment, collapse_spaces(text_.substr(start, i_ - start)), line};
        }
        case '$': {
            std::string digits;
            while (is_digit(peek())) digits += advance();
            return {digits.empty() ? Tok::Invalid : Tok::Nag, "$" + digits, line};
        }
        case '!':
        case '?': {
            std::string text(1, c);
            while (peek() == '!' || peek() == '?') text += advance();
            return {Tok::Annotation, text, line};
        }
        default: break;
        }
        if (is_digit(c)) {
            // A move number ("12." "12..." or a bare "12"), glued to its move or not; else
            // a symbol starting with a digit: 0-0, 1-0, 1/2-1/2.
            size_t j = i_;
            while (j < text_.size() && is_digit(text_[j])) ++j;
            const bool dots = j < text_.size() && text_[j] == '.';
            const bool bare = j >= text_.size() || !is_symbol_char(text_[j]);
            if (dots || bare) {
                std::string text(1, c);
                while (is_digit(peek())) text += advance();
                while (peek() == '.') text += advance();
                return {Tok::MoveNumber, text, line};
            }
        }
        if (is_symbol_char(c)) {
            std::string text(1, c);
            while (is_symbol_char(peek())) text += advance();
            if (text == "1-0" || text == "0-1" || text == "1/2-1/2") return {Tok::Result, text, line};
            return {Tok::Symbol, text, line};
        }
        return {Tok::Invalid, std::string(1, c), line};
    }

    Token string(int line) {
        std::string value;
        while (!at_end() && peek() != '"') {
            char c = advance();
            if (c == '\\' && !at_end()) c = advance();
            value += c;
        }
        if (at_end()) return {Tok::Invalid, "\"" + value, line};
        advance();
        return {Tok::String, value, line};
    }

    std::string_view text_;
    size_t i_ = 0;
    int line_ = 1;
    bool column0_ = true;
};

// ---------------------------------------------------------------------------------
// Parser: tokens to games.

bool is_result(std::string_view text) { return text == "1-0" || text == "0-1" || text == "1/2-1/2" || text == "*"; }

bool is_chess960_variant(std::string_view name) {
    std::string key;
    for (char c : name)
        if (c != ' ' && c != '-' && c != '_') key += char(std::tolower(static_cast<unsigned char>(c)));
    return key == "chess960" || key == "fischerandom" || key == "fischerrandom" || key == "frc" || key == "960";
}

bool is_standard_variant(std::string_view name) {
    std::string key;
    for (char c : name) key += char(std::tolower(static_cast<unsigned char>(c)));
    return key.empty() || key == "standard" || key == "chess" || key == "normal";
}

class Parser {
public:
    explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

    PgnReadResult run() {
        PgnReadResult result;
        int game_number = 0;
        while (peek().kind != Tok::End) {
            ++game_number;
            const size_t start = i_;
            PgnGame game;
            game.number = game_number;
            if (std::optional<PgnError> error = parse_game(game)) {
                error->game = game_number;
                result.errors.push_back(std::move(*error));
                skip_bad_game(start);
            } else if (game.tags.empty() && game.moves.empty() && !ended_by_result_) {
                // Only a comment, outside any game: a file's preamble, or a remark after
                // a game's result ("1-0 {White won on time}"). Not a game of its own.
                --game_number;
            } else {
                result.games.push_back(std::move(game));
            }
        }
        return result;
    }

private:
    const Token& peek() const { return tokens_[i_]; }
    // The next token; the End token is never passed, so peek() always stays in range.
    const Token& take() {
        const Token& t = tokens_[i_];
        if (i_ + 1 < tokens_.size()) ++i_;
        return t;
    }

    static PgnError error_at(const Token& t, std::string message) {
        return {0, t.line, t.kind == Tok::End ? "end of file" : t.text, std::move(message)};
    }

    // After an error: on to the token after the game's result, or to the next tag
    // section (a '[' that does not follow a tag), whichever comes first.
    void skip_bad_game(size_t game_start) {
        i_ = std::max(i_, game_start + 1);
        while (peek().kind != Tok::End) {
            if (peek().kind == Tok::Result) {
                ++i_;
                return;
            }
            if (peek().kind == Tok::TagOpen && tokens_[i_ - 1].kind != Tok::TagClose) return;
            ++i_;
        }
    }

    std::optional<PgnError> parse_game(PgnGame& game) {
        game.line = peek().line;
        while (peek().kind == Tok::TagOpen) {
            take();
            const Token& name = take();
            if (name.kind != Tok::Symbol) return error_at(name, "expected a tag name after '['");
            const Token& value = take();
            if (value.kind != Tok::String)
                return error_at(value, fmt::format("expected a quoted value for tag {}", name.text));
            const Token& close = take();
            if (close.kind != Tok::TagClose)
                return error_at(close, fmt::format("expected ']' to close tag {}", name.text));
            game.tags.emplace_back(name.text, value.text);
        }

        bool chess960 = false;
        if (const auto variant = game.tag("Variant")) {
            chess960 = is_chess960_variant(*variant);
            if (!chess960 && !is_standard_variant(*variant))
                return PgnError{0, game.line, *variant, fmt::format("unsupported variant '{}'", *variant)};
        }
        if (const auto fen = game.tag("FEN")) {
            FenResult parsed = Position::from_fen(*fen, chess960, FenCheck::Playable);
            // Some programs write Chess960 games without a Variant tag: a FEN that only
            // Chess960 castling explains is taken as one.
            if (!parsed.position && !chess960) {
                FenResult c960 = Position::from_fen(*fen, true, FenCheck::Playable);
                if (c960.position) parsed = std::move(c960);
            }
            if (!parsed.position) return PgnError{0, game.line, *fen, fmt::format("FEN tag: {}", parsed.error)};
            game.start = *parsed.position;
        } else if (chess960) {
            game.start = *Position::from_fen(Position::StartFen, true).position;
        }

        std::string pending;
        if (std::optional<PgnError> error = parse_line(game.start, game.moves, 0, pending)) return error;
        if (!pending.empty()) game.comment = pending;
        ended_by_result_ = peek().kind == Tok::Result;
        if (ended_by_result_) game.result = take().text;
        else if (const auto tag = game.tag("Result"); tag && is_result(*tag)) game.result = *tag;
        return std::nullopt;
    }

    static void append_comment(std::string& to, std::string_view text) {
        if (text.empty()) return;
        if (!to.empty()) to += ' ';
        to += text;
    }

    // Reads moves from `pos` into `line` up to the end of the variation (depth > 0: its
    // ')' is consumed) or of the game (depth 0: a result, a tag section or the end of
    // the file, none consumed). A comment left with no move after it stays in `pending`
    // for a game without moves; otherwise it goes to the last move.
    std::optional<PgnError> parse_line(Position pos, std::vector<PgnMove>& line, int depth, std::string& pending) {
        Position before = pos;    // the position before line.back()
        bool after_move = false;  // a comment now belongs to the last move
        while (true) {
            const Token& t = peek();
            switch (t.kind) {
            case Tok::End:
            case Tok::TagOpen:
            case Tok::Result:
                if (depth > 0)
                    return error_at(t, t.kind == Tok::End ? "unterminated variation: missing ')'"
                                                          : "variation not closed before the end of the game");
                if (!line.empty()) {
                    append_comment(line.back().comment, pending);
                    pending.clear();
                }
                return std::nullopt;
            case Tok::VarClose:
                if (depth == 0) return error_at(t, "')' without a variation to close");
                take();
                if (!line.empty()) append_comment(line.back().comment, pending);
                pending.clear();
                return std::nullopt;
            case Tok::VarOpen: {
                if (line.empty()) return error_at(t, "a variation must follow the move it replaces");
                take();
                PgnVariation variation;
                std::string inner;
                if (std::optional<PgnError> error = parse_line(before, variation.moves, depth + 1, inner)) return error;
                if (!variation.moves.empty()) line.back().variations.push_back(std::move(variation));
                after_move = false;
                break;
            }
            case Tok::Comment:
                if (after_move && pending.empty()) append_comment(line.back().comment, t.text);
                else append_comment(pending, t.text);
                take();
                break;
            case Tok::Nag:
            case Tok::Annotation: {
                if (line.empty()) return error_at(t, "an annotation must follow a move");
                int nag = 0;
                if (t.kind == Tok::Annotation) {
                    nag = nag_of_annotation(t.text);
                    if (nag == 0) return error_at(t, "unknown annotation");
                } else {
                    const ParsedNumber<int> number = parse_number(std::string_view(t.text).substr(1), 0, 255);
                    if (!number) return error_at(t, "NAG out of range (0 to 255)");
                    nag = *number;
                }
                line.back().nags.push_back(nag);
                take();
                break;
            }
            case Tok::MoveNumber: take(); break;
            case Tok::Symbol: {
                std::string san = t.text;
                if (san == "e.p." || san == "ep") {
                    take();
                    break;
                }
                if (san.size() > 4 && san.ends_with("e.p.")) san.resize(san.size() - 4);
                // A pawn move written with its piece letter: Pe4, Pxd5.
                if (san.size() >= 3 && san[0] == 'P' && (san[1] == 'x' || (san[1] >= 'a' && san[1] <= 'h')))
                    san.erase(0, 1);
                const SanResult parsed = parse_san(pos, san);
                if (!parsed.move) return error_at(t, fmt::format("{} (position {})", parsed.error, pos.fen()));
                PgnMove move;
                move.move = *parsed.move;
                move.comment_before = std::move(pending);
                pending.clear();
                line.push_back(std::move(move));
                before = pos;
                pos = pos.apply(*parsed.move);
                after_move = true;
                take();
                break;
            }
            case Tok::Invalid:
                if (t.text == "{") return error_at(t, "unterminated comment: missing '}'");
                if (t.text.starts_with("\"")) return error_at(t, "unterminated string");
                return error_at(t, fmt::format("unexpected character '{}'", t.text));
            case Tok::TagClose:
            case Tok::String: return error_at(t, "unexpected token in the movetext");
            }
        }
    }

    std::vector<Token> tokens_;
    size_t i_ = 0;
    bool ended_by_result_ = false;  // the last game read ended with its result token
};

// ---------------------------------------------------------------------------------
// Writer.

std::string escape_tag(std::string_view value) {
    std::string out;
    for (char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        out += (c == '\n' || c == '\r') ? ' ' : c;
    }
    return out;
}

// The words of a comment, each `[%command ...]` kept whole (readers such as lichess's
// expect it on one line). '}' cannot appear in a comment and becomes ')'.
std::vector<std::string> comment_words(std::string_view text) {
    std::string clean = collapse_spaces(text);
    std::replace(clean.begin(), clean.end(), '}', ')');
    std::vector<std::string> words;
    size_t i = 0;
    while (i < clean.size()) {
        size_t end;
        if (clean.compare(i, 2, "[%") == 0 && clean.find(']', i) != std::string::npos) end = clean.find(']', i) + 1;
        else end = clean.find(' ', i);
        if (end == std::string::npos) end = clean.size();
        if (end < clean.size() && clean[end] != ' ') {
            const size_t space = clean.find(' ', end);
            end = space == std::string::npos ? clean.size() : space;
        }
        words.push_back(clean.substr(i, end - i));
        i = end + 1;
    }
    if (words.empty()) words.emplace_back();
    words.front() = "{" + words.front();
    words.back() += "}";
    return words;
}

void append_words(std::vector<std::string>& out, std::vector<std::string> words) {
    for (std::string& w : words) out.push_back(std::move(w));
}

void write_line(Position pos, const std::vector<PgnMove>& line, std::vector<std::string>& out) {
    bool need_number = true;
    for (const PgnMove& m : line) {
        if (!m.comment_before.empty()) {
            append_words(out, comment_words(m.comment_before));
            need_number = true;
        }
        if (pos.side_to_move() == White) out.push_back(fmt::format("{}.", pos.fullmove_number()));
        else if (need_number) out.push_back(fmt::format("{}...", pos.fullmove_number()));
        out.push_back(to_san(pos, m.move));
        need_number = false;
        for (int nag : m.nags) out.push_back(fmt::format("${}", nag));
        if (!m.comment.empty()) {
            append_words(out, comment_words(m.comment));
            need_number = true;
        }
        for (const PgnVariation& v : m.variations) {
            if (v.moves.empty()) continue;
            std::vector<std::string> inner;
            write_line(pos, v.moves, inner);
            inner.front() = "(" + inner.front();
            inner.back() += ")";
            append_words(out, std::move(inner));
            need_number = true;
        }
        pos = pos.apply(m.move);
    }
}

}  // namespace

std::optional<std::string> PgnGame::tag(std::string_view name) const {
    for (const auto& [key, value] : tags)
        if (key == name) return value;
    return std::nullopt;
}

void PgnGame::set_tag(std::string_view name, std::string value) {
    for (auto& [key, old] : tags)
        if (key == name) {
            old = std::move(value);
            return;
        }
    tags.emplace_back(name, std::move(value));
}

Game PgnGame::mainline() const {
    Game game(start);
    for (const PgnMove& m : moves) game.play(m.move);
    return game;
}

std::string PgnError::text() const {
    return fmt::format("game {}, line {}, token '{}': {}", game, line, token, message);
}

int nag_of_annotation(std::string_view text) {
    static constexpr std::string_view Annotations[] = {"!", "?", "!!", "??", "!?", "?!"};
    for (size_t i = 0; i < std::size(Annotations); ++i)
        if (text == Annotations[i]) return int(i) + 1;
    return 0;
}

PgnReadResult read_pgn(std::string_view text) {
    // A UTF-8 byte order mark, as some Windows programs write.
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    return Parser(Lexer(text).run()).run();
}

std::string write_pgn(const PgnGame& game) {
    std::string text;
    static constexpr std::string_view Roster[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
    for (std::string_view name : Roster) {
        std::string value = name == "Result" ? (is_result(game.result) ? game.result : "*")
                                             : game.tag(name).value_or(name == "Date" ? "????.??.??" : "?");
        text += fmt::format("[{} \"{}\"]\n", name, escape_tag(value));
    }
    const bool chess960 = game.start.chess960();
    const bool set_up = game.start.fen() != Position::StartFen || chess960;
    for (const auto& [name, value] : game.tags) {
        if (std::find(std::begin(Roster), std::end(Roster), name) != std::end(Roster)) continue;
        if (name == "SetUp" || name == "FEN" || name == "Variant") continue;
        text += fmt::format("[{} \"{}\"]\n", name, escape_tag(value));
    }
    if (chess960) text += "[Variant \"Chess960\"]\n";
    if (set_up) text += fmt::format("[SetUp \"1\"]\n[FEN \"{}\"]\n", game.start.fen());
    text += '\n';

    std::vector<std::string> words;
    if (game.moves.empty() && !game.comment.empty()) append_words(words, comment_words(game.comment));
    write_line(game.start, game.moves, words);
    words.push_back(is_result(game.result) ? game.result : "*");

    // Export format: lines of at most 79 characters. A word starting with '%' never opens
    // a line, where it would read as an escape line.
    std::string line;
    for (const std::string& w : words) {
        if (!line.empty() && line.size() + 1 + w.size() > 79 && w[0] != '%') {
            text += line + '\n';
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += w;
    }
    text += line + "\n\n";
    return text;
}

}  // namespace arbiter

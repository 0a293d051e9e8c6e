#include "chess/notation.h"

#include <fmt/format.h>

#include <cctype>

#include "chess/movegen.h"

namespace arbiter {

namespace {

char to_lower(char c) { return char(std::tolower(static_cast<unsigned char>(c))); }

// Where the king lands when castling with the rook that `m` points at.
Square castling_king_destination(Move m) {
    const bool king_side = m.to() > m.from();
    return make_square(king_side ? FileG : FileC, rank_of(m.from()));
}

}  // namespace

std::string square_name(Square s) {
    if (!is_valid(s)) return "-";
    return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

std::optional<Square> parse_square(std::string_view text) {
    if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8') return std::nullopt;
    return make_square(File(text[0] - 'a'), Rank(text[1] - '1'));
}

std::string to_uci(Move m, bool chess960) {
    if (m.is_null()) return "0000";
    const Square to = m.kind() == Move::Castling && !chess960 ? castling_king_destination(m) : m.to();
    std::string text = square_name(m.from()) + square_name(to);
    if (m.kind() == Move::Promotion) text += to_lower(piece_letter(m.promotion()));
    return text;
}

std::optional<Move> parse_uci(const Position& pos, std::string_view text) {
    // Exact match with what to_uci writes: lower case only (`E2E4` and `a7a8Q` are not
    // UCI moves), so that every move has exactly one spelling.
    if (text.size() < 4 || text.size() > 5) return std::nullopt;
    for (Move m : legal_moves(pos))
        if (to_uci(m, pos.chess960()) == text) return m;
    return std::nullopt;
}

std::string to_san(const Position& pos, Move m) {
    std::string san;
    const Piece moving = pos.piece_on(m.from());
    const Square destination = m.kind() == Move::Castling ? castling_king_destination(m) : m.to();
    if (m.kind() == Move::Castling) {
        san = m.to() > m.from() ? "O-O" : "O-O-O";
    } else if (type_of(moving) == Pawn) {
        if (pos.is_capture(m)) san = fmt::format("{}x", char('a' + file_of(m.from())));
        san += square_name(m.to());
        if (m.kind() == Move::Promotion) san += fmt::format("={}", piece_letter(m.promotion()));
    } else {
        san = piece_letter(type_of(moving));
        // Disambiguate by file, else by rank, else by both (FIDE Appendix C.10).
        bool same_file = false, same_rank = false, ambiguous = false;
        for (Move other : legal_moves(pos)) {
            if (other == m || other.to() != m.to() || other.kind() == Move::Castling ||
                pos.piece_on(other.from()) != moving)
                continue;
            ambiguous = true;
            same_file |= file_of(other.from()) == file_of(m.from());
            same_rank |= rank_of(other.from()) == rank_of(m.from());
        }
        if (ambiguous) {
            if (!same_file) san += char('a' + file_of(m.from()));
            else if (!same_rank) san += char('1' + rank_of(m.from()));
            else san += square_name(m.from());
        }
        if (pos.is_capture(m)) san += 'x';
        san += square_name(destination);
    }
    const Position next = pos.apply(m);
    if (next.in_check()) san += has_legal_move(next) ? '+' : '#';
    return san;
}

SanResult parse_san(const Position& pos, std::string_view text) {
    std::string s(text);
    const auto strip_suffixes = [&s] {
        while (!s.empty() && (s.back() == '+' || s.back() == '#' || s.back() == '!' || s.back() == '?')) s.pop_back();
    };
    strip_suffixes();
    // FIDE's optional "e.p." after an en passant capture (Appendix C.9), glued or spaced,
    // before or after the check sign: exf6e.p., exf6 e.p.+
    constexpr std::string_view EnPassantSuffix = "e.p.";
    const bool en_passant_suffix = s.size() > EnPassantSuffix.size() && s.ends_with(EnPassantSuffix);
    if (en_passant_suffix) {
        s.resize(s.size() - EnPassantSuffix.size());
        while (!s.empty() && s.back() == ' ') s.pop_back();
        strip_suffixes();
    }
    if (s.empty()) return {std::nullopt, "empty move"};

    const MoveList moves = legal_moves(pos);
    if (s == "O-O" || s == "0-0" || s == "O-O-O" || s == "0-0-0") {
        const bool king_side = s.size() == 3;
        for (Move m : moves)
            if (m.kind() == Move::Castling && (m.to() > m.from()) == king_side) return {m, {}};
        return {std::nullopt, fmt::format("castling {} is not legal here", text)};
    }

    // Shape: [piece] [from file] [from rank] [x] destination [=] [promotion piece].
    PieceType piece = Pawn;
    PieceType promotion = NoPieceType;
    size_t end = s.size();
    // A trailing piece letter right after the destination's rank (optionally behind
    // '=') is a promotion: e8=Q, e8Q, e8q.
    const PieceType last = piece_type_from_letter(char(std::toupper(static_cast<unsigned char>(s[end - 1]))));
    if (end >= 3 && last != NoPieceType && last != Pawn && last != King) {
        size_t square_end = end - 1;
        if (s[square_end - 1] == '=') --square_end;
        if (square_end >= 2 && s[square_end - 1] >= '1' && s[square_end - 1] <= '8') {
            promotion = last;
            end = square_end;
        }
    }
    if (end < 2) return {std::nullopt, fmt::format("cannot read move '{}'", text)};
    const std::optional<Square> to = parse_square(std::string_view(s).substr(end - 2, 2));
    if (!to) return {std::nullopt, fmt::format("cannot read move '{}'", text)};
    size_t i = 0;
    if (const PieceType named = piece_type_from_letter(s[0]); named != NoPieceType && named != Pawn) {
        piece = named;
        ++i;
    }
    int from_file = -1, from_rank = -1;
    size_t prefix_end = end - 2;
    if (prefix_end > i && (s[prefix_end - 1] == 'x' || s[prefix_end - 1] == ':')) --prefix_end;
    for (; i < prefix_end; ++i) {
        if (s[i] >= 'a' && s[i] <= 'h' && from_file < 0) from_file = s[i] - 'a';
        else if (s[i] >= '1' && s[i] <= '8' && from_rank < 0) from_rank = s[i] - '1';
        else return {std::nullopt, fmt::format("cannot read move '{}'", text)};
    }

    std::optional<Move> found;
    for (Move m : moves) {
        if (m.kind() == Move::Castling || m.to() != *to || type_of(pos.piece_on(m.from())) != piece) continue;
        if (from_file >= 0 && file_of(m.from()) != from_file) continue;
        if (from_rank >= 0 && rank_of(m.from()) != from_rank) continue;
        const PieceType promoted = m.kind() == Move::Promotion ? m.promotion() : NoPieceType;
        if (promoted != promotion) continue;
        if (found) return {std::nullopt, fmt::format("move '{}' is ambiguous", text)};
        found = m;
    }
    if (!found) return {std::nullopt, fmt::format("move '{}' is not legal here", text)};
    if (en_passant_suffix && found->kind() != Move::EnPassant)
        return {std::nullopt, fmt::format("move '{}' is not an en passant capture", text)};
    return {found, {}};
}

}  // namespace arbiter

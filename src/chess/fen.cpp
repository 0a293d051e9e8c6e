// FEN, X-FEN and Shredder-FEN reading (strict) and writing.

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <vector>

#include "chess/last_move.h"
#include "chess/notation.h"
#include "chess/position.h"
#include "util/parse.h"
#include "util/strings.h"

namespace arbiter {

namespace {

// A clock as FEN writes it: a number from `min` to `max`, digits only, no sign, and no
// leading zero.
ParsedNumber<unsigned> parse_clock(std::string_view text, unsigned min, unsigned max) {
    if (text.size() > 1 && text[0] == '0') return NumberError::NotANumber;
    return parse_number(text, min, max);
}

const char* color_name(Color c) { return c == White ? "White" : "Black"; }

}  // namespace

// Reads a FEN field by field; every member function returns an error message, or an
// empty string when the field was fine.
struct FenReader {
    Position& pos;
    Square claimed_ep = NoSquare;  // the e.p. field, even when no capture is legal
    bool impossible = false;       // the error says why no game reaches the position, not bad syntax

    // Reads `fen`; `impossible` tells the kind of error, as the member above does.
    static FenResult read(std::string_view fen, bool chess960, FenCheck check, bool& impossible);

    // `reason`, if any, is about reachability: "impossible position", not "invalid FEN".
    std::string unreachable(std::string reason) {
        impossible = !reason.empty();
        return reason;
    }

    std::string board(std::string_view field) {
        const int ranks = int(std::count(field.begin(), field.end(), '/')) + 1;
        if (ranks != 8) return fmt::format("the board has {} ranks, expected 8", ranks);
        int rank = 7;
        int file = 0;
        bool after_digit = false;
        for (size_t i = 0; i <= field.size(); ++i) {
            const char c = i < field.size() ? field[i] : '/';
            if (c == '/') {
                if (file != 8) return fmt::format("rank {} has {} squares, expected 8", rank + 1, file);
                --rank;
                file = 0;
                after_digit = false;
            } else if (c >= '0' && c <= '9') {
                // One digit per run of empty squares: `44` or `116` sum to 8 but are not FEN.
                if (c == '0' || c == '9')
                    return fmt::format("rank {}: '{}' is not a run of 1 to 8 empty squares", rank + 1, c);
                if (after_digit) return fmt::format("rank {}: two digits in a row", rank + 1);
                file += c - '0';
                after_digit = true;
                if (file > 8) return fmt::format("rank {} has more than 8 squares", rank + 1);
            } else {
                after_digit = false;
                const Piece piece = piece_from_letter(c);
                if (piece == NoPiece) return fmt::format("unknown piece letter '{}'", c);
                if (file >= 8) return fmt::format("rank {} has more than 8 squares", rank + 1);
                pos.put_piece(piece, make_square(File(file), Rank(rank)));
                ++file;
            }
        }
        return {};
    }

    std::string side(std::string_view field) {
        if (field == "w") pos.side_ = White;
        else if (field == "b") pos.side_ = Black;
        else return fmt::format("side to move must be 'w' or 'b', not '{}'", field);
        if (pos.side_ == Black) pos.key_ ^= zobrist::side();
        return {};
    }

    std::string castling(std::string_view field) {
        if (field == "-") return {};
        CastlingRights rights = 0;
        for (char c : field) {
            const Color color = std::isupper(static_cast<unsigned char>(c)) ? White : Black;
            const char upper = char(std::toupper(static_cast<unsigned char>(c)));
            if (upper != 'K' && upper != 'Q' && (upper < 'A' || upper > 'H'))
                return fmt::format("invalid castling field '{}'", field);
            const Rank back = relative_rank(color, Rank1);
            const Bitboard king = pos.pieces(color, King) & rank_bb(back);
            if (!king)
                return unreachable(
                    fmt::format("castling right '{}' needs the {} king on its first rank", c, color_name(color)));
            const Square ksq = lsb(king);
            const Bitboard rooks = pos.pieces(color, Rook) & rank_bb(back);
            const Bitboard right_of_king = rooks & ~((square_bb(ksq) << 1) - 1);
            const Bitboard left_of_king = rooks & (square_bb(ksq) - 1);
            Square rook = NoSquare;
            if (upper == 'K') {
                if (right_of_king) rook = msb(right_of_king);  // X-FEN: the outermost rook
            } else if (upper == 'Q') {
                if (left_of_king) rook = lsb(left_of_king);
            } else {
                const Square s = make_square(File(upper - 'A'), back);
                if (rooks & square_bb(s)) rook = s;
            }
            if (rook == NoSquare || rook == ksq)
                return unreachable(
                    fmt::format("castling right '{}' has no {} rook to castle with", c, color_name(color)));
            const CastleSide cs = rook > ksq ? KingSide : QueenSide;
            if (!pos.chess960_ && (file_of(ksq) != FileE || file_of(rook) != (cs == KingSide ? FileH : FileA)))
                return unreachable(
                    fmt::format("castling right '{}' needs king and rook on their standard squares "
                                "(Chess960 positions need UCI_Chess960)",
                                c));
            const CastlingRights bit = castling_bit(color, cs);
            if (rights & bit) return fmt::format("castling right '{}' is given twice", c);
            // The order FEN prescribes, and the one fen() writes: White's rights before
            // Black's, each king side before queen side (KQkq, HAha).
            if (rights & ~(castling_bit(color, cs) - 1))
                return fmt::format("castling field '{}' is out of order (White before Black, king side first)", field);
            rights |= bit;
            pos.castling_rooks_[color * 2 + cs] = rook;
        }
        pos.set_castling(rights);
        return {};
    }

    std::string en_passant(std::string_view field) {
        if (field == "-") return {};
        const std::optional<Square> ep = parse_square(field);
        if (!ep) return fmt::format("invalid en passant square '{}'", field);
        const Color us = pos.side_, them = ~us;
        if (rank_of(*ep) != relative_rank(us, Rank6))
            return unreachable(
                fmt::format("en passant square {} is not on the {} rank behind a pawn that just moved "
                            "two squares",
                            field, us == White ? "6th" : "3rd"));
        const Square pawn = Square(*ep - pawn_push(us));
        const Square origin = Square(*ep + pawn_push(us));
        if (pos.piece_on(pawn) != make_piece(them, Pawn))
            return unreachable(
                fmt::format("en passant square {} has no {} pawn in front of it", field, color_name(them)));
        if (pos.piece_on(*ep) != NoPiece || pos.piece_on(origin) != NoPiece)
            return unreachable(fmt::format("en passant square {} needs {} and {} empty", field, square_name(*ep),
                                           square_name(origin)));
        pos.set_en_passant_if_capturable(*ep);
        claimed_ep = *ep;
        return {};
    }

    std::string clocks(std::string_view halfmove, std::string_view fullmove) {
        // The limit only keeps the counters far from overflow: a billion moves.
        constexpr unsigned Limit = 1'000'000'000;
        const ParsedNumber<unsigned> half = parse_clock(halfmove, 0, Limit);
        if (!half) return fmt::format("halfmove clock '{}' is not a number from 0 to {}", halfmove, Limit);
        const ParsedNumber<unsigned> full = parse_clock(fullmove, 1, Limit);
        if (!full) return fmt::format("fullmove number '{}' is not a number from 1 to {}", fullmove, Limit);
        pos.halfmove_ = *half;
        pos.fullmove_ = *full;
        return {};
    }
};

std::string Position::validate(FenCheck check) const {
    for (Color c : {White, Black}) {
        const int kings = popcount(pieces(c, King));
        if (kings != 1) return fmt::format("{} has {} kings, expected exactly one", color_name(c), kings);
    }
    if (king_attacks(king_square(White)) & pieces(Black, King))
        return fmt::format("the kings stand on adjacent squares {} and {}", square_name(king_square(White)),
                           square_name(king_square(Black)));
    if (const Bitboard back_rank_pawns = pieces(Pawn) & (rank_bb(Rank1) | rank_bb(Rank8)))
        return fmt::format("pawn on the first or last rank ({})", square_name(lsb(back_rank_pawns)));
    const Color them = ~side_;
    if (is_attacked(king_square(them), side_, occupied()))
        return fmt::format("the side not to move ({}) is in check", color_name(them));
    if (check == FenCheck::Playable) {
        const int checkers = popcount(attackers_to(king_square(side_), occupied()) & pieces(them));
        if (checkers > 2) return fmt::format("{} is in check from {} pieces", color_name(side_), checkers);
        return {};
    }
    for (Color c : {White, Black}) {
        const int pawns = popcount(pieces(c, Pawn));
        if (pawns > 8) return fmt::format("{} has {} pawns, at most 8 are possible", color_name(c), pawns);
        // Every piece beyond the initial set must have come from a promoted pawn; of
        // the bishops, one starts on each square colour.
        int promoted = 0;
        const int initial[] = {0, 2, 0, 2, 1};
        for (PieceType t : {Knight, Rook, Queen}) promoted += std::max(0, popcount(pieces(c, t)) - initial[t]);
        for (Bitboard colour : {LightSquares, DarkSquares})
            promoted += std::max(0, popcount(pieces(c, Bishop) & colour) - 1);
        if (promoted > 8 - pawns)
            return fmt::format("{} has more pieces than its missing pawns could have promoted to", color_name(c));
    }
    return {};
}

FenResult FenReader::read(std::string_view fen, bool chess960, FenCheck check, bool& impossible) {
    // split_words treats CR and LF as blanks: a FEN read from a CRLF file keeps its '\r'.
    const std::vector<std::string_view> fields = split_words(fen);
    if (fields.empty()) return {std::nullopt, "empty FEN"};
    if (fields.size() < 4 || fields.size() > 6)
        return {std::nullopt, fmt::format("expected 6 fields (placement, side to move, castling, en passant, halfmove "
                                          "clock, fullmove number; the two clocks may be left out), found {}",
                                          fields.size())};

    Position pos;
    pos.chess960_ = chess960;
    FenReader reader{pos};
    std::string error = reader.board(fields[0]);
    if (error.empty()) error = reader.side(fields[1]);
    if (error.empty()) error = reader.unreachable(pos.validate(check));
    if (error.empty()) error = reader.castling(fields[2]);
    if (error.empty()) pos.update_check_info();
    if (error.empty()) error = reader.en_passant(fields[3]);
    if (error.empty()) error = reader.clocks(fields.size() > 4 ? fields[4] : "0", fields.size() > 5 ? fields[5] : "1");
    if (error.empty() && check == FenCheck::Reachable)
        error = reader.unreachable(impossible_last_move_reason(pos, reader.claimed_ep));
    impossible = reader.impossible;
    if (!error.empty()) return {std::nullopt, error};
    return {pos, {}};
}

FenResult Position::from_fen(std::string_view fen, bool chess960, FenCheck check) {
    bool impossible = false;
    FenResult result = FenReader::read(fen, chess960, check, impossible);
    if (!result.position)
        result.error = fmt::format("{}: {}", impossible ? "impossible position" : "invalid FEN", result.error);
    return result;
}

std::string fen_placement(std::span<const Piece, 64> board) {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Piece p = board[make_square(File(file), Rank(rank))];
            if (p == NoPiece) {
                ++empty;
                continue;
            }
            if (empty) out += char('0' + empty);
            empty = 0;
            out += piece_letter(p);
        }
        if (empty) out += char('0' + empty);
        if (rank) out += '/';
    }
    return out;
}

std::string Position::fen() const {
    std::string out = fen_placement(board_);
    out += side_ == White ? " w " : " b ";
    if (!castling_) out += '-';
    for (Color c : {White, Black}) {
        for (CastleSide cs : {KingSide, QueenSide}) {
            if (!can_castle(c, cs)) continue;
            char letter = chess960_ ? char('A' + file_of(castling_rook(c, cs))) : (cs == KingSide ? 'K' : 'Q');
            out += c == White ? letter : char(std::tolower(letter));
        }
    }
    out += ' ';
    out += ep_square_ == NoSquare ? std::string("-") : square_name(ep_square_);
    out += fmt::format(" {} {}", halfmove_, fullmove_);
    return out;
}

}  // namespace arbiter

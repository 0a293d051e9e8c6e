#include "chess/last_move.h"

#include <fmt/format.h>

#include "chess/last_move_retraction.h"
#include "chess/notation.h"

namespace arbiter {

namespace {

bool is_slider(PieceType t) { return t == Bishop || t == Rook || t == Queen; }

const char* color_name(Color c) { return c == White ? "White" : "Black"; }

std::string describe(const Position& pos, Square s) {
    static constexpr const char* Names[] = {"pawn", "knight", "bishop", "rook", "queen", "king"};
    return fmt::format("{} on {}", Names[type_of(pos.piece_on(s))], square_name(s));
}

// Whether the piece of `them` standing on `s` would attack `target` with `occupied`.
bool attacks_from(PieceType t, Color them, Square s, Square target, Bitboard occupied) {
    if (t == Pawn) return contains(pawn_attacks(them, s), target);
    return contains(piece_attacks(t, s, occupied), target);
}

// The squares, empty now, from which the piece on `to` (of the side that just moved)
// can have come in one move without already attacking the enemy king there. The
// square `to` counts as occupied before the move too: it may have held a captured
// piece, which is the most that the move allows. The piece gives check, so it is no
// king. Castling and en passant are handled by the caller.
Bitboard possible_origins(const Position& pos, Square to) {
    const Piece piece = pos.piece_on(to);
    const Color them = color_of(piece);
    const PieceType type = type_of(piece);
    const Square king = pos.king_square(~them);
    const Bitboard empty = ~pos.occupied();
    const int push = pawn_push(them);

    Bitboard origins = 0;
    if (type == Pawn) {
        // Pawns start on their second rank and only move forward: one step, a double
        // step from the second rank over an empty square, or a capture.
        if (rank_of(to) != relative_rank(them, Rank2)) {
            origins = pawn_attacks(~them, to) | square_bb(Square(to - push));
            if (rank_of(to) == relative_rank(them, Rank4) && contains(empty, Square(to - push)))
                origins |= square_bb(Square(to - 2 * push));
        }
    } else if (type == Knight) {
        origins = knight_attacks(to);
    } else {
        origins = piece_attacks(type, to, pos.occupied());
    }
    origins &= empty;
    Bitboard possible = 0;
    for (Square s : squares(origins))
        if (!attacks_from(type, them, s, king, pos.occupied() | square_bb(s))) possible |= square_bb(s);

    // A promoted piece was a pawn on the seventh rank a move ago.
    if (type != Pawn && rank_of(to) == relative_rank(them, Rank8)) {
        const Bitboard pawn_from = (pawn_attacks(~them, to) | square_bb(Square(to - push))) & empty;
        for (Square s : squares(pawn_from))
            if (!contains(pawn_attacks(them, s), king)) possible |= square_bb(s);
    }
    return possible;
}

// A rook standing where castling puts it, beside its king: castling can give check
// with the rook (the king cannot give check).
bool castling_rook(const Position& pos, Square s) {
    const Piece piece = pos.piece_on(s);
    if (type_of(piece) != Rook) return false;
    const Color them = color_of(piece);
    if (rank_of(s) != relative_rank(them, Rank1)) return false;
    const Square king = pos.king_square(them);
    return rank_of(king) == rank_of(s) &&
           ((file_of(s) == FileF && file_of(king) == FileG) || (file_of(s) == FileD && file_of(king) == FileC));
}

// Whether the last move can have been an en passant capture that explains every
// checker: the capturing pawn checks from where it landed, or a slider checks
// through one of the two squares the capture emptied.
bool en_passant_explains(const Position& pos, Bitboard checkers) {
    const Color us = pos.side_to_move(), them = ~us;
    const Square king = pos.king_square(us);
    const int push = pawn_push(them);
    for (Square to : squares(pos.pieces(them, Pawn) & rank_bb(relative_rank(them, Rank6)))) {
        const Square captured = Square(to - push), double_push_origin = Square(to + push);
        if (pos.occupied() & (square_bb(captured) | square_bb(double_push_origin))) continue;
        for (Square from : squares(pawn_attacks(~them, to) & rank_bb(rank_of(captured)) & ~pos.occupied())) {
            const Bitboard emptied = square_bb(from) | square_bb(captured);
            bool all = true;
            for (Square c : squares(checkers)) {
                const bool direct = c == to;
                const bool uncovered = is_slider(type_of(pos.piece_on(c))) && (between(king, c) & emptied);
                all &= direct || uncovered;
            }
            if (all) return true;
        }
    }
    return false;
}

// Whether a move of the checker on `moved` from a square on the line between the king
// and the slider on `uncovered` gives both checks at once.
bool move_and_discovery(const Position& pos, Square moved, Square uncovered) {
    if (!is_slider(type_of(pos.piece_on(uncovered)))) return false;
    return possible_origins(pos, moved) & between(pos.king_square(pos.side_to_move()), uncovered);
}

// With an en passant field the last move is known: the double step of the pawn in
// front of the e.p. square. Every check must come from it, the halfmove clock must be
// 0, and the position before it legal: the pawn on its origin square and nothing on
// the two squares it crossed, the other king out of check (it was not its move).
std::string double_step_reason(const Position& pos, Square ep_field) {
    const Color us = pos.side_to_move(), them = ~us;
    const Square king = pos.king_square(us);
    if (pos.halfmove_clock() != 0)
        return fmt::format(
            "the en passant square {} says the last move was a pawn's double step, "
            "but the halfmove clock is {}, not 0",
            square_name(ep_field), pos.halfmove_clock());
    const Square pushed = Square(ep_field - pawn_push(us)), origin = Square(ep_field + pawn_push(us));
    for (Square c : squares(pos.checkers())) {
        const bool by_pawn = c == pushed;
        const bool uncovered = is_slider(type_of(pos.piece_on(c))) && contains(between(king, c), origin);
        if (!by_pawn && !uncovered)
            return fmt::format(
                "the {} gives check, which the double step to {} (en passant square {}) "
                "can neither give nor uncover",
                describe(pos, c), square_name(pushed), square_name(ep_field));
    }
    // Every check now comes from the double step, so a check before it came from the
    // pawn on its origin square, or through the square the pawn now blocks.
    BoardBefore before(pos);
    before.move_back(Pawn, pushed, Pawn, origin);
    if (const Bitboard checkers_then = before.attackers(king, us)) {
        const Square c = lsb(checkers_then);
        if (c == origin)
            return fmt::format(
                "the en passant square {} says a pawn stood on {} a move ago, "
                "giving check with the opponent to move",
                square_name(ep_field), square_name(origin));
        return fmt::format(
            "the en passant square {} says the last move was {}-{}, but before it the {} gave check "
            "through {} with {} to move",
            square_name(ep_field), square_name(origin), square_name(pushed), describe(pos, c), square_name(pushed),
            color_name(them));
    }
    return {};
}

// Checks on the side to move that no move can have given, whatever else the position holds.
std::string check_reason(const Position& pos) {
    const Color us = pos.side_to_move(), them = ~us;
    const Square king = pos.king_square(us);
    const Bitboard checkers = pos.checkers();
    const int count = popcount(checkers);
    if (count > 2)
        return fmt::format("{} is in check from {} pieces; one move gives at most two checks", color_name(us), count);
    if (count == 1) {
        const Square c = lsb(checkers);
        const PieceType type = type_of(pos.piece_on(c));
        if (is_slider(type) && between(king, c)) return {};  // a piece may have left the line
        if (possible_origins(pos, c) || castling_rook(pos, c) || en_passant_explains(pos, checkers)) return {};
        if (type == Pawn && rank_of(c) == relative_rank(them, Rank2))
            return fmt::format("the {} gives check but has never moved", describe(pos, c));
        return fmt::format("the {} gives check but cannot have moved there, nor been uncovered", describe(pos, c));
    }
    if (count == 2) {
        const Square a = lsb(checkers), b = msb(checkers);
        if (move_and_discovery(pos, a, b) || move_and_discovery(pos, b, a) || en_passant_explains(pos, checkers))
            return {};
        const char* why = !is_slider(type_of(pos.piece_on(a))) && !is_slider(type_of(pos.piece_on(b)))
                              ? "only a slider can give a discovered check"
                          : aligned(king, a, b) ? "both stand on one line through the king"
                                                : "no single move gives both";
        return fmt::format("double check by the {} and the {}: {}", describe(pos, a), describe(pos, b), why);
    }
    return {};
}

// The checkers named one by one: "the rook on e8", "the rook on e8 and the knight on f6".
std::string describe_checkers(const Position& pos) {
    std::string text;
    for (Square c : squares(pos.checkers()))
        text += fmt::format("{}the {}", text.empty() ? "" : " and ", describe(pos, c));
    return text;
}

}  // namespace

std::string impossible_last_move_reason(const Position& pos, Square ep_field) {
    if (ep_field != NoSquare) return double_step_reason(pos, ep_field);
    if (std::string why = check_reason(pos); !why.empty()) return why;

    // A pawn's attack does not depend on the other men, and our king has not moved: a
    // pawn that checks now checked before the last move unless it made that move. A
    // pawn move sets the halfmove clock to 0.
    const Color us = pos.side_to_move(), them = ~us;
    const int clock = pos.halfmove_clock();
    const Bitboard pawn_checkers = pos.checkers() & pos.pieces(them, Pawn);
    if (pawn_checkers && clock != 0)
        return fmt::format(
            "the {} gives check, which only its own move can have given, but the halfmove clock "
            "is {}, not 0",
            describe(pos, lsb(pawn_checkers)), clock);

    const Retraction retraction = retract_last_move(pos, clock != 0);
    if (retraction == Retraction::Legal) return {};
    // Say so when the clock alone rules out every last move.
    const std::string clock_note =
        clock != 0 && retract_last_move(pos, false) == Retraction::Legal
            ? fmt::format(" (with the halfmove clock at {}, it was neither a pawn move nor a capture)", clock)
            : std::string();
    if (pos.in_check())
        return fmt::format("no move {} can have played last gives the check by {}{}", color_name(them),
                           describe_checkers(pos), clock_note);
    if (retraction == Retraction::None)
        return fmt::format("{} made the last move, but none of its men can have made it{}", color_name(them),
                           clock_note);
    return fmt::format(
        "{} made the last move, but before each move it can have made, {} stood in check with {} "
        "to move{}",
        color_name(them), color_name(us), color_name(them), clock_note);
}

}  // namespace arbiter

#include "chess/position.h"

namespace arbiter {

Position Position::startpos() { return *from_fen(StartFen).position; }

void Position::put_piece(Piece p, Square s) {
    const Bitboard b = square_bb(s);
    by_type_[type_of(p)] |= b;
    by_color_[color_of(p)] |= b;
    board_[s] = p;
    key_ ^= zobrist::piece_square(p, s);
    if (type_of(p) == Pawn) pawn_key_ ^= zobrist::piece_square(p, s);
}

void Position::remove_piece(Square s) {
    const Piece p = board_[s];
    const Bitboard b = square_bb(s);
    by_type_[type_of(p)] ^= b;
    by_color_[color_of(p)] ^= b;
    board_[s] = NoPiece;
    key_ ^= zobrist::piece_square(p, s);
    if (type_of(p) == Pawn) pawn_key_ ^= zobrist::piece_square(p, s);
}

void Position::move_piece(Square from, Square to) {
    const Piece p = board_[from];
    const Bitboard b = square_bb(from) | square_bb(to);
    by_type_[type_of(p)] ^= b;
    by_color_[color_of(p)] ^= b;
    board_[from] = NoPiece;
    board_[to] = p;
    const Key k = zobrist::piece_square(p, from) ^ zobrist::piece_square(p, to);
    key_ ^= k;
    if (type_of(p) == Pawn) pawn_key_ ^= k;
}

void Position::set_castling(CastlingRights rights) {
    key_ ^= zobrist::castling(castling_) ^ zobrist::castling(rights);
    castling_ = rights;
}

Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
    return (pawn_attacks(White, s) & pieces(Black, Pawn)) | (pawn_attacks(Black, s) & pieces(White, Pawn)) |
           (knight_attacks(s) & by_type_[Knight]) | (king_attacks(s) & by_type_[King]) |
           (bishop_attacks(s, occupied) & (by_type_[Bishop] | by_type_[Queen])) |
           (rook_attacks(s, occupied) & (by_type_[Rook] | by_type_[Queen]));
}

bool Position::is_attacked(Square s, Color by, Bitboard occupied) const {
    const Bitboard them = by_color_[by];
    return (pawn_attacks(~by, s) & them & by_type_[Pawn]) || (knight_attacks(s) & them & by_type_[Knight]) ||
           (king_attacks(s) & them & by_type_[King]) ||
           (bishop_attacks(s, occupied) & them & (by_type_[Bishop] | by_type_[Queen])) ||
           (rook_attacks(s, occupied) & them & (by_type_[Rook] | by_type_[Queen]));
}

void Position::update_check_info() {
    const Color us = side_, them = ~side_;
    const Square ksq = king_square(us);
    const Bitboard occ = occupied();
    checkers_ = attackers_to(ksq, occ) & by_color_[them];

    pinned_ = blockers_of(ksq, them) & by_color_[us];
}

Bitboard Position::blockers_of(Square king, Color sliders_of) const {
    const Bitboard occ = occupied();
    const Bitboard snipers = ((rook_attacks(king, 0) & (by_type_[Rook] | by_type_[Queen])) |
                              (bishop_attacks(king, 0) & (by_type_[Bishop] | by_type_[Queen]))) &
                             by_color_[sliders_of];
    Bitboard result = 0;
    for (Square s : squares(snipers)) {
        const Bitboard blockers = between(king, s) & occ;
        if (blockers && !more_than_one(blockers)) result |= blockers;
    }
    return result;
}

bool Position::en_passant_is_legal(Square from) const {
    // Simulate the capture and ask whether our king would be attacked. Besides pins
    // this covers the rank case (king, capturing pawn, captured pawn and an enemy rook
    // on one rank) and captures that must resolve a check.
    const Color us = side_;
    const Square captured = Square(ep_square_ - pawn_push(us));
    const Bitboard occ = (occupied() ^ square_bb(from) ^ square_bb(captured)) | square_bb(ep_square_);
    return !(attackers_to(king_square(us), occ) & by_color_[~us] & ~square_bb(captured));
}

void Position::set_en_passant_if_capturable(Square ep) {
    const Color us = side_;
    Bitboard candidates = pawn_attacks(~us, ep) & pieces(us, Pawn);
    if (!candidates) return;
    ep_square_ = ep;
    while (candidates) {
        if (en_passant_is_legal(pop_lsb(candidates))) {
            key_ ^= zobrist::en_passant(file_of(ep));
            return;
        }
    }
    ep_square_ = NoSquare;
}

template <bool WithCheckInfo>
Position Position::make_move(Move m) const {
    Position next = *this;
    const Color us = side_, them = ~side_;
    const Square from = m.from(), to = m.to();
    const Piece moving = board_[from];

    if (next.ep_square_ != NoSquare) {
        next.key_ ^= zobrist::en_passant(file_of(next.ep_square_));
        next.ep_square_ = NoSquare;
    }
    ++next.halfmove_;
    if (us == Black) ++next.fullmove_;

    Square double_push_ep = NoSquare;
    switch (m.kind()) {
    case Move::Castling: {
        // `to` is the rook. Lift both pieces first: in Chess960 either may land on the
        // other's square.
        const bool king_side = to > from;
        const Square king_to = relative_square(us, king_side ? G1 : C1);
        const Square rook_to = relative_square(us, king_side ? F1 : D1);
        const Piece rook = board_[to];
        next.remove_piece(from);
        next.remove_piece(to);
        next.put_piece(moving, king_to);
        next.put_piece(rook, rook_to);
        break;
    }
    case Move::EnPassant:
        next.remove_piece(Square(to - pawn_push(us)));
        next.move_piece(from, to);
        next.halfmove_ = 0;
        break;
    case Move::Promotion:
        if (board_[to] != NoPiece) next.remove_piece(to);
        next.remove_piece(from);
        next.put_piece(make_piece(us, m.promotion()), to);
        next.halfmove_ = 0;
        break;
    case Move::Normal:
        if (board_[to] != NoPiece) {
            next.remove_piece(to);
            next.halfmove_ = 0;
        }
        next.move_piece(from, to);
        if (type_of(moving) == Pawn) {
            next.halfmove_ = 0;
            if ((int(to) ^ int(from)) == 16) double_push_ep = Square((from + to) / 2);
        }
        break;
    }

    if (castling_) {
        if (const CastlingRights rights = castling_after(moving, from, to); rights != castling_)
            next.set_castling(rights);
    }

    next.side_ = them;
    next.key_ ^= zobrist::side();
    // The en passant square needs no check information: a capture's legality is
    // simulated on the board.
    if (double_push_ep != NoSquare) next.set_en_passant_if_capturable(double_push_ep);
    if constexpr (WithCheckInfo) {
        next.update_check_info();
    } else {
        next.checkers_ = 0;
        next.pinned_ = 0;
    }
    return next;
}

CastlingRights Position::castling_after(Piece moving, Square from, Square to) const {
    CastlingRights rights = castling_;
    if (type_of(moving) == King) {
        const Color us = color_of(moving);
        rights &= CastlingRights(~(castling_bit(us, KingSide) | castling_bit(us, QueenSide)));
    }
    for (int i = 0; i < 4; ++i)
        if (castling_rooks_[i] == from || castling_rooks_[i] == to) rights &= CastlingRights(~(1u << i));
    return rights;
}

Key Position::key_after(Move m) const {
    const Color us = side_;
    const Square from = m.from(), to = m.to();
    const Piece moving = board_[from];
    Key key = key_ ^ zobrist::side();
    if (ep_square_ != NoSquare) key ^= zobrist::en_passant(file_of(ep_square_));
    switch (m.kind()) {
    case Move::Castling: {
        const bool king_side = to > from;
        key ^= zobrist::piece_square(moving, from) ^ zobrist::piece_square(board_[to], to) ^
               zobrist::piece_square(moving, relative_square(us, king_side ? G1 : C1)) ^
               zobrist::piece_square(board_[to], relative_square(us, king_side ? F1 : D1));
        break;
    }
    case Move::EnPassant:
        key ^= zobrist::piece_square(moving, from) ^ zobrist::piece_square(moving, to) ^
               zobrist::piece_square(make_piece(~us, Pawn), Square(to - pawn_push(us)));
        break;
    case Move::Promotion:
    case Move::Normal:
        if (board_[to] != NoPiece) key ^= zobrist::piece_square(board_[to], to);
        key ^= zobrist::piece_square(moving, from) ^
               zobrist::piece_square(m.kind() == Move::Promotion ? make_piece(us, m.promotion()) : moving, to);
        break;
    }
    if (castling_) key ^= zobrist::castling(castling_) ^ zobrist::castling(castling_after(moving, from, to));
    return key;
}

Position Position::apply(Move m) const { return make_move<true>(m); }
Position Position::apply_board(Move m) const { return make_move<false>(m); }

Position::CheckSquares Position::check_squares() const {
    const Color us = side_;
    CheckSquares result;
    result.king = king_square(~us);
    const Bitboard occ = occupied();
    result.by_type[Pawn] = pawn_attacks(~us, result.king);
    result.by_type[Knight] = knight_attacks(result.king);
    result.by_type[Bishop] = bishop_attacks(result.king, occ);
    result.by_type[Rook] = rook_attacks(result.king, occ);
    result.by_type[Queen] = result.by_type[Bishop] | result.by_type[Rook];
    result.by_type[King] = 0;
    result.discoverers = blockers_of(result.king, us) & by_color_[us];
    return result;
}

bool Position::gives_check(Move m, const CheckSquares& squares) const {
    if (m.kind() != Move::Normal) return special_move_gives_check(m, squares.king);
    const Square from = m.from(), to = m.to();
    if (squares.by_type[type_of(board_[from])] & square_bb(to)) return true;
    return (squares.discoverers & square_bb(from)) && !(line_through(squares.king, from) & square_bb(to));
}

bool Position::special_move_gives_check(Move m, Square ksq) const {
    const Color us = side_;
    const Square from = m.from(), to = m.to();
    // Our men that can give check, and the occupancy, as they will be after the move.
    Bitboard pawns = pieces(us, Pawn), knights = pieces(us, Knight);
    Bitboard diagonal = pieces(us, Bishop) | pieces(us, Queen), straight = pieces(us, Rook) | pieces(us, Queen);
    Bitboard occupied = this->occupied();
    if (m.kind() == Move::Castling) {
        // `to` is the rook; the king itself never gives check.
        const bool king_side = to > from;
        const Square king_to = relative_square(us, king_side ? G1 : C1);
        const Square rook_to = relative_square(us, king_side ? F1 : D1);
        occupied = (occupied & ~square_bb(from) & ~square_bb(to)) | square_bb(king_to) | square_bb(rook_to);
        straight = (straight & ~square_bb(to)) | square_bb(rook_to);
    } else {
        const Bitboard from_bb = square_bb(from), to_bb = square_bb(to);
        pawns &= ~from_bb;
        occupied = (occupied & ~from_bb) | to_bb;
        if (m.kind() == Move::EnPassant) {
            occupied &= ~square_bb(Square(to - pawn_push(us)));
            pawns |= to_bb;
        } else {
            switch (m.promotion()) {
            case Knight: knights |= to_bb; break;
            case Bishop: diagonal |= to_bb; break;
            case Rook: straight |= to_bb; break;
            default:
                diagonal |= to_bb;
                straight |= to_bb;
                break;
            }
        }
    }
    return (pawn_attacks(~us, ksq) & pawns) || (knight_attacks(ksq) & knights) ||
           (bishop_attacks(ksq, occupied) & diagonal) || (rook_attacks(ksq, occupied) & straight);
}

Position Position::apply_null_move() const {
    Position next = *this;
    if (next.ep_square_ != NoSquare) {
        next.key_ ^= zobrist::en_passant(file_of(next.ep_square_));
        next.ep_square_ = NoSquare;
    }
    ++next.halfmove_;
    next.side_ = ~side_;
    next.key_ ^= zobrist::side();
    next.update_check_info();
    return next;
}

bool Position::same_position(const Position& other) const {
    if (key_ != other.key_ || side_ != other.side_ || castling_ != other.castling_ || ep_square_ != other.ep_square_)
        return false;
    for (int i = 0; i < 4; ++i)
        if ((castling_ & (1u << i)) && castling_rooks_[i] != other.castling_rooks_[i]) return false;
    for (int s = 0; s < 64; ++s)
        if (board_[s] != other.board_[s]) return false;
    return true;
}

}  // namespace arbiter

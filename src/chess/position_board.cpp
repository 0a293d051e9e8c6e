// Position::apply_board(), apart from position.cpp so that apply(), which the
// engine's search runs, keeps the code it had: sharing a body with it changed how the
// compiler inlined apply()'s helpers. The move is made as apply() makes it, with the
// board updated in place here instead of through the helpers (calls into another
// file), and without the check information.

#include "chess/position.h"

namespace arbiter {

Position Position::apply_board(Move m) const {
    Position next = *this;
    const Color us = side_, them = ~side_;
    const Square from = m.from(), to = m.to();
    const Piece moving = board_[from];

    const auto lift = [&next](Square s) {
        const Piece p = next.board_[s];
        const Bitboard b = square_bb(s);
        next.by_type_[type_of(p)] ^= b;
        next.by_color_[color_of(p)] ^= b;
        next.board_[s] = NoPiece;
        next.key_ ^= zobrist::piece_square(p, s);
        if (type_of(p) == Pawn) next.pawn_key_ ^= zobrist::piece_square(p, s);
    };
    const auto drop = [&next](Piece p, Square s) {
        const Bitboard b = square_bb(s);
        next.by_type_[type_of(p)] |= b;
        next.by_color_[color_of(p)] |= b;
        next.board_[s] = p;
        next.key_ ^= zobrist::piece_square(p, s);
        if (type_of(p) == Pawn) next.pawn_key_ ^= zobrist::piece_square(p, s);
    };

    if (next.ep_square_ != NoSquare) {
        next.key_ ^= zobrist::en_passant(file_of(next.ep_square_));
        next.ep_square_ = NoSquare;
    }
    ++next.halfmove_;
    if (us == Black) ++next.fullmove_;

    Square double_push_ep = NoSquare;
    switch (m.kind()) {
    case Move::Castling: {
        // `to` is the rook; in Chess960 either piece may land on the other's square.
        const bool king_side = to > from;
        const Piece rook = board_[to];
        lift(from);
        lift(to);
        drop(moving, relative_square(us, king_side ? G1 : C1));
        drop(rook, relative_square(us, king_side ? F1 : D1));
        break;
    }
    case Move::EnPassant:
        lift(Square(to - pawn_push(us)));
        lift(from);
        drop(moving, to);
        next.halfmove_ = 0;
        break;
    case Move::Promotion:
        if (board_[to] != NoPiece) lift(to);
        lift(from);
        drop(make_piece(us, m.promotion()), to);
        next.halfmove_ = 0;
        break;
    case Move::Normal:
        if (board_[to] != NoPiece) {
            lift(to);
            next.halfmove_ = 0;
        }
        lift(from);
        drop(moving, to);
        if (type_of(moving) == Pawn) {
            next.halfmove_ = 0;
            if ((int(to) ^ int(from)) == 16) double_push_ep = Square((from + to) / 2);
        }
        break;
    }

    if (castling_) {
        CastlingRights rights = castling_;
        if (type_of(moving) == King) rights &= CastlingRights(~(castling_bit(us, KingSide) | castling_bit(us, QueenSide)));
        for (int i = 0; i < 4; ++i)
            if (castling_rooks_[i] == from || castling_rooks_[i] == to) rights &= CastlingRights(~(1u << i));
        if (rights != castling_) next.set_castling(rights);
    }

    next.side_ = them;
    next.key_ ^= zobrist::side();
    // The en passant square needs no check information: a capture's legality is
    // simulated on the board.
    if (double_push_ep != NoSquare) next.set_en_passant_if_capturable(double_push_ep);
    next.checkers_ = 0;
    next.pinned_ = 0;
    return next;
}

} // namespace arbiter

#include "search/see.h"

#include "eval/evaluate.h"

namespace arbiter::search {

namespace {

int value(PieceType t) { return t == King ? 20000 : eval::PieceValue[t]; }  // the king: never capturable

}  // namespace

bool see_ge(const Position& pos, Move m, int threshold) {
    if (m.kind() == Move::Castling) return threshold <= 0;
    const Square from = m.from(), to = m.to();
    const Color us = pos.side_to_move();

    // What the first capture gains, and what then stands on the square to be lost.
    int gain = m.kind() == Move::EnPassant   ? value(Pawn)
               : pos.piece_on(to) == NoPiece ? 0
                                             : value(type_of(pos.piece_on(to)));
    PieceType on_square = type_of(pos.piece_on(from));
    if (m.kind() == Move::Promotion) {
        gain += value(m.promotion()) - value(Pawn);
        on_square = m.promotion();
    }

    // `balance` is our result if the opponent stops now, minus the threshold; we keep
    // swapping while the side to move can improve on stopping.
    int balance = gain - threshold;
    if (balance < 0) return false;
    balance -= value(on_square);
    if (balance >= 0) return true;

    Bitboard occupied = pos.occupied() ^ square_bb(from) ^ square_bb(to);
    if (m.kind() == Move::EnPassant) occupied ^= square_bb(Square(to - pawn_push(us)));
    Bitboard attackers = pos.attackers_to(to, occupied) & occupied;
    const Bitboard diagonal = pos.pieces(Bishop) | pos.pieces(Queen);
    const Bitboard straight = pos.pieces(Rook) | pos.pieces(Queen);

    Color side = ~us;
    for (;;) {
        attackers &= occupied;
        const Bitboard ours = attackers & pos.pieces(side);
        if (!ours) break;
        PieceType attacker = Pawn;
        while (!(ours & pos.pieces(attacker))) attacker = PieceType(attacker + 1);

        // `side` captures: from its point of view the balance flips.
        side = ~side;
        balance = -balance - 1 - value(attacker);
        // The king's huge value means a king capture is never the profitable last
        // word while the other side can still recapture: that would lose the king.
        if (balance >= 0) break;
        occupied ^= square_bb(lsb(ours & pos.pieces(attacker)));
        if (attacker == Pawn || attacker == Bishop || attacker == Queen)
            attackers |= bishop_attacks(to, occupied) & diagonal;
        if (attacker == Rook || attacker == Queen) attackers |= rook_attacks(to, occupied) & straight;
    }
    // The side that could not (profitably) continue lost the exchange.
    return side != us;
}

}  // namespace arbiter::search

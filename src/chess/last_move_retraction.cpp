#include "chess/last_move_retraction.h"

namespace arbiter {

namespace {

// A side starts with 16 men and 8 pawns and never gains a man: a capture can be
// taken back only while the captured side has fewer than 16, an en passant capture
// (of a pawn) or a promotion (which made a pawn a piece) only below 8 pawns.
constexpr int MaxMen = 16;
constexpr int MaxPawns = 8;

// Takes back the moves of the side that just moved (`them`) one at a time. Each
// member tries a group of them and returns true at the first one played in a legal
// position; `found` records that some move could be taken back at all.
struct Retractor {
    const Position& pos;
    Color us, them;  // us: to move now, whose king has not moved since
    Square king;     // our king
    Bitboard empty;
    int push;            // their pawns' step forward
    bool quiet_only;     // no pawn move, no capture
    bool may_uncapture;  // a capture can be taken back
    bool found = false;

    bool legal_before(const BoardBefore& before) {
        found = true;
        return !before.attackers(king, us);
    }

    // A taken-back capture puts one of our men on `to`. Which one does not matter
    // here: a man of ours can only shield our king from theirs.
    bool back(PieceType now, Square to, PieceType was, Square from, bool uncapture) {
        BoardBefore before(pos);
        before.move_back(now, to, was, from);
        if (uncapture) before.occupied |= square_bb(to);
        return legal_before(before);
    }

    bool holds_castling_right(Square rook) const {
        for (CastleSide cs : {KingSide, QueenSide})
            if (pos.can_castle(them, cs) && pos.castling_rook(them, cs) == rook) return true;
        return false;
    }

    bool any_castling_right() const { return pos.can_castle(them, KingSide) || pos.can_castle(them, QueenSide); }

    // A knight, bishop, rook, queen or king on `to`: an ordinary move, or a promotion.
    // A king or rook that holds a castling right has never moved.
    bool piece_moves(Square to) {
        const PieceType type = type_of(pos.piece_on(to));
        if (type == King && any_castling_right()) return false;
        if (type == Rook && holds_castling_right(to)) return false;
        for (Square from : squares(piece_attacks(type, to, pos.occupied()) & empty))
            if (back(type, to, type, from, may_uncapture)) return true;

        const bool promoted = type != King && rank_of(to) == relative_rank(them, Rank8);
        if (!promoted || quiet_only || popcount(pos.pieces(them, Pawn)) >= MaxPawns) return false;
        const Square behind = Square(to - push);
        if (contains(empty, behind) && back(type, to, Pawn, behind, false)) return true;
        if (!may_uncapture) return false;
        for (Square from : squares(pawn_attacks(us, to) & empty))
            if (back(type, to, Pawn, from, true)) return true;
        return false;
    }

    // A pawn on `to`: a step, a double step, a capture or an en passant capture.
    bool pawn_moves(Square to) {
        const Rank rank = relative_rank(them, rank_of(to));
        if (quiet_only || rank <= Rank2) return false;  // on its second rank it has not moved
        const Square behind = Square(to - push);
        if (contains(empty, behind)) {
            if (back(Pawn, to, Pawn, behind, false)) return true;
            const Square start = Square(behind - push);
            if (rank == Rank4 && contains(empty, start) && back(Pawn, to, Pawn, start, false)) return true;
        }
        if (!may_uncapture) return false;
        // Diagonally behind `to`: a pawn of ours standing on `to` would attack those squares.
        const Bitboard capture_origins = pawn_attacks(us, to) & empty;
        for (Square from : squares(capture_origins))
            if (back(Pawn, to, Pawn, from, true)) return true;

        // En passant: our pawn had just stepped from in front of `to` to behind it.
        const Square our_pawn_origin = Square(to + push);
        if (rank != Rank6 || popcount(pos.pieces(us, Pawn)) >= MaxPawns || !contains(empty, behind) ||
            !contains(empty, our_pawn_origin))
            return false;
        for (Square from : squares(capture_origins)) {
            BoardBefore before(pos);
            before.move_back(Pawn, to, Pawn, from);
            before.occupied |= square_bb(behind);
            if (legal_before(before)) return true;
        }
        return false;
    }

    // Castling leaves the king on the c- or g-file with the rook beside it, on the
    // d- or f-file, and no right for either side. In Chess960 the squares they came
    // from are unknown: any castled king and rook count as a possible last move.
    bool castling() {
        if (any_castling_right()) return false;
        const Rank first = relative_rank(them, Rank1);
        const Square king_now = pos.king_square(them);
        if (rank_of(king_now) != first) return false;
        for (CastleSide cs : {KingSide, QueenSide}) {
            const bool king_side = cs == KingSide;
            const Square rook_now = make_square(king_side ? FileF : FileD, first);
            if (file_of(king_now) != (king_side ? FileG : FileC) || pos.piece_on(rook_now) != make_piece(them, Rook))
                continue;
            if (pos.chess960()) {
                found = true;
                return true;
            }
            const Square king_from = make_square(FileE, first);
            const Square rook_from = make_square(king_side ? FileH : FileA, first);
            const Bitboard emptied =
                square_bb(king_from) | square_bb(rook_from) | (king_side ? 0 : square_bb(make_square(FileB, first)));
            if ((empty & emptied) != emptied) continue;
            BoardBefore before(pos);
            before.move_back(King, king_now, King, king_from);
            before.move_back(Rook, rook_now, Rook, rook_from);
            // The king may not castle out of, through or into check.
            bool safe = true;
            for (Square s : squares(between(king_from, king_now) | square_bb(king_from) | square_bb(king_now)))
                safe = safe && !pos.is_attacked(s, us, before.occupied);
            if (safe && legal_before(before)) return true;
        }
        return false;
    }
};

}  // namespace

BoardBefore::BoardBefore(const Position& pos) : occupied(pos.occupied()) {
    const Color moved = ~pos.side_to_move();
    for (PieceType t : {Pawn, Knight, Bishop, Rook, Queen, King}) men[t] = pos.pieces(moved, t);
}

void BoardBefore::move_back(PieceType now, Square to, PieceType before, Square from) {
    men[now] &= ~square_bb(to);
    men[before] |= square_bb(from);
    occupied = (occupied & ~square_bb(to)) | square_bb(from);
}

Bitboard BoardBefore::attackers(Square king, Color king_color) const {
    return (pawn_attacks(king_color, king) & men[Pawn]) | (knight_attacks(king) & men[Knight]) |
           (king_attacks(king) & men[King]) | (bishop_attacks(king, occupied) & (men[Bishop] | men[Queen])) |
           (rook_attacks(king, occupied) & (men[Rook] | men[Queen]));
}

Retraction retract_last_move(const Position& pos, bool quiet_only) {
    const Color us = pos.side_to_move(), them = ~us;
    Retractor r{pos,
                us,
                them,
                pos.king_square(us),
                ~pos.occupied(),
                pawn_push(them),
                quiet_only,
                !quiet_only && popcount(pos.pieces(us)) < MaxMen};
    for (Square to : squares(pos.pieces(them) & ~pos.pieces(Pawn)))
        if (r.piece_moves(to)) return Retraction::Legal;
    for (Square to : squares(pos.pieces(them, Pawn)))
        if (r.pawn_moves(to)) return Retraction::Legal;
    if (r.castling()) return Retraction::Legal;
    return r.found ? Retraction::IntoCheck : Retraction::None;
}

}  // namespace arbiter

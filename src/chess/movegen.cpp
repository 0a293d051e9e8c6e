#include "chess/movegen.h"

namespace arbiter {

namespace {

// The generator below is written once and instantiated with two sinks: one that
// stores moves and one that only counts them.
struct ListSink {
    MoveList& list;

    void add(Square from, Square to, Move::Kind kind = Move::Normal) { list.push_back(Move(from, to, kind)); }
    void add_targets(Square from, Bitboard targets) {
        for (Square to : squares(targets)) list.push_back(Move(from, to));
    }
    template <int Delta>
    void add_pawn_moves(Bitboard targets) {
        for (Square to : squares(targets)) list.push_back(Move(Square(to - Delta), to));
    }
    void add_promotions(Square from, Square to) {
        for (PieceType t : {Queen, Rook, Bishop, Knight}) list.push_back(Move(from, to, Move::Promotion, t));
    }
    template <int Delta>
    void add_promotions(Bitboard targets) {
        for (Square to : squares(targets)) add_promotions(Square(to - Delta), to);
    }
};

struct CountSink {
    uint64_t count = 0;

    void add(Square, Square, Move::Kind = Move::Normal) { ++count; }
    void add_targets(Square, Bitboard targets) { count += popcount(targets); }
    template <int Delta>
    void add_pawn_moves(Bitboard targets) {
        count += popcount(targets);
    }
    void add_promotions(Square, Square) { count += 4; }
    template <int Delta>
    void add_promotions(Bitboard targets) {
        count += 4 * popcount(targets);
    }
};

// The squares a move that is not the king's may go to, given the checks: anywhere
// out of check, the checker or a square between it and the king in single check.
// (Nothing in double check, which the callers handle first.)
Bitboard check_mask_for(const Position& pos, Square ksq) {
    const Bitboard checkers = pos.checkers();
    return checkers ? between(ksq, lsb(checkers)) | checkers : ~Bitboard(0);
}

// The squares a pawn of `us` on `from` may push to: one square ahead when it is empty,
// and two from its starting rank when both are.
Bitboard pawn_pushes(Color us, Square from, Bitboard empty) {
    const auto up = [us](Bitboard b) { return us == White ? b << 8 : b >> 8; };
    const Bitboard one = up(square_bb(from)) & empty;
    return rank_of(from) == relative_rank(us, Rank2) ? one | (up(one) & empty) : one;
}

template <Color Us, GenKind Kind, typename Sink>
void generate_pawn_moves(const Position& pos, Bitboard check_mask, Bitboard movers, Sink& sink) {
    constexpr Color Them = ~Us;
    constexpr Direction Up = Us == White ? North : South;
    constexpr Direction UpLeft = Us == White ? NorthWest : SouthEast;
    constexpr Direction UpRight = Us == White ? NorthEast : SouthWest;
    constexpr Bitboard Rank7BB = rank_bb(relative_rank(Us, Rank7));
    constexpr Bitboard Rank3BB = rank_bb(relative_rank(Us, Rank3));

    const Bitboard empty = ~pos.occupied();
    const Bitboard enemies = pos.pieces(Them);
    const Bitboard pawns = pos.pieces(Us, Pawn) & movers;
    const Bitboard free = pawns & ~pos.pinned();

    if constexpr (Kind != GenKind::Noisy) {
        const Bitboard single = shift<Up>(free & ~Rank7BB) & empty;
        const Bitboard twice = shift<Up>(single & Rank3BB) & empty;
        sink.template add_pawn_moves<Up>(single & check_mask);
        sink.template add_pawn_moves<2 * Up>(twice & check_mask);
    }
    if constexpr (Kind != GenKind::Quiet) {
        const Bitboard promoting = free & Rank7BB;
        sink.template add_promotions<Up>(shift<Up>(promoting) & empty & check_mask);
        sink.template add_promotions<UpLeft>(shift<UpLeft>(promoting) & enemies & check_mask);
        sink.template add_promotions<UpRight>(shift<UpRight>(promoting) & enemies & check_mask);
        const Bitboard capturing = free & ~Rank7BB;
        sink.template add_pawn_moves<UpLeft>(shift<UpLeft>(capturing) & enemies & check_mask);
        sink.template add_pawn_moves<UpRight>(shift<UpRight>(capturing) & enemies & check_mask);

        // The position keeps an en passant square only when some capture is legal,
        // and each candidate is checked by simulation (pins, the rank case, checks).
        if (pos.ep_square() != NoSquare)
            for (Square from : squares(pawn_attacks(Them, pos.ep_square()) & pawns))
                if (pos.en_passant_is_legal(from)) sink.add(from, pos.ep_square(), Move::EnPassant);
    }

    // A pinned pawn moves only along its pin line. In check it cannot move at all (the
    // pin line meets the check line only at the king), which the check mask enforces.
    const Square ksq = pos.king_square(Us);
    for (Square from : squares(pawns & pos.pinned())) {
        const Bitboard line = line_through(ksq, from) & check_mask;
        const Bitboard pushes = pawn_pushes(Us, from, empty) & line;
        const Bitboard captures = pawn_attacks(Us, from) & enemies & line;
        if (contains(Rank7BB, from)) {
            if constexpr (Kind != GenKind::Quiet)
                for (Square to : squares(pushes | captures)) sink.add_promotions(from, to);
        } else {
            if constexpr (Kind != GenKind::Quiet) sink.add_targets(from, captures);
            if constexpr (Kind != GenKind::Noisy) sink.add_targets(from, pushes);
        }
    }
}

template <Color Us, typename Sink>
void generate_castling(const Position& pos, Sink& sink) {
    const Square ksq = pos.king_square(Us);
    const Bitboard occupied = pos.occupied();
    for (CastleSide side : {KingSide, QueenSide}) {
        if (!pos.can_castle(Us, side)) continue;
        const Square rsq = pos.castling_rook(Us, side);
        const Square king_to = relative_square(Us, side == KingSide ? G1 : C1);
        const Square rook_to = relative_square(Us, side == KingSide ? F1 : D1);
        const Bitboard king_and_rook = square_bb(ksq) | square_bb(rsq);
        // Chess960 (and FIDE 3.8 in the standard case): every square the king or the
        // rook passes or lands on is empty but for these two pieces...
        const Bitboard travelled =
            between(ksq, king_to) | square_bb(king_to) | between(rsq, rook_to) | square_bb(rook_to);
        if (occupied & travelled & ~king_and_rook) continue;
        // ...and no square the king stands on, passes or lands on is attacked. The
        // check uses the board without king and rook: the rook may be the piece that
        // shields the king's destination (king b1, rook a1, enemy queen beyond).
        const Bitboard after = occupied ^ king_and_rook;
        bool safe = true;
        for (Square s : squares(between(ksq, king_to) | square_bb(king_to)))
            if (pos.is_attacked(s, ~Us, after)) {
                safe = false;
                break;
            }
        if (safe) sink.add(ksq, rsq, Move::Castling);
    }
}

// `movers` restricts generation to the pieces on those squares (all pieces: ~0).
template <Color Us, GenKind Kind, typename Sink>
void generate_all(const Position& pos, Bitboard movers, Sink& sink) {
    constexpr Color Them = ~Us;
    const Bitboard occupied = pos.occupied();
    const Bitboard ours = pos.pieces(Us);
    const Square ksq = pos.king_square(Us);
    const Bitboard checkers = pos.checkers();

    Bitboard kind_mask = Kind == GenKind::Noisy ? pos.pieces(Them) : Kind == GenKind::Quiet ? ~occupied : ~ours;

    const Bitboard without_king = occupied ^ square_bb(ksq);
    if (contains(movers, ksq))
        for (Square to : squares(king_attacks(ksq) & kind_mask))
            if (!pos.is_attacked(to, Them, without_king)) sink.add(ksq, to);
    if (more_than_one(checkers)) return;

    const Bitboard check_mask = check_mask_for(pos, ksq);
    const Bitboard targets = kind_mask & check_mask;
    const Bitboard pinned = pos.pinned();

    generate_pawn_moves<Us, Kind>(pos, check_mask, movers, sink);
    for (Square from : squares(pos.pieces(Us, Knight) & ~pinned & movers))
        sink.add_targets(from, knight_attacks(from) & targets);
    const Bitboard queens = pos.pieces(Us, Queen) & movers;
    for (Square from : squares((pos.pieces(Us, Bishop) & movers) | queens)) {
        Bitboard to = bishop_attacks(from, occupied) & targets;
        if (contains(pinned, from)) to &= line_through(ksq, from);
        sink.add_targets(from, to);
    }
    for (Square from : squares((pos.pieces(Us, Rook) & movers) | queens)) {
        Bitboard to = rook_attacks(from, occupied) & targets;
        if (contains(pinned, from)) to &= line_through(ksq, from);
        sink.add_targets(from, to);
    }
    if constexpr (Kind != GenKind::Noisy)
        if (!checkers && contains(movers, ksq)) generate_castling<Us>(pos, sink);
}

template <GenKind Kind, typename Sink>
void dispatch(const Position& pos, Sink& sink, Bitboard movers = ~Bitboard(0)) {
    if (pos.side_to_move() == White) generate_all<White, Kind>(pos, movers, sink);
    else generate_all<Black, Kind>(pos, movers, sink);
}

// is_legal by generating the moving piece's moves: kept for castling and en passant,
// which are rare as hash or killer moves and have the generator's checks.
bool generated_from_origin(const Position& pos, Move m) {
    MoveList list;
    ListSink sink{list};
    dispatch<GenKind::All>(pos, sink, square_bb(m.from()));
    for (Move legal : list)
        if (legal == m) return true;
    return false;
}

}  // namespace

template <GenKind Kind>
void generate(const Position& pos, MoveList& list) {
    ListSink sink{list};
    dispatch<Kind>(pos, sink);
}

template void generate<GenKind::All>(const Position&, MoveList&);
template void generate<GenKind::Noisy>(const Position&, MoveList&);
template void generate<GenKind::Quiet>(const Position&, MoveList&);

uint64_t count_legal_moves(const Position& pos) {
    CountSink sink;
    dispatch<GenKind::All>(pos, sink);
    return sink.count;
}

bool is_legal(const Position& pos, Move m) {
    // The search validates hash, killer and counter moves with this at every node, so
    // the common kinds are decided from the masks the generator uses, without a list:
    // the same moves, which the movegen tests check for all 65,536 encodings.
    const Square from = m.from(), to = m.to();
    const Color us = pos.side_to_move();
    const Piece piece = pos.piece_on(from);
    if (m.is_null() || piece == NoPiece || color_of(piece) != us) return false;
    const Move::Kind kind = m.kind();
    if (kind == Move::Castling || kind == Move::EnPassant) return generated_from_origin(pos, m);
    // A normal move is encoded with the promotion bits zero.
    if (kind == Move::Normal && m.promotion() != Knight) return false;

    const PieceType type = type_of(piece);
    const Bitboard occupied = pos.occupied();
    const Bitboard ours = pos.pieces(us);
    if (type == King)
        return kind == Move::Normal && contains(king_attacks(from) & ~ours, to) &&
               !pos.is_attacked(to, ~us, occupied ^ square_bb(from));

    if (more_than_one(pos.checkers())) return false;
    const Square ksq = pos.king_square(us);
    Bitboard targets = check_mask_for(pos, ksq);
    if (contains(pos.pinned(), from)) targets &= line_through(ksq, from);

    if (type == Pawn) {
        // A pawn reaching the last rank promotes, and only a pawn promotes.
        if ((rank_of(to) == relative_rank(us, Rank8)) != (kind == Move::Promotion)) return false;
        const Bitboard reach = pawn_pushes(us, from, ~occupied) | (pawn_attacks(us, from) & pos.pieces(~us));
        return contains(reach & targets, to);
    }
    if (kind != Move::Normal) return false;
    return contains(piece_attacks(type, from, occupied) & ~ours & targets, to);
}

}  // namespace arbiter

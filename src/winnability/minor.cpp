// The mating pictures of a lone knight or bishop (or bishops on one colour): see
// minor.h.

#include "winnability/minor.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "util/static_vector.h"

namespace arbiter::winnability {

namespace {

// The kinds of man that may plug a flight square in lone_minor_cannot_mate(): a pawn,
// a knight, a bishop on light or on dark squares, a rook, a queen (one bit each).
enum PlugKind { PlugPawn, PlugKnight, PlugLightBishop, PlugDarkBishop, PlugRook, PlugQueen, PlugKinds };

// Whether a loser's man of `kind` on the flight square `f` could answer the check of the
// winner's piece on `c` against the king on `k`: by taking the checker, or by stepping
// between them (`line`, empty for a knight's check). `occupied` holds the men the
// picture places; when `spare` men of the loser may stand anywhere else, a slide over
// an empty square may be blocked and does not count.
bool plug_answers_check(PlugKind kind, Color loser, Square f, Square c, Bitboard line, Bitboard occupied, bool spare) {
    const auto slides_to = [&](PieceType type, Bitboard targets) {
        for (Square t : squares(piece_attacks(type, f, occupied) & targets)) {
            if (!spare || !between(f, t)) return true;
        }
        return false;
    };
    switch (kind) {
    case PlugPawn: {
        if (contains(pawn_attacks(loser, f), c)) return true;
        const Square one = Square(f + pawn_push(loser));
        if (contains(line, one)) return true;
        const Square two = Square(one + pawn_push(loser));
        return relative_rank(loser, rank_of(f)) == Rank2 && !spare && !contains(occupied, one) && contains(line, two);
    }
    case PlugKnight: return (knight_attacks(f) & (line | square_bb(c))) != 0;
    case PlugLightBishop:
    case PlugDarkBishop: return slides_to(Bishop, line | square_bb(c));
    case PlugRook: return slides_to(Rook, line | square_bb(c));
    default: return slides_to(Queen, line | square_bb(c));
    }
}

// Whether each square of `open` can take a different one of `men`, a man fitting where
// its kinds meet the square's `harmless` kinds (augmenting paths; at most 8 squares).
bool can_assign(Bitboard open, const StaticVector<uint8_t, 16>& men, const std::array<uint8_t, 64>& harmless) {
    std::array<int8_t, 16> holder;
    holder.fill(-1);
    std::array<Square, 8> need;
    int needed = 0;
    for (Square f : squares(open)) need[needed++] = f;
    uint32_t tried = 0;
    const auto augment = [&](auto&& self, int square) -> bool {
        for (int m = 0; m < int(men.size()); ++m) {
            if (!(men[m] & harmless[need[square]]) || (tried & (1u << m))) continue;
            tried |= 1u << m;
            if (holder[m] < 0 || self(self, holder[m])) {
                holder[m] = int8_t(square);
                return true;
            }
        }
        return false;
    };
    for (int i = 0; i < needed; ++i) {
        tried = 0;
        if (!augment(augment, i)) return false;
    }
    return true;
}

}  // namespace

// Part of step 3, for a winner left with its king and one knight or bishop and no
// pawn (so for ever, as it has nothing to promote): such a piece mates only where the
// loser's own men stand on the flight squares its king and piece leave, and none of
// those men may take the checker or step into the check. Every mating picture is
// tried: the loser's king on k, the piece checking from c, the winner's king on w two
// or more steps away, a plug on each flight square left, each a different man of the
// loser's (a pawn may have promoted to anything). Over-approximate, so finding no
// picture is a proof: the winner's cover ignores plugs in its way, the loser's other
// men are assumed taken or out of the way, and the picture need not be reachable. No
// pin can stop an answer: the winner's one piece gives the check.
//
// The loser's spare men (those no flight square needs) may stand anywhere, so they
// might block a plug's slide, and then a slide over an empty square does not count as
// an answer. Not when every man of the loser's is a queen: of the queens standing
// between a plug and the square it slides to, the one nearest that square has a clear
// line to it and answers the check instead.
//
// The same holds for several bishops on squares of one colour, with no other man but
// the king: such bishops only ever cover that colour, so the flights of the other
// colour (the king's orthogonal neighbours) must be plugged as for one bishop. The
// other bishops are counted as covering every square of their colour, guarding the
// checker and perhaps blocking a plug's slide; they cannot pin a plug on a square of
// the other colour to the king (a bishop pins along a diagonal), and two of them
// never give check at once (a bishop leaving a diagonal of the king's cannot arrive
// on the other one, which is parallel to every diagonal through its old square).
bool has_lone_minors(const Position& pos, Color side) {
    const Bitboard men = pos.pieces(side) & ~pos.pieces(side, King);
    if (!men) return false;
    if (!more_than_one(men)) return (men & (pos.pieces(Knight) | pos.pieces(Bishop))) != 0;
    return men == pos.pieces(side, Bishop) && (!(men & LightSquares) || !(men & DarkSquares));
}

bool lone_minor_cannot_mate(const Position& pos, Color winner) {
    if (!has_lone_minors(pos, winner)) return false;
    const Color loser = ~winner;
    const Bitboard minors = pos.pieces(winner) & ~pos.pieces(winner, King);
    const bool several = more_than_one(minors);
    const Square from = lsb(minors);
    const PieceType type = type_of(pos.piece_on(from));
    const Bitboard check_squares = type == Knight                 ? ~Bitboard(0)
                                   : contains(LightSquares, from) ? LightSquares
                                                                  : DarkSquares;
    // The kinds each of the loser's men may be when it plugs.
    StaticVector<uint8_t, 16> men;
    for (Square q : squares(pos.pieces(loser) & ~pos.pieces(loser, King))) {
        switch (type_of(pos.piece_on(q))) {
        case Pawn: men.push_back((1 << PlugKinds) - 1); break;
        case Knight: men.push_back(1 << PlugKnight); break;
        case Bishop: men.push_back(1 << (contains(LightSquares, q) ? PlugLightBishop : PlugDarkBishop)); break;
        case Rook: men.push_back(1 << PlugRook); break;
        default: men.push_back(1 << PlugQueen); break;
        }
    }
    const int total = int(men.size());
    const bool only_queens = std::all_of(men.begin(), men.end(), [](uint8_t m) { return m == (1 << PlugQueen); });
    for (Square k = Square(0); k < 64; k = Square(k + 1)) {
        for (Square c : squares(piece_attacks(type, k, 0) & check_squares)) {
            const Bitboard line = between(c, k);
            for (Square w : squares(~(king_attacks(k) | square_bb(k) | square_bb(c) | line))) {
                // The king takes a checker next to it that its opponent's king does not guard.
                if (!several && contains(king_attacks(k), c) && !contains(king_attacks(w), c)) continue;
                const Bitboard cover =
                    king_attacks(w) | piece_attacks(type, c, square_bb(w)) | (several ? check_squares : 0);
                const Bitboard open = king_attacks(k) & ~cover & ~square_bb(c);
                const int needed = popcount(open);
                if (needed > total) continue;
                // Whether some man of either side might stand in a plug's way.
                const bool spare = several || (total > needed && !only_queens);
                const Bitboard occupied = square_bb(k) | square_bb(w) | square_bb(c) | open;
                // The kinds of man that may plug each open square without answering the check.
                std::array<uint8_t, 64> harmless{};
                for (Square f : squares(open)) {
                    for (int kind = 0; kind < PlugKinds; ++kind) {
                        if (kind == PlugPawn && (rank_of(f) == Rank1 || rank_of(f) == Rank8)) continue;
                        if (kind == PlugLightBishop && !contains(LightSquares, f)) continue;
                        if (kind == PlugDarkBishop && !contains(DarkSquares, f)) continue;
                        if (!plug_answers_check(PlugKind(kind), loser, f, c, line, occupied, spare)) {
                            harmless[f] |= uint8_t(1 << kind);
                        }
                    }
                }
                if (can_assign(open, men, harmless)) return false;
            }
        }
    }
    return true;
}

}  // namespace arbiter::winnability

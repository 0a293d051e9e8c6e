// Loose pairs for the sketch proof (sketch_model.h): a white and a black
// pawn facing each other on a file, each free to stand anywhere between where they
// stand now. One sketch then stands for every way of pushing them, where the exact
// sketches would need one per configuration (four such files give over a thousand).

#include "chess/attacks.h"
#include "winnability/sketch_model.h"

namespace arbiter::winnability {

namespace {

Bitboard strictly_below(Square q) { return square_bb(q) - 1; }
Bitboard strictly_above(Square q) { return ~(square_bb(q) | strictly_below(q)); }

}  // namespace

// Whether the loose pairs still behave as the sketch assumes: no pawn of a pair can
// ever capture (neither a pawn nor a piece whose region reaches a square it attacks),
// no other pawn can capture into a range or take a pawn of a pair, and no other pawn
// can follow one into its range (a white pawn right below the pair, a black one right
// above). When an event breaks this, the proof gives up.
bool loose_pairs_hold(const Sketch& s) {
    const Bitboard loose = s.loose[White] | s.loose[Black];
    if (!loose) return true;
    for (Color c : {White, Black}) {
        Bitboard enemies = s.pawns[~c] | s.loose[~c];
        for (int i = 0; i < s.count; ++i) {
            if (s.units[i].color != c) enemies |= s.units[i].where;
        }
        if (pawn_attacks_bb(c, s.loose[c]) & enemies) return false;
        if (pawn_attacks_bb(c, s.pawns[c]) & loose) return false;
    }
    const Bitboard pawns = s.all_pawns();
    for (Bitboard left = loose; left;) {
        const Bitboard file = file_bb(file_of(lsb(left)));
        left &= ~file;
        const Bitboard below = pawns & file & strictly_below(lsb(loose & file));
        const Bitboard above = pawns & file & strictly_above(msb(loose & file));
        if (below && contains(s.pawns[White], msb(below))) return false;
        if (above && contains(s.pawns[Black], lsb(above))) return false;
    }
    return true;
}

// Turns into loose pairs the white and black pawns that face each other on a file
// with at least one free square between them, when no other pawn is placed to
// capture into, out of or across their ranges and none can follow them in.
// Every position the sketch stands for keeps the pawns where they are or further
// along their ranges. False if there is no such pair.
bool loosen_pairs(Sketch& s) {
    const Bitboard pawns = s.all_pawns();
    Bitboard range[2] = {};
    for (Square w : squares(s.pawns[White])) {
        const Bitboard file = file_bb(file_of(w));
        const Bitboard above = pawns & file & strictly_above(w);
        if (!above || !contains(s.pawns[Black], lsb(above))) continue;
        const Square b = lsb(above);
        if (rank_of(b) - rank_of(w) < 2) continue;
        const Bitboard below_w = pawns & file & strictly_below(w), above_b = pawns & file & strictly_above(b);
        if (below_w && contains(s.pawns[White], msb(below_w))) continue;
        if (above_b && contains(s.pawns[Black], lsb(above_b))) continue;
        // One pair per file: a capture undoes the whole file's pair.
        if ((range[White] | range[Black]) & file) continue;
        const Bitboard between = file & strictly_above(w) & strictly_below(b);
        range[White] |= square_bb(w) | between;
        range[Black] |= square_bb(b) | between;
    }
    // A candidate is kept only if it clashes with no other pawn, each candidate
    // counted with its whole range (a superset of where it stands).
    bool any = false;
    for (Bitboard left = range[White]; left;) {
        const Bitboard file = file_bb(file_of(lsb(left)));
        left &= ~file;
        const Bitboard mine = (range[White] | range[Black]) & file;
        const Bitboard white = (s.pawns[White] | range[White]) & ~file, black = (s.pawns[Black] | range[Black]) & ~file;
        if ((pawn_attacks_bb(White, range[White] & file) & black) ||
            (pawn_attacks_bb(Black, range[Black] & file) & white) || (pawn_attacks_bb(White, white) & mine) ||
            (pawn_attacks_bb(Black, black) & mine))
            continue;
        for (Color c : {White, Black}) {
            s.loose[c] |= range[c] & file;
            s.pawns[c] &= ~(range[c] & file);
        }
        any = true;
    }
    return any;
}

}  // namespace arbiter::winnability

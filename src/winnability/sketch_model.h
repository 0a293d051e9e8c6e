#pragma once
// The abstraction the static proof of sketch.h works on, shared by its
// files: a sketch holds the pawns exactly, and every other piece as the set of
// squares it may stand on. Internal to the winnability decider.

#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>

#include "chess/bitboard.h"
#include "chess/types.h"

namespace arbiter::winnability {

// A piece other than a king or pawn, known only by the squares it may stand on.
// Left uninitialised by default, so that a sketch's unused slots cost nothing.
//
// `safe`: the piece is on the board in every position the sketch stands for. True
// for the root's pieces until some enemy man could ever reach one of its squares (a
// unit's attacks, the king's neighbourhood but where the piece's own pawns guard, a
// pawn's attacks); from then on false in every later sketch, as the piece may have
// been taken. Promoted pieces are never safe. A safe piece may be counted on to
// guard (sketch.cpp).
struct Unit {
    Bitboard where;
    PieceType type;
    Color color;
    bool safe;

    bool operator==(const Unit&) const = default;
    bool operator<(const Unit& o) const {
        return std::tie(color, type, where, safe) < std::tie(o.color, o.type, o.where, o.safe);
    }
};

// 30 is the most pieces besides kings a board can hold; promotions add units, but
// captured ones are kept, so leave room and give up beyond it.
constexpr int MaxUnits = 40;

// Invariants after normalise(): every region is closed under the moves its piece
// can make while the pawns stand still and units are sorted (so equal sketches
// compare equal). Entries past `count` are unspecified and never read: a copy takes
// only the units in use, as the search copies a sketch at every event and most hold
// a handful of units out of MaxUnits.
//
// A *loose pair* (loose.cpp) is a white and a black pawn facing each
// other on a file that can never capture nor be pushed past each other: `loose[c]`
// holds every square c's pawn of such a pair may stand on, and the pawns stand
// somewhere in it. Loose pawns are no obstacle to pieces or kings, so one sketch
// stands for every way of pushing them, instead of one sketch per configuration.
struct Sketch {
    Bitboard pawns[2] = {};
    Bitboard loose[2] = {};
    Bitboard king[2] = {};
    std::array<Unit, MaxUnits> units;
    int count = 0;

    Sketch() = default;
    Sketch(const Sketch& o) { *this = o; }
    Sketch& operator=(const Sketch& o) {
        pawns[0] = o.pawns[0];
        pawns[1] = o.pawns[1];
        loose[0] = o.loose[0];
        loose[1] = o.loose[1];
        king[0] = o.king[0];
        king[1] = o.king[1];
        count = o.count;
        std::copy(o.units.begin(), o.units.begin() + o.count, units.begin());
        return *this;
    }

    Bitboard all_pawns() const { return pawns[White] | pawns[Black]; }
    bool operator==(const Sketch& o) const {
        return pawns[0] == o.pawns[0] && pawns[1] == o.pawns[1] && loose[0] == o.loose[0] && loose[1] == o.loose[1] &&
               king[0] == o.king[0] && king[1] == o.king[1] && count == o.count &&
               std::equal(units.begin(), units.begin() + count, o.units.begin());
    }
};

struct SketchHash {
    size_t operator()(const Sketch& s) const {
        uint64_t h = 0x9E3779B97F4A7C15ULL;
        const auto mix = [&h](uint64_t v) {
            h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
            h *= 0xBF58476D1CE4E5B9ULL;
        };
        mix(s.pawns[0]);
        mix(s.pawns[1]);
        mix(s.loose[0] ^ (s.loose[1] << 1));
        mix(s.king[0]);
        mix(s.king[1]);
        for (int i = 0; i < s.count; ++i) {
            const Unit& u = s.units[i];
            mix(u.where ^ (uint64_t(u.type * 4 + u.color * 2 + u.safe) << 1));
        }
        return size_t(h);
    }
};

inline Bitboard king_set_attacks(Bitboard b) {
    const Bitboard row = b | shift<East>(b) | shift<West>(b);
    return (row | shift<North>(row) | shift<South>(row)) & ~b;
}

inline Bitboard king_neighbourhood(Bitboard b) {
    const Bitboard row = b | shift<East>(b) | shift<West>(b);
    return row | shift<North>(row) | shift<South>(row);
}

// Whether the sketch's loose pairs still behave as it assumes; when an event breaks
// this, the proof must give up (loose.cpp).
bool loose_pairs_hold(const Sketch& s);

// Turns the pawn pairs of `s` that qualify into loose pairs; false if none does.
bool loosen_pairs(Sketch& s);

}  // namespace arbiter::winnability

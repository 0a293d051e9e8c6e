#include "chess/winnability_sketch.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "util/static_vector.h"

namespace arbiter::winnability_detail {

namespace {

// A piece other than a king or pawn, known only by the squares it may stand on.
struct Unit {
    Bitboard where = 0;
    PieceType type = Knight;
    Color color = White;

    bool operator==(const Unit&) const = default;
    bool operator<(const Unit& o) const {
        return std::tie(color, type, where) < std::tie(o.color, o.type, o.where);
    }
};

// 30 is the most pieces besides kings a board can hold; promotions add units, but
// captured ones are kept, so leave room and give up beyond it.
constexpr int MaxUnits = 40;

// Invariants after normalise(): every region is closed under the moves its piece
// can make while the pawns stand still, units are sorted (so equal sketches compare
// equal), and entries past `count` are default-constructed.
struct Sketch {
    Bitboard pawns[2] = {};
    Bitboard king[2] = {};
    std::array<Unit, MaxUnits> units{};
    int count = 0;

    Bitboard all_pawns() const { return pawns[White] | pawns[Black]; }
    bool operator==(const Sketch& o) const {
        return pawns[0] == o.pawns[0] && pawns[1] == o.pawns[1] && king[0] == o.king[0] &&
               king[1] == o.king[1] && count == o.count &&
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
        mix(s.king[0]);
        mix(s.king[1]);
        for (int i = 0; i < s.count; ++i) mix(s.units[i].where ^ (uint64_t(s.units[i].type * 2 + s.units[i].color) << 1));
        return size_t(h);
    }
};

Bitboard king_set_attacks(Bitboard b) {
    const Bitboard row = b | shift<East>(b) | shift<West>(b);
    return (row | shift<North>(row) | shift<South>(row)) & ~b;
}

Bitboard king_neighbourhood(Bitboard b) {
    const Bitboard row = b | shift<East>(b) | shift<West>(b);
    return row | shift<North>(row) | shift<South>(row);
}

// Squares a piece of `type` can reach from `seeds` when only pawns are obstacles;
// pawn squares are never entered (own pawns block, enemy pawns are events).
Bitboard unit_region(PieceType type, Bitboard seeds, Bitboard pawns) {
    Bitboard region = seeds & ~pawns, frontier = region;
    while (frontier) {
        Bitboard reach = 0;
        for (Square q : squares(frontier)) reach |= piece_attacks(type, q, pawns);
        frontier = reach & ~pawns & ~region;
        region |= frontier;
    }
    return region;
}

Bitboard unit_attacks(PieceType type, Bitboard where, Bitboard pawns) {
    Bitboard attacks = 0;
    for (Square q : squares(where)) attacks |= piece_attacks(type, q, pawns);
    return attacks;
}

Bitboard king_region(Bitboard seeds, Bitboard passable) {
    Bitboard region = seeds, frontier = seeds;
    while (frontier) {
        frontier = king_set_attacks(frontier) & passable & ~region;
        region |= frontier;
    }
    return region;
}

// Closes every region under the current pawns. `mover` made the last move (or event),
// so its king cannot stand in check; the other king may, where an enemy pawn has just
// arrived. False if the sketch describes no legal position.
bool normalise(Sketch& s, Color mover) {
    const Bitboard pawns = s.all_pawns();
    for (Color c : {White, Black}) {
        const Bitboard enemy_attacks = pawn_attacks_bb(~c, s.pawns[~c]);
        Bitboard seeds = s.king[c] & ~pawns;
        if (c == mover) seeds &= ~enemy_attacks;
        if (!seeds) return false;
        s.king[c] = king_region(seeds, ~pawns & ~enemy_attacks);
    }
    int kept = 0;
    for (int i = 0; i < s.count; ++i) {
        Unit u = s.units[i];
        u.where = unit_region(u.type, u.where, pawns);
        if (u.where) s.units[kept++] = u;
    }
    for (int i = kept; i < s.count; ++i) s.units[i] = Unit{};
    s.count = kept;
    std::sort(s.units.begin(), s.units.begin() + s.count);
    return true;
}

// Whether each square of `need` can hold a different one of `blockers` (a bipartite
// matching by augmenting paths; `need` has at most 8 squares).
struct Plugs {
    std::array<Bitboard, MaxUnits> where{};
    int count = 0;
};

bool can_plug(Bitboard need, const Plugs& blockers) {
    if (!need) return true;
    // At most 8 bits: counting them by hand beats a library popcount call in builds
    // without the popcnt instruction, and this is the sketch's innermost loop.
    int needed = 0;
    for (Bitboard b = need; b; b &= b - 1) ++needed;
    if (needed > blockers.count) return false;
    std::array<int8_t, 64> owner;
    owner.fill(-1);
    Bitboard visited = 0;
    const auto augment = [&](auto&& self, int b) -> bool {
        for (Square q : squares(blockers.where[b] & need & ~visited)) {
            visited |= square_bb(q);
            if (owner[q] < 0 || self(self, owner[q])) {
                owner[q] = int8_t(b);
                return true;
            }
        }
        return false;
    };
    int matched = 0;
    for (int b = 0; b < blockers.count && matched < needed; ++b) {
        visited = 0;
        matched += augment(augment, b);
    }
    return matched == needed;
}

// Whether some position the sketch describes might be checkmate of `~winner`: the
// loser's king on a square k the winner attacks, every flight square of k covered
// by the winner or plugged by its own piece. The checking piece's cover is taken
// from the one square it checks from and the winner's king from one square two or
// more steps from k; other winning pieces count with everything they could ever
// attack. Over-approximate, so an empty answer is a proof. Stops at the first square
// found unless `all`.
Bitboard mate_squares(const Sketch& s, Color winner, bool all) {
    const Color loser = ~winner;
    const Bitboard pawns = s.all_pawns();
    const Bitboard pawn_cover = pawn_attacks_bb(winner, s.pawns[winner]);

    StaticVector<int, MaxUnits> checkers;
    std::array<Bitboard, MaxUnits> attacks{};
    Plugs blockers;
    Bitboard cover = 0;
    for (int i = 0; i < s.count; ++i) {
        const Unit& u = s.units[i];
        if (u.color == winner) {
            attacks[i] = unit_attacks(u.type, u.where, pawns);
            cover |= attacks[i];
            checkers.push_back(i);
        } else {
            blockers.where[blockers.count++] = u.where;
        }
    }
    // The cover of the winner's units before and after each one, in unit order.
    std::array<Bitboard, MaxUnits + 1> before{}, after{};
    for (int i = 0; i < s.count; ++i) before[i + 1] = before[i] | attacks[i];
    for (int i = s.count; i > 0; --i) after[i - 1] = after[i] | attacks[i - 1];
    const Bitboard targets = s.king[loser] & (cover | pawn_cover);
    Bitboard found = 0;
    for (Square k : squares(targets)) {
        if (found && !all) break;
        const Bitboard flights = king_attacks(k) & ~pawns & ~pawn_cover;

        // The winner's king, from any square of its region not next to k.
        StaticVector<Bitboard, 32> king_covers;
        const Bitboard far = s.king[winner] & ~king_neighbourhood(square_bb(k));
        if (!far) continue;
        for (Square w : squares(far & king_neighbourhood(king_attacks(k)))) {
            const Bitboard c = king_attacks(w) & flights;
            if (std::find(king_covers.begin(), king_covers.end(), c) == king_covers.end()) king_covers.push_back(c);
        }
        if (king_covers.empty() || (far & ~king_neighbourhood(king_attacks(k)))) king_covers.push_back(0);

        const auto try_cover = [&](Bitboard covered, Bitboard must_cover) {
            for (Bitboard kc : king_covers) {
                const Bitboard open = flights & ~covered & ~kc;
                if (open & must_cover) continue;
                if (can_plug(open, blockers)) return true;
            }
            return false;
        };
        if (contains(pawn_cover, k) && try_cover(cover, 0)) {
            found |= square_bb(k);
            continue;
        }
        for (int i : checkers) {
            const Unit& u = s.units[i];
            const Bitboard from = u.where & piece_attacks(u.type, k, pawns);
            if (!from) continue;
            // An identical unit gives the same cover, so only the first of a run of
            // equal units (sorted together) needs trying, with everything else's cover.
            if (i > 0 && s.units[i - 1] == u) continue;
            const bool twin = i + 1 < s.count && s.units[i + 1] == u;
            const Bitboard others = twin ? cover : before[i] | after[i + 1];
            // Check squares that leave the same flight squares open are tried once.
            StaticVector<std::pair<Bitboard, Bitboard>, 64> tried;
            for (Square q : squares(from)) {
                const Bitboard add = piece_attacks(u.type, q, pawns) & flights & ~others;
                const Bitboard must = square_bb(q) & flights;
                if (std::find(tried.begin(), tried.end(), std::pair{add, must}) != tried.end()) continue;
                tried.push_back({add, must});
                if (try_cover(others | add, must)) {
                    found |= square_bb(k);
                    break;
                }
            }
            if (contains(found, k)) break;
        }
    }
    return found;
}

// Every sketch one event away from `s`, each paired with the side that made the event.
// False if the sketch would outgrow its unit array.
bool successors(const Sketch& s, std::vector<std::pair<Sketch, Color>>& out) {
    const Bitboard pawns = s.all_pawns();
    bool fits = true;
    const auto promote = [&](Sketch next, Color c, Square to) {
        next.pawns[c] &= ~square_bb(to);
        if (next.count + 4 > MaxUnits) {
            fits = false;
            return;
        }
        for (PieceType t : {Knight, Bishop, Rook, Queen}) {
            Sketch promoted = next;
            promoted.units[promoted.count++] = Unit{square_bb(to), t, c};
            out.emplace_back(promoted, c);
        }
    };
    const auto pawn_arrives = [&](Sketch next, Color c, Square to) {
        if (relative_rank(c, rank_of(to)) == Rank8) promote(next, c, to);
        else out.emplace_back(next, c);
    };
    const auto stuck_king_on = [&](Square q) {
        return s.king[White] == square_bb(q) || s.king[Black] == square_bb(q);
    };

    for (Color c : {White, Black}) {
        Bitboard enemy_units = 0;
        for (int i = 0; i < s.count; ++i) {
            if (s.units[i].color != c) enemy_units |= s.units[i].where;
        }
        for (Square p : squares(s.pawns[c])) {
            // Pushes, with the en passant captures a double push allows.
            const Square to = Square(p + pawn_push(c));
            if (!contains(pawns, to) && !stuck_king_on(to)) {
                Sketch next = s;
                next.pawns[c] ^= square_bb(p) | square_bb(to);
                pawn_arrives(next, c, to);
                const Square to2 = Square(to + pawn_push(c));
                if (relative_rank(c, rank_of(p)) == Rank2 && !contains(pawns, to2) && !stuck_king_on(to2)) {
                    Sketch pushed = s;
                    pushed.pawns[c] ^= square_bb(p) | square_bb(to2);
                    out.emplace_back(pushed, c);
                    const Bitboard beside = (shift<East>(square_bb(to2)) | shift<West>(square_bb(to2))) & s.pawns[~c];
                    for (Square e : squares(beside)) {
                        Sketch taken = pushed;
                        taken.pawns[c] &= ~square_bb(to2);
                        taken.pawns[~c] ^= square_bb(e) | square_bb(to);
                        out.emplace_back(taken, ~c);
                    }
                }
            }
            // Captures of pawns and of pieces that may come within reach.
            for (Square t : squares(pawn_attacks(c, p) & (s.pawns[~c] | enemy_units))) {
                Sketch next = s;
                next.pawns[~c] &= ~square_bb(t);
                next.pawns[c] ^= square_bb(p) | square_bb(t);
                pawn_arrives(next, c, t);
            }
        }
        // Pieces taking pawns.
        for (int i = 0; i < s.count; ++i) {
            const Unit& u = s.units[i];
            if (u.color != c) continue;
            for (Square t : squares(unit_attacks(u.type, u.where, pawns) & s.pawns[~c])) {
                Sketch next = s;
                next.pawns[~c] &= ~square_bb(t);
                next.units[i].where |= square_bb(t);
                out.emplace_back(next, c);
            }
        }
        // The king taking pawns no other enemy pawn protects.
        for (Square t : squares(king_set_attacks(s.king[c]) & s.pawns[~c])) {
            const Bitboard rest = s.pawns[~c] & ~square_bb(t);
            if (contains(pawn_attacks_bb(~c, rest), t)) continue;
            Sketch next = s;
            next.pawns[~c] = rest;
            next.king[c] |= square_bb(t);
            out.emplace_back(next, c);
        }
    }
    return fits;
}

Sketch sketch_of(const Position& pos) {
    Sketch s;
    for (Color c : {White, Black}) {
        s.pawns[c] = pos.pieces(c, Pawn);
        s.king[c] = pos.pieces(c, King);
        for (PieceType t : {Knight, Bishop, Rook, Queen}) {
            for (Square q : squares(pos.pieces(c, t))) s.units[s.count++] = Unit{square_bb(q), t, c};
        }
    }
    return s;
}

} // namespace

bool sketch_proves_no_mate(const Position& pos, Color winner, int max_sketches) {
    // An en passant right is a pawn event of the current position that the sketch
    // cannot express; leave such positions to the search.
    if (pos.ep_square() != NoSquare) return false;
    Sketch root = sketch_of(pos);
    if (root.count > MaxUnits - 4) return false;
    if (!normalise(root, ~pos.side_to_move())) return false;

    std::unordered_set<Sketch, SketchHash> seen{root};
    std::vector<Sketch> pending{root};
    std::vector<std::pair<Sketch, Color>> next;
    while (!pending.empty()) {
        const Sketch s = pending.back();
        pending.pop_back();
        if (mate_squares(s, winner, false)) return false;
        next.clear();
        if (!successors(s, next)) return false;
        for (auto& [n, mover] : next) {
            if (!normalise(n, mover)) continue;
            if (seen.insert(n).second) {
                if (int(seen.size()) > max_sketches) return false;
                pending.push_back(n);
            }
        }
    }
    return true;
}

Bitboard sketch_mate_squares(const Position& pos, Color winner) {
    Sketch root = sketch_of(pos);
    if (root.count > MaxUnits - 4 || !normalise(root, ~pos.side_to_move())) return 0;
    return mate_squares(root, winner, true);
}

} // namespace arbiter::winnability_detail

#include "winnability/sketch.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "chess/movegen.h"
#include "winnability/sketch_model.h"
#include "util/static_vector.h"

namespace arbiter::winnability {

namespace {

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

// Squares a knight attacks from every square of its region, and those next to a
// slider that can never leave its one square (a bishop walled in by its own pawns):
// no man can step between a piece and a square next to it. (A slider that can move
// guards the squares next to it as surely from each square of its region, but
// counting them split too many sketches in two, by the flag alone, for what they
// proved; a piece with a one-square region keeps its flag anyway, see normalise().)
Bitboard guard_of(const Unit& u) {
    if (u.type != Knight) {
        if (more_than_one(u.where)) return 0;
        const Square q = lsb(u.where);
        return piece_attacks(u.type, q, ~Bitboard(0)) & king_attacks(q);
    }
    Bitboard from_all = ~Bitboard(0);
    for (Square q : squares(u.where)) from_all &= knight_attacks(q);
    return from_all;
}

// Closes every region under the current pawns. `mover` made the last move (or event),
// so its king cannot stand in check; the other king may, where an enemy pawn has just
// arrived. False if the sketch describes no legal position.
bool normalise(Sketch& s, Color mover) {
    const Bitboard pawns = s.all_pawns();
    Bitboard seeds_of[2];
    for (Color c : {White, Black}) {
        const Bitboard enemy_attacks = pawn_attacks_bb(~c, s.pawns[~c]);
        Bitboard seeds = s.king[c] & ~pawns;
        if (c == mover) seeds &= ~enemy_attacks;
        if (!seeds) return false;
        seeds_of[c] = seeds;
        s.king[c] = king_region(seeds, ~pawns & ~enemy_attacks);
    }
    int kept = 0;
    bool any_safe = false;
    for (int i = 0; i < s.count; ++i) {
        Unit u = s.units[i];
        u.where = unit_region(u.type, u.where, pawns);
        any_safe |= u.safe;
        if (u.where) s.units[kept++] = u;
    }
    s.count = kept;
    if (any_safe) {
        // Squares each side's men might ever take on: pawn attacks, the king's
        // neighbourhood but for squares an enemy pawn guards (the pawns stand still
        // while the sketch lasts, and a later sketch clears the flag once one has
        // moved), every unit's attacks with only pawns in the way.
        Bitboard reach[2];
        for (Color c : {White, Black}) {
            reach[c] = pawn_attacks_bb(c, s.pawns[c] | s.loose[c]) |
                       (king_neighbourhood(s.king[c]) & ~pawn_attacks_bb(~c, s.pawns[~c]));
        }
        for (int i = 0; i < s.count; ++i)
            reach[s.units[i].color] |= unit_attacks(s.units[i].type, s.units[i].where, pawns);
        // A piece that neither guards nor blocks anything for sure loses its flag
        // too: regions only grow, so it never will, and sketches that differ only
        // there are merged.
        for (int i = 0; i < s.count; ++i) {
            Unit& u = s.units[i];
            if (u.safe && ((u.where & reach[~u.color]) || (!guard_of(u) && more_than_one(u.where)))) u.safe = false;
        }
    }
    // A safe piece that cannot move stands on its square in every position the sketch
    // stands for (on the board for sure, and its region that one square), so its own
    // king never stands there: a king walled in behind its own trapped bishop does not
    // walk through it. Only once the flags above are settled: a piece an enemy man
    // might reach may be taken, and its square freed. The regions computed first were
    // larger, so the flags they cleared are cleared soundly. Seeds never hold such a
    // square (an earlier sketch left it out alike, and the root's king stands
    // elsewhere); if they did, the region is left as it is.
    for (Color c : {White, Black}) {
        Bitboard blocks = 0;
        for (int i = 0; i < s.count; ++i) {
            const Unit& u = s.units[i];
            if (u.color == c && u.safe && !more_than_one(u.where)) blocks |= u.where;
        }
        // (A region that holds no such square has nothing to lose.)
        if (!(s.king[c] & blocks) || (seeds_of[c] & blocks)) continue;
        s.king[c] = king_region(seeds_of[c], ~pawns & ~pawn_attacks_bb(~c, s.pawns[~c]) & ~blocks);
    }
    std::sort(s.units.begin(), s.units.begin() + s.count);
    return true;
}

// Squares a safe piece that cannot move stands on in every position the sketch
// stands for: no pawn is ever pushed there.
Bitboard sure_blocks(const Sketch& s) {
    Bitboard blocks = 0;
    for (int i = 0; i < s.count; ++i) {
        if (s.units[i].safe && !more_than_one(s.units[i].where)) blocks |= s.units[i].where;
    }
    return blocks;
}

// Squares `c` guards in every position the sketch stands for, with its safe pieces.
// A king may never take a pawn there.
Bitboard sure_guard(const Sketch& s, Color c) {
    Bitboard guard = 0;
    for (int i = 0; i < s.count; ++i) {
        if (s.units[i].color == c && s.units[i].safe) guard |= guard_of(s.units[i]);
    }
    return guard;
}

// Whether each square of `need` can hold a different one of `blockers` (a bipartite
// matching by augmenting paths; `need` has at most 8 squares).
struct Plugs {
    // The loser's units, then up to three per loose pair (see mate_squares()).
    std::array<Bitboard, MaxUnits + 24> where{};
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
    const Bitboard loose_cover = pawn_attacks_bb(winner, s.loose[winner]);

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
    // Each loose pawn stands on one square of its range at a time: it may plug one
    // flight square there, and the winner's may instead cover the two squares it
    // attacks from one of them. Counted as one plug for the loser's pawn and two for
    // the winner's, each anywhere in its range or what the range attacks: more than
    // the pawn can do, so still an over-approximation.
    for (Bitboard left = s.loose[White]; left;) {
        const Bitboard file = file_bb(file_of(lsb(left)));
        left &= ~file;
        blockers.where[blockers.count++] = s.loose[loser] & file;
        const Bitboard range = s.loose[winner] & file;
        blockers.where[blockers.count++] = range | pawn_attacks_bb(winner, range);
        blockers.where[blockers.count++] = range | pawn_attacks_bb(winner, range);
    }
    // The cover of the winner's units before and after each one, in unit order.
    std::array<Bitboard, MaxUnits + 1> before{}, after{};
    for (int i = 0; i < s.count; ++i) before[i + 1] = before[i] | attacks[i];
    for (int i = s.count; i > 0; --i) after[i - 1] = after[i] | attacks[i - 1];
    const Bitboard targets = s.king[loser] & (cover | pawn_cover | loose_cover);
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
        if (contains(pawn_cover | loose_cover, k) && try_cover(cover, 0)) {
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

// Whether `c`'s king taking the pawn on `t` (from a square of its region `s.king[c]`)
// always leaves `~c` stalemated, in `next`, the sketch after the capture: the game then
// ends drawn, and the capture leads nowhere. Holds when `~c` has no piece but its king,
// no pawn of its can be pushed (a pawn stands in front) or capture (no man of `c`'s on
// a square it attacks), every square next to each square its king may stand on (not
// next to t) holds its own pawn or is guarded by `c`'s pawns or king, and the king's
// step cannot have uncovered a check (no square it may have come from is in sight of
// `~c`'s king along a line that one of `c`'s pieces could use). `c`'s other pieces are
// left out: wherever they stand, they only take moves away.
bool capture_stalemates(const Sketch& s, const Sketch& next, Color c, Square t) {
    const Color o = ~c;
    if (next.loose[White] | next.loose[Black]) return false;
    Bitboard men = next.pawns[c];
    bool diagonal = false, straight = false;
    for (int i = 0; i < next.count; ++i) {
        const Unit& u = next.units[i];
        if (u.color == o) return false;
        men |= u.where;
        diagonal |= u.type == Bishop || u.type == Queen;
        straight |= u.type == Rook || u.type == Queen;
    }
    const Bitboard pawns = next.all_pawns();
    const Bitboard ahead = o == White ? shift<North>(next.pawns[o]) : shift<South>(next.pawns[o]);
    if ((ahead & ~pawns) || (pawn_attacks_bb(o, next.pawns[o]) & men)) return false;
    const Bitboard guarded = pawn_attacks_bb(c, next.pawns[c]) | king_attacks(t);
    const Bitboard came_from = king_attacks(t) & s.king[c];
    const Bitboard blockers = pawns | square_bb(t);
    for (Square r : squares(s.king[o] & ~king_neighbourhood(square_bb(t)))) {
        if (king_attacks(r) & ~next.pawns[o] & ~guarded) return false;
        if (diagonal && (piece_attacks(Bishop, r, blockers) & came_from)) return false;
        if (straight && (piece_attacks(Rook, r, blockers) & came_from)) return false;
    }
    return true;
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
            promoted.units[promoted.count++] = Unit{square_bb(to), t, c, false};
            out.emplace_back(promoted, c);
        }
    };
    const auto pawn_arrives = [&](Sketch next, Color c, Square to) {
        if (relative_rank(c, rank_of(to)) == Rank8) promote(next, c, to);
        else out.emplace_back(next, c);
    };
    // A king or a safe piece that can never leave its square.
    const Bitboard stuck = sure_blocks(s);
    const auto stuck_on = [&](Square q) {
        return s.king[White] == square_bb(q) || s.king[Black] == square_bb(q) || contains(stuck, q);
    };

    for (Color c : {White, Black}) {
        Bitboard enemy_units = 0;
        for (int i = 0; i < s.count; ++i) {
            if (s.units[i].color != c) enemy_units |= s.units[i].where;
        }
        for (Square p : squares(s.pawns[c])) {
            // Pushes, with the en passant captures a double push allows.
            const Square to = Square(p + pawn_push(c));
            if (!contains(pawns, to) && !stuck_on(to)) {
                Sketch next = s;
                next.pawns[c] ^= square_bb(p) | square_bb(to);
                pawn_arrives(next, c, to);
                const Square to2 = Square(to + pawn_push(c));
                if (relative_rank(c, rank_of(p)) == Rank2 && !contains(pawns, to2) && !stuck_on(to2)) {
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
        // A piece or the king taking a loose pawn: the pair comes apart, and the
        // taker's own pawn of it stands somewhere in its range. Regions take in
        // loose squares, so a taker may stand on its victim's range already.
        const auto take_loose = [&](Bitboard victims, auto&& gain) {
            while (victims) {
                const Bitboard file = file_bb(file_of(lsb(victims)));
                Sketch next = s;
                next.loose[White] &= ~file;
                next.loose[Black] &= ~file;
                gain(next, victims & file);
                victims &= ~file;
                for (Square q : squares(s.loose[c] & file)) {
                    Sketch placed = next;
                    placed.pawns[c] |= square_bb(q);
                    out.emplace_back(placed, c);
                }
            }
        };
        for (int i = 0; i < s.count; ++i) {
            const Unit& u = s.units[i];
            if (u.color != c) continue;
            take_loose((u.where | unit_attacks(u.type, u.where, pawns)) & s.loose[~c],
                       [i](Sketch& next, Bitboard taken) { next.units[i].where |= taken; });
        }
        take_loose(king_neighbourhood(s.king[c]) & s.loose[~c],
                   [c](Sketch& next, Bitboard taken) { next.king[c] |= taken; });
        // The king taking pawns no other enemy pawn protects, nor the enemy king from
        // every square it may stand on (a caged king guards the pawns around it), nor
        // a safe enemy piece (a caged knight).
        const Bitboard guarded = sure_guard(s, ~c);
        for (Square t : squares(king_set_attacks(s.king[c]) & s.pawns[~c] & ~guarded)) {
            const Bitboard rest = s.pawns[~c] & ~square_bb(t);
            if (contains(pawn_attacks_bb(~c, rest), t)) continue;
            if (!(s.king[~c] & ~king_attacks(t))) continue;
            Sketch next = s;
            next.pawns[~c] = rest;
            next.king[c] |= square_bb(t);
            if (capture_stalemates(s, next, c, t)) continue;
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
            for (Square q : squares(pos.pieces(c, t))) s.units[s.count++] = Unit{square_bb(q), t, c, true};
        }
    }
    return s;
}

// The sketches one proof has seen, in a flat open-addressing table, with the work
// list and the successor buffer. One per thread, reused from call to call: the
// exhaustive search calls the proof at most of its nodes, and allocating a sketch
// (over 600 bytes) per insertion was a tenth of its time.
struct SketchStore {
    std::vector<Sketch> sketches;
    std::vector<uint32_t> slots;  // index + 1, 0 when empty
    std::vector<uint32_t> pending;
    std::vector<std::pair<Sketch, Color>> next;

    void clear(size_t capacity) {
        sketches.clear();
        pending.clear();
        size_t size = 64;
        while (size < 2 * capacity) size *= 2;
        slots.assign(size, 0);
    }

    // False if an equal sketch was there already. Never holds more than half the slots.
    bool insert(const Sketch& s) {
        const size_t mask = slots.size() - 1;
        for (size_t i = SketchHash{}(s)&mask;; i = (i + 1) & mask) {
            if (slots[i] == 0) {
                sketches.push_back(s);
                slots[i] = uint32_t(sketches.size());
                return true;
            }
            if (sketches[slots[i] - 1] == s) return false;
        }
    }
};

enum class Outcome { NoMate, MaybeMate, TooMany };

// Explores the sketches reachable from `root` (normalised) by events, adding to
// `work` one for each sketch it expands.
Outcome explore(const Sketch& root, Color winner, int max_sketches, uint64_t& work) {
    static thread_local SketchStore store;
    store.clear(size_t(max_sketches) + 1);
    store.insert(root);
    store.pending.push_back(0);
    while (!store.pending.empty()) {
        const uint32_t index = store.pending.back();
        store.pending.pop_back();
        ++work;
        if (!loose_pairs_hold(store.sketches[index])) return Outcome::MaybeMate;
        if (mate_squares(store.sketches[index], winner, false)) return Outcome::MaybeMate;
        store.next.clear();
        if (!successors(store.sketches[index], store.next)) return Outcome::MaybeMate;
        for (auto& [n, mover] : store.next) {
            if (!normalise(n, mover)) continue;
            if (store.insert(n)) {
                if (int(store.sketches.size()) > max_sketches) return Outcome::TooMany;
                store.pending.push_back(uint32_t(store.sketches.size() - 1));
            }
        }
    }
    return Outcome::NoMate;
}

// The outcomes of recent small proofs by their root sketch, direct-mapped. The
// exhaustive search asks for a proof at every change of pawns, material or check,
// and its children mostly normalise to a sketch it has asked about already (a king
// taking a pawn from any of the squares next to it, with the other men anywhere in
// their regions). A proof's outcome depends on nothing but the normalised root, the
// winner and the number of sketches it may explore, and the root is compared in
// full, so a cached answer is the answer the proof would give. 16384 entries of
// about 260 bytes (4 MB a thread): a quarter of that lost a few proofs per hundred
// positions to collisions. A hit costs the search fewer nodes than a new proof, so
// entries live for one decision only (forget_proofs()): otherwise what an earlier
// question left in the cache could change a later answer between Unknown and a
// verdict.
class ProofCache {
public:
    static constexpr int MaxUnits = 12;

    static ProofCache& shared() {
        static thread_local ProofCache cache;
        return cache;
    }

    // Empties the cache at once: entries of older generations count as free slots.
    void forget() { ++generation_; }

    // The cached outcome, if any.
    const Outcome* find(const Sketch& root, Color winner, int max_sketches) {
        if (root.count > MaxUnits) return nullptr;
        Entry& e = slot(root, winner, max_sketches);
        return e.generation == generation_ && e.matches(root, winner, max_sketches) ? &e.outcome : nullptr;
    }

    void store(const Sketch& root, Color winner, int max_sketches, Outcome outcome) {
        if (root.count > MaxUnits) return;
        Entry& e = slot(root, winner, max_sketches);
        e.generation = generation_;
        e.winner = winner;
        e.max_sketches = max_sketches;
        e.outcome = outcome;
        std::copy(std::begin(root.pawns), std::end(root.pawns), std::begin(e.pawns));
        std::copy(std::begin(root.loose), std::end(root.loose), std::begin(e.loose));
        std::copy(std::begin(root.king), std::end(root.king), std::begin(e.king));
        e.count = root.count;
        std::copy(root.units.begin(), root.units.begin() + root.count, e.units.begin());
    }

private:
    static constexpr size_t Size = 16384;

    struct Entry {
        Bitboard pawns[2], loose[2], king[2];
        std::array<Unit, MaxUnits> units;
        int count = 0, max_sketches = 0;
        Color winner = White;
        Outcome outcome = Outcome::MaybeMate;
        uint64_t generation = 0;  // in use while equal to the cache's

        bool matches(const Sketch& s, Color w, int max) const {
            return winner == w && max_sketches == max && count == s.count && pawns[0] == s.pawns[0] &&
                   pawns[1] == s.pawns[1] && loose[0] == s.loose[0] && loose[1] == s.loose[1] && king[0] == s.king[0] &&
                   king[1] == s.king[1] && std::equal(units.begin(), units.begin() + count, s.units.begin());
        }
    };

    Entry& slot(const Sketch& root, Color winner, int max_sketches) {
        const size_t h = SketchHash{}(root) ^ (size_t(winner) << 7) ^ (size_t(max_sketches) * 0x9E3779B97F4A7C15ULL);
        return entries_[(h ^ (h >> 29)) & (Size - 1)];
    }

    std::vector<Entry> entries_ = std::vector<Entry>(Size);
    uint64_t generation_ = 1;
};

Outcome explore_cached(const Sketch& root, Color winner, int max_sketches, uint64_t& work) {
    ProofCache& cache = ProofCache::shared();
    if (const Outcome* known = cache.find(root, winner, max_sketches)) return *known;
    const Outcome outcome = explore(root, winner, max_sketches, work);
    cache.store(root, winner, max_sketches, outcome);
    return outcome;
}

// A proof by tempo for a root sketch that no event can ever leave (every pawn, and so
// every region, stays as it is for the rest of the game): when the loser has nothing
// but its king and pawns, its only moves are king moves, and a mate on k needs more
// than the picture mate_squares() looks for. Unless the mate comes at once (the
// winner to move and the loser's king on k: the legal moves are tried then), the king
// stepped to k from a square k' next to it, and the winner's mating move followed. k' is a flight square then, and no
// man of the loser's can plug it (its pawns never move, it has no piece), so the
// winner must cover it: not with its king, which would have stood next to the loser's
// king on k' a move before, unless the mating move is a king move to a square next to
// k' (and so gives check by uncovering a slider's line to k); nor with a pawn if none
// attacks k'. So k is no mate if, for every such k', no piece of the winner's can ever
// attack k' (with only pawns in the way, so through k too), and no king move of the
// winner's that ends next to k' can start on a square in sight of k along a line one
// of the winner's pieces could use.
// Castling is the one king move the sketch does not know: positions with castling
// rights are left out.
// `pos` may be a child the exhaustive search made with apply_board(), whose pins are
// not computed: move generation needs them, so they are computed here first.
bool mates_in_one(Position pos) {
    pos.add_check_info();
    for (Move m : legal_moves(pos)) {
        const Position next = pos.apply(m);
        if (next.in_check() && !has_legal_move(next)) return true;
    }
    return false;
}

bool tempo_proves_no_mate(const Sketch& root, const Position& pos, Color winner) {
    const Color loser = ~winner;
    if (pos.castling_rights() || root.loose[White] || root.loose[Black]) return false;
    for (int i = 0; i < root.count; ++i) {
        if (root.units[i].color == loser) return false;
    }
    static thread_local std::vector<std::pair<Sketch, Color>> next;
    next.clear();
    if (!successors(root, next)) return false;
    for (auto& [n, mover] : next) {
        if (normalise(n, mover)) return false;
    }
    const Bitboard pawns = root.all_pawns();
    const Bitboard pawn_cover = pawn_attacks_bb(winner, root.pawns[winner]);
    Bitboard cover = 0;
    bool diagonal = false, straight = false;
    for (int i = 0; i < root.count; ++i) {
        const Unit& u = root.units[i];
        cover |= unit_attacks(u.type, u.where, pawns);
        diagonal |= u.type == Bishop || u.type == Queen;
        straight |= u.type == Rook || u.type == Queen;
    }
    const Square start = lsb(pos.pieces(loser, King));
    for (Square k : squares(mate_squares(root, winner, true))) {
        if (pos.side_to_move() == winner && k == start && mates_in_one(pos)) return false;
        const Bitboard far = root.king[winner] & ~king_neighbourhood(square_bb(k));
        for (Square before : squares(king_attacks(k) & root.king[loser])) {
            if (contains(cover | pawn_cover, before)) return false;
            // A mating king move ends next to k' (to cover it) and starts next to that.
            const Bitboard from = king_set_attacks(king_attacks(before) & far) & far;
            if (diagonal && (piece_attacks(Bishop, k, pawns) & from)) return false;
            if (straight && (piece_attacks(Rook, k, pawns) & from)) return false;
        }
    }
    return true;
}

}  // namespace

void forget_proofs() { ProofCache::shared().forget(); }

bool sketch_proves_no_mate(const Position& pos, Color winner, int max_sketches, int loose_sketches, uint64_t* work) {
    uint64_t ignored = 0;
    uint64_t& expanded = work ? *work : ignored;
    // An en passant right is a pawn event of the current position that the sketch
    // cannot express; leave such positions to the search.
    if (pos.ep_square() != NoSquare) return false;
    Sketch root = sketch_of(pos);
    if (root.count > MaxUnits - 4) return false;
    if (!normalise(root, ~pos.side_to_move())) return false;
    const Outcome exact = explore_cached(root, winner, max_sketches, expanded);
    if (exact == Outcome::MaybeMate) return tempo_proves_no_mate(root, pos, winner);
    if (exact != Outcome::TooMany) return exact == Outcome::NoMate;
    // Too many pawn configurations: try again with the loose pairs' pushes folded
    // into ranges, a coarser abstraction that may still suffice.
    if (loose_sketches == 0 || !loosen_pairs(root) || !normalise(root, ~pos.side_to_move())) return false;
    return explore(root, winner, loose_sketches, expanded) == Outcome::NoMate;
}

Bitboard sketch_mate_squares(const Position& pos, Color winner) {
    Sketch root = sketch_of(pos);
    if (root.count > MaxUnits - 4 || !normalise(root, ~pos.side_to_move())) return 0;
    return mate_squares(root, winner, true);
}

}  // namespace arbiter::winnability

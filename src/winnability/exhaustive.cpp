#include "winnability/exhaustive.h"

#include <algorithm>
#include <array>

#include "chess/movegen.h"
#include "winnability/minor.h"
#include "winnability/search.h"
#include "winnability/sketch.h"

namespace arbiter::winnability {

namespace {

// Sketches a static proof at a node may explore, where the pawns, the material or a
// check changed. Proofs are cached by their root sketch and a repeated one costs
// nothing, so a node can afford a good few: each proof that succeeds cuts a subtree.
// On the vectors (budget 200,000) 10 gave 1,614 exact, 12 and 14 gave 1,617, 20 gave
// 1,615 and 30 gave 1,611 (while the proof cache still outlived a decision): beyond
// a dozen a failing proof costs more than the successes save.
constexpr int NodeSketches = 12;
// What a proof costs, in nodes: each call (building and normalising the sketch of
// the position, and looking it up in the cache), and each sketch it expands. Free
// cache hits let the proofs take most of the time of the slowest searches.
constexpr uint64_t ProofCost = 3;
constexpr uint64_t SketchCost = 10;
// What the lone minor piece's proof costs, in nodes (it walks every mating picture
// of the piece); tried only where a side is left with nothing but minor pieces.
constexpr uint64_t MinorProofCost = 200;

}  // namespace

// The positions the search has seen, as a flat open-addressing table of exact packed
// copies: the men square by square, side to move, castling rights and en passant
// square, everything same_position() compares (a search's castling rooks never
// change). Exact, not only a key, so that a key collision cannot hide a branch and
// make a No unsound; packed into the slot itself, so that finding a transposition
// (most children are one) costs the one cache miss of the probe and no visit to a
// stored position. One set per thread is reused from search to search, so that no
// node allocates; the table starts small (a small search stays in cache) and doubles
// when half full.
class PositionSet {
public:
    static PositionSet& shared() {
        static thread_local PositionSet set;
        return set;
    }

    void clear() {
        size_ = 0;
        slots_.assign(MinSlots, Slot{});
    }

    // False if the position was already there.
    bool insert(const Position& pos) {
        if (2 * (size_ + 1) > slots_.size()) grow();
        const size_t mask = slots_.size() - 1;
        // The probe's first slot is mostly a cache miss: it loads while the position
        // is packed.
        __builtin_prefetch(&slots_[pos.key() & mask]);
        const Slot packed = pack(pos);
        for (size_t i = pos.key() & mask;; i = (i + 1) & mask) {
            Slot& slot = slots_[i];
            if (!slot.used()) {
                slot = packed;
                ++size_;
                return true;
            }
            if (slot == packed) return false;
        }
    }

private:
    static constexpr size_t MinSlots = 4096;

    // 4 bits a man (a Piece value) in square order: 32 men fill the two words. The
    // slot is probed at its position's key, and the key is kept in the free bits of
    // `state` only as far as growing the table needs it.
    struct Slot {
        Bitboard occupied = 0;
        uint64_t men[2] = {0, 0};
        // Bit 0 the side to move, 1-4 castling rights, 5-11 the en passant square,
        // 12 set in a used slot, 13-63 the key's low bits (the probe's start).
        uint64_t state = 0;

        bool used() const { return state & UsedBit; }
        bool operator==(const Slot&) const = default;
    };
    static_assert(sizeof(Slot) == 32);
    static constexpr uint64_t UsedBit = uint64_t(1) << 12;
    static constexpr int KeyShift = 13;

    static Slot pack(const Position& pos) {
        Slot s;
        s.occupied = pos.occupied();
        int n = 0;
        for (Square q : squares(s.occupied)) {
            s.men[n >> 4] |= uint64_t(pos.piece_on(q)) << (4 * (n & 15));
            ++n;
        }
        s.state = uint64_t(pos.side_to_move()) | uint64_t(pos.castling_rights()) << 1 | uint64_t(pos.ep_square()) << 5 |
                  UsedBit | pos.key() << KeyShift;
        return s;
    }

    // Twice the slots, reusing the previous table's memory for the next growth: a
    // search that grows to a few megabytes does not fault its pages in again and
    // again.
    void grow() {
        spare_.assign(2 * slots_.size(), Slot{});
        spare_.swap(slots_);
        const size_t mask = slots_.size() - 1;
        for (const Slot& slot : spare_) {
            if (!slot.used()) continue;
            size_t i = (slot.state >> KeyShift) & mask;
            while (slots_[i].used()) i = (i + 1) & mask;
            slots_[i] = slot;
        }
    }

    std::vector<Slot> slots_, spare_;
    size_t size_ = 0;
};

namespace {

struct Storage {
    std::vector<Position> expanded;
    std::vector<ExhaustiveSearch::Pending> pending;
};

Storage& storage() {
    static thread_local Storage s;
    return s;
}

}  // namespace

ExhaustiveSearch::ExhaustiveSearch(const Position& root, Sides open)
        : open_(open), seen_(PositionSet::shared()), expanded_(storage().expanded), pending_(storage().pending) {
    seen_.clear();
    seen_.insert(root);
    expanded_.clear();
    pending_.clear();
    // The root is the first position expanded.
    expanded_.push_back(root);
    parent_sides_ = open;
    expand();
}

void ExhaustiveSearch::decide(Color c, Winnable w) {
    result_[c] = w;
    close(c);
}

// The search goes depth first (the last child pushed is the next expanded), so
// children of the winner's moves are made in rising helpmate order: the most
// promising is expanded first, and a mate, when there is one, comes much sooner. The
// order changes nothing else: every child is still made. With both sides open, the
// side to move's own mates are favoured. The loser's moves keep the generator's
// order (king moves made first, so expanded last): steering them too sends the
// search down the lines the guided playouts already walk, and on the vectors it
// found fewer mates (1,629 exact against 1,649).
void ExhaustiveSearch::expand() {
    const Position& parent = expanded_.back();
    moves_ = legal_moves(parent);
    next_move_ = 0;
    checks_ = parent.check_squares();
    const Color winner = parent_sides_ == (side_bit(White) | side_bit(Black)) ? parent.side_to_move()
                         : parent_sides_ & side_bit(White)                    ? White
                                                                              : Black;
    if (parent.side_to_move() != winner) return;
    order_moves(parent, moves_, winner, false);
}

void ExhaustiveSearch::run(uint64_t budget) {
    uint64_t nodes = 0;
    while (open_) {
        if (next_move_ == moves_.size()) {
            if (pending_.empty()) {
                // Every position a mate of an open side could come from was expanded.
                for (Color c : {White, Black}) {
                    if (open_ & side_bit(c)) decide(c, Winnable::No);
                }
                return;
            }
            const Pending next = pending_.back();
            pending_.pop_back();
            parent_sides_ = next.sides & open_;
            moves_.clear();
            next_move_ = 0;
            if (!parent_sides_) continue;
            expanded_.push_back(expanded_[next.parent].apply(next.move));
            expand();
            continue;
        }
        if (nodes > budget) return;
        const uint32_t parent_index = uint32_t(expanded_.size() - 1);
        const Position& parent = expanded_.back();
        const Move m = moves_[next_move_++];
        Position next = parent.apply_board(m);
        // Every move counts, a transposition too: the time goes into making it.
        ++nodes;
        if (!seen_.insert(next)) continue;
        const Color mover = parent.side_to_move();
        if (parent.gives_check(m, checks_)) {
            next.add_check_info();
            if (!has_legal_move(next)) {
                if (parent_sides_ & open_ & side_bit(mover)) {
                    decide(mover, Winnable::Yes);
                    return;
                }
                continue;
            }
        }
        Sides sides = parent_sides_ & open_;
        // A quiet piece move keeps every piece inside its region (piece moves are
        // reversible), so the child's sketch is the parent's, which failed; only a
        // change of pawns or material, a check or an en passant right can help.
        const bool same_sketch = !parent.in_check() && !parent.is_capture(m) &&
                                 type_of(parent.piece_on(m.from())) != Pawn && next.ep_square() == NoSquare;
        if (!same_sketch) {
            const bool promotion = m.kind() == Move::Promotion;
            for (Color c : {White, Black}) {
                if (!(sides & side_bit(c))) continue;
                // A side's promotion to a knight or bishop may leave it a lone minor
                // piece, whose mating pictures the loser's answers to the check rule
                // out where the sketch (which counts plugs only) finds one: step 3's
                // proof, sound at any position as at the root, so no mate of c's lies
                // below the child. Only where the proof has pictures to walk (a knight,
                // or bishops on one colour, and nothing else: elsewhere it gives up at
                // once), and only after c's own promotion: tried after every capture
                // that leaves a lone minor, it found nothing more on the vectors and
                // cost one of them its mate (a capture of a knight's of two, answered
                // by a proof that fails, again and again).
                if (promotion && c == mover && has_lone_minors(next, c)) {
                    nodes += MinorProofCost;
                    if (lone_minor_cannot_mate(next, c)) {
                        sides &= Sides(~side_bit(c));
                        continue;
                    }
                }
                uint64_t work = 0;
                if (sketch_proves_no_mate(next, c, NodeSketches, 0, &work)) sides &= Sides(~side_bit(c));
                nodes += ProofCost + SketchCost * work;
            }
        }
        if (sides) pending_.push_back({parent_index, m, sides});
    }
}

}  // namespace arbiter::winnability

#include "chess/winnability.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "chess/movegen.h"
#include "chess/winnability_helpmate.h"
#include "chess/winnability_search.h"
#include "chess/winnability_sketch.h"
#include "chess/winnability_template.h"

namespace arbiter {

using winnability_detail::GuidedHelpmates;
using winnability_detail::helpmate_order;
using winnability_detail::HelpmateSearch;
using winnability_detail::sketch_proves_no_mate;
using winnability_detail::TemplateHelpmates;

namespace {

// Sketches explored by the static proof at the root, and at each node of the
// exhaustive search where the pawns, the material or a check changed (most proofs
// there need a few; a proof repeated from a cached sketch costs nothing, so the
// nodes can afford more than they once did, and each proof they cut saves a
// subtree).
constexpr int RootSketches = 300;
constexpr int NodeSketches = 20;
// What a sketch the proof expands costs, in nodes of the exhaustive search.
constexpr uint64_t SketchCost = 8;
// The coarser proof with loose pairs, tried once the exact one runs out of sketches:
// at the root only, where one success settles the position (at the nodes it cost
// more time than it saved).
constexpr int RootLooseSketches = 1200;
// Positions with at most this many men share the playouts' time with composed mates.
constexpr int TemplateMen = 6;

bool is_mate_of(const Position& pos, Color loser) {
    return pos.side_to_move() == loser && pos.in_check() && !has_legal_move(pos);
}

// Guided random games: both sides pick moves by the helpmate ordering plus noise,
// and the winner takes any mate in one it is offered. Finds the long helpmates of
// sparse positions (a king walk, a promotion to a blocking piece) that the
// full-width search cannot reach. Deterministic: the noise is seeded by the position.
bool random_helpmates(const Position& root, Color winner, uint64_t budget) {
    constexpr int MaxPlies = 160;
    uint64_t state = root.key() | 1;
    const auto next_random = [&state] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    uint64_t nodes = 0;
    while (nodes < budget) {
        Position pos = root;
        for (int ply = 0; ply < MaxPlies && nodes < budget; ++ply) {
            const MoveList moves = legal_moves(pos);
            nodes += 1 + (pos.side_to_move() == winner ? moves.size() : 0);
            if (moves.size() == 0) break;
            if (pos.side_to_move() == winner) {
                for (Move m : moves) {
                    const Position next = pos.apply(m);
                    if (next.in_check() && !has_legal_move(next)) return true;
                }
            }
            Move best = moves[0];
            int best_score = INT32_MIN;
            for (Move m : moves) {
                const int score = helpmate_order(pos, m, winner) + int(next_random() % 64);
                if (score > best_score) {
                    best_score = score;
                    best = m;
                }
            }
            pos = pos.apply(best);
        }
    }
    return false;
}

// The positions the exhaustive search has seen, as a flat open-addressing table of
// exact packed copies: the men square by square, side to move, castling rights and
// en passant square, everything same_position() compares (a search's castling rooks
// never change). Exact, not only a key, so that a key collision cannot hide a branch
// and make a No unsound; packed into the slot itself, so that finding a transposition
// (most children are one) costs the one cache miss of the probe and no visit to a
// stored position. One set per thread is reused from call to call, so that no node
// allocates; the table starts small at each call (a small search stays in cache) and
// doubles when half full.
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
        const Slot packed = pack(pos);
        const size_t mask = slots_.size() - 1;
        for (size_t i = pos.key() & mask;; i = (i + 1) & mask) {
            Slot& slot = slots_[i];
            if (!slot.used) {
                slot = packed;
                ++size_;
                return true;
            }
            if (slot == packed) return false;
        }
    }

    size_t size() const { return size_; }

private:
    static constexpr size_t MinSlots = 4096;

    // 4 bits a man (a Piece value) in square order: 32 men fill the two words.
    struct Slot {
        Bitboard occupied = 0;
        uint64_t men[2] = {0, 0};
        Key key = 0;
        uint16_t state = 0; // side to move, castling rights, en passant square
        bool used = false;
        bool operator==(const Slot&) const = default;
    };
    static_assert(sizeof(Slot) == 40);

    static Slot pack(const Position& pos) {
        Slot s;
        s.occupied = pos.occupied();
        int n = 0;
        for (Square q : squares(s.occupied)) {
            s.men[n >> 4] |= uint64_t(pos.piece_on(q)) << (4 * (n & 15));
            ++n;
        }
        s.key = pos.key();
        s.state = uint16_t(pos.side_to_move() | pos.castling_rights() << 1 | pos.ep_square() << 5);
        s.used = true;
        return s;
    }

    void grow() {
        std::vector<Slot> old(2 * slots_.size(), Slot{});
        old.swap(slots_);
        const size_t mask = slots_.size() - 1;
        for (const Slot& slot : old) {
            if (!slot.used) continue;
            size_t i = slot.key & mask;
            while (slots_[i].used) i = (i + 1) & mask;
            slots_[i] = slot;
        }
    }

    std::vector<Slot> slots_;
    size_t size_ = 0;
};

// Visits every position reachable from `root`, except beyond positions the static
// proof settles, looking for a mate of `~winner`. Each sketch a static proof
// expands costs SketchCost nodes. Resumable: run() continues where the previous call
// stopped, so that it can take turns with the helpmate playouts.
class ExhaustiveSearch {
public:
    ExhaustiveSearch(const Position& root, Color winner) : winner_(winner), seen_(PositionSet::shared()) {
        seen_.clear();
        seen_.insert(root);
        pending_.push_back(root);
    }

    Winnable run(uint64_t budget) {
        const Color loser = ~winner_;
        uint64_t nodes = 0;
        while (!pending_.empty() || next_move_ < moves_.size()) {
            if (next_move_ == moves_.size()) {
                parent_.emplace(pending_.back());
                pending_.pop_back();
                moves_ = legal_moves(*parent_);
                order_moves();
                next_move_ = 0;
                continue;
            }
            if (nodes > budget) return Winnable::Unknown;
            const Move m = moves_[next_move_++];
            const Position& parent = *parent_;
            const Position next = parent.apply(m);
            // Every move counts, a transposition too: the time goes into making it.
            ++nodes;
            if (!seen_.insert(next)) continue;
            if (is_mate_of(next, loser)) return Winnable::Yes;
            // A quiet piece move keeps every piece inside its region (piece moves are
            // reversible), so the child's sketch is the parent's, which failed; only a
            // change of pawns or material, a check or an en passant right can help.
            const bool same_sketch = !parent.in_check() && !parent.is_capture(m) &&
                                     type_of(parent.piece_on(m.from())) != Pawn && next.ep_square() == NoSquare;
            if (!same_sketch) {
                uint64_t work = 0;
                const bool proved = sketch_proves_no_mate(next, winner_, NodeSketches, 0, &work);
                nodes += SketchCost * work;
                if (proved) continue;
            }
            pending_.push_back(next);
        }
        return Winnable::No;
    }

    // Positions waiting to be expanded.
    size_t pending() const { return pending_.size(); }

private:
    // The search goes depth first (the last child pushed is the next expanded), so
    // children are made in rising helpmate order: the most promising is expanded
    // first, and a mate, when there is one, comes much sooner. The order changes
    // nothing else: every child is still made.
    void order_moves() {
        std::array<int, 256> scores;
        for (size_t i = 0; i < moves_.size(); ++i) scores[i] = helpmate_order(*parent_, moves_[i], winner_);
        for (size_t i = 1; i < moves_.size(); ++i) {
            for (size_t j = i; j > 0 && scores[j] < scores[j - 1]; --j) {
                std::swap(scores[j], scores[j - 1]);
                std::swap(moves_[j], moves_[j - 1]);
            }
        }
    }

    Color winner_;
    PositionSet& seen_;
    std::vector<Position> pending_;
    std::optional<Position> parent_;
    MoveList moves_;
    size_t next_move_ = 0;
};

} // namespace

Winnable can_win(const Position& pos, Color winner, uint64_t budget) {
    // Step 1: the game is over.
    if (!has_legal_move(pos)) return pos.in_check() && pos.side_to_move() != winner ? Winnable::Yes : Winnable::No;
    // Step 2: a king never gives check, so a bare king can never mate.
    if (pos.pieces(winner) == pos.pieces(winner, King)) return Winnable::No;
    // Step 3: a static proof, cheap enough to try first.
    if (sketch_proves_no_mate(pos, winner, RootSketches, RootLooseSketches)) return Winnable::No;
    // Step 4: look for a short mate with a full-width search, then for a long one
    // along guided random games.
    HelpmateSearch helpmate(winner, budget / 16);
    if (helpmate.find(pos)) return Winnable::Yes;
    if (random_helpmates(pos, winner, budget / 16)) return Winnable::Yes;
    // Step 5: take turns between guided helpmate playouts and the exhaustive search
    // of the continuations the static proof does not settle, so that a dead position
    // gets as much of the budget as a won one.
    GuidedHelpmates guided(pos, winner);
    TemplateHelpmates templates(pos, winner);
    ExhaustiveSearch exhaustive(pos, winner);
    const uint64_t slice = budget / 32;
    // Composed mates pay off where few men stand (the minor-piece mates); elsewhere
    // the guided playouts find more.
    const uint64_t composed = popcount(pos.occupied()) <= TemplateMen ? slice * 3 / 4 : 0;
    // Once the exhaustive search has more positions waiting than a quarter of the
    // budget left (a position costs a node per move to expand), it cannot finish:
    // its turns go to the playouts.
    bool hopeless = false;
    for (uint64_t spent = budget / 8; spent < budget; spent += 2 * slice) {
        for (int turn = hopeless ? 2 : 1; turn > 0; --turn) {
            if (guided.run(slice - composed)) return Winnable::Yes;
            if (composed && templates.run(composed)) return Winnable::Yes;
        }
        if (hopeless) continue;
        const Winnable result = exhaustive.run(slice);
        if (result != Winnable::Unknown) return result;
        if (exhaustive.pending() * 4 > budget - spent) hopeless = true;
    }
    return Winnable::Unknown;
}

Winnability winnability(const Position& pos, uint64_t budget) {
    return {can_win(pos, White, budget), can_win(pos, Black, budget)};
}

} // namespace arbiter

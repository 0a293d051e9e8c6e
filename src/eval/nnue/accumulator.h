#pragma once
// Accumulators: the first layer's output for both perspectives, computed from scratch
// (refresh) or from the parent's by the rows a move adds and removes (update), and a
// per-thread stack of them that follows the search's moves lazily.

#include <cstdint>
#include <memory>
#include <span>

#include "chess/piece_changes.h"
#include "chess/position.h"
#include "eval/nnue/kernels.h"
#include "eval/nnue/network.h"

namespace arbiter::eval::nnue {

// Where each piece stands, by colour and type.
struct PieceBoards {
    Bitboard squares[2][6] = {};
};

// values[p] = feature biases + the feature rows of every piece seen from perspective p
// in its view (network.h: where p's king puts the features; always {0, 0} except in
// architecture 3). Room for the largest hidden size; a network of hidden size H uses
// the first H values of each perspective, and the rest are never read.
struct Accumulator {
    alignas(64) int16_t values[2][MaxHiddenSize];
    InputView views[2];
};

// From scratch: every piece of `pos`.
void refresh(const Network& net, const Position& pos, Accumulator& acc);
// One perspective from scratch, in `view`: the biases and the rows of `pieces`.
void refresh(const Network& net, std::span<const PieceSquare> pieces, Color perspective, InputView view,
             Accumulator& acc);
// Incrementally: `child` = `parent` with the rows `changes` lifts and places, in the
// parent's views. `child` must not be `parent`, and the move must leave both views as
// they are (in architecture 3 a king move into another bucket or across the d/e line
// changes its side's view: that perspective needs a refresh).
void update(const Network& net, const Accumulator& parent, const PieceChanges& changes, Accumulator& child);
// Centipawns from `side_to_move`'s point of view, by the integer formula of
// nets/README.md, for a position of `piece_count` pieces (which picks the output
// bucket). Not clamped: a caller that reserves a mate range clamps.
int evaluate(const Network& net, const Accumulator& acc, Color side_to_move, int piece_count);

// From scratch, for one-off evaluations (the `eval` command, tools); search uses a stack.
int evaluate(const Network& net, const Position& pos);

// The same with explicitly chosen kernels (tests and benchmarks compare them), which
// must be for the network's hidden size; the ones above use active_kernels().
void update(const Kernels& kernels, const Network& net, const Accumulator& parent, const PieceChanges& changes,
            Accumulator& child);
void update(const Kernels& kernels, const Network& net, const Accumulator& parent, const PieceChanges& changes,
            Color perspective, Accumulator& child);
int evaluate(const Kernels& kernels, const Network& net, const Accumulator& acc, Color side_to_move, int piece_count);

// One search thread's accumulators, root at index 0, one entry per move made on the
// way down. push() only records what the move changes; evaluate() computes the
// pending entries from the nearest computed ancestor, so moves whose subtree is cut
// before any evaluation cost nothing but the record. A null move shares its parent's
// accumulator (side to move is not part of it). With king input buckets, a king move
// that changes its side's view records the pieces after the move, and that
// perspective is rebuilt from them instead of updated: from the accumulator cached
// for that perspective and view, changing only the pieces that differ from the ones
// it was cached for (a "finny table"). Fixed capacity, allocated once;
// push/pop/evaluate never allocate.
class AccumulatorStack {
public:
    // Room for a search of 256 plies below the root, and a few to spare.
    static constexpr int Capacity = 256 + 8;

    explicit AccumulatorStack(Isa isa = best_isa());

    // Starts over at `root`, evaluated with `net` (which must outlive the stack's use)
    // by the kernels of the stack's ISA for the net's hidden size.
    void reset(const Network& net, const Position& root);
    // The move `move`, legal in `before`, is about to be searched.
    void push(const Position& before, Move move);
    // A null move is about to be searched.
    void push_null();
    // Back to the parent of the top entry. The root is never popped.
    void pop();
    // The accumulator of the position at the top, computed now if it was pending.
    const Accumulator& current();
    // Evaluation of `pos`, the position at the top of the stack (only its side to
    // move and piece count are read: the stack knows the pieces).
    int evaluate(const Position& pos);

    // Entries above the root.
    int depth() const { return top_; }

private:
    struct Entry {
        Accumulator acc;
        PieceChanges changes;
        bool computed = false;
        bool null_move = false;  // no changes; never computed itself, reads through to its parent
        // acc.views are set at push; a perspective whose view differs from the
        // parent's is rebuilt from `boards` (filled only then).
        bool refresh[2] = {false, false};
        PieceBoards boards;
    };
    // The last accumulator built for one perspective in one view, and its pieces.
    struct CachedView {
        alignas(64) int16_t values[MaxHiddenSize];
        PieceBoards boards;
        bool valid = false;
    };
    static constexpr int ViewCount = 2 * KingBucketCount;  // bucket x mirrored or not

    // Perspective `perspective` of `entry`, in its view, from the cache.
    void rebuild(Entry& entry, Color perspective);

    Isa isa_;
    const Kernels* kernels_ = nullptr;
    const Network* net_ = nullptr;
    Architecture architecture_ = Architecture::Plain;  // net_'s, for push()
    std::unique_ptr<Entry[]> entries_;
    std::unique_ptr<CachedView[]> cache_;  // [perspective * ViewCount + view], emptied by reset()
    int top_ = 0;
};

// Pushes in the constructor and pops in the destructor, so no early return in search
// leaves a stale entry behind (src/README.md, principle 2).
class [[nodiscard]] AccumulatorGuard {
public:
    struct NullMove {};

    AccumulatorGuard(AccumulatorStack& stack, const Position& before, Move move) : stack_(stack) {
        stack.push(before, move);
    }
    AccumulatorGuard(AccumulatorStack& stack, NullMove) : stack_(stack) { stack.push_null(); }
    ~AccumulatorGuard() { stack_.pop(); }
    AccumulatorGuard(const AccumulatorGuard&) = delete;
    AccumulatorGuard& operator=(const AccumulatorGuard&) = delete;

private:
    AccumulatorStack& stack_;
};

}  // namespace arbiter::eval::nnue

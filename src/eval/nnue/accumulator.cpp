#include "eval/nnue/accumulator.h"

#include <algorithm>
#include <cassert>

namespace arbiter::eval::nnue {

namespace {

const int16_t* row(const Network& net, Color perspective, InputView view, PieceSquare ps) {
    return net.feature_row(feature_index(perspective, ps.piece, ps.square, view));
}

// The pieces of `pos`, in square order, into room for 64 (a position set up with
// "Allow Unreachable Positions" may hold more than 32).
int list_pieces(const Position& pos, PieceSquare* out) {
    int n = 0;
    for (const Square s : squares(pos.occupied())) out[n++] = {pos.piece_on(s), s};
    return n;
}

}  // namespace

void refresh(const Network& net, std::span<const PieceSquare> pieces, Color perspective, InputView view,
             Accumulator& acc) {
    const int hidden = net.hidden_size();
    int16_t* values = acc.values[perspective];
    std::copy(net.feature_biases.begin(), net.feature_biases.end(), values);
    for (const PieceSquare ps : pieces) {
        const int16_t* weights = row(net, perspective, view, ps);
        for (int i = 0; i < hidden; ++i) values[i] = int16_t(values[i] + weights[i]);
    }
    acc.views[perspective] = view;
}

void refresh(const Network& net, const Position& pos, Accumulator& acc) {
    PieceSquare pieces[64];
    const int count = list_pieces(pos, pieces);
    for (const Color perspective : {White, Black})
        refresh(net, {pieces, size_t(count)}, perspective, net.view(perspective, pos.king_square(perspective)), acc);
}

void update(const Kernels& kernels, const Network& net, const Accumulator& parent, const PieceChanges& changes,
            Color perspective, Accumulator& child) {
    assert(&parent != &child);
    assert(kernels.hidden == net.hidden_size());
    const InputView view = parent.views[perspective];
    RowChanges rows;
    rows.added_count = changes.added_count;
    rows.removed_count = changes.removed_count;
    for (int k = 0; k < changes.added_count; ++k) rows.added[k] = row(net, perspective, view, changes.added[k]);
    for (int k = 0; k < changes.removed_count; ++k) rows.removed[k] = row(net, perspective, view, changes.removed[k]);
    kernels.apply_rows(parent.values[perspective], child.values[perspective], rows);
    child.views[perspective] = view;
}

void update(const Kernels& kernels, const Network& net, const Accumulator& parent, const PieceChanges& changes,
            Accumulator& child) {
    for (const Color perspective : {White, Black}) update(kernels, net, parent, changes, perspective, child);
}

void update(const Network& net, const Accumulator& parent, const PieceChanges& changes, Accumulator& child) {
    update(active_kernels(net.hidden_size()), net, parent, changes, child);
}

int evaluate(const Kernels& kernels, const Network& net, const Accumulator& acc, Color side_to_move, int piece_count) {
    assert(kernels.hidden == net.hidden_size());
    const int bucket = net.bucket(piece_count);
    const int64_t sum = kernels.output_sum(acc.values[side_to_move], acc.values[~side_to_move], net.output_row(bucket));
    // nets/README.md: both divisions truncate toward zero, as C++ integer division does.
    return int((sum / QA + net.output_biases[bucket]) * OutputScale / (QA * QB));
}

int evaluate(const Network& net, const Accumulator& acc, Color side_to_move, int piece_count) {
    return evaluate(active_kernels(net.hidden_size()), net, acc, side_to_move, piece_count);
}

int evaluate(const Network& net, const Position& pos) {
    Accumulator acc;
    refresh(net, pos, acc);
    return evaluate(net, acc, pos.side_to_move(), popcount(pos.occupied()));
}

AccumulatorStack::AccumulatorStack(Isa isa)
        : isa_(isa),
          entries_(std::make_unique<Entry[]>(Capacity)),
          cache_(std::make_unique<CachedView[]>(2 * ViewCount)) {}

void AccumulatorStack::reset(const Network& net, const Position& root) {
    net_ = &net;
    architecture_ = net.architecture();
    kernels_ = &kernels(isa_, net.hidden_size());
    top_ = 0;
    // The cache holds sums of the previous net's rows (a new net may even sit where the
    // old one was freed): start it over.
    for (int i = 0; i < 2 * ViewCount; ++i) cache_[i].valid = false;
    refresh(net, root, entries_[0].acc);
    entries_[0].computed = true;
    entries_[0].null_move = false;
}

void AccumulatorStack::push(const Position& before, Move move) {
    assert(top_ + 1 < Capacity);
    const Entry& parent = entries_[top_];
    Entry& entry = entries_[++top_];
    entry.changes = piece_changes(before, move);
    entry.computed = false;
    entry.null_move = false;
    entry.acc.views[White] = parent.acc.views[White];
    entry.acc.views[Black] = parent.acc.views[Black];
    entry.refresh[White] = entry.refresh[Black] = false;
    // (The architecture is a copy: the stack may be pushed while no net is in use,
    // and net_ may then point to one that is gone.)
    if (architecture_ != Architecture::KingBuckets) return;
    // A king that lands where its view changes: that perspective starts afresh.
    bool any = false;
    for (int k = 0; k < entry.changes.added_count; ++k) {
        const PieceSquare placed = entry.changes.added[k];
        if (type_of(placed.piece) != King) continue;
        const Color side = color_of(placed.piece);
        const InputView view = input_view(architecture_, side, placed.square);
        if (view == entry.acc.views[side]) continue;
        entry.acc.views[side] = view;
        entry.refresh[side] = any = true;
    }
    if (!any) return;
    // The pieces after the move: those of `before`, the lifted ones taken away, then the
    // placed ones put down (in this order, so that a Chess960 king or rook lifted and
    // placed on its own square stays).
    PieceBoards& boards = entry.boards;
    for (const Color c : {White, Black})
        for (int t = Pawn; t <= King; ++t) boards.squares[c][t] = before.pieces(c, PieceType(t));
    const PieceChanges& changes = entry.changes;
    for (int k = 0; k < changes.removed_count; ++k) {
        const PieceSquare ps = changes.removed[k];
        boards.squares[color_of(ps.piece)][type_of(ps.piece)] &= ~square_bb(ps.square);
    }
    for (int k = 0; k < changes.added_count; ++k) {
        const PieceSquare ps = changes.added[k];
        boards.squares[color_of(ps.piece)][type_of(ps.piece)] |= square_bb(ps.square);
    }
}

void AccumulatorStack::rebuild(Entry& entry, Color perspective) {
    const InputView view = entry.acc.views[perspective];
    const int index = 2 * (view.offset / InputSize) + (view.square_xor != 0);
    CachedView& cached = cache_[perspective * ViewCount + index];
    const int hidden = net_->hidden_size();
    if (!cached.valid) {
        std::copy(net_->feature_biases.begin(), net_->feature_biases.end(), cached.values);
        cached.boards = {};
        cached.valid = true;
    }
    // The rows of the pieces that came (added) and of the ones that went (removed)
    // since the cached sum was built: at most one per square each.
    const int16_t* added[64];
    const int16_t* removed[64];
    int added_count = 0, removed_count = 0;
    for (const Color c : {White, Black})
        for (int t = Pawn; t <= King; ++t) {
            const Bitboard now = entry.boards.squares[c][t], was = cached.boards.squares[c][t];
            const Piece piece = make_piece(c, PieceType(t));
            for (const Square s : squares(now & ~was)) added[added_count++] = row(*net_, perspective, view, {piece, s});
            for (const Square s : squares(was & ~now))
                removed[removed_count++] = row(*net_, perspective, view, {piece, s});
            cached.boards.squares[c][t] = now;
        }
    // Applied by the move kernel, up to two rows each way a pass, each pass reading
    // one buffer and writing the other (the kernel's source and destination must not
    // overlap): cache -> entry, entry -> cache, ... Then the buffer the last pass did
    // not write gets a copy, so that both hold the sum.
    int16_t* buffers[2] = {cached.values, entry.acc.values[perspective]};
    int passes = 0;
    for (int a = 0, r = 0; a < added_count || r < removed_count; ++passes) {
        RowChanges rows;
        while (rows.added_count < 2 && a < added_count) rows.added[rows.added_count++] = added[a++];
        while (rows.removed_count < 2 && r < removed_count) rows.removed[rows.removed_count++] = removed[r++];
        kernels_->apply_rows(buffers[passes % 2], buffers[(passes + 1) % 2], rows);
    }
    const int16_t* sum = buffers[passes % 2];
    std::copy(sum, sum + hidden, buffers[(passes + 1) % 2]);
}

void AccumulatorStack::push_null() {
    assert(top_ + 1 < Capacity);
    const Entry& parent = entries_[top_];
    Entry& entry = entries_[++top_];
    entry.computed = false;
    entry.null_move = true;
    // A null move moves no king: a later move's parent views are these.
    entry.acc.views[White] = parent.acc.views[White];
    entry.acc.views[Black] = parent.acc.views[Black];
}

void AccumulatorStack::pop() {
    assert(top_ > 0);
    --top_;
}

const Accumulator& AccumulatorStack::current() {
    assert(net_ != nullptr);
    // The root (entry 0) is computed and never a null move, so both walks stop there.
    int top = top_;
    while (entries_[top].null_move) --top;
    int source = top;
    while (!entries_[source].computed) --source;  // null-move entries are never computed
    for (int i = source + 1; i <= top; ++i) {
        Entry& entry = entries_[i];
        if (entry.null_move) continue;
        for (const Color perspective : {White, Black}) {
            if (entry.refresh[perspective]) rebuild(entry, perspective);
            else update(*kernels_, *net_, entries_[source].acc, entry.changes, perspective, entry.acc);
        }
        entry.computed = true;
        source = i;
    }
    return entries_[top].acc;
}

int AccumulatorStack::evaluate(const Position& pos) {
    return nnue::evaluate(*kernels_, *net_, current(), pos.side_to_move(), popcount(pos.occupied()));
}

}  // namespace arbiter::eval::nnue

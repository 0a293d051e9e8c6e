#include "eval/nnue/accumulator.h"

#include <algorithm>
#include <cassert>

namespace arbiter::eval::nnue {

namespace {

const int16_t* row(const Network& net, Color perspective, PieceSquare ps) {
    return net.feature_row(feature_index(perspective, ps.piece, ps.square));
}

} // namespace

void refresh(const Network& net, const Position& pos, Accumulator& acc) {
    const int hidden = net.hidden_size();
    for (const Color perspective : {White, Black}) {
        int16_t* values = acc.values[perspective];
        std::copy(net.feature_biases.begin(), net.feature_biases.end(), values);
        for (const Square s : squares(pos.occupied())) {
            const int16_t* weights = row(net, perspective, {pos.piece_on(s), s});
            for (int i = 0; i < hidden; ++i) values[i] = int16_t(values[i] + weights[i]);
        }
    }
}

void update(const Kernels& kernels, const Network& net, const Accumulator& parent, const PieceChanges& changes,
            Accumulator& child) {
    assert(&parent != &child);
    assert(kernels.hidden == net.hidden_size());
    for (const Color perspective : {White, Black}) {
        RowChanges rows;
        rows.added_count = changes.added_count;
        rows.removed_count = changes.removed_count;
        for (int k = 0; k < changes.added_count; ++k) rows.added[k] = row(net, perspective, changes.added[k]);
        for (int k = 0; k < changes.removed_count; ++k) rows.removed[k] = row(net, perspective, changes.removed[k]);
        kernels.apply_rows(parent.values[perspective], child.values[perspective], rows);
    }
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

AccumulatorStack::AccumulatorStack(Isa isa) : isa_(isa), entries_(std::make_unique<Entry[]>(Capacity)) {}

void AccumulatorStack::reset(const Network& net, const Position& root) {
    net_ = &net;
    kernels_ = &kernels(isa_, net.hidden_size());
    top_ = 0;
    refresh(net, root, entries_[0].acc);
    entries_[0].computed = true;
    entries_[0].null_move = false;
}

void AccumulatorStack::push(const Position& before, Move move) {
    assert(top_ + 1 < Capacity);
    Entry& entry = entries_[++top_];
    entry.changes = piece_changes(before, move);
    entry.computed = false;
    entry.null_move = false;
}

void AccumulatorStack::push_null() {
    assert(top_ + 1 < Capacity);
    Entry& entry = entries_[++top_];
    entry.computed = false;
    entry.null_move = true;
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
        update(*kernels_, *net_, entries_[source].acc, entry.changes, entry.acc);
        entry.computed = true;
        source = i;
    }
    return entries_[top].acc;
}

int AccumulatorStack::evaluate(const Position& pos) {
    return nnue::evaluate(*kernels_, *net_, current(), pos.side_to_move(), popcount(pos.occupied()));
}

} // namespace arbiter::eval::nnue

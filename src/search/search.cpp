#include "search/search.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "chess/dead_position.h"
#include "chess/movegen.h"
#include "eval/evaluate.h"
#include "search/move_picker.h"
#include "search/see.h"

namespace arbiter::search {

namespace {

// Late move reduction table: grows with the log of depth and of the move number.
const std::array<std::array<int, 64>, 64> Reductions = [] {
    std::array<std::array<int, 64>, 64> table{};
    for (int depth = 1; depth < 64; ++depth)
        for (int moves = 1; moves < 64; ++moves)
            table[depth][moves] = int(0.75 + std::log(depth) * std::log(moves) / 2.25);
    return table;
}();

int reduction(int depth, int moves) { return Reductions[std::min(depth, 63)][std::min(moves, 63)]; }

bool has_non_pawn_material(const Position& pos, Color c) {
    return pos.pieces(c) != (pos.pieces(c, Pawn) | pos.pieces(c, King));
}

} // namespace

// Pushes a move (or a null move) onto the worker's path for the lifetime of a child
// search: the child's key for repetitions and the move's changes for the accumulators.
struct PathGuard {
    Worker& worker;
    PathGuard(Worker& w, const Position& before, Move m, Key child_key) : worker(w) {
        worker.keys_.push_back(child_key);
        worker.accumulators_.push(before, m);
    }
    PathGuard(Worker& w, Key child_key) : worker(w) {
        worker.keys_.push_back(child_key);
        worker.accumulators_.push_null();
    }
    ~PathGuard() {
        worker.keys_.pop_back();
        worker.accumulators_.pop();
    }
    PathGuard(const PathGuard&) = delete;
    PathGuard& operator=(const PathGuard&) = delete;
};

Worker::Worker(int id, SharedSearch& shared) : id_(id), shared_(shared), root_(Position::startpos()) {}

void Worker::prepare(const Game& game, const std::vector<Move>& root_moves) {
    root_ = game.position();
    // Only positions since the last irreversible move can repeat.
    const auto positions = game.positions();
    const size_t window = std::min<size_t>(root_.halfmove_clock(), positions.size() - 1);
    keys_.clear();
    keys_.reserve(window + MaxPly + 8);
    for (size_t i = positions.size() - 1 - window; i < positions.size(); ++i) keys_.push_back(positions[i].key());
    root_key_index_ = keys_.size() - 1;
    if (shared_.network) accumulators_.reset(*shared_.network, root_);
    root_moves_.clear();
    last_reported_move_ = Move();
    for (Move m : root_moves) root_moves_.push_back({m, -Infinite, -Infinite, 0, {m}});
    nodes_.store(0, std::memory_order_relaxed);
    completed_depth_ = 0;
}

bool Worker::is_draw(const Position& pos) const {
    if (pos.halfmove_clock() >= 100) return !pos.in_check() || has_legal_move(pos);
    // A repetition inside the search path counts as a draw at once (twofold); one
    // reaching into the game before the root needs two earlier occurrences.
    const size_t current = keys_.size() - 1;
    const size_t window = std::min<size_t>(pos.halfmove_clock(), current);
    int earlier = 0;
    for (size_t back = 4; back <= window; back += 2) {
        const size_t index = current - back;
        if (keys_[index] != pos.key()) continue;
        if (index >= root_key_index_ || ++earlier == 2) return true;
    }
    return is_dead_position(pos);
}

Score Worker::evaluate(const Position& pos) {
    if (!shared_.network) return eval::evaluate(pos);
    // Far from mate scores whatever the net says: a static guess is never a mate.
    constexpr Score Limit = MateInMaxPly / 2;
    return std::clamp(accumulators_.evaluate(pos), -Limit, Limit);
}

bool Worker::should_stop_now() {
    if (shared_.stop.load(std::memory_order_relaxed)) return true;
    const SearchLimits& limits = shared_.limits;
    // The node limit is exact with one thread; with several, every thread sums all
    // counters every 256 of its nodes (one descheduled thread cannot let the others
    // run on past the limit).
    if (limits.nodes) {
        const uint64_t searched = shared_.threads == 1 ? nodes() : (nodes() & 255) == 0 ? shared_.total_nodes() : 0;
        if (searched >= limits.nodes) {
            shared_.stop = true;
            return true;
        }
    }
    if (id_ != 0) return false;
    // Reading the clock costs more than a node: look every 1024 nodes.
    if ((nodes() & 1023) == 0 && !shared_.pondering.load(std::memory_order_relaxed) &&
        shared_.budget.hard_ms != TimeBudget::Unlimited && shared_.elapsed_ms() >= shared_.budget.hard_ms) {
        shared_.stop = true;
        return true;
    }
    return false;
}

int Worker::quiet_history(const Position& pos, Move m, int ply) const {
    const ContinuationIndex current = continuation_index(pos.piece_on(m.from()), m.to());
    return history_.quiet(pos.side_to_move(), m) +
           history_.continuation(ply >= 1 ? stack_[ply - 1].continuation : NoContinuation, current) +
           history_.continuation(ply >= 2 ? stack_[ply - 2].continuation : NoContinuation, current);
}

void Worker::update_quiet_histories(const Position& pos, Move m, int ply, int bonus) {
    const ContinuationIndex current = continuation_index(pos.piece_on(m.from()), m.to());
    history_.update_quiet(pos.side_to_move(), m, bonus);
    if (ply >= 1) history_.update_continuation(stack_[ply - 1].continuation, current, bonus);
    if (ply >= 2) history_.update_continuation(stack_[ply - 2].continuation, current, bonus);
}

void Worker::update_pv(int ply, Move m) {
    pv_[ply][0] = m;
    const int child_length = ply + 1 <= MaxPly ? pv_length_[ply + 1] : 0;
    for (int i = 0; i < child_length; ++i) pv_[ply][i + 1] = pv_[ply + 1][i];
    pv_length_[ply] = child_length + 1;
}

void Worker::iterative_deepening() {
    const SearchLimits& limits = shared_.limits;
    const int max_depth = limits.depth > 0 ? std::min(limits.depth, MaxPly - 1) : MaxPly - 1;
    const size_t lines = std::min<size_t>(shared_.multipv, root_moves_.size());
    Score previous = 0;

    for (int depth = 1; depth <= max_depth; ++depth) {
        // Lazy SMP: helper threads skip some depths so that the threads spread out.
        if (id_ != 0 && depth > 2 && (depth + id_) % 3 == 0) continue;
        root_depth_ = depth;
        for (RootMove& rm : root_moves_) rm.previous_score = rm.score;

        for (pv_index_ = 0; pv_index_ < lines; ++pv_index_) {
            for (size_t i = pv_index_; i < root_moves_.size(); ++i) root_moves_[i].score = -Infinite;
            seldepth_ = 0;
            // Step 1: aspiration window around the previous score.
            Score delta = 18;
            const Score guess = root_moves_[pv_index_].previous_score != -Infinite
                                    ? root_moves_[pv_index_].previous_score : previous;
            Score alpha = depth >= 4 ? std::max(guess - delta, -Infinite) : -Infinite;
            Score beta = depth >= 4 ? std::min(guess + delta, Infinite) : Infinite;
            for (;;) {
                const Score score = negamax<true>(root_, alpha, beta, depth, 0, false);
                std::stable_sort(root_moves_.begin() + long(pv_index_), root_moves_.end(),
                                 [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
                if (shared_.stop.load(std::memory_order_relaxed)) break;
                if (score <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = std::max(score - delta, -Infinite);
                } else if (score >= beta) {
                    beta = std::min(score + delta, Infinite);
                } else {
                    break;
                }
                delta += delta / 2 + 5;
            }
            // Keep the lines found so far in score order (MultiPV).
            std::stable_sort(root_moves_.begin(), root_moves_.begin() + long(pv_index_) + 1,
                             [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
            if (shared_.stop.load(std::memory_order_relaxed)) break;
        }
        if (shared_.stop.load(std::memory_order_relaxed)) break;
        completed_depth_ = depth;
        previous = root_moves_[0].score;
        if (id_ == 0) {
            report(depth);
            if (limits_reached_after_iteration(depth)) break;
        }
    }
    // An interrupted iteration may already have found a better move; the bestmove
    // that follows must match the last PV printed, so print it.
    if (id_ == 0 && root_moves_[0].move != last_reported_move_ && root_moves_[0].score != -Infinite)
        report(root_depth_);
}

bool Worker::limits_reached_after_iteration(int depth) {
    const SearchLimits& limits = shared_.limits;
    if (limits.depth > 0 && depth >= limits.depth) return true;
    const Score best = root_moves_[0].score;
    if (limits.mate > 0 && best >= MateInMaxPly && mate_moves(best) <= limits.mate) return true;
    if (shared_.pondering.load(std::memory_order_relaxed)) return false;
    // A single legal move needs no thought when the clock is running.
    if (limits.has_clock() && root_moves_.size() == 1 && depth >= 4) return true;
    return shared_.budget.soft_ms != TimeBudget::Unlimited && shared_.elapsed_ms() >= shared_.budget.soft_ms;
}

void Worker::report(int depth) {
    if (!shared_.on_iteration) return;
    std::vector<SearchInfo> infos;
    const size_t lines = std::min<size_t>(shared_.multipv, root_moves_.size());
    const uint64_t nodes = shared_.total_nodes ? shared_.total_nodes() : this->nodes();
    for (size_t i = 0; i < lines; ++i) {
        const RootMove& rm = root_moves_[i];
        SearchInfo info;
        info.depth = depth;
        info.seldepth = std::max(rm.seldepth, depth);
        info.multipv = int(i + 1);
        info.score = rm.score == -Infinite ? rm.previous_score : rm.score;
        info.nodes = nodes;
        info.time_ms = shared_.elapsed_ms();
        info.hashfull = shared_.tt.hashfull();
        // Every move of the PV is legal by construction; checking again is cheap and
        // makes an illegal PV impossible to print.
        Position pos = root_;
        for (Move m : rm.pv) {
            if (!is_legal(pos, m)) break;
            info.pv.push_back(m);
            pos = pos.apply(m);
        }
        infos.push_back(std::move(info));
    }
    last_reported_move_ = root_moves_[0].move;
    shared_.on_iteration(infos);
}

template <bool PV>
Score Worker::negamax(const Position& pos, Score alpha, Score beta, int depth, int ply, bool cut_node) {
    const bool root = ply == 0;
    const bool in_check = pos.in_check();
    if (PV) pv_length_[ply] = 0;

    // Step 1. At the horizon, resolve captures first.
    if (depth <= 0 && !in_check) return quiescence<PV>(pos, alpha, beta, ply);
    depth = std::max(depth, 1);

    // Step 2. Bookkeeping and the stop signal.
    count_node();
    if (should_stop_now()) return 0;
    seldepth_ = std::max(seldepth_, ply + 1);

    if (!root) {
        // Step 3. Draws by rule and the ply limit.
        if (is_draw(pos)) return 0;
        if (ply >= MaxPly - 1) return in_check ? 0 : evaluate(pos);
        // Step 4. Mate distance pruning: no line from here beats a mate already found closer to the root.
        alpha = std::max(alpha, mated_in(ply));
        beta = std::min(beta, mate_in(ply + 1));
        if (alpha >= beta) return alpha;
    }

    // Step 5. Transposition table.
    TTData tt;
    const bool tt_hit = shared_.tt.probe(pos.key(), ply, tt);
    const Move tt_move = root ? root_moves_[pv_index_].move : (tt_hit ? tt.move : Move());
    if (!PV && tt_hit && tt.depth >= depth && tt.score != NoScore &&
        (tt.bound == Bound::Exact || (tt.bound == Bound::Lower && tt.score >= beta) ||
         (tt.bound == Bound::Upper && tt.score <= alpha)) &&
        pos.halfmove_clock() < 90)
        return tt.score;

    // Step 6. Static evaluation, and whether it improved over our previous move.
    StackEntry& ss = stack_[ply];
    Score eval = NoScore;
    if (!in_check) {
        eval = tt_hit && tt.eval != NoScore ? tt.eval : evaluate(pos);
        // A bounded search result is a better estimate where its bound allows.
        if (tt_hit && tt.score != NoScore && !is_mate(tt.score) &&
            (tt.bound == Bound::Exact || (tt.bound == Bound::Lower && tt.score > eval) ||
             (tt.bound == Bound::Upper && tt.score < eval)))
            eval = tt.score;
    }
    ss.static_eval = eval;
    const bool improving = !in_check && ply >= 2 && stack_[ply - 2].static_eval != NoScore &&
                           eval > stack_[ply - 2].static_eval;
    history_.clear_killers(ply + 1);

    if (!PV && !in_check) {
        // Step 7. Reverse futility pruning: far above beta at low depth, stop here.
        if (depth <= 8 && !is_mate(beta) && eval - 80 * (depth - improving) >= beta) return eval;

        // Step 8. Null move pruning: if passing still beats beta, a real move will too
        // (not in pawn endgames, where zugzwang is common).
        if (!root && depth >= 3 && eval >= beta && !stack_[ply - 1].null_move &&
            has_non_pawn_material(pos, pos.side_to_move())) {
            const int r = 3 + depth / 4 + std::min((eval - beta) / 200, 3);
            const Position child = pos.apply_null_move();
            ss.null_move = true;
            ss.move = Move();
            ss.continuation = NoContinuation;
            Score score;
            {
                PathGuard guard(*this, child.key());
                score = -negamax<false>(child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
            }
            ss.null_move = false;
            if (shared_.stop.load(std::memory_order_relaxed)) return 0;
            if (score >= beta) return is_mate(score) ? beta : score;
        }
    }

    // Step 9. Internal iterative reduction: without a hash move, ordering is poor
    // and a shallower search is nearly as good.
    if (depth >= 4 && tt_move.is_null() && (PV || cut_node)) --depth;

    // Step 10. The move loop.
    MovePicker picker(pos, tt_move, history_, ply, ply >= 1 ? stack_[ply - 1].continuation : NoContinuation,
                      ply >= 2 ? stack_[ply - 2].continuation : NoContinuation);
    const Score original_alpha = alpha;
    Score best = -Infinite;
    Move best_move;
    int moves = 0;
    StaticVector<Move, 64> quiets_tried;
    bool skip_quiets = false;

    for (Move m = picker.next(); !m.is_null(); m = picker.next()) {
        if (root) {
            const auto it = std::find_if(root_moves_.begin() + long(pv_index_), root_moves_.end(),
                                         [m](const RootMove& rm) { return rm.move == m; });
            if (it == root_moves_.end()) continue;
        }
        const bool quiet = !pos.is_capture(m) && m.kind() != Move::Promotion;
        const Position child = pos.apply(m);
        const bool gives_check = child.in_check();
        // Moves that give check are never pruned: they may mate.
        if (quiet && skip_quiets && !gives_check) continue;
        ++moves;
        if (root && id_ == 0 && shared_.on_current_move && shared_.elapsed_ms() > 3000)
            shared_.on_current_move(m, moves + int(pv_index_), depth);

        // Step 11. Shallow-depth pruning, once a move has escaped a mate score.
        if (!root && best > -MateInMaxPly && !gives_check) {
            if (quiet) {
                // Late move pruning: at low depth, late quiet moves rarely matter.
                if (depth <= 8 && moves > (3 + depth * depth) / (2 - improving)) {
                    skip_quiets = true;
                    continue;
                }
                // Futility pruning: even a good quiet move will not reach alpha.
                if (!in_check && depth <= 6 && eval + 100 + 90 * depth <= alpha) {
                    skip_quiets = true;
                    continue;
                }
                if (depth <= 7 && !see_ge(pos, m, -60 * depth)) continue;
            } else if (depth <= 6 && !see_ge(pos, m, -100 * depth)) {
                continue;
            }
        }

        shared_.tt.prefetch(child.key());
        ss.move = m;
        ss.continuation = continuation_index(pos.piece_on(m.from()), m.to());

        // Step 12. Check extension.
        const int extension = gives_check && ply < 2 * root_depth_ ? 1 : 0;
        const int new_depth = depth - 1 + extension;

        Score score;
        // A child searched only with a null window leaves no PV: make sure a stale
        // one from an earlier sibling cannot be copied.
        if (PV) pv_length_[ply + 1] = 0;
        {
            PathGuard guard(*this, pos, m, child.key());
            // Step 13. Late move reductions, then principal variation search.
            if (depth >= 3 && moves > 1 + int(root) && (quiet || picker.in_bad_noisy_stage())) {
                int r = reduction(depth, moves);
                r -= PV;
                r += !improving;
                r += cut_node;
                r -= gives_check;
                if (quiet) r -= quiet_history(pos, m, ply) / 8000;
                r = std::clamp(r, 0, new_depth - 1);
                score = -negamax<false>(child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if (score > alpha && r > 0)
                    score = -negamax<false>(child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else if (!PV || moves > 1) {
                score = -negamax<false>(child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                score = alpha + 1;  // the first move of a PV node goes straight to a full window
            }
            if (PV && (moves == 1 || (score > alpha && (root || score < beta))))
                score = -negamax<true>(child, -beta, -alpha, new_depth, ply + 1, false);
        }
        if (shared_.stop.load(std::memory_order_relaxed)) return 0;

        if (root) {
            RootMove& rm = *std::find_if(root_moves_.begin(), root_moves_.end(),
                                         [m](const RootMove& r) { return r.move == m; });
            if (moves == 1 || score > alpha) {
                rm.score = score;
                rm.seldepth = seldepth_;
                rm.pv.assign(1, m);
                for (int i = 0; i < pv_length_[1]; ++i) rm.pv.push_back(pv_[1][i]);
            } else {
                rm.score = -Infinite;
            }
        }

        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (PV) update_pv(ply, m);
                alpha = score;
                if (alpha >= beta) break;
            }
        }
        if (quiet && m != best_move && quiets_tried.size() < quiets_tried.capacity()) quiets_tried.push_back(m);
    }

    // Step 14. No legal move: checkmate or stalemate.
    if (moves == 0) {
        if (root) return -Infinite;  // every root move was excluded (cannot happen for legal roots)
        return in_check ? mated_in(ply) : 0;
    }

    // Step 15. A quiet move that caused a cutoff is remembered; the quiet moves
    // tried before it are marked down.
    if (best >= beta && !best_move.is_null() && !pos.is_capture(best_move) && best_move.kind() != Move::Promotion) {
        const int bonus = History::bonus(depth);
        update_quiet_histories(pos, best_move, ply, bonus);
        for (Move q : quiets_tried) update_quiet_histories(pos, q, ply, -bonus);
        history_.add_killer(ply, best_move);
        if (ply >= 1) history_.set_counter(stack_[ply - 1].continuation, best_move);
    }

    // Step 16. Store the result (not for secondary MultiPV lines, which exclude moves).
    if (!(root && pv_index_ > 0)) {
        const Bound bound = best >= beta ? Bound::Lower : best > original_alpha ? Bound::Exact : Bound::Upper;
        shared_.tt.store(pos.key(), ply, best_move, best, eval, depth, bound);
    }
    return best;
}

template <bool PV>
Score Worker::quiescence(const Position& pos, Score alpha, Score beta, int ply) {
    if (PV) pv_length_[ply] = 0;
    count_node();
    if (should_stop_now()) return 0;
    seldepth_ = std::max(seldepth_, ply + 1);
    if (is_draw(pos)) return 0;
    const bool in_check = pos.in_check();
    if (ply >= MaxPly - 1) return in_check ? 0 : evaluate(pos);

    TTData tt;
    const bool tt_hit = shared_.tt.probe(pos.key(), ply, tt);
    if (!PV && tt_hit && tt.score != NoScore &&
        (tt.bound == Bound::Exact || (tt.bound == Bound::Lower && tt.score >= beta) ||
         (tt.bound == Bound::Upper && tt.score <= alpha)))
        return tt.score;

    // Stand pat: out of check, the side to move may decline every capture.
    Score best = -Infinite;
    Score eval = NoScore;
    if (!in_check) {
        eval = tt_hit && tt.eval != NoScore ? tt.eval : evaluate(pos);
        best = eval;
        if (best >= beta) return best;
        alpha = std::max(alpha, best);
    }

    MovePicker picker(pos, tt_hit ? tt.move : Move(), history_);
    Move best_move;
    int moves = 0;
    const Score original_alpha = alpha;
    for (Move m = picker.next(); !m.is_null(); m = picker.next()) {
        ++moves;
        // Delta pruning: even winning the captured piece outright leaves us below alpha.
        if (!in_check && m.kind() != Move::Promotion) {
            const PieceType victim = m.kind() == Move::EnPassant ? Pawn : type_of(pos.piece_on(m.to()));
            if (eval + eval::PieceValue[victim] + 200 <= alpha) continue;
        }
        const Position child = pos.apply(m);
        shared_.tt.prefetch(child.key());
        Score score;
        if (PV) pv_length_[ply + 1] = 0;
        {
            PathGuard guard(*this, pos, m, child.key());
            score = -quiescence<PV>(child, -beta, -alpha, ply + 1);
        }
        if (shared_.stop.load(std::memory_order_relaxed)) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (PV) update_pv(ply, m);
                alpha = score;
                if (alpha >= beta) break;
            }
        }
    }
    if (in_check && moves == 0) return mated_in(ply);

    const Bound bound = best >= beta ? Bound::Lower : best > original_alpha ? Bound::Exact : Bound::Upper;
    shared_.tt.store(pos.key(), ply, best_move, best, eval, 0, bound);
    return best;
}

template Score Worker::negamax<true>(const Position&, Score, Score, int, int, bool);
template Score Worker::negamax<false>(const Position&, Score, Score, int, int, bool);

} // namespace arbiter::search

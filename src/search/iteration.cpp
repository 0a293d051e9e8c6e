// Iterative deepening at the root: the root moves, the aspiration windows around
// each line, when to stop, and what is reported. The tree below the root is
// search.cpp's.

#include "search/search.h"

#include <algorithm>
#include <cstdlib>

#include "chess/movegen.h"
#include "search/tunable.h"

namespace arbiter::search {

namespace {

// A mate (for either side) is taken as proven, its distance as final, once a
// completed iteration at least this many times as deep as the mate is long, in
// plies, finds it. The iteration's score is exact (it ended inside its window),
// and the mating line is forced; what a deeper search could still change is the
// distance: a shorter mate (or, for the side being mated, a longer defence) that
// reductions or pruning kept out of sight. At twice the mate's length every such
// line had as many plies again as margin for its reductions. Not a proof in the
// strict sense (strong engines stop on rules of this kind too), but deeper
// iterations would add next to nothing: the mate's bounds cut every line off at
// about its length, so they return in a moment each with the same answer.
constexpr int MateProofDepthFactor = 2;

// Root moves in search order: by tablebase rank (all equal when the root is not
// in the tables), then by score.
bool better_root_move(const RootMove& a, const RootMove& b) {
    return a.tb_rank != b.tb_rank ? a.tb_rank > b.tb_rank : a.score > b.score;
}

// Reported lines in their order: as root moves, but by the lines' own scores.
bool better_line(const RootMove& a, const RootMove& b) {
    return a.tb_rank != b.tb_rank ? a.tb_rank > b.tb_rank : a.line_score > b.line_score;
}

// A stable sort of root moves that does not allocate: std::stable_sort takes a
// temporary buffer from the heap on every call, and the search sorts the root moves
// after every aspiration window. The lists are short and nearly sorted (an iteration
// moves a few of them), so insertion sort moves few of them (each a few hundred
// bytes with its inline PV).
template <typename Better>
void stable_sort_root_moves(std::vector<RootMove>::iterator first, std::vector<RootMove>::iterator last,
                            Better better) {
    for (auto it = first; it != last; ++it) {
        auto hole = it;
        if (hole == first || !better(*hole, *(hole - 1))) continue;
        RootMove moving = std::move(*hole);
        do {
            *hole = std::move(*(hole - 1));
            --hole;
        } while (hole != first && better(moving, *(hole - 1)));
        *hole = std::move(moving);
    }
}

}  // namespace

void Worker::prepare(const Game& game, const std::vector<Move>& root_moves, const std::vector<TbRootRank>& tb_ranks) {
    root_ = game.position();
    // Only positions since the last irreversible move can repeat.
    const auto positions = game.positions();
    const size_t window = std::min<size_t>(root_.halfmove_clock(), positions.size() - 1);
    keys_.clear();
    keys_.reserve(window + MaxPly + 8);
    for (size_t i = positions.size() - 1 - window; i < positions.size(); ++i) keys_.push_back(positions[i].key());
    root_key_index_ = keys_.size() - 1;
    null_move_floor_ = 0;
    if (shared_.network) accumulators_.reset(*shared_.network, root_);
    root_moves_.resize(root_moves.size());
    for (size_t i = 0; i < root_moves.size(); ++i) {
        RootMove& rm = root_moves_[i];
        const TbRootRank tb = i < tb_ranks.size() ? tb_ranks[i] : TbRootRank{};
        rm.move = root_moves[i];
        rm.tb_rank = tb.rank;
        rm.tb_score = tb.score;
        rm.score = rm.previous_score = -Infinite;
        rm.line_depth = 0;
        rm.line_score = -Infinite;
        rm.line_bound = BoundKind::Exact;
        rm.seldepth = 0;
        rm.nodes = 0;
        rm.pv.clear();
        rm.pv.push_back(root_moves[i]);
    }
    // Tablebase ranks (all 0 unless the root is in the tables): searched best rank first.
    stable_sort_root_moves(root_moves_.begin(), root_moves_.end(),
                           [](const RootMove& a, const RootMove& b) { return a.tb_rank > b.tb_rank; });
    for (StackEntry& entry : stack_) entry = StackEntry();
    nmp_min_ply_ = 0;
    best_move_stability_ = 0;
    previous_best_move_ = Move();
    iteration_scores_[0] = iteration_scores_[1] = 0;
    nodes_.store(0, std::memory_order_relaxed);
    tb_hits_.store(0, std::memory_order_relaxed);
    completed_depth_ = 0;
    completed_lines_.clear();
    mate_proven_ = false;
}

void Worker::iterative_deepening() {
    const SearchLimits& limits = shared_.limits;
    // Only thread 0 stops at the depth asked for; helpers search on until it is
    // done, so that the TT they fill helps it to the last.
    const int max_depth = limits.depth > 0 && id_ == 0 ? std::min(limits.depth, MaxPly - 1) : MaxPly - 1;
    const size_t lines = std::min<size_t>(shared_.multipv, root_moves_.size());
    Score previous = 0;
    bool interrupted = false;

    for (int depth = 1; depth <= max_depth; ++depth) {
        // Lazy SMP: helper threads skip some depths so that the threads spread out.
        if (id_ != 0 && depth > tune::smp_skip_after_depth && (depth + id_) % tune::smp_skip_cycle == 0) continue;
        root_depth_ = depth;
        for (RootMove& rm : root_moves_) rm.previous_score = rm.score;

        for (pv_index_ = 0; pv_index_ < lines; ++pv_index_) {
            // This line chooses among the moves of the best tablebase rank left.
            pv_last_ = pv_index_ + 1;
            while (pv_last_ < root_moves_.size() && root_moves_[pv_last_].tb_rank == root_moves_[pv_index_].tb_rank)
                ++pv_last_;
            for (size_t i = pv_index_; i < root_moves_.size(); ++i) root_moves_[i].score = -Infinite;
            seldepth_ = 0;
            // Aspiration window around the previous score, widened after each fail.
            Score delta = tune::aspiration_delta;
            const Score guess =
                root_moves_[pv_index_].previous_score != -Infinite ? root_moves_[pv_index_].previous_score : previous;
            const bool aspiration = depth >= tune::aspiration_min_depth;
            Score alpha = aspiration ? std::max(guess - delta, -Infinite) : -Infinite;
            Score beta = aspiration ? std::min(guess + delta, Infinite) : Infinite;
            for (;;) {
                const Score score = negamax<true>(root_, alpha, beta, depth, 0, false);
                stable_sort_root_moves(root_moves_.begin() + long(pv_index_), root_moves_.end(), better_root_move);
                if (stopping()) break;
                if (score <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = std::max(score - delta, -Infinite);
                } else if (score >= beta) {
                    beta = std::min(score + delta, Infinite);
                } else {
                    break;
                }
                delta += delta * tune::aspiration_growth / 100 + tune::aspiration_growth_add;
            }
            // Keep the lines found so far in score order (MultiPV).
            stable_sort_root_moves(root_moves_.begin(), root_moves_.begin() + long(pv_index_) + 1, better_root_move);
            if (stopping()) break;
        }
        if (stopping()) {
            interrupted = true;
            break;
        }
        completed_depth_ = depth;
        // Beyond a proven mate, the mate's bounds cut off every line before the depth
        // is reached: an iteration that only repeats the lines did not search to its
        // depth, and is not reported.
        const bool repeated = id_ == 0 && mate_proven_ && repeats_completed_lines(lines);
        completed_lines_.assign(root_moves_.begin(), root_moves_.begin() + long(lines));
        previous = root_moves_[0].score;
        best_move_stability_ = root_moves_[0].move == previous_best_move_ ? best_move_stability_ + 1 : 0;
        previous_best_move_ = root_moves_[0].move;
        iteration_scores_[0] = iteration_scores_[1];
        iteration_scores_[1] = root_moves_[0].score;
        if (id_ == 0) {
            if (!repeated) report(lines);
            mate_proven_ = proves_mate(depth, lines);
            if (limits_reached_after_iteration(depth)) break;
        }
    }
    if (id_ == 0 && interrupted) report_interrupted_iteration(lines);
}

// An iteration stopped in line pv_index_ has finished the lines before it (each the
// best of the moves left, searched to the interrupted depth), may have a best move
// so far for that line, and has not searched the lines after it. Those are the lines
// reported, and the previous iteration's lines fill the slots left. Each move shows
// what it was last searched to: a finished line or the best move so far shows the
// interrupted depth, a line kept from the previous iteration that iteration's depth,
// score and PV, unless the interrupted iteration searched its move again (first in a
// line, or raising alpha): then that depth and score, exact or as a bound. Lines of
// different depths are sorted by score all the same, since that is how a GUI ranks
// them.
//
// bestmove is the first reported line's move, so that the move shown as best is the
// move played. With one line, that is the interrupted iteration's best move so far
// (a move that beat the previous best at the deeper depth is played), else the
// previous iteration's. With several, a line kept from the previous iteration may
// come first on its shallower score; but a move that the interrupted iteration
// searched again ranks by its new score, so a best move it refuted (one that failed
// low there) is not played on its old score.
size_t Worker::order_interrupted_lines(size_t lines) {
    const auto first = root_moves_.begin();
    size_t count = std::min(pv_index_, lines);
    // The line being searched when the stop came: its best move so far, if any (the
    // moves of that line were sorted by score, unsearched ones last).
    if (count < lines && root_moves_[count].score != -Infinite) ++count;
    for (const RootMove& kept : completed_lines_) {
        if (count == lines) break;
        const auto it = std::find_if(first + long(count), root_moves_.end(),
                                     [&kept](const RootMove& rm) { return rm.move == kept.move; });
        if (it == root_moves_.end()) continue;  // already among the lines
        std::rotate(first + long(count), it, it + 1);
        ++count;
    }
    stable_sort_root_moves(first, first + long(count), better_line);
    return count;
}

void Worker::report_interrupted_iteration(size_t lines) {
    const size_t count = order_interrupted_lines(lines);
    // Nothing searched to the interrupted depth: the last report stands as it was.
    const bool deeper = std::any_of(root_moves_.begin(), root_moves_.begin() + long(count),
                                    [this](const RootMove& rm) { return rm.line_depth == root_depth_; });
    if (deeper && !(mate_proven_ && repeats_completed_lines(count))) report(count);
}

bool Worker::repeats_completed_lines(size_t count) const {
    if (count != completed_lines_.size()) return false;
    for (size_t i = 0; i < count; ++i)
        if (root_moves_[i].move != completed_lines_[i].move ||
            root_moves_[i].line_score != completed_lines_[i].line_score)
            return false;
    return true;
}

bool Worker::proves_mate(int depth, size_t lines) const {
    return lines > 0 &&
           std::all_of(root_moves_.begin(), root_moves_.begin() + long(lines), [depth](const RootMove& rm) {
               return is_mate(rm.score) && depth >= MateProofDepthFactor * (Mate - std::abs(rm.score));
           });
}

bool Worker::limits_reached_after_iteration(int depth) {
    const SearchLimits& limits = shared_.limits;
    if (limits.depth > 0 && depth >= limits.depth) return true;
    const Score best = root_moves_[0].score;
    if (limits.mate > 0 && best >= MateInMaxPly && mate_moves(best) <= limits.mate) return true;
    if (limits.soft_nodes && (shared_.total_nodes ? shared_.total_nodes() : nodes()) >= limits.soft_nodes) return true;
    if (shared_.pondering.load(std::memory_order_relaxed)) return false;
    // A proven mate will not change: deeper iterations would only repeat it, in a
    // moment each, up to the ply limit. go infinite searches on until stop (the GUI
    // asked for that; a mate shorter than the one proven would still be reported),
    // and so does go mate when the mate proven is not the one it asked for.
    if (mate_proven_ && !limits.infinite && !limits.mate) return true;
    // A single legal move needs no thought when the clock is running.
    if (limits.has_clock() && root_moves_.size() == 1 && depth >= tune::tm_single_reply_depth) return true;
    const TimeBudget& budget = shared_.budget;
    if (budget.soft_ms == TimeBudget::Unlimited) return false;
    int64_t soft = budget.soft_ms;
    if (budget.scalable && depth >= tune::tm_scale_min_depth) {
        IterationSignals signals;
        signals.best_move_stability = best_move_stability_;
        signals.best_move_node_fraction = nodes() ? double(root_moves_[0].nodes) / double(nodes()) : 0.5;
        signals.score_drop = iteration_scores_[0] - root_moves_[0].score;
        soft = std::min<int64_t>(int64_t(double(soft) * soft_limit_scale(signals)), budget.hard_ms);
    }
    return shared_.elapsed_ms() >= soft;
}

void Worker::report(size_t count) {
    if (!shared_.on_iteration) return;
    std::vector<SearchInfo> infos;
    const uint64_t nodes = shared_.total_nodes ? shared_.total_nodes() : this->nodes();
    for (size_t i = 0; i < count; ++i) {
        const RootMove& rm = root_moves_[i];
        SearchInfo info;
        info.depth = rm.line_depth;
        info.seldepth = std::max(rm.seldepth, rm.line_depth);
        info.multipv = int(i + 1);
        info.score = rm.line_score;
        info.bound = rm.line_bound;
        // At a root in the tables the line shows its rank's score: it is proven, where
        // the search's may be an estimate. Only a mate the search found says more.
        if (shared_.root_in_tb && !is_mate(info.score)) {
            info.score = rm.tb_score;
            info.bound = BoundKind::Exact;
        }
        info.nodes = nodes;
        info.tb_hits = shared_.total_tb_hits ? shared_.total_tb_hits() : tb_hits();
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
    shared_.on_iteration(infos);
}

}  // namespace arbiter::search

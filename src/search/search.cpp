#include "search/search.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "chess/dead_position.h"
#include "chess/movegen.h"
#include "eval/evaluate.h"
#include "search/move_picker.h"
#include "search/repetition.h"
#include "search/see.h"
#include "search/threats.h"
#include "search/tunable.h"
#include "syzygy/probe.h"

namespace arbiter::search {

namespace {

// The fifty-move rule's limit, in half-moves.
constexpr int FiftyMoveHalfmoves = 100;
// Thread 0 reads the clock every ClockCheckInterval of its nodes (reading it costs
// more than a node); with several threads, each sums all node counters every
// NodeSumInterval of its nodes for the node limit. Powers of two.
constexpr uint64_t ClockCheckInterval = 1024;
constexpr uint64_t NodeSumInterval = 256;
// `currmove` lines are sent only in searches longer than this: in fast ones they
// would flood the GUI with moves it has no time to show.
constexpr int64_t CurrentMoveDelayMs = 3000;
// Extensions stop at this multiple of the root depth in plies, so that checks
// and singular moves cannot extend a line without end.
constexpr int MaxExtendedPlyFactor = 2;
// The reduction table covers depths and move numbers below this; larger ones
// share its last row or column.
constexpr int ReductionTableSize = 64;

// Late move reduction: grows with the log of depth and of the move number.
int computed_reduction(int depth, int moves) {
    return int(tune::lmr_base / 100.0 + std::log(depth) * std::log(moves) * 100.0 / tune::lmr_divisor);
}

// A release build's parameters are constants: the reductions are tabled once. A
// tuning build computes them per call, so that a tuner's settings take effect.
int reduction(int depth, int moves) {
    depth = std::clamp(depth, 1, ReductionTableSize - 1);
    moves = std::clamp(moves, 1, ReductionTableSize - 1);
    if constexpr (TuningBuild) return computed_reduction(depth, moves);
    static const auto table = [] {
        std::array<std::array<int8_t, ReductionTableSize>, ReductionTableSize> t{};
        for (int d = 1; d < ReductionTableSize; ++d)
            for (int m = 1; m < ReductionTableSize; ++m) t[d][m] = int8_t(computed_reduction(d, m));
        return t;
    }();
    return table[depth][moves];
}

bool has_non_pawn_material(const Position& pos, Color c) {
    return pos.pieces(c) != (pos.pieces(c, Pawn) | pos.pieces(c, King));
}

// How a tablebase result scores in the search, `ply` plies from the root.
struct TbVerdict {
    Score score;
    Bound bound;
};

TbVerdict tb_verdict(syzygy::Wdl wdl, bool fifty_move_rule, int ply) {
    using syzygy::Wdl;
    switch (wdl) {
    case Wdl::Win: return {TbWin - ply, Bound::Lower};
    case Wdl::Loss: return {-TbWin + ply, Bound::Upper};
    case Wdl::Draw: return {0, Bound::Exact};
    // Without the rule these are plain wins and losses. With it they are draws,
    // scored one centipawn towards the result the rule takes away: of two draws,
    // the search prefers the one where the opponent can still go wrong.
    case Wdl::CursedWin: return fifty_move_rule ? TbVerdict{1, Bound::Exact} : TbVerdict{TbWin - ply, Bound::Lower};
    case Wdl::BlessedLoss: return fifty_move_rule ? TbVerdict{-1, Bound::Exact} : TbVerdict{-TbWin + ply, Bound::Upper};
    }
    return {0, Bound::Exact};
}

// The depth a probed bound is stored with: deeper than the node's search, since it
// is a proof, so the entry keeps answering as the next iterations (one ply deeper
// each) come back to the node. Not the maximal depth: in an ending full of
// probes, entries that never age out would crowd out the search's own, and an
// evicted proof costs only a probe to redo.
constexpr int TbProofDepthMargin = 4;

}  // namespace

// Pushes a move (or a null move) onto the worker's path for the lifetime of a child
// search: the child's key for repetitions and the move's changes for the accumulators.
struct PathGuard {
    Worker& worker;
    size_t saved_null_floor;
    PathGuard(Worker& w, const Position& before, Move m, Key child_key)
            : worker(w), saved_null_floor(w.null_move_floor_) {
        worker.keys_.push_back(child_key);
        worker.accumulators_.push(before, m);
    }
    // A null move: no position before it can repeat after it.
    PathGuard(Worker& w, Key child_key) : worker(w), saved_null_floor(w.null_move_floor_) {
        worker.keys_.push_back(child_key);
        worker.accumulators_.push_null();
        worker.null_move_floor_ = worker.keys_.size() - 1;
    }
    ~PathGuard() {
        worker.keys_.pop_back();
        worker.accumulators_.pop();
        worker.null_move_floor_ = saved_null_floor;
    }
    PathGuard(const PathGuard&) = delete;
    PathGuard& operator=(const PathGuard&) = delete;
};

Worker::Worker(int id, SharedSearch& shared) : id_(id), shared_(shared), root_(Position::startpos()) {}

bool Worker::is_draw(const Position& pos) const {
    if (pos.halfmove_clock() >= FiftyMoveHalfmoves) return !pos.in_check() || has_legal_move(pos);
    const size_t current = keys_.size() - 1;
    const size_t oldest = std::max(current - std::min<size_t>(pos.halfmove_clock(), current), null_move_floor_);
    return repeats_on_path(keys_, root_key_index_, oldest) || is_dead_position(pos);
}

Score Worker::evaluate(const Position& pos) {
    if (!shared_.network) return eval::evaluate(pos);
    // Far from mate scores whatever the net says: a static guess is never a mate.
    constexpr Score Limit = MateInMaxPly / 2;
    // An edge counts for less with little material left to convert it, and for less
    // as the fifty-move rule nears: the search then prefers lines that keep the game
    // winnable (captures, pawn moves) over shuffling at an equal score.
    constexpr int ScaleUnit = 1024;  // the material scale's fixed point
    const int material_scale =
        tune::eval_scale_base + tune::eval_scale_minor * popcount(pos.pieces(Knight) | pos.pieces(Bishop)) +
        tune::eval_scale_rook * popcount(pos.pieces(Rook)) + tune::eval_scale_queen * popcount(pos.pieces(Queen));
    const int64_t raw = accumulators_.evaluate(pos);
    const int64_t scaled = raw * material_scale / ScaleUnit *
                           (tune::eval_fifty_span - std::min(pos.halfmove_clock(), FiftyMoveHalfmoves)) /
                           tune::eval_fifty_span;
    return std::clamp(Score(scaled), -Limit, Limit);
}

bool Worker::enter_node() {
    // A node entered after the stop (by a re-search that did not look) is not
    // counted: the node limit stays exact after the first iteration.
    if (stopping()) return false;
    count_node();
    if (completed_depth_ == 0 && nodes() < FirstIterationNodes) return true;
    const SearchLimits& limits = shared_.limits;
    // The node limit is exact with one thread; with several, every thread sums all
    // counters every NodeSumInterval of its nodes (one descheduled thread cannot let
    // the others run on past the limit).
    if (limits.nodes) {
        const uint64_t searched = shared_.threads == 1                     ? nodes()
                                  : (nodes() & (NodeSumInterval - 1)) == 0 ? shared_.total_nodes()
                                                                           : 0;
        if (searched >= limits.nodes) {
            shared_.stop = true;
            return false;
        }
    }
    if (id_ != 0) return true;
    if ((nodes() & (ClockCheckInterval - 1)) == 0 && !shared_.pondering.load(std::memory_order_relaxed) &&
        shared_.budget.hard_ms != TimeBudget::Unlimited && shared_.elapsed_ms() >= shared_.budget.hard_ms) {
        shared_.stop = true;
        return false;
    }
    return true;
}

ContinuationContext Worker::continuation_context(int ply) const {
    return {ply >= 1 ? stack_[ply - 1].continuation : NoContinuation,
            ply >= 2 ? stack_[ply - 2].continuation : NoContinuation,
            ply >= 4 ? stack_[ply - 4].continuation : NoContinuation};
}

Score Worker::corrected_eval(const CorrectionHistory::Keys& keys, Score raw, int ply) const {
    constexpr Score Limit = MateInMaxPly / 2;
    return std::clamp(raw + corrections_.correction(keys, continuation_context(ply)), -Limit + 1, Limit - 1);
}

void Worker::update_pv(int ply, Move m) {
    pv_[ply][0] = m;
    const int child_length = ply + 1 <= MaxPly ? pv_length_[ply + 1] : 0;
    for (int i = 0; i < child_length; ++i) pv_[ply][i + 1] = pv_[ply + 1][i];
    pv_length_[ply] = child_length + 1;
}

template <bool PV>
Score Worker::negamax(const Position& pos, Score alpha, Score beta, int depth, int ply, bool cut_node) {
    const bool root = ply == 0;
    const bool in_check = pos.in_check();
    StackEntry& ss = stack_[ply];
    const Move excluded = ss.excluded;
    const bool singular_search = !excluded.is_null();
    if (PV) pv_length_[ply] = 0;

    // Step 1. At the horizon, resolve captures first.
    if (depth <= 0 && !in_check) return quiescence<PV>(pos, alpha, beta, ply);
    depth = std::max(depth, 1);

    // Step 2. Bookkeeping and the stop signal.
    if (!enter_node()) return 0;
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

    // The correction history's entries, loaded while the table is probed: they are
    // read at the static evaluation and updated at the end.
    const ContinuationContext context = continuation_context(ply);
    CorrectionHistory::Keys correction_keys{};
    if (!in_check && !singular_search) {
        correction_keys = CorrectionHistory::keys_of(pos);
        corrections_.prefetch(correction_keys, context);
    }

    // Step 5. Transposition table. A singular-extension search (one move excluded)
    // neither takes its cutoffs nor stores its result: the entry is the full node's.
    TTData tt;
    const bool tt_hit = !singular_search && shared_.tt.probe(pos.key(), ply, tt);
    const Move tt_move = root ? root_moves_[pv_index_].move : (tt_hit ? tt.move : Move());
    // A singular-extension search is the same node: it keeps the node's flag.
    const bool tt_pv = singular_search ? ss.tt_pv : PV || (tt_hit && tt.pv);
    ss.tt_pv = tt_pv;
    if (!PV && tt_hit && tt.depth >= depth && tt.score != NoScore &&
        (tt.bound == Bound::Exact || (tt.bound == Bound::Lower && tt.score >= beta) ||
         (tt.bound == Bound::Upper && tt.score <= alpha)) &&
        pos.halfmove_clock() < tune::tt_cutoff_halfmove_limit) {
        // A quiet hash move that beats beta here is rewarded as if it had cut off
        // in a search: the ordering of the siblings learns from the table too.
        if (tt.score >= beta && !tt_move.is_null() && !pos.is_noisy(tt_move) && is_legal(pos, tt_move))
            history_.update_quiet(pos.side_to_move(), tt_move, threats_against_side_to_move(pos).any,
                                  continuation_index(pos.piece_on(tt_move.from()), tt_move.to()), context,
                                  History::bonus(depth));
        return tt.score;
    }
    // The hash move is searched first: fetch its child's entry during the static
    // evaluation and the pruning steps.
    if (!tt_move.is_null() && is_legal(pos, tt_move)) shared_.tt.prefetch(pos.key_after(tt_move));

    // Step 5a. Tablebases. Probed only where the counter has just been reset (the
    // WDL tables assume a counter of zero) and castling is gone, within the probe
    // limit; at the limit itself only with depth SyzygyProbeDepth or more left.
    // A proven win is a lower bound scored below every mate (the search may still
    // find the mate itself); a proven loss the mirrored upper bound; a draw exact.
    Score tb_floor = -Infinite, tb_ceiling = Infinite;
    if (!root && !singular_search && shared_.tb_cardinality && pos.halfmove_clock() == 0 && !pos.castling_rights()) {
        const int pieces = popcount(pos.occupied());
        const bool within_limit =
            pieces < shared_.tb_cardinality || (pieces == shared_.tb_cardinality && depth >= shared_.tb_probe_depth);
        const std::optional<syzygy::Wdl> wdl =
            within_limit ? syzygy::probe_wdl(*shared_.tablebases, pos) : std::nullopt;
        if (wdl) {
            tb_hits_.store(tb_hits_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
            const TbVerdict verdict = tb_verdict(*wdl, shared_.tb_fifty_move_rule, ply);
            const bool settles = verdict.bound == Bound::Exact ||
                                 (verdict.bound == Bound::Lower ? verdict.score >= beta : verdict.score <= alpha);
            if (settles) {
                shared_.tt.store(pos.key(), ply, Move(), verdict.score, NoScore,
                                 std::min(MaxPly - 1, depth + TbProofDepthMargin), verdict.bound, tt_pv);
                return verdict.score;
            }
            // Only a PV node gets here with a bound that settles nothing: it searches
            // on for an exact score, kept within the proven bound (the clamp after
            // the move loop).
            if (PV && verdict.bound == Bound::Lower) {
                tb_floor = verdict.score;
                alpha = std::max(alpha, verdict.score);
            } else if (PV) {
                tb_ceiling = verdict.score;
            }
        }
    }

    // Step 6. Static evaluation (corrected by the correction history), a better
    // estimate from the table where its bound allows, and whether it improved over
    // our previous move.
    Score raw_eval = NoScore, eval = NoScore;
    if (in_check) {
        ss.static_eval = NoScore;
    } else if (singular_search) {
        eval = ss.static_eval;  // the same node: already evaluated
    } else {
        raw_eval = tt_hit && tt.eval != NoScore ? tt.eval : evaluate(pos);
        ss.static_eval = eval = corrected_eval(correction_keys, raw_eval, ply);
        if (tt_hit && tt.score != NoScore && !is_decisive(tt.score) &&
            (tt.bound == Bound::Exact || (tt.bound == Bound::Lower && tt.score > eval) ||
             (tt.bound == Bound::Upper && tt.score < eval)))
            eval = tt.score;
    }
    // Improving: better than our last static evaluation, two plies back, or four
    // when we were in check then (no static evaluation).
    const Score earlier_eval = ply >= 2 && stack_[ply - 2].static_eval != NoScore ? stack_[ply - 2].static_eval
                               : ply >= 4                                         ? stack_[ply - 4].static_eval
                                                                                  : NoScore;
    const bool improving = !in_check && earlier_eval != NoScore && ss.static_eval > earlier_eval;
    // What the opponent's last move cost its side by static evaluation: the sum of
    // the two evaluations, each from its own side (known only when both exist).
    const bool prior_cost_known = !in_check && !singular_search && !root && stack_[ply - 1].static_eval != NoScore;
    const int prior_move_cost = prior_cost_known ? ss.static_eval + stack_[ply - 1].static_eval : 0;
    // Step 6a. Hindsight: the parent reduced the move that led here. If it cost
    // nothing, a large reduction was too much: search a ply deeper. If it cost much,
    // the reduction was right and the move is worth less still: a ply less.
    const int prior_reduction = prior_cost_known ? stack_[ply - 1].reduction : 0;
    if (prior_reduction > 0) {
        if (prior_reduction >= tune::hindsight_deeper_reduction && prior_move_cost <= tune::hindsight_free_margin)
            ++depth;
        else if (prior_reduction >= tune::hindsight_shallower_reduction && depth >= 2 &&
                 prior_move_cost > tune::hindsight_cost_margin)
            --depth;
    }
    // The opponent's last quiet move is judged by what it did to the evaluation.
    if (prior_cost_known && stack_[ply - 1].quiet_move) {
        const int bonus = std::clamp(-tune::eval_change_bonus_mult * prior_move_cost / 8, -tune::eval_change_bonus_max,
                                     tune::eval_change_bonus_max);
        history_.update_butterfly(~pos.side_to_move(), stack_[ply - 1].move, stack_[ply - 1].threats, bonus);
    }
    history_.clear_killers(ply + 1);
    stack_[ply + 1].excluded = Move();
    stack_[ply + 1].double_extensions = ss.double_extensions;

    if (!PV && !in_check && !singular_search) {
        // Step 7. Razoring: far below alpha at low depth, only captures can help (not
        // against a mate score: a quiet mating move is what is needed there).
        if (depth <= tune::razor_depth && !is_decisive(alpha) && eval + tune::razor_margin * depth <= alpha) {
            const Score score = quiescence<false>(pos, alpha, alpha + 1, ply);
            if (score <= alpha) return score;
        }

        // Step 8. Reverse futility pruning: far above beta at low depth, stop here,
        // returning a score halfway to beta (the margin says the eval is a guess; a
        // fail-high by the whole margin overstates what is known).
        if (depth <= tune::rfp_depth && !is_decisive(beta) && eval - tune::rfp_margin * (depth - improving) >= beta)
            return (eval + beta) / 2;

        // Step 9. Null move pruning: if passing still beats beta, a real move will too
        // (not in pawn endgames, where zugzwang is common). At high depth a success is
        // verified by a reduced search without null moves near its top, so that
        // zugzwang positions with pieces are not pruned away. Not against a mate or
        // tablebase bound: a reduced search cannot see the proof it would refute.
        if (!root && depth >= tune::nmp_min_depth && !is_decisive(beta) && eval >= beta && ss.static_eval >= beta &&
            !stack_[ply - 1].null_move && ply >= nmp_min_ply_ && has_non_pawn_material(pos, pos.side_to_move())) {
            const int r = tune::nmp_base_reduction + depth / tune::nmp_depth_divisor +
                          std::min((eval - beta) / tune::nmp_eval_divisor, tune::nmp_eval_reduction_max);
            const Position child = pos.apply_null_move();
            ss.null_move = true;
            ss.quiet_move = false;
            ss.move = Move();
            ss.continuation = NoContinuation;
            Score score;
            {
                PathGuard guard(*this, child.key());
                score = -negamax<false>(child, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
            }
            ss.null_move = false;
            if (stopping()) return 0;
            if (score >= beta) {
                if (is_decisive(score)) score = beta;
                if (nmp_min_ply_ || depth < tune::nmp_verify_depth) return score;
                nmp_min_ply_ = ply + tune::nmp_verify_ply_share * (depth - r) / 16;
                const Score verified = negamax<false>(pos, beta - 1, beta, depth - r, ply, false);
                nmp_min_ply_ = 0;
                if (verified >= beta) return score;
            }
        }

        // Step 10. ProbCut: a capture that beats beta by a margin in a reduced search
        // will very likely beat beta in the full one. The node's result then has the
        // depth of that search plus the capture's ply.
        const Score probcut_beta = beta + tune::probcut_margin;
        const int probcut_search_depth = depth - tune::probcut_reduction;
        if (!root && depth >= tune::probcut_depth && !is_decisive(beta) &&
            !(tt_hit && tt.depth >= probcut_search_depth + 1 && tt.score != NoScore && tt.score < probcut_beta)) {
            MovePicker picker(pos, tt_move, history_);
            for (Move m = picker.next(); !m.is_null(); m = picker.next()) {
                if (!see_ge(pos, m, probcut_beta - ss.static_eval)) continue;
                shared_.tt.prefetch(pos.key_after(m));
                const Position child = pos.apply(m);
                ss.move = m;
                ss.quiet_move = false;
                ss.continuation = continuation_index(pos.piece_on(m.from()), m.to());
                Score score;
                {
                    PathGuard guard(*this, pos, m, child.key());
                    score = -quiescence<false>(child, -probcut_beta, -probcut_beta + 1, ply + 1);
                    if (score >= probcut_beta)
                        score = -negamax<false>(child, -probcut_beta, -probcut_beta + 1, probcut_search_depth, ply + 1,
                                                !cut_node);
                }
                if (stopping()) return 0;
                if (score >= probcut_beta) {
                    shared_.tt.store(pos.key(), ply, m, score, raw_eval, probcut_search_depth + 1, Bound::Lower, tt_pv);
                    return score;
                }
            }
        }
    }

    // Step 11. Internal iterative reduction: without a hash move, ordering is poor
    // and a shallower search is nearly as good (not in a singular-extension search,
    // which has no hash move because it skips the table, not for want of one).
    if (depth >= tune::iir_min_depth && tt_move.is_null() && (PV || cut_node) && !singular_search) --depth;

    // Step 12. The move loop.
    const Threats threats = threats_against_side_to_move(pos);
    ss.threats = threats.any;
    MovePicker picker(pos, tt_move, history_, ply, threats, context);
    const Score original_alpha = alpha;
    Score best = -Infinite;
    Move best_move;
    int moves = 0;
    StaticVector<Move, 64> quiets_tried, noisy_tried;
    bool skip_quiets = false;
    const Position::CheckSquares check_squares = pos.check_squares();
    // A capture or promotion as hash move: the quiet moves are less likely to matter.
    const bool noisy_tt_move = !tt_move.is_null() && pos.is_noisy(tt_move);

    for (Move m = picker.next(); !m.is_null(); m = picker.next()) {
        if (m == excluded) continue;
        if (root) {
            const auto end = root_moves_.begin() + long(pv_last_);
            const auto it = std::find_if(root_moves_.begin() + long(pv_index_), end,
                                         [m](const RootMove& rm) { return rm.move == m; });
            if (it == end) continue;
        }
        const bool quiet = !pos.is_noisy(m);
        const bool gives_check = pos.gives_check(m, check_squares);
        // A check is not skipped with the other quiet moves (it may mate): step 13
        // judges it on its own terms.
        if (quiet && skip_quiets && !gives_check) continue;
        // The child's TT entry is fetched from memory while this move is considered
        // (a pruned move wastes a fetch; one that comes late stalls the child's probe).
        shared_.tt.prefetch(pos.key_after(m));
        ++moves;
        if (root && id_ == 0 && shared_.on_current_move && shared_.elapsed_ms() > CurrentMoveDelayMs)
            shared_.on_current_move(m, moves + int(pv_index_), depth);

        const ContinuationIndex current = continuation_index(pos.piece_on(m.from()), m.to());
        const int history = quiet ? history_.quiet_score(pos.side_to_move(), m, threats.any, current, context)
                                  : history_.capture(pos.piece_on(m.from()), m.to(), captured_type(pos, m));

        // Step 13. Shallow-depth pruning, once a move has escaped a mate or tablebase loss.
        if (!root && best > -TbWinInMaxPly) {
            const bool late_move = depth <= tune::lmp_max_depth &&
                                   moves > (tune::lmp_base + depth * depth) *
                                               (improving ? tune::lmp_improving : tune::lmp_not_improving) / 100;
            if (gives_check) {
                // A check is pruned only when it comes late among the quiet moves, or
                // loses material by as much as a capture would need to, and never when it
                // mates: counting the replies costs far less than the search it saves,
                // and a mate in one must not be missed at any depth.
                const bool prunable = (quiet && late_move) || (depth <= tune::see_noisy_depth &&
                                                               !see_ge(pos, m, -tune::see_noisy_margin * depth));
                if (prunable && has_legal_move(pos.apply(m))) continue;
            } else if (quiet) {
                // Late move pruning: at low depth, late quiet moves rarely matter.
                if (late_move) {
                    skip_quiets = true;
                    continue;
                }
                // The depth this move would be searched at after late move reduction:
                // futility and SEE pruning judge the move at that depth.
                const int lmr_depth =
                    std::max(depth - 1 - reduction(depth, moves) + history / tune::lmr_history_divisor, 0);
                // Futility pruning: even a good quiet move will not reach alpha.
                if (!in_check && lmr_depth <= tune::futility_depth &&
                    eval + tune::futility_base + tune::futility_per_depth * lmr_depth <= alpha) {
                    skip_quiets = true;
                    continue;
                }
                // History pruning: a quiet move that has failed everywhere lately.
                if (depth <= tune::history_prune_depth && history < -tune::history_prune_margin * depth) continue;
                if (lmr_depth <= tune::see_quiet_depth && !see_ge(pos, m, -tune::see_quiet_margin * lmr_depth))
                    continue;
            } else {
                // Capture futility: even winning the captured piece (and what the capture
                // history expects beyond it) leaves this node below alpha.
                if (!in_check && depth <= tune::capture_futility_depth && m.kind() != Move::Promotion &&
                    eval + eval::PieceValue[captured_type(pos, m)] + tune::capture_futility_base +
                            tune::capture_futility_per_depth * depth +
                            history / tune::capture_futility_history_divisor <=
                        alpha)
                    continue;
                if (depth <= tune::see_noisy_depth && !see_ge(pos, m, -tune::see_noisy_margin * depth)) continue;
            }
        }

        // Step 14. Extensions. Singular extension: when the hash move is much better
        // than every other move (a search without it fails low by a margin), search it
        // deeper; twice deeper when far better. If the others also beat beta, this
        // node beats it anyway (multi-cut); if the hash move only looked good, search
        // it shallower.
        int extension = 0;
        const bool may_extend = ply < MaxExtendedPlyFactor * root_depth_;
        if (!root && m == tt_move && !singular_search && depth >= tune::singular_depth &&
            tt.depth >= depth - tune::singular_tt_depth_margin && tt.bound != Bound::Upper && tt.score != NoScore &&
            !is_decisive(tt.score) && may_extend) {
            const Score singular_beta = tt.score - depth * tune::singular_beta_margin / 16;
            ss.excluded = m;
            const Score score = negamax<false>(pos, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
            ss.excluded = Move();
            if (stopping()) return 0;
            if (score < singular_beta) {
                extension = 1;
                if (!PV && score < singular_beta - tune::singular_double_margin &&
                    ss.double_extensions < tune::singular_double_limit)
                    extension = 2;
            } else if (singular_beta >= beta) {
                return singular_beta;
            } else if (tt.score >= beta) {
                extension = -2;
            } else if (cut_node) {
                extension = -1;
            }
        } else if (gives_check && may_extend) {
            extension = 1;
        }
        stack_[ply + 1].double_extensions = ss.double_extensions + (extension >= 2);
        const int new_depth = depth - 1 + extension;

        // Made only now: most pruned moves never are.
        const Position child = pos.apply(m);
        ss.move = m;
        ss.quiet_move = quiet;
        ss.continuation = current;

        Score score;
        // A child searched only with a null window leaves no PV: make sure a stale
        // one from an earlier sibling cannot be copied.
        if (PV) pv_length_[ply + 1] = 0;
        const uint64_t nodes_before = nodes();
        {
            PathGuard guard(*this, pos, m, child.key());
            // Step 15. Late move reductions, then principal variation search.
            if (depth >= tune::lmr_min_depth && moves > 1 + int(root) && (quiet || picker.last_was_bad_noisy())) {
                int r = reduction(depth, moves);
                r -= PV;
                r -= tt_pv && !PV;
                r += !improving;
                r += cut_node ? tune::lmr_cut_node : 0;
                r -= gives_check;
                r -= history / tune::lmr_history_divisor;
                r += quiet && noisy_tt_move;
                r -= picker.last_was_refutation();
                r = std::clamp(r, 0, std::max(new_depth - 1, 0));
                ss.reduction = r;
                score = -negamax<false>(child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                ss.reduction = 0;
                if (score > alpha && r > 0) {
                    // The re-search goes a ply deeper when the reduced one beat the best
                    // score by far, a ply shallower when it barely did (and not at all
                    // when that is no deeper than the reduced search was).
                    const int research_depth = new_depth + (score > best + tune::lmr_deeper_margin) -
                                               (score < best + tune::lmr_shallower_margin);
                    if (research_depth > new_depth - r) {
                        score = -negamax<false>(child, -alpha - 1, -alpha, research_depth, ply + 1, !cut_node);
                        // The re-search's verdict teaches the continuation history at once.
                        if (quiet && !stopping()) {
                            const int bonus = History::bonus(research_depth);
                            history_.update_continuation(current, context, score > alpha ? bonus : -bonus);
                        }
                    }
                }
            } else if (!PV || moves > 1) {
                score = -negamax<false>(child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                score = alpha + 1;  // the first move of a PV node goes straight to a full window
            }
            if (PV && (moves == 1 || (score > alpha && (root || score < beta))))
                score = -negamax<true>(child, -beta, -alpha, new_depth, ply + 1, false);
        }
        if (stopping()) return 0;

        if (root) {
            RootMove& rm =
                *std::find_if(root_moves_.begin(), root_moves_.end(), [m](const RootMove& r) { return r.move == m; });
            rm.nodes += nodes() - nodes_before;
            if (moves == 1 || score > alpha) {
                rm.score = score;
                rm.line_depth = root_depth_;
                rm.line_score = score;
                rm.line_bound = score >= beta ? BoundKind::Lower : score <= alpha ? BoundKind::Upper : BoundKind::Exact;
                rm.seldepth = seldepth_;
                rm.pv.clear();
                rm.pv.push_back(m);
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
                // A move has raised alpha: the rest are searched shallower (by
                // alpha_raise_reduction plies), since they now have to beat a real
                // score (not at the root, whose iterations keep their depth; the
                // node's result is stored at the depth it ends with).
                if (!root && depth >= tune::alpha_raise_min_depth && depth <= tune::alpha_raise_max_depth &&
                    !is_decisive(score))
                    depth -= tune::alpha_raise_reduction;
            }
        }
        if (m != best_move) {
            auto& tried = quiet ? quiets_tried : noisy_tried;
            if (tried.size() < tried.capacity()) tried.push_back(m);
        }
    }

    // Step 16. No legal move: checkmate or stalemate (or, in a singular-extension
    // search, the hash move was the only one).
    if (moves == 0) {
        if (singular_search) return alpha;
        if (root) return -Infinite;  // every root move was excluded (cannot happen for legal roots)
        return in_check ? mated_in(ply) : 0;
    }

    // Step 17. The move that caused a cutoff is rewarded in its history; the moves
    // tried before it are marked down (quiet ones only when a quiet move cut off).
    if (best >= beta && !best_move.is_null()) {
        const int bonus = History::bonus(depth);
        const bool quiet_best = !pos.is_noisy(best_move);
        if (quiet_best) {
            const Color us = pos.side_to_move();
            history_.update_quiet(us, best_move, threats.any,
                                  continuation_index(pos.piece_on(best_move.from()), best_move.to()), context, bonus);
            for (Move q : quiets_tried)
                history_.update_quiet(us, q, threats.any, continuation_index(pos.piece_on(q.from()), q.to()), context,
                                      -bonus);
            history_.add_killer(ply, best_move);
            if (ply >= 1) history_.set_counter(stack_[ply - 1].continuation, best_move);
        } else {
            history_.update_capture(pos.piece_on(best_move.from()), best_move.to(), captured_type(pos, best_move),
                                    bonus);
        }
        for (Move n : noisy_tried)
            history_.update_capture(pos.piece_on(n.from()), n.to(), captured_type(pos, n), -bonus);
    }

    // Step 17a. A fail low here is a cutoff for the opponent's last move: a quiet
    // one is rewarded as if it had cut off in a search.
    if (best <= original_alpha && !singular_search && ply >= 1 && stack_[ply - 1].quiet_move)
        history_.update_quiet(~pos.side_to_move(), stack_[ply - 1].move, stack_[ply - 1].threats,
                              stack_[ply - 1].continuation, continuation_context(ply - 1), History::bonus(depth));
    // A fail high outside the principal variation is a bound found by a null-window
    // search: pulled toward beta, more so at low depth, it overstates less.
    if (!PV && best >= beta && !is_decisive(best) && !is_decisive(beta)) best = (best * depth + beta) / (depth + 1);

    Bound bound = best >= beta ? Bound::Lower : best > original_alpha ? Bound::Exact : Bound::Upper;
    // A PV node that probed a win or a loss searched on inside the proven bound
    // (Step 5a). A result outside it is replaced by the bound, which is then all
    // that is known: the search did not look far enough to see the proof.
    if (best < tb_floor || best > tb_ceiling) {
        const bool under_floor = best < tb_floor;
        best = under_floor ? tb_floor : tb_ceiling;
        bound = under_floor ? Bound::Lower : Bound::Upper;
    }
    if (!singular_search) {
        // Step 18. Teach the correction history how far the static evaluation was
        // from the result, where the result is informative: a quiet (or no) best
        // move, and a bound on the side that disagrees with the evaluation.
        const bool noisy_best = !best_move.is_null() && pos.is_noisy(best_move);
        if (!in_check && !noisy_best && !(bound == Bound::Lower && best <= ss.static_eval) &&
            !(bound == Bound::Upper && best >= ss.static_eval))
            corrections_.update(correction_keys, context, best - ss.static_eval, depth);

        // Step 19. Store the result (not for secondary MultiPV lines, which exclude moves).
        if (!(root && pv_index_ > 0)) shared_.tt.store(pos.key(), ply, best_move, best, raw_eval, depth, bound, tt_pv);
    }
    return best;
}

template <bool PV>
Score Worker::quiescence(const Position& pos, Score alpha, Score beta, int ply) {
    if (PV) pv_length_[ply] = 0;
    if (!enter_node()) return 0;
    seldepth_ = std::max(seldepth_, ply + 1);
    if (is_draw(pos)) return 0;
    const bool in_check = pos.in_check();
    if (ply >= MaxPly - 1) return in_check ? 0 : evaluate(pos);

    CorrectionHistory::Keys correction_keys{};
    if (!in_check) {
        correction_keys = CorrectionHistory::keys_of(pos);
        corrections_.prefetch(correction_keys, continuation_context(ply));
    }
    TTData tt;
    const bool tt_hit = shared_.tt.probe(pos.key(), ply, tt);
    const bool tt_pv = PV || (tt_hit && tt.pv);
    if (!PV && tt_hit && tt.score != NoScore &&
        (tt.bound == Bound::Exact || (tt.bound == Bound::Lower && tt.score >= beta) ||
         (tt.bound == Bound::Upper && tt.score <= alpha)))
        return tt.score;
    if (tt_hit && !tt.move.is_null() && is_legal(pos, tt.move)) shared_.tt.prefetch(pos.key_after(tt.move));

    // Stand pat: out of check, the side to move may decline every capture.
    Score best = -Infinite;
    Score raw_eval = NoScore, eval = NoScore;
    if (!in_check) {
        raw_eval = tt_hit && tt.eval != NoScore ? tt.eval : evaluate(pos);
        eval = corrected_eval(correction_keys, raw_eval, ply);
        best = eval;
        if (tt_hit && tt.score != NoScore && !is_decisive(tt.score) &&
            (tt.bound == Bound::Exact || (tt.bound == Bound::Lower && tt.score > eval) ||
             (tt.bound == Bound::Upper && tt.score < eval)))
            best = tt.score;
        // Standing pat beats beta: halfway between, since the eval is only a guess.
        if (best >= beta) return is_decisive(best) || is_decisive(beta) ? best : (best + beta) / 2;
        alpha = std::max(alpha, best);
    }

    MovePicker picker(pos, tt_hit ? tt.move : Move(), history_);
    const Score futility_base = in_check ? -Infinite : eval + tune::qs_futility_margin;
    Move best_move;
    int moves = 0;
    const Score original_alpha = alpha;
    for (Move m = picker.next(); !m.is_null(); m = picker.next()) {
        ++moves;
        // Delta pruning: even winning the captured piece outright leaves us below alpha.
        if (!in_check && m.kind() != Move::Promotion) {
            const PieceType victim = captured_type(pos, m);
            if (eval + eval::PieceValue[victim] + tune::qs_delta_margin <= alpha) continue;
            // Futility: well below alpha, a capture that wins nothing by SEE will not get there.
            if (futility_base <= alpha && !see_ge(pos, m, 1)) {
                best = std::max(best, futility_base);
                continue;
            }
        }
        shared_.tt.prefetch(pos.key_after(m));
        const Position child = pos.apply(m);
        stack_[ply].move = m;
        stack_[ply].continuation = continuation_index(pos.piece_on(m.from()), m.to());
        Score score;
        if (PV) pv_length_[ply + 1] = 0;
        {
            PathGuard guard(*this, pos, m, child.key());
            score = -quiescence<PV>(child, -beta, -alpha, ply + 1);
        }
        if (stopping()) return 0;
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
    if (best > beta && !is_decisive(best) && !is_decisive(beta)) best = (best + beta) / 2;

    const Bound bound = best >= beta ? Bound::Lower : best > original_alpha ? Bound::Exact : Bound::Upper;
    shared_.tt.store(pos.key(), ply, best_move, best, raw_eval, 0, bound, tt_pv);
    return best;
}

template Score Worker::negamax<true>(const Position&, Score, Score, int, int, bool);
template Score Worker::negamax<false>(const Position&, Score, Score, int, int, bool);

}  // namespace arbiter::search

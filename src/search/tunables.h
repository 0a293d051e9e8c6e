#pragma once
// The list of search parameters: X(name, default, min, max, SPSA step). Read through
// search/tunable.h, which turns each into a constant (release) or a variable (tuning
// build). Units are given where they are not centipawns; depths and reductions are
// in plies.
//
// Ranges and steps are set for a long SPSA run: the range is what the parameter could
// sensibly be (and keeps the search sound at either end: no depth gate below what its
// code needs, no time share that could lose on time), the step (the run's final
// perturbation, `c_end`) about a twentieth of it. A parameter that counts plies has a
// range of a few plies and a step of one: nothing finer exists.

#define ARBITER_SEARCH_TUNABLES(X)                                                          \
    /* Iterative deepening: aspiration windows from this depth on; after a fail the     */  \
    /* window's delta grows by growth percent of itself plus growth_add                 */  \
    X(aspiration_delta, 17, 5, 60, 3)                                                       \
    X(aspiration_min_depth, 4, 2, 8, 1)                                                     \
    X(aspiration_growth, 52, 20, 120, 5)                                                    \
    X(aspiration_growth_add, 5, 0, 20, 1)                                                   \
    /* Lazy SMP: helper threads skip the depths above skip_after_depth where            */  \
    /* depth + thread id is a multiple of skip_cycle                                    */  \
    X(smp_skip_after_depth, 2, 1, 6, 1)                                                     \
    X(smp_skip_cycle, 3, 2, 6, 1)                                                           \
    /* Lazy SMP: a helper's vote for the move to play in percent of thread 0's (0: no   */  \
    /* vote, thread 0 decides), and the margin added to each score (thread_vote.h)      */  \
    X(smp_helper_vote, 0, 0, 200, 10)                                                       \
    X(smp_vote_margin, 20, 1, 100, 5)                                                       \
    /* Late move reductions: base and divisor (hundredths) of the log-log table */          \
    X(lmr_base, 83, 0, 200, 10)                                                             \
    X(lmr_divisor, 230, 150, 400, 15)                                                       \
    X(lmr_history_divisor, 7954, 4096, 16384, 600)                                          \
    /* LMR from this depth on; a node expected to fail high reduces this much more */       \
    X(lmr_min_depth, 3, 2, 6, 1)                                                            \
    X(lmr_cut_node, 2, 0, 4, 1)                                                             \
    /* LMR re-search one ply deeper / shallower by the reduced search's margin over best */ \
    X(lmr_deeper_margin, 42, 10, 120, 6)                                                    \
    X(lmr_shallower_margin, 13, 0, 40, 3)                                                   \
    /* Transposition table cutoffs only below this half-move clock: nearer the fifty-   */  \
    /* move rule, a stored score may not know the draw that is coming                   */  \
    X(tt_cutoff_halfmove_limit, 90, 60, 100, 2)                                             \
    /* Razoring, reverse futility and null move pruning */                                  \
    X(razor_depth, 3, 1, 6, 1)                                                              \
    X(razor_margin, 254, 100, 500, 20)                                                      \
    X(rfp_depth, 8, 4, 12, 1)                                                               \
    X(rfp_margin, 85, 40, 150, 6)                                                           \
    /* Null move: from min_depth; reduction base + depth / depth_divisor + (eval -      */  \
    /* beta) / eval_divisor, the last term at most eval_reduction_max; verified from    */  \
    /* verify_depth, with null moves off for verify_ply_share sixteenths of its depth   */  \
    X(nmp_min_depth, 3, 1, 6, 1)                                                            \
    X(nmp_base_reduction, 3, 2, 5, 1)                                                       \
    X(nmp_depth_divisor, 4, 2, 6, 1)                                                        \
    X(nmp_eval_divisor, 205, 100, 400, 15)                                                  \
    X(nmp_eval_reduction_max, 3, 1, 6, 1)                                                   \
    X(nmp_verify_depth, 12, 8, 20, 1)                                                       \
    X(nmp_verify_ply_share, 12, 6, 16, 1)                                                   \
    /* Hindsight: a reduced move that cost its side this much by static evaluation      */  \
    /* has its node searched a ply shallower (when reduced by shallower_reduction or    */  \
    /* more), one that cost at most free_margin a ply deeper (deeper_reduction or more) */  \
    X(hindsight_cost_margin, 176, 50, 400, 15)                                              \
    X(hindsight_free_margin, 0, -100, 100, 10)                                              \
    X(hindsight_deeper_reduction, 3, 1, 6, 1)                                               \
    X(hindsight_shallower_reduction, 2, 1, 6, 1)                                            \
    /* Once a move raises alpha (not at the root), the rest are searched this many      */  \
    /* plies shallower at depths min to max                                             */  \
    X(alpha_raise_reduction, 2, 1, 2, 1)                                                    \
    X(alpha_raise_min_depth, 3, 3, 6, 1)                                                    \
    X(alpha_raise_max_depth, 13, 6, 20, 1)                                                  \
    /* ProbCut: from probcut_depth, captures searched probcut_reduction plies shallower */  \
    X(probcut_depth, 5, 3, 8, 1)                                                            \
    X(probcut_margin, 196, 100, 350, 15)                                                    \
    X(probcut_reduction, 4, 2, 6, 1)                                                        \
    /* Internal iterative reduction from this depth on */                                   \
    X(iir_min_depth, 4, 2, 8, 1)                                                            \
    /* Late move pruning up to lmp_max_depth: (lmp_base + depth^2) quiet moves, scaled  */  \
    /* by lmp_improving or lmp_not_improving percent                                    */  \
    X(lmp_base, 3, 1, 6, 1)                                                                 \
    X(lmp_max_depth, 8, 4, 14, 1)                                                           \
    X(lmp_improving, 103, 60, 200, 7)                                                       \
    X(lmp_not_improving, 56, 25, 100, 4)                                                    \
    /* Move-loop pruning: futility, SEE (quiet moves up to see_quiet_depth of LMR       */  \
    /* depth, captures and checks up to see_noisy_depth), history                       */  \
    X(futility_depth, 6, 3, 10, 1)                                                          \
    X(futility_base, 96, 40, 200, 10)                                                       \
    X(futility_per_depth, 82, 40, 160, 8)                                                   \
    X(see_quiet_depth, 7, 3, 12, 1)                                                         \
    X(see_quiet_margin, 58, 20, 120, 6)                                                     \
    X(see_noisy_depth, 6, 3, 10, 1)                                                         \
    X(see_noisy_margin, 101, 40, 160, 8)                                                    \
    X(history_prune_depth, 4, 1, 8, 1)                                                      \
    X(history_prune_margin, 3016, 500, 8000, 375)                                           \
    /* Capture futility: victim + base + per_depth * depth + capture history / divisor */   \
    X(capture_futility_depth, 6, 3, 10, 1)                                                  \
    X(capture_futility_base, 167, 60, 400, 15)                                              \
    X(capture_futility_per_depth, 155, 60, 300, 10)                                         \
    X(capture_futility_history_divisor, 17, 4, 64, 3)                                       \
    /* Singular extensions (beta margin in sixteenths of a centipawn per depth), when   */  \
    /* the hash entry is at most tt_depth_margin plies shallower than the node          */  \
    X(singular_depth, 7, 5, 10, 1)                                                          \
    X(singular_tt_depth_margin, 3, 1, 6, 1)                                                 \
    X(singular_beta_margin, 24, 8, 48, 2)                                                   \
    X(singular_double_margin, 23, 5, 50, 3)                                                 \
    X(singular_double_limit, 6, 2, 12, 1)                                                   \
    /* History bonus: mult * depth - offset, capped */                                      \
    X(history_bonus_mult, 176, 50, 400, 15)                                                 \
    X(history_bonus_offset, 47, 0, 300, 15)                                                 \
    X(history_bonus_max, 1498, 600, 3000, 120)                                              \
    /* The opponent's quiet move: mult / 8 times the eval change it made, capped       */   \
    X(eval_change_bonus_mult, 69, 0, 200, 8)                                                \
    X(eval_change_bonus_max, 1082, 200, 3000, 140)                                          \
    /* Correction history weights (128 = the table's value counted once) */                 \
    X(corr_pawn_weight, 79, 0, 256, 12)                                                     \
    X(corr_non_pawn_weight, 25, 0, 256, 12)                                                 \
    X(corr_continuation_weight, 61, 0, 256, 12)                                             \
    /* Quiescence delta and futility pruning */                                             \
    X(qs_delta_margin, 287, 50, 400, 20)                                                    \
    X(qs_futility_margin, 136, 50, 300, 15)                                                 \
    /* The net's eval scaled by (base + the weights of the knights, bishops (minor),    */  \
    /* rooks and queens on the board) / 1024 (991 at the start), then by (fifty_span    */  \
    /* - half-move clock) / fifty_span: half of it at the fifty-move limit              */  \
    X(eval_scale_base, 767, 600, 1024, 20)                                                  \
    X(eval_scale_minor, 11, 0, 32, 2)                                                       \
    X(eval_scale_rook, 18, 0, 48, 3)                                                        \
    X(eval_scale_queen, 32, 0, 80, 4)                                                       \
    X(eval_fifty_span, 200, 100, 600, 25)                                                   \
    /* Move ordering: captures by the victim's value (plus a promotion's piece) times   */  \
    /* mvv_mult, plus capture history / capture_history_divisor; a capture counts as    */  \
    /* good while SEE loses at most its capture history / good_capture_history_divisor. */  \
    /* A quiet move that escapes (+) or walks into (-) a threat to a queen, rook or     */  \
    /* minor piece gets that piece's threat bonus                                       */  \
    X(picker_mvv_mult, 8, 2, 20, 1)                                                         \
    X(picker_capture_history_divisor, 8, 2, 32, 1)                                          \
    X(picker_good_capture_history_divisor, 58, 16, 256, 12)                                 \
    X(picker_threat_queen, 16517, 4096, 32768, 1400)                                        \
    X(picker_threat_rook, 12665, 2048, 24576, 1100)                                         \
    X(picker_threat_minor, 8065, 1024, 16384, 750)                                          \
    /* Time: the share of the time pool one move gets in sudden death, in 10000ths:    */   \
    /* base + growth * sqrt(game ply) (250 + 12: 1/40 at ply 0, 1/25 at ply 144),       */  \
    /* planned over horizon_min to horizon_max moves (horizon_max also caps movestogo)  */  \
    X(tm_share_base, 250, 200, 800, 25)                                                     \
    X(tm_share_growth, 12, 0, 60, 3)                                                        \
    X(tm_horizon_min, 5, 2, 15, 1)                                                          \
    X(tm_horizon_max, 50, 20, 80, 3)                                                        \
    /* Hard limit, in percent of the time left: last_move_hard on the last move before  */  \
    /* a control, else the smaller of hard_soft_ratio percent of the soft limit and     */  \
    /* hard_share; never above hard_max                                                 */  \
    X(tm_last_move_hard, 60, 30, 85, 3)                                                     \
    X(tm_hard_soft_ratio, 400, 150, 800, 30)                                                \
    X(tm_hard_share, 25, 10, 50, 2)                                                         \
    X(tm_hard_max, 80, 50, 90, 2)                                                           \
    /* A single legal move is played after this depth; the soft limit is scaled by the  */  \
    /* search's signals from scale_min_depth on                                         */  \
    X(tm_single_reply_depth, 4, 1, 8, 1)                                                    \
    X(tm_scale_min_depth, 6, 2, 12, 1)                                                      \
    /* Soft limit scale (hundredths) by the best move's stability: the iterations in a  */  \
    /* row it has been best, 0 to 5 or more                                             */  \
    X(tm_stability_0, 170, 100, 250, 8)                                                     \
    X(tm_stability_1, 135, 80, 200, 6)                                                      \
    X(tm_stability_2, 110, 70, 160, 5)                                                      \
    X(tm_stability_3, 95, 60, 140, 4)                                                       \
    X(tm_stability_4, 85, 50, 130, 4)                                                       \
    X(tm_stability_5, 75, 40, 120, 4)                                                       \
    /* ... by the best move's share f of the nodes: (node_base/100 - f) * node_mult/100, */ \
    /* kept in [node_scale_min, node_scale_max] hundredths                              */  \
    X(tm_node_base, 150, 100, 200, 5)                                                       \
    X(tm_node_mult, 135, 50, 250, 10)                                                       \
    X(tm_node_scale_min, 50, 20, 100, 4)                                                    \
    X(tm_node_scale_max, 200, 120, 400, 14)                                                 \
    /* ... and by the best score's drop d (cp) since the last iteration: 1 + d /        */  \
    /* score_drop_divisor, kept in [score_scale_min, score_scale_max] hundredths        */  \
    X(tm_score_drop_divisor, 120, 40, 300, 13)                                              \
    X(tm_score_scale_min, 80, 50, 100, 2)                                                   \
    X(tm_score_scale_max, 160, 110, 250, 7)

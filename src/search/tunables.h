#pragma once
// The list of search parameters: X(name, default, min, max, SPSA step). Read through
// search/tunable.h, which turns each into a constant (release) or a variable (tuning
// build). Units are given where they are not centipawns.

#define ARBITER_SEARCH_TUNABLES(X)                                                         \
    /* Aspiration windows */                                                               \
    X(aspiration_delta, 18, 5, 60, 3)                                                       \
    /* Late move reductions: base and divisor (hundredths) of the log-log table */         \
    X(lmr_base, 75, 0, 200, 10)                                                             \
    X(lmr_divisor, 225, 150, 400, 15)                                                       \
    X(lmr_history_divisor, 8192, 2048, 32768, 512)                                          \
    /* LMR re-search one ply deeper / shallower by the reduced search's margin over best */ \
    X(lmr_deeper_margin, 40, 10, 120, 6)                                                    \
    X(lmr_shallower_margin, 10, 0, 40, 3)                                                   \
    /* Razoring, reverse futility and null move pruning */                                 \
    X(razor_depth, 3, 1, 6, 1)                                                              \
    X(razor_margin, 250, 100, 500, 20)                                                      \
    X(rfp_depth, 8, 4, 12, 1)                                                               \
    X(rfp_margin, 80, 40, 150, 6)                                                           \
    X(nmp_base_reduction, 3, 2, 5, 1)                                                       \
    X(nmp_depth_divisor, 4, 2, 6, 1)                                                        \
    X(nmp_eval_divisor, 200, 100, 400, 20)                                                  \
    X(nmp_verify_depth, 12, 8, 20, 1)                                                       \
    /* Hindsight: a reduced move that cost its side this much by static evaluation      */ \
    /* has its node searched a ply shallower                                            */ \
    X(hindsight_cost_margin, 175, 50, 400, 15)                                              \
    /* Once a move raises alpha (not at the root), the rest are searched this many      */ \
    /* plies shallower at depths min to max                                             */ \
    X(alpha_raise_reduction, 2, 1, 2, 1)                                                    \
    X(alpha_raise_min_depth, 3, 3, 6, 1)                                                    \
    X(alpha_raise_max_depth, 13, 6, 20, 1)                                                  \
    /* ProbCut */                                                                          \
    X(probcut_depth, 5, 3, 8, 1)                                                            \
    X(probcut_margin, 200, 100, 350, 15)                                                    \
    /* Move-loop pruning: late moves, futility, SEE, history */                            \
    X(lmp_base, 3, 1, 6, 1)                                                                 \
    X(futility_depth, 6, 3, 10, 1)                                                          \
    X(futility_base, 100, 40, 200, 10)                                                      \
    X(futility_per_depth, 90, 40, 160, 8)                                                   \
    X(see_quiet_margin, 60, 20, 120, 6)                                                     \
    X(see_noisy_margin, 100, 40, 160, 8)                                                    \
    X(history_prune_depth, 4, 1, 8, 1)                                                      \
    X(history_prune_margin, 3000, 500, 8000, 250)                                           \
    /* Capture futility: victim + base + per_depth * depth + capture history / 16        */ \
    X(capture_futility_depth, 6, 3, 10, 1)                                                  \
    X(capture_futility_base, 180, 60, 400, 15)                                              \
    X(capture_futility_per_depth, 150, 60, 300, 10)                                         \
    /* Singular extensions (beta margin in sixteenths of a centipawn per depth) */         \
    X(singular_depth, 7, 5, 10, 1)                                                          \
    X(singular_beta_margin, 24, 8, 48, 2)                                                   \
    X(singular_double_margin, 20, 5, 50, 3)                                                 \
    X(singular_double_limit, 6, 2, 12, 1)                                                   \
    /* History bonus: mult * depth - offset, capped */                                     \
    X(history_bonus_mult, 170, 50, 400, 15)                                                 \
    X(history_bonus_offset, 60, 0, 300, 15)                                                 \
    X(history_bonus_max, 1500, 600, 3000, 100)                                              \
    /* The opponent's quiet move: mult / 8 times the eval change it made, capped       */ \
    X(eval_change_bonus_mult, 64, 0, 200, 8)                                                \
    X(eval_change_bonus_max, 1200, 200, 3000, 100)                                          \
    /* Correction history weights (128 = the table's value counted once) */                \
    X(corr_pawn_weight, 128, 0, 256, 8)                                                     \
    X(corr_non_pawn_weight, 64, 0, 256, 8)                                                  \
    X(corr_continuation_weight, 64, 0, 256, 8)                                              \
    /* Quiescence delta and futility pruning */                                            \
    X(qs_delta_margin, 200, 50, 400, 20)                                                    \
    X(qs_futility_margin, 150, 50, 300, 15)                                                 \
    /* The net's eval scaled by (base + per_unit * material) / 1024; material in pawn  */ \
    /* units of the knights, bishops, rooks and queens on the board (62 at the start)  */ \
    X(eval_scale_base, 800, 600, 1024, 16)                                                  \
    X(eval_scale_per_unit, 4, 0, 8, 1)                                                     \
    /* Time: the share of the time pool one move gets in sudden death, in 10000ths:    */ \
    /* base + growth * sqrt(game ply) (250 + 12: 1/40 at ply 0, 1/25 from ply 144)     */ \
    X(tm_share_base, 250, 200, 800, 25)                                                     \
    X(tm_share_growth, 12, 0, 60, 4)

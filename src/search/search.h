#pragma once
// One search thread: iterative deepening with aspiration windows over a principal
// variation search with quiescence. Lazy SMP runs several of these on one shared
// transposition table; thread 0 keeps time and reports.

#include <atomic>
#include <chrono>
#include <functional>
#include <vector>

#include "chess/game.h"
#include "eval/nnue/accumulator.h"
#include "search/correction.h"
#include "search/history.h"
#include "search/limits.h"
#include "search/time_manager.h"
#include "search/tt.h"
#include "syzygy/tablebases.h"
#include "util/static_vector.h"

namespace arbiter::search {

// State shared by all threads of one search.
struct SharedSearch {
    using Clock = std::chrono::steady_clock;

    TranspositionTable& tt;
    // The network that evaluates; nullptr: the hand-crafted evaluation.
    const eval::nnue::Network* network = nullptr;
    SearchLimits limits;
    TimeBudget budget;
    int multipv = 1;
    int threads = 1;
    // Tablebase probes in the search: positions with at most `tb_cardinality`
    // pieces (0: none), those with exactly that many only from `tb_probe_depth` on.
    const syzygy::Tablebases* tablebases = nullptr;
    int tb_cardinality = 0;
    int tb_probe_depth = 1;
    bool tb_fifty_move_rule = true;
    // The root moves were ranked by the tables (RootMove::tb_rank).
    bool root_in_tb = false;
    std::atomic<bool> stop{false};
    // While pondering, time limits are off; `ponderhit` restarts the clock.
    std::atomic<bool> pondering{false};
    std::atomic<int64_t> start_ns{0};
    std::function<uint64_t()> total_nodes;
    std::function<uint64_t()> total_tb_hits;
    std::function<void(const std::vector<SearchInfo>&)> on_iteration;
    std::function<void(Move, int number, int depth)> on_current_move;

    explicit SharedSearch(TranspositionTable& table) : tt(table) {}
    int64_t elapsed_ms() const {
        const int64_t now = Clock::now().time_since_epoch().count();
        return (now - start_ns.load(std::memory_order_relaxed)) / 1'000'000;
    }
    void restart_clock() { start_ns.store(Clock::now().time_since_epoch().count(), std::memory_order_relaxed); }
};

// A root move's standing in the tablebases: a rank (syzygy/root_ranking.h, higher
// is better) and the score shown for it. All zero when the root is not in them.
struct TbRootRank {
    int rank = 0;
    Score score = 0;
};

struct RootMove {
    Move move;
    // Moves are searched and ordered within groups of equal tablebase rank: the
    // search chooses among the moves the tables call equally good.
    int tb_rank = 0;
    Score tb_score = 0;
    // The score of the line being searched (-Infinite until the move has one in it),
    // and that of the previous iteration.
    Score score = -Infinite;
    Score previous_score = -Infinite;
    // The move's line as last searched (at the root depth line_depth; 0: never):
    // its score, exact or a bound, and its PV and selective depth. An iteration
    // resets `score` for every line, never these: after a stop they still tell what
    // the move was really searched to.
    int line_depth = 0;
    Score line_score = -Infinite;
    BoundKind line_bound = BoundKind::Exact;
    int seldepth = 0;
    uint64_t nodes = 0;  // spent on this move's subtree in the current search
    // Inline, so that setting up and sorting the root moves never allocates (data
    // generation does it for every move of every game). The root's PV is the move
    // and at most MaxPly more.
    StaticVector<Move, MaxPly + 1> pv;
};

class Worker {
public:
    Worker(int id, SharedSearch& shared);

    // Sets up the root: the game (for repetitions) and the root moves to consider,
    // with their tablebase ranks when the root is in the tables (then sorted by it).
    void prepare(const Game& game, const std::vector<Move>& root_moves, const std::vector<TbRootRank>& tb_ranks = {});
    // Searches until a limit is reached or `shared.stop` is set.
    void iterative_deepening();

    uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
    uint64_t tb_hits() const { return tb_hits_.load(std::memory_order_relaxed); }
    // After a search: the lines reported last first, in their order (the first is
    // the move to play), then the other moves.
    const std::vector<RootMove>& root_moves() const { return root_moves_; }
    int completed_depth() const { return completed_depth_; }
    // The MultiPV lines of the last completed iteration, best first (the lines of an
    // interrupted iteration are not all searched to the same depth).
    const std::vector<RootMove>& completed_lines() const { return completed_lines_; }
    // Forgets what the move-ordering and correction histories learnt (a new game).
    void clear_histories() {
        history_.clear();
        corrections_.clear();
    }

private:
    struct StackEntry {
        Score static_eval = NoScore;  // corrected; NoScore in check
        Move move;
        Move excluded;  // the move a singular-extension search leaves out
        ContinuationIndex continuation = NoContinuation;
        bool null_move = false;
        bool quiet_move = false;    // the move made here was quiet
        Bitboard threats = 0;       // the squares the opponent attacked here (Threats::any), for that move's history
        bool tt_pv = false;         // the node is or was on a principal variation
        int double_extensions = 0;  // on the path to this node
        int reduction = 0;          // the late-move reduction of the move being searched from here
    };

    template <bool PV>
    Score negamax(const Position& pos, Score alpha, Score beta, int depth, int ply, bool cut_node);
    template <bool PV>
    Score quiescence(const Position& pos, Score alpha, Score beta, int ply);

    bool is_draw(const Position& pos) const;
    // The static evaluation of `pos`, the position at the top of the search path.
    Score evaluate(const Position& pos);
    // Whether the search unwinds: the stop is up and the first iteration is complete.
    // Until then the stop and the limits wait (for at most FirstIterationNodes of this
    // thread's nodes), so the best move always comes from at least a one-ply search,
    // which takes well under a millisecond: `go nodes 1`, or a `stop` right after
    // `go`, plays that move instead of the first one generated.
    bool stopping() const {
        return shared_.stop.load(std::memory_order_relaxed) && (completed_depth_ > 0 || nodes() >= FirstIterationNodes);
    }
    static constexpr uint64_t FirstIterationNodes = 1'000'000;
    // Counts a node and reports whether to search it: false once the search is
    // stopping, or when a node or time limit is reached (which raises the stop) after
    // the first iteration.
    bool enter_node();
    void count_node() { nodes_.store(nodes_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
    void update_pv(int ply, Move m);
    // The continuation indices of the moves 1, 2 and 4 plies before `ply`.
    ContinuationContext continuation_context(int ply) const;
    // The static evaluation plus the correction history's correction.
    Score corrected_eval(const CorrectionHistory::Keys& keys, Score raw, int ply) const;
    // Sends the first `count` root moves' lines (MultiPV) as one report.
    void report(size_t count);
    // After an iteration stopped before it completed: puts the lines to report first
    // (at most `lines`, sorted) and reports them if the iteration added to them.
    void report_interrupted_iteration(size_t lines);
    size_t order_interrupted_lines(size_t lines);
    // Whether the first `count` root moves are the last completed iteration's lines,
    // with the same scores.
    bool repeats_completed_lines(size_t count) const;
    // Whether the lines of an iteration completed at `depth` are all proven mates
    // (see MateProofDepthFactor).
    bool proves_mate(int depth, size_t lines) const;
    bool limits_reached_after_iteration(int depth);

    // Keys of the game and of the current search path, for repetition detection,
    // and the NNUE accumulators of the path; pushed and popped by PathGuard so an
    // early return cannot leave one behind.
    friend struct PathGuard;
    std::vector<Key> keys_;
    size_t root_key_index_ = 0;
    // The index in keys_ of the position after the last null move on the path (0:
    // none): repetitions are not looked for before it.
    size_t null_move_floor_ = 0;
    eval::nnue::AccumulatorStack accumulators_;

    int id_;
    SharedSearch& shared_;
    Position root_;
    std::vector<RootMove> root_moves_;
    size_t pv_index_ = 0;
    size_t pv_last_ = 0;  // the end of pv_index_'s group of equal tablebase rank
    int root_depth_ = 0;
    int completed_depth_ = 0;
    std::vector<RootMove> completed_lines_;
    bool mate_proven_ = false;  // thread 0: by the last completed iteration
    int seldepth_ = 0;
    std::atomic<uint64_t> nodes_{0};
    std::atomic<uint64_t> tb_hits_{0};
    History history_;
    CorrectionHistory corrections_;
    // Null-move pruning is off, for both sides, below this ply while a verification
    // search runs (0: no verification running).
    int nmp_min_ply_ = 0;
    // Time management signals of the completed iterations (main thread).
    int best_move_stability_ = 0;
    Move previous_best_move_;
    Score iteration_scores_[2] = {};  // the last two iterations' best scores
    StackEntry stack_[MaxPly + 4];
    Move pv_[MaxPly + 1][MaxPly + 1];
    int pv_length_[MaxPly + 1] = {};
};

}  // namespace arbiter::search

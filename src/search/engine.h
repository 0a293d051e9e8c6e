#pragma once
// The protocol-free engine facade: owns the game, the transposition table and the
// search threads. `uci/` turns text into these calls and these callbacks into text;
// tests drive it directly.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "chess/game.h"
#include "eval/nnue/network.h"
#include "search/limits.h"
#include "search/search.h"
#include "search/tt.h"
#include "syzygy/tablebases.h"

namespace arbiter::search {

class Engine {
public:
    struct Listener {
        std::function<void(const std::vector<SearchInfo>&)> on_iteration;
        std::function<void(Move move, int number, int depth)> on_current_move;
        // Called once per search. `best` is null when the root has no legal move.
        std::function<void(Move best, Move ponder)> on_best_move;
    };

    Engine();
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    void set_listener(Listener listener) { listener_ = std::move(listener); }

    // The game whose last position the next search starts from. Not while searching.
    // The listener may read game() from the search thread until its bestmove callback
    // returns, so this first waits for a finished search's thread to end.
    void set_game(const Game& game);
    const Game& game() const { return game_; }

    // Starts a search in the background; false if one is already running.
    bool go(const SearchLimits& limits);
    void stop();
    void ponderhit();
    // Blocks until the running search (if any) has reported its best move.
    void wait();
    bool searching() const;
    // Whether `stop` was requested for the running search (it is winding down). A
    // search that ended by its own limits is not stopping: under `go infinite` or
    // `go ponder` it still waits for `stop` or `ponderhit`.
    bool stopping() const {
        std::lock_guard lock(mutex_);
        return stop_requested_;
    }

    // Forget everything learnt: hash table and move-ordering histories.
    void new_game();
    // Options. Each must not be called while searching (the UCI layer refuses).
    bool set_hash_mb(size_t megabytes);
    void clear_hash();
    void set_threads(int threads);
    void set_multipv(int lines) { multipv_ = lines; }
    void set_move_overhead(int ms) { move_overhead_ms_ = ms; }
    // Playing strength (search/strength.h): off, or limited to an Elo rating. Limited
    // searches run on one thread with a node budget and choose among the best lines
    // at random; the generator is seeded from the clock unless seeded here (tests).
    void set_limit_strength(bool on) { limit_strength_ = on; }
    void set_elo(int elo) { elo_ = elo; }
    void seed_strength(uint64_t seed) { strength_rng_.seed(seed); }

    // Evaluation: the network embedded at build time unless another was loaded;
    // the hand-crafted evaluation when NNUE is off or the build has no network.
    // Loads a `.anet` file; on failure returns the reason and keeps the current net.
    // Each change of evaluation clears the hash table: its stored static evaluations
    // came from the previous one.
    std::string load_network(const std::string& path);
    void use_default_network();
    void set_use_nnue(bool on);
    // Evaluates as `other` does now: its network (borrowed: `other` keeps it and must
    // outlive this engine's searches) or the hand-crafted evaluation.
    void use_evaluation_of(const Engine& other);
    // The network searches use now; nullptr: the hand-crafted evaluation.
    const eval::nnue::Network* active_network() const { return use_nnue_ ? network_ : nullptr; }

    // Syzygy tablebases (not while searching). load_tablebases replaces the set
    // ("" or "<empty>" unloads) and tells what it found and what it skipped.
    syzygy::LoadReport load_tablebases(const std::string& paths);
    const syzygy::Tablebases& tablebases() const { return tablebases_; }
    void set_tb_probe_depth(int depth) { tb_probe_depth_ = depth; }
    void set_tb_fifty_move_rule(bool on) { tb_fifty_move_rule_ = on; }
    bool tb_fifty_move_rule() const { return tb_fifty_move_rule_; }
    void set_tb_probe_limit(int pieces) { tb_probe_limit_ = pieces; }

    uint64_t last_search_nodes() const { return last_nodes_; }
    const TranspositionTable& tt() const { return tt_; }

private:
    void run_search(SearchLimits limits);
    // The line a limited-strength search plays: one of worker 0's completed lines.
    const RootMove* choose_limited_line();
    // The line Lazy SMP's threads vote to play (search/thread_vote.h), and its depth.
    struct VotedLine {
        const RootMove* line;
        int depth;
    };
    VotedLine choose_voted_line(size_t threads) const;
    uint64_t total_nodes() const;
    uint64_t total_tb_hits() const;
    // The root moves' tablebase ranks, in their order (empty when the root is not
    // in the tables; Worker::prepare sorts by them), and the search's probing limits.
    std::vector<TbRootRank> rank_root_moves(const std::vector<Move>& root_moves);

    Game game_;
    TranspositionTable tt_;
    std::vector<std::unique_ptr<Worker>> workers_;
    std::unique_ptr<SharedSearch> shared_;
    Listener listener_;
    int threads_ = 1;
    int multipv_ = 1;
    int move_overhead_ms_ = 10;
    uint64_t last_nodes_ = 0;
    std::unique_ptr<eval::nnue::Network> loaded_net_;
    const eval::nnue::Network* network_ = eval::nnue::default_network();
    bool use_nnue_ = true;
    bool limit_strength_ = false;
    int elo_ = 1500;
    std::mt19937_64 strength_rng_{uint64_t(std::chrono::system_clock::now().time_since_epoch().count())};
    syzygy::Tablebases tablebases_;
    int tb_probe_depth_ = 1;
    bool tb_fifty_move_rule_ = true;
    int tb_probe_limit_ = 7;
    uint64_t root_tb_hits_ = 0;

    std::thread main_thread_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool searching_ = false;
    bool stop_requested_ = false;  // the GUI's `stop` (or quit) for the running search
};

}  // namespace arbiter::search

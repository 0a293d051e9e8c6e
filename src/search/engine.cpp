#include "search/engine.h"

#include <algorithm>
#include <cstdlib>

#include "chess/movegen.h"
#include "search/strength.h"
#include "search/thread_vote.h"
#include "search/tunable.h"
#include "syzygy/root_ranking.h"

namespace arbiter::search {

Engine::Engine() : shared_(std::make_unique<SharedSearch>(tt_)) { set_threads(1); }

Engine::~Engine() {
    stop();
    wait();
}

bool Engine::searching() const {
    std::lock_guard lock(mutex_);
    return searching_;
}

void Engine::set_game(const Game& game) {
    if (main_thread_.joinable()) main_thread_.join();
    game_ = game;
}

void Engine::set_threads(int threads) {
    threads_ = std::max(1, threads);
    workers_.clear();
    for (int i = 0; i < threads_; ++i) workers_.push_back(std::make_unique<Worker>(i, *shared_));
}

void Engine::new_game() {
    tt_.clear();
    for (auto& w : workers_) w->clear_histories();
}

std::string Engine::load_network(const std::string& path) {
    eval::nnue::LoadResult result = eval::nnue::load_network_file(path);
    if (!result.net) return result.error;
    loaded_net_ = std::move(result.net);
    network_ = loaded_net_.get();
    tt_.clear();
    return {};
}

void Engine::use_default_network() {
    loaded_net_.reset();
    network_ = eval::nnue::default_network();
    tt_.clear();
}

void Engine::use_evaluation_of(const Engine& other) {
    loaded_net_.reset();
    network_ = other.network_;
    use_nnue_ = other.use_nnue_;
    tt_.clear();
}

void Engine::set_use_nnue(bool on) {
    if (on != use_nnue_) tt_.clear();
    use_nnue_ = on;
}

bool Engine::set_hash_mb(size_t megabytes) { return tt_.resize(megabytes); }

void Engine::clear_hash() { tt_.clear(); }

uint64_t Engine::total_nodes() const {
    uint64_t sum = 0;
    for (const auto& w : workers_) sum += w->nodes();
    return sum;
}

uint64_t Engine::total_tb_hits() const {
    uint64_t sum = root_tb_hits_;
    for (const auto& w : workers_) sum += w->tb_hits();
    return sum;
}

syzygy::LoadReport Engine::load_tablebases(const std::string& paths) {
    syzygy::LoadReport report = tablebases_.load(paths);
    // Stored tablebase bounds came from the previous set.
    tt_.clear();
    return report;
}

namespace {

// The score shown at the root for a tablebase rank (syzygy/root_ranking.h). A win
// the rule cannot spoil is a tablebase win reached one ply from the root, as the
// search itself would score the position after the move. A win the rule turns
// into a draw shows as a draw with a small edge, from a quarter pawn when the win
// misses the rule by a ply down to one centipawn when it misses by a hundred or
// more: the side with it can still hope for a mistake. Losses mirror this.
Score tb_root_score(int rank, bool fifty_move_rule) {
    const int sure = syzygy::win_rank_bound(fifty_move_rule);
    if (rank == 0) return 0;
    if (rank >= sure) return TbWin - 1;
    if (rank <= -sure) return -TbWin + 1;
    const int missed_by = sure - std::abs(rank);  // plies beyond the rule's limit, at least 1
    const Score edge = Score(1 + std::max(0, 100 - missed_by) / 4);
    return rank > 0 ? edge : -edge;
}

}  // namespace

std::vector<TbRootRank> Engine::rank_root_moves(const std::vector<Move>& root_moves) {
    SharedSearch& shared = *shared_;
    const Position& root = game_.position();
    shared.tablebases = &tablebases_;
    shared.tb_probe_depth = tb_probe_depth_;
    shared.tb_fifty_move_rule = tb_fifty_move_rule_;
    shared.tb_cardinality = std::min(tb_probe_limit_, tablebases_.max_pieces());
    shared.root_in_tb = false;
    root_tb_hits_ = 0;
    const bool root_covered =
        !root_moves.empty() && root.castling_rights() == 0 && popcount(root.occupied()) <= shared.tb_cardinality;
    if (!root_covered) return {};

    // Distances when the DTZ tables are there, else results alone.
    std::optional<std::vector<int>> ranks = syzygy::rank_root_moves(tablebases_, game_, root_moves);
    const bool with_distances = ranks.has_value();
    if (!with_distances) ranks = syzygy::rank_root_moves_by_wdl(tablebases_, game_, root_moves, tb_fifty_move_rule_);
    if (!ranks) return {};

    std::vector<TbRootRank> result;
    result.reserve(ranks->size());
    for (int rank : *ranks) result.push_back({rank, tb_root_score(rank, tb_fifty_move_rule_)});
    shared.root_in_tb = true;
    root_tb_hits_ = root_moves.size();  // each root move's child was probed
    // Every position below this root is in the tables. With distances, the ranks
    // have settled every result the search could probe, and the search is left to
    // choose among equally ranked moves by its own lights, without spending a probe
    // at each capture and pawn move. With results alone, the search keeps probing:
    // a capture or pawn move into a proven win then outscores a quiet shuffle,
    // which is how it finds progress the ranks cannot show.
    if (with_distances) shared.tb_cardinality = 0;
    return result;
}

bool Engine::go(const SearchLimits& limits) {
    {
        std::lock_guard lock(mutex_);
        if (searching_) return false;
        searching_ = true;
        stop_requested_ = false;
    }
    if (main_thread_.joinable()) main_thread_.join();
    shared_->stop = false;
    shared_->pondering = limits.ponder;
    shared_->restart_clock();
    main_thread_ = std::thread(&Engine::run_search, this, limits);
    return true;
}

void Engine::stop() {
    std::lock_guard lock(mutex_);
    stop_requested_ = true;
    shared_->stop = true;
    shared_->pondering = false;
    wake_.notify_all();
}

void Engine::ponderhit() {
    std::lock_guard lock(mutex_);
    if (!shared_->pondering) return;
    // Our clock starts now: the GUI's times were taken when pondering began.
    shared_->restart_clock();
    shared_->pondering = false;
    wake_.notify_all();
}

void Engine::wait() {
    if (main_thread_.joinable()) main_thread_.join();
}

const RootMove* Engine::choose_limited_line() {
    const std::vector<RootMove>& lines = workers_[0]->completed_lines();
    if (lines.empty()) return nullptr;
    Score scores[64];
    const size_t n = std::min(lines.size(), std::size(scores));
    for (size_t i = 0; i < n; ++i) scores[i] = lines[i].score;
    const double uniform = std::uniform_real_distribution<double>(0.0, 1.0)(strength_rng_);
    return &lines[choose_line({scores, n}, strength_level(elo_), uniform)];
}

Engine::VotedLine Engine::choose_voted_line(size_t threads) const {
    // Thread 0's line is the one it would play (its interrupted iteration's best move
    // so far, if any); each helper's is its last completed iteration's.
    const RootMove& first = workers_[0]->root_moves()[0];
    std::vector<ThreadLine> lines{{first.move, first.line_score, first.line_depth}};
    for (size_t i = 1; i < threads; ++i) {
        const std::vector<RootMove>& completed = workers_[i]->completed_lines();
        if (completed.empty()) lines.push_back({});
        else lines.push_back({completed[0].move, completed[0].score, workers_[i]->completed_depth()});
    }
    const size_t chosen = vote_among_threads(lines, tune::smp_helper_vote, tune::smp_vote_margin);
    if (chosen == 0) return {&first, first.line_depth};
    return {&workers_[chosen]->completed_lines()[0], lines[chosen].depth};
}

void Engine::run_search(SearchLimits limits) {
    SharedSearch& shared = *shared_;
    const Position& root = game_.position();
    const bool limited = limit_strength_;
    const StrengthLevel level = strength_level(elo_);
    if (limited) limits.nodes = limits.nodes ? std::min(limits.nodes, level.nodes) : level.nodes;
    shared.limits = limits;
    const int fullmove = std::clamp(root.fullmove_number(), 1, 10'000);  // a FEN may say anything
    const int game_ply = 2 * (fullmove - 1) + (root.side_to_move() == Black ? 1 : 0);
    shared.budget = plan_time(limits, root.side_to_move(), move_overhead_ms_, game_ply);
    // A limited search looks at more lines than it shows: the GUI sees MultiPV's.
    shared.multipv = limited ? std::max(multipv_, level.lines) : multipv_;
    shared.network = active_network();
    // One thread, so the node budget and the choice are reproducible.
    const size_t threads = limited ? 1 : workers_.size();
    shared.threads = int(threads);
    shared.total_nodes = [this] { return total_nodes(); };
    shared.total_tb_hits = [this] { return total_tb_hits(); };
    shared.on_iteration = listener_.on_iteration;
    if (limited && listener_.on_iteration)
        shared.on_iteration = [this](const std::vector<SearchInfo>& infos) {
            listener_.on_iteration({infos.begin(), infos.begin() + std::min<long>(long(infos.size()), multipv_)});
        };
    shared.on_current_move = listener_.on_current_move;
    tt_.new_search();

    // Root moves: the legal moves, narrowed by `searchmoves` when it names any.
    std::vector<Move> root_moves;
    for (Move m : legal_moves(root))
        if (limits.search_moves.empty() ||
            std::find(limits.search_moves.begin(), limits.search_moves.end(), m) != limits.search_moves.end())
            root_moves.push_back(m);
    const std::vector<TbRootRank> tb_ranks = rank_root_moves(root_moves);

    // A limited search thinks for about half the soft limit even when its budget
    // is spent sooner (a move at once would feel unnatural), unless stopped.
    int64_t think_ms = 0;
    if (limited && shared.budget.soft_ms != TimeBudget::Unlimited) {
        const double share = std::uniform_real_distribution<double>(0.35, 0.65)(strength_rng_);
        think_ms = int64_t(double(std::min(shared.budget.soft_ms, shared.budget.hard_ms)) * share);
    }
    // Holds the result until the GUI ends an infinite or ponder search: bestmove
    // must not come before `stop` or `ponderhit`, even after a mate is found or a
    // node limit ended the search (which raises shared.stop too, so only the GUI's
    // `stop` counts here).
    auto wait_for_release = [&] {
        std::unique_lock lock(mutex_);
        for (;;) {
            if (stop_requested_) break;
            if (shared.pondering.load() || limits.infinite) {
                wake_.wait(lock);
                continue;
            }
            const int64_t remaining = think_ms - shared.elapsed_ms();
            if (remaining <= 0) break;
            wake_.wait_for(lock, std::chrono::milliseconds(remaining));
        }
        shared.stop = true;
    };

    Move best, ponder;
    if (root_moves.empty()) {
        if (listener_.on_iteration) {
            SearchInfo info;
            info.score = root.in_check() ? mated_in(0) : 0;
            listener_.on_iteration({info});
        }
        wait_for_release();
    } else {
        for (auto& w : workers_) w->prepare(game_, root_moves, tb_ranks);
        std::vector<std::thread> helpers;
        for (size_t i = 1; i < threads; ++i)
            helpers.emplace_back([w = workers_[i].get()] { w->iterative_deepening(); });
        workers_[0]->iterative_deepening();
        wait_for_release();
        for (std::thread& t : helpers) t.join();

        // The first line reported last (after a stop, see Worker::order_interrupted_lines).
        const RootMove* top = &workers_[0]->root_moves()[0];
        // When the move played is not the last info line's, a last line shows it.
        const auto show_played_line = [&](const RootMove& line, int depth) {
            if (!listener_.on_iteration) return;
            SearchInfo info;
            info.depth = depth;
            info.seldepth = std::max(line.seldepth, info.depth);
            info.score = line.score;
            info.nodes = total_nodes();
            info.tb_hits = total_tb_hits();
            info.time_ms = shared.elapsed_ms();
            info.hashfull = tt_.hashfull();
            Position pos = root;
            for (Move m : line.pv) {
                if (!is_legal(pos, m)) break;
                info.pv.push_back(m);
                pos = pos.apply(m);
            }
            listener_.on_iteration({info});
        };
        if (limited) {
            if (const RootMove* chosen = choose_limited_line(); chosen && chosen->move != top->move) {
                top = chosen;
                show_played_line(*top, workers_[0]->completed_depth());
            }
        } else if (threads > 1 && multipv_ == 1 && tune::smp_helper_vote > 0) {
            if (const VotedLine voted = choose_voted_line(threads); voted.line->move != top->move) {
                top = voted.line;
                show_played_line(*top, voted.depth);
            }
        }
        best = top->move;
        if (top->pv.size() >= 2 && is_legal(root.apply(best), top->pv[1])) ponder = top->pv[1];
        if (ponder.is_null()) {
            // No second PV move: take the hash move of the position after the best move.
            const Position next = root.apply(best);
            TTData tt;
            if (tt_.probe(next.key(), 1, tt) && !tt.move.is_null() && is_legal(next, tt.move)) ponder = tt.move;
        }
    }
    last_nodes_ = total_nodes();
    // The search counts as over before bestmove goes out: a GUI may answer bestmove
    // with `go` at once, and that `go` must not find us still busy. (go() joins this
    // thread before starting the next search.)
    {
        std::lock_guard lock(mutex_);
        searching_ = false;
    }
    if (listener_.on_best_move) listener_.on_best_move(best, ponder);
}

}  // namespace arbiter::search

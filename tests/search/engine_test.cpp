// The engine facade driven directly, without the text protocol: results arrive
// through the Listener callbacks on the search thread, so every wait here has a
// timeout and a test fails instead of hanging. The Recorder is declared before the
// Engine in every test so that it outlives the search thread (~Engine stops and joins).

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "test_support.h"
#include "chess/movegen.h"
#include "chess/notation.h"
#include "search/engine.h"

using namespace arbiter;
using namespace arbiter::search;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::steady_clock;

// Generous: a search that should end at once but takes this long is a hang.
constexpr auto Timeout = 10s;

// Back-rank mate in one: Rd8#.
constexpr std::string_view MateIn1 = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
// King and rook: mate in two (Kb6 Kb8 Rh8#, among others), no mate in one.
constexpr std::string_view MateIn2 = "k7/8/2K5/8/8/8/8/7R w - - 0 1";
// Black's only move is Kg8, then Ra8#: Black is mated in one.
constexpr std::string_view MatedIn1 = "7k/8/6K1/8/8/8/8/R7 b - - 0 1";
// Black's only moves are b6 and b5, then Re8#: the knight that covers e8 is pinned by
// Bb2 (static exchange evaluation ignores the pin and counts the rook as lost).
constexpr std::string_view MatedIn1ByPinnedGuard = "7k/1p5p/5n1P/8/2B5/8/1B5K/4R3 b - - 0 1";
constexpr std::string_view Checkmated = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
constexpr std::string_view Stalemated = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
constexpr std::string_view Kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

Position parse(std::string_view fen) { return test::parse_fen(fen); }

Move uci(const Position& pos, std::string_view text) {
    const std::optional<Move> m = parse_uci(pos, text);
    INFO(std::string(text) << " in " << pos.fen());
    REQUIRE(m.has_value());
    return *m;
}

std::string line(const std::vector<Move>& pv) {
    std::string text;
    for (Move m : pv) text += to_uci(m, false) + " ";
    return text;
}

// Collects what the engine reports, from whichever thread reports it.
class Recorder {
public:
    Engine::Listener listener() {
        Engine::Listener l;
        l.on_iteration = [this](const std::vector<SearchInfo>& infos) {
            std::lock_guard lock(mutex_);
            iterations_.push_back(infos);
        };
        l.on_best_move = [this](Move best, Move ponder) {
            std::lock_guard lock(mutex_);
            ++best_calls_;
            best_ = best;
            ponder_ = ponder;
            done_at_ = Clock::now();
            changed_.notify_all();
        };
        return l;
    }

    bool wait_best(std::chrono::milliseconds timeout = Timeout) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, timeout, [&] { return best_calls_ > 0; });
    }
    void reset() {
        std::lock_guard lock(mutex_);
        iterations_.clear();
        best_calls_ = 0;
        best_ = ponder_ = Move();
    }
    int best_calls() const {
        std::lock_guard lock(mutex_);
        return best_calls_;
    }
    Move best() const {
        std::lock_guard lock(mutex_);
        return best_;
    }
    Move ponder() const {
        std::lock_guard lock(mutex_);
        return ponder_;
    }
    Clock::time_point done_at() const {
        std::lock_guard lock(mutex_);
        return done_at_;
    }
    std::vector<std::vector<SearchInfo>> iterations() const {
        std::lock_guard lock(mutex_);
        return iterations_;
    }
    SearchInfo last_info() const {
        std::lock_guard lock(mutex_);
        REQUIRE_FALSE(iterations_.empty());
        REQUIRE_FALSE(iterations_.back().empty());
        return iterations_.back().front();
    }

private:
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::vector<SearchInfo>> iterations_;
    int best_calls_ = 0;
    Move best_, ponder_;
    Clock::time_point done_at_;
};

// Starts a search and waits for its best move; stops the engine and fails on a timeout.
void run_search(Engine& engine, Recorder& recorder, const SearchLimits& limits) {
    recorder.reset();
    REQUIRE(engine.go(limits));
    if (!recorder.wait_best()) {
        engine.stop();
        FAIL("no bestmove within the timeout");
    }
    engine.wait();
    CHECK(recorder.best_calls() == 1);
    CHECK_FALSE(engine.searching());
}

SearchLimits depth(int d) {
    SearchLimits limits;
    limits.depth = d;
    return limits;
}

// Every PV of every info line is a sequence of legal moves from the root, and the
// best and ponder moves are legal too.
void check_reports(const Position& root, const Recorder& recorder) {
    for (const auto& iteration : recorder.iterations())
        for (const SearchInfo& info : iteration) {
            Position pos = root;
            INFO("depth " << info.depth << " multipv " << info.multipv << " pv " << line(info.pv));
            for (Move m : info.pv) {
                REQUIRE(is_legal(pos, m));
                pos = pos.apply(m);
            }
        }
    const Move best = recorder.best();
    if (best.is_null()) return;
    REQUIRE(is_legal(root, best));
    const Move ponder = recorder.ponder();
    if (!ponder.is_null()) CHECK(is_legal(root.apply(best), ponder));
}

// Whether the side to move can force mate with at most `moves` of its own moves.
bool forced_mate(const Position& pos, int moves);

bool mates_after(const Position& pos, Move m, int moves) {
    const Position next = pos.apply(m);
    const MoveList replies = legal_moves(next);
    if (replies.empty()) return next.in_check();
    for (Move r : replies)
        if (!forced_mate(next.apply(r), moves - 1)) return false;
    return true;
}

bool forced_mate(const Position& pos, int moves) {
    if (moves <= 0) return false;
    for (Move m : legal_moves(pos))
        if (mates_after(pos, m, moves)) return true;
    return false;
}

}  // namespace

TEST_CASE("go depth returns a legal best move with legal PVs", "[engine]") {
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());
    for (std::string_view fen : {std::string_view(Position::StartFen), Kiwipete}) {
        const Position root = parse(fen);
        engine.set_game(Game(root));
        run_search(engine, recorder, depth(6));
        INFO(std::string(fen));
        CHECK(is_legal(root, recorder.best()));
        const auto iterations = recorder.iterations();
        REQUIRE_FALSE(iterations.empty());
        // One report per completed depth, in order, each with one line by default.
        for (size_t i = 0; i < iterations.size(); ++i) {
            REQUIRE(iterations[i].size() == 1);
            CHECK(iterations[i][0].depth == int(i + 1));
            CHECK(iterations[i][0].multipv == 1);
            CHECK_FALSE(iterations[i][0].pv.empty());
            CHECK(iterations[i][0].seldepth >= iterations[i][0].depth);
            if (i > 0) CHECK(iterations[i][0].nodes >= iterations[i - 1][0].nodes);
        }
        CHECK(iterations.back()[0].depth == 6);
        // The best move is the first move of the last PV.
        CHECK(iterations.back()[0].pv[0] == recorder.best());
        CHECK(engine.last_search_nodes() > 0);
        check_reports(root, recorder);
    }
}

TEST_CASE("mate in one and mate in two are found with the right score", "[engine]") {
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());

    SECTION("mate in one") {
        const Position root = parse(MateIn1);
        engine.set_game(Game(root));
        run_search(engine, recorder, depth(5));
        CHECK(recorder.best() == uci(root, "d1d8"));
        const SearchInfo info = recorder.last_info();
        CHECK(info.score == mate_in(1));
        CHECK(mate_moves(info.score) == 1);
        CHECK(info.pv.size() == 1);
        check_reports(root, recorder);
    }
    SECTION("mate in two") {
        const Position root = parse(MateIn2);
        REQUIRE_FALSE(forced_mate(root, 1));
        REQUIRE(forced_mate(root, 2));
        engine.set_game(Game(root));
        // Three plies of mate inside a six-ply search: pruning must not hide the mating check.
        run_search(engine, recorder, depth(6));
        CHECK(mates_after(root, recorder.best(), 2));
        const SearchInfo info = recorder.last_info();
        CHECK(info.score == mate_in(3));
        CHECK(mate_moves(info.score) == 2);
        CHECK(info.pv.size() == 3);
        check_reports(root, recorder);
    }
    SECTION("mated in one") {
        const Position root = parse(MatedIn1);
        engine.set_game(Game(root));
        // The opponent's mating reply is a quiet check at ply 1: it must not be pruned.
        run_search(engine, recorder, depth(5));
        CHECK(recorder.best() == uci(root, "h8g8"));
        const SearchInfo info = recorder.last_info();
        CHECK(info.score == mated_in(2));
        CHECK(mate_moves(info.score) == -1);
        check_reports(root, recorder);
    }
    SECTION("go mate stops once the mate is found") {
        const Position root = parse(MateIn2);
        engine.set_game(Game(root));
        SearchLimits limits;
        limits.mate = 2;
        run_search(engine, recorder, limits);
        CHECK(mates_after(root, recorder.best(), 2));
        CHECK(mate_moves(recorder.last_info().score) == 2);
    }
}

TEST_CASE("the opponent's mate in one is seen at every depth from two plies", "[engine]") {
    // The mating replies are quiet checks that pruning could skip: one comes late
    // among White's many rook and king moves (e6c8b10 pruned it at depths 2-5), the
    // other loses the rook by SEE (searched first by today's ordering, so it passes
    // with or without the mate check; it guards the SEE pruning of checks).
    for (std::string_view fen : {MatedIn1, MatedIn1ByPinnedGuard}) {
        for (int d = 2; d <= 6; ++d) {
            INFO(std::string(fen) << " at depth " << d);
            Recorder recorder;
            Engine engine;  // a fresh table at each depth: nothing left by the shallower searches
            engine.set_listener(recorder.listener());
            const Position root = parse(fen);
            engine.set_game(Game(root));
            // go mate keeps the search deepening after the mate against it is proven
            // (reporting only a change): every depth is searched.
            SearchLimits limits = depth(d);
            limits.mate = 1;
            run_search(engine, recorder, limits);
            CHECK(recorder.last_info().score == mated_in(2));
            check_reports(root, recorder);
        }
    }
}

// The depths of the reports, in order.
std::vector<int> reported_depths(const Recorder& recorder) {
    std::vector<int> depths;
    for (const auto& report : recorder.iterations()) depths.push_back(report.at(0).depth);
    return depths;
}

TEST_CASE("a proven mate ends the deepening, and no depth is reported that the search did not reach", "[engine]") {
    // Once a mate is proven, deeper iterations cut everything beyond it and repeat it
    // in a moment each: the search used to race to the ply limit and report every
    // depth (`depth 127 ... score mate 1`).
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());
    // Each report one depth deeper than the one before, from 1, and far below the ply limit.
    const auto check_depths = [&](int deepest_allowed) {
        const std::vector<int> depths = reported_depths(recorder);
        REQUIRE_FALSE(depths.empty());
        for (size_t i = 0; i < depths.size(); ++i) CHECK(depths[i] == int(i + 1));
        CHECK(depths.back() <= deepest_allowed);
    };
    // A mate in n plies, for the side to move (n > 0) or against it (n < 0).
    struct Case {
        std::string_view fen;
        int plies;
    };
    for (const Case& c : {Case{MateIn1, 1}, Case{MateIn2, 3}, Case{MatedIn1, -2}}) {
        const Position root = parse(c.fen);
        const Score mate = c.plies > 0 ? mate_in(c.plies) : mated_in(-c.plies);
        // Deeper than this, a search that finds nothing new has nothing new to report.
        const int deepest_allowed = 4 * std::abs(c.plies);
        INFO(std::string(c.fen));
        engine.set_game(Game(root));

        // go depth 60 ends once the mate is proven.
        engine.new_game();
        run_search(engine, recorder, depth(60));
        CHECK(recorder.last_info().score == mate);
        check_depths(deepest_allowed);
        check_reports(root, recorder);

        // go movetime returns with the proven mate (run_search gives up long before the time).
        SearchLimits movetime;
        movetime.movetime = 600'000;
        engine.new_game();
        run_search(engine, recorder, movetime);
        CHECK(recorder.last_info().score == mate);
        check_depths(deepest_allowed);

        // go infinite waits for stop, reporting no depth beyond the proof.
        SearchLimits infinite;
        infinite.infinite = true;
        engine.new_game();
        recorder.reset();
        REQUIRE(engine.go(infinite));
        std::this_thread::sleep_for(300ms);
        CHECK(recorder.best_calls() == 0);
        engine.stop();
        REQUIRE(recorder.wait_best());
        engine.wait();
        CHECK(recorder.last_info().score == mate);
        check_depths(deepest_allowed);

        // go mate for a shorter mate than there is searches on to its depth, reporting
        // only what changes.
        if (c.plies > 1 || c.plies < 0) {
            SearchLimits mate_limits = depth(40);
            mate_limits.mate = 1;
            engine.new_game();
            run_search(engine, recorder, mate_limits);
            CHECK(recorder.last_info().score == mate);
            check_depths(deepest_allowed);
        }
    }
}

TEST_CASE("with several lines a mate in one line does not end the deepening", "[engine]") {
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());
    engine.set_multipv(2);
    const Position root = parse(MateIn1);  // one mate; the second line is no mate
    engine.set_game(Game(root));
    run_search(engine, recorder, depth(9));
    CHECK(reported_depths(recorder).back() == 9);
    CHECK(recorder.last_info().score == mate_in(1));
}

TEST_CASE("a root without legal moves reports depth 0 and a null best move", "[engine]") {
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());
    for (auto [fen, score] : {std::pair{Checkmated, mated_in(0)}, std::pair{Stalemated, Score(0)}}) {
        INFO(std::string(fen));
        engine.set_game(Game(parse(fen)));
        for (const SearchLimits& limits : {depth(5), SearchLimits{}}) {
            run_search(engine, recorder, limits);
            CHECK(recorder.best().is_null());
            CHECK(recorder.ponder().is_null());
            const auto iterations = recorder.iterations();
            REQUIRE(iterations.size() == 1);
            REQUIRE(iterations[0].size() == 1);
            CHECK(iterations[0][0].depth == 0);
            CHECK(iterations[0][0].score == score);
            if (score != 0) CHECK(mate_moves(iterations[0][0].score) == 0);  // "score mate 0"
            CHECK(iterations[0][0].pv.empty());
        }
    }
}

TEST_CASE("searchmoves restricts the root moves", "[engine]") {
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());

    SECTION("start position, two candidate moves") {
        const Position root = Position::startpos();
        engine.set_game(Game(root));
        SearchLimits limits = depth(5);
        limits.search_moves = {uci(root, "a2a3"), uci(root, "h2h3")};
        run_search(engine, recorder, limits);
        CHECK((recorder.best() == limits.search_moves[0] || recorder.best() == limits.search_moves[1]));
        for (const auto& iteration : recorder.iterations())
            for (const SearchInfo& info : iteration) {
                REQUIRE_FALSE(info.pv.empty());
                CHECK((info.pv[0] == limits.search_moves[0] || info.pv[0] == limits.search_moves[1]));
            }
        check_reports(root, recorder);
    }
    SECTION("the mate is not among the allowed moves") {
        const Position root = parse(MateIn1);
        engine.set_game(Game(root));
        SearchLimits limits = depth(5);
        limits.search_moves = {uci(root, "g1f1")};
        run_search(engine, recorder, limits);
        CHECK(recorder.best() == limits.search_moves[0]);
        CHECK(recorder.last_info().score < MateInMaxPly);
        check_reports(root, recorder);
    }
}

TEST_CASE("MultiPV gives distinct lines with sorted scores", "[engine]") {
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());
    engine.set_multipv(3);

    const Position root = parse(Kiwipete);
    engine.set_game(Game(root));
    run_search(engine, recorder, depth(6));
    const auto iterations = recorder.iterations();
    REQUIRE_FALSE(iterations.empty());
    for (const auto& infos : iterations) {
        REQUIRE(infos.size() == 3);
        INFO("depth " << infos[0].depth << ": " << line(infos[0].pv) << "| " << line(infos[1].pv) << "| "
                      << line(infos[2].pv));
        for (size_t i = 0; i < 3; ++i) {
            CHECK(infos[i].multipv == int(i + 1));
            CHECK(infos[i].depth == infos[0].depth);
            REQUIRE_FALSE(infos[i].pv.empty());
        }
        CHECK(infos[0].pv[0] != infos[1].pv[0]);
        CHECK(infos[0].pv[0] != infos[2].pv[0]);
        CHECK(infos[1].pv[0] != infos[2].pv[0]);
        CHECK(infos[0].score >= infos[1].score);
        CHECK(infos[1].score >= infos[2].score);
    }
    CHECK(iterations.back()[0].pv[0] == recorder.best());
    check_reports(root, recorder);

    SECTION("fewer legal moves than lines") {
        const Position only = parse(MatedIn1);  // one legal move
        engine.set_game(Game(only));
        run_search(engine, recorder, depth(4));
        for (const auto& infos : recorder.iterations()) CHECK(infos.size() == 1);
        CHECK(recorder.best() == uci(only, "h8g8"));
    }
}

// The line of `report` that starts with `m`, or null.
const SearchInfo* line_of(const std::vector<SearchInfo>& report, Move m) {
    for (const SearchInfo& info : report)
        if (!info.pv.empty() && info.pv[0] == m) return &info;
    return nullptr;
}

TEST_CASE("after an interrupted MultiPV iteration the lines come sorted, each at the depth it was searched to",
          "[engine]") {
    // A node limit interrupts an iteration at a point that one thread after new_game
    // reproduces: different limits stop it in different lines. Every completed
    // iteration reports (with fewer nodes than the limit); the report after the
    // interruption (with the limit's nodes) is the one a GUI is left with.
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());
    engine.set_multipv(3);
    Game open_game;  // 1. e4 e5 2. Nf3, where the lines were seen out of order after `stop`
    for (std::string_view move : {"e2e4", "e7e5", "g1f3"}) open_game.play(uci(open_game.position(), move));
    int mixed_reports = 0;
    for (const Game& game : {open_game, Game(parse(Kiwipete))}) {
        const Position root = game.position();
        engine.set_game(game);
        for (uint64_t limit = 4000; limit <= 300'000; limit += limit / 3) {
            SearchLimits limits;
            limits.nodes = limit;
            engine.new_game();
            run_search(engine, recorder, limits);
            const auto reports = recorder.iterations();
            size_t completed = 0;
            while (completed < reports.size() && reports[completed][0].nodes < limit) {
                for (const SearchInfo& info : reports[completed]) REQUIRE(info.depth == int(completed + 1));
                ++completed;
            }
            REQUIRE(completed >= 1);
            REQUIRE(reports.size() <= completed + 1);
            const std::vector<SearchInfo>& last = reports.back();
            REQUIRE(last.size() == 3);
            INFO(root.fen() << " nodes " << limit << ", " << completed << " iterations completed: " << last[0].depth
                            << " " << last[0].score << " " << line(last[0].pv) << "| " << last[1].depth << " "
                            << last[1].score << " " << line(last[1].pv) << "| " << last[2].depth << " " << last[2].score
                            << " " << line(last[2].pv));
            bool kept = false, searched_again = false;
            for (size_t i = 0; i < last.size(); ++i) {
                CHECK(last[i].multipv == int(i + 1));
                REQUIRE_FALSE(last[i].pv.empty());
                for (size_t j = 0; j < i; ++j) CHECK(last[j].pv[0] != last[i].pv[0]);
                if (i > 0) CHECK(last[i - 1].score >= last[i].score);
                REQUIRE(last[i].depth >= 1);
                REQUIRE(last[i].depth <= int(completed + 1));
                if (last[i].depth <= int(completed)) {
                    // Kept from a completed iteration: as that iteration reported it.
                    kept = true;
                    const SearchInfo* then = line_of(reports[size_t(last[i].depth - 1)], last[i].pv[0]);
                    REQUIRE(then != nullptr);
                    CHECK(then->score == last[i].score);
                    CHECK(then->pv == last[i].pv);
                } else {
                    searched_again = true;
                }
            }
            // The move played is the first line's.
            CHECK(recorder.best() == last[0].pv[0]);
            check_reports(root, recorder);
            mixed_reports += kept && searched_again;
        }
    }
    // Some of the limits stop an iteration between its lines: its last report then
    // keeps lines of the previous depth beside those of the interrupted one.
    CHECK(mixed_reports > 0);
}

TEST_CASE("go nodes stops at the node limit", "[engine]") {
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());
    engine.set_game(Game(parse(Kiwipete)));
    SearchLimits limits;
    limits.nodes = 20'000;

    SECTION("one thread: at least N, at most a few more than N or than the first iteration") {
        // The first iteration alone, from an empty table: its nodes and its move.
        engine.new_game();
        run_search(engine, recorder, depth(1));
        const uint64_t first_iteration = engine.last_search_nodes();
        const Move first_best = recorder.best();
        REQUIRE(first_iteration > 100);
        for (uint64_t n : {1ull, 100ull, 5'000ull, 20'000ull}) {
            limits.nodes = n;
            engine.new_game();
            run_search(engine, recorder, limits);
            INFO("nodes " << n << " searched " << engine.last_search_nodes() << " first iteration " << first_iteration);
            CHECK(engine.last_search_nodes() >= n);
            CHECK(engine.last_search_nodes() <= std::max(n, first_iteration) + 64);
            REQUIRE_FALSE(recorder.iterations().empty());
            CHECK(recorder.iterations().front()[0].depth == 1);
            // A limit below the first iteration plays the first iteration's move.
            if (n < first_iteration) CHECK(recorder.best() == first_best);
            CHECK(recorder.best() == recorder.last_info().pv.front());
        }
    }
    SECTION("four threads: close to N in total") {
        engine.set_threads(4);
        run_search(engine, recorder, limits);
        INFO("searched " << engine.last_search_nodes());
        CHECK(engine.last_search_nodes() >= limits.nodes);
        CHECK(engine.last_search_nodes() <= limits.nodes * 3 / 2);
        CHECK_FALSE(recorder.best().is_null());
    }
}

TEST_CASE("one thread is deterministic after new_game", "[engine]") {
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());
    const Position root = parse(Kiwipete);
    engine.set_game(Game(root));

    std::vector<uint64_t> nodes;
    std::vector<std::vector<std::vector<SearchInfo>>> reports;
    for (int run = 0; run < 2; ++run) {
        engine.new_game();
        run_search(engine, recorder, depth(8));
        nodes.push_back(engine.last_search_nodes());
        reports.push_back(recorder.iterations());
    }
    CHECK(nodes[0] == nodes[1]);
    REQUIRE(reports[0].size() == reports[1].size());
    for (size_t i = 0; i < reports[0].size(); ++i) {
        CHECK(reports[0][i][0].score == reports[1][i][0].score);
        CHECK(reports[0][i][0].nodes == reports[1][i][0].nodes);
        CHECK(reports[0][i][0].pv == reports[1][i][0].pv);
    }

    // Without new_game the table remembers the first search, so the second is cheaper.
    run_search(engine, recorder, depth(8));
    CHECK(engine.last_search_nodes() < nodes[0]);
}

TEST_CASE("stop ends an infinite search quickly with exactly one best move", "[engine]") {
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());
    const Position root = parse(Kiwipete);
    engine.set_game(Game(root));

    for (int threads : {1, 3}) {
        engine.set_threads(threads);
        recorder.reset();
        SearchLimits limits;
        limits.infinite = true;
        REQUIRE(engine.go(limits));
        CHECK(engine.searching());
        // A second go while searching is refused.
        CHECK_FALSE(engine.go(limits));
        std::this_thread::sleep_for(200ms);
        CHECK(recorder.best_calls() == 0);
        const auto stopped_at = Clock::now();
        engine.stop();
        REQUIRE(recorder.wait_best());
        const auto latency = std::chrono::duration_cast<std::chrono::milliseconds>(recorder.done_at() - stopped_at);
        INFO("threads " << threads << " stop latency " << latency.count() << " ms");
        CHECK(latency < 500ms);  // a sanity bound for loaded CI machines; typical: a few ms
        engine.wait();
        std::this_thread::sleep_for(50ms);
        CHECK(recorder.best_calls() == 1);
        CHECK_FALSE(engine.searching());
        CHECK(is_legal(root, recorder.best()));
        check_reports(root, recorder);
    }
    // A stop that arrives at once still waits for the first iteration and plays the
    // move of its last line (first_iteration_test.cpp pins the move down, without the
    // race between this thread's stop and the search thread).
    for (int i = 0; i < 5; ++i) {
        recorder.reset();
        SearchLimits limits;
        limits.infinite = true;
        REQUIRE(engine.go(limits));
        engine.stop();
        REQUIRE(recorder.wait_best());
        engine.wait();
        CHECK(recorder.best_calls() == 1);
        CHECK(is_legal(root, recorder.best()));
        REQUIRE_FALSE(recorder.iterations().empty());
        CHECK(recorder.iterations().front()[0].depth == 1);
        CHECK(recorder.last_info().pv.front() == recorder.best());
    }
    engine.set_threads(1);
    // stop() with nothing running is harmless, and the next search runs normally.
    engine.stop();
    run_search(engine, recorder, depth(3));
    CHECK(recorder.last_info().depth == 3);
}

TEST_CASE("infinite and ponder searches hold the best move until stop or ponderhit", "[engine]") {
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());
    const Position root = parse(MateIn1);
    engine.set_game(Game(root));
    const Move mate = uci(root, "d1d8");

    auto hold_then_release = [&](SearchLimits limits, bool by_ponderhit) {
        recorder.reset();
        REQUIRE(engine.go(limits));
        // The mate is found within milliseconds; the best move must still wait.
        std::this_thread::sleep_for(300ms);
        CHECK(recorder.best_calls() == 0);
        CHECK(engine.searching());
        if (by_ponderhit) engine.ponderhit();
        else engine.stop();
        if (!recorder.wait_best()) {
            engine.stop();
            FAIL("no bestmove after stop/ponderhit");
        }
        engine.wait();
        CHECK(recorder.best_calls() == 1);
        CHECK(recorder.best() == mate);
        check_reports(root, recorder);
    };

    SearchLimits infinite;
    infinite.infinite = true;
    SearchLimits ponder;
    ponder.ponder = true;
    ponder.time[White] = 1000;
    ponder.time[Black] = 1000;
    SearchLimits ponder_depth = depth(3);
    ponder_depth.ponder = true;

    SECTION("go infinite, stop") { hold_then_release(infinite, false); }
    SECTION("go infinite, ponderhit does not end it") {
        recorder.reset();
        REQUIRE(engine.go(infinite));
        std::this_thread::sleep_for(100ms);
        engine.ponderhit();
        std::this_thread::sleep_for(200ms);
        CHECK(recorder.best_calls() == 0);
        engine.stop();
        REQUIRE(recorder.wait_best());
        engine.wait();
        CHECK(recorder.best() == mate);
    }
    SECTION("go ponder with a clock, ponderhit") { hold_then_release(ponder, true); }
    SECTION("go ponder with a clock, stop") { hold_then_release(ponder, false); }
    SECTION("go ponder depth 3, ponderhit") { hold_then_release(ponder_depth, true); }
    SECTION("a mated root under go infinite waits for stop too") {
        engine.set_game(Game(parse(Checkmated)));
        recorder.reset();
        REQUIRE(engine.go(infinite));
        std::this_thread::sleep_for(300ms);
        CHECK(recorder.best_calls() == 0);
        engine.stop();
        REQUIRE(recorder.wait_best());
        engine.wait();
        CHECK(recorder.best().is_null());
    }
}

TEST_CASE("movetime ends the search on time", "[engine]") {
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());
    engine.set_move_overhead(0);
    const Position root = parse(Kiwipete);
    engine.set_game(Game(root));
    SearchLimits limits;
    limits.movetime = 150;
    const auto start = Clock::now();
    run_search(engine, recorder, limits);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(recorder.done_at() - start);
    INFO("movetime 150 took " << took.count() << " ms");
    CHECK(took >= 100ms);
    CHECK(took < 1500ms);  // generous: CI machines run tests in parallel
    CHECK(is_legal(root, recorder.best()));
    check_reports(root, recorder);
}

TEST_CASE("several threads, hash resizing and clearing", "[engine]") {
    Recorder recorder;
    Engine engine;
    engine.set_listener(recorder.listener());
    const Position root = parse(Kiwipete);
    engine.set_game(Game(root));

    REQUIRE(engine.set_hash_mb(1));
    CHECK(engine.tt().size_mb() == 1);
    engine.set_threads(4);
    run_search(engine, recorder, depth(7));
    CHECK(recorder.last_info().depth == 7);
    CHECK(recorder.last_info().hashfull > 0);
    check_reports(root, recorder);

    engine.clear_hash();
    CHECK(engine.tt().hashfull() == 0);
    CHECK_FALSE(engine.set_hash_mb(size_t(1) << 40));
    CHECK(engine.tt().size_mb() == 1);
    run_search(engine, recorder, depth(5));
    CHECK(is_legal(root, recorder.best()));

    // A game with moves: the search starts from its last position.
    Game game(root);
    game.play(uci(root, "e1g1"));
    engine.set_game(game);
    run_search(engine, recorder, depth(4));
    CHECK(is_legal(game.position(), recorder.best()));
    check_reports(game.position(), recorder);
}

#include "tools/datagen.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <ostream>
#include <thread>

#include "chess/chess960.h"
#include "chess/dead_position.h"
#include "chess/game.h"
#include "chess/movegen.h"
#include "search/search.h"
#include "tools/cli.h"
#include "tools/tools.h"
#include "util/parse.h"
#include "util/strings.h"

namespace arbiter::tools {

// The data tools are built on the search: its scores, limits and workers.
using namespace search;

namespace {

// SplitMix64: small, fast, and good enough to pick random moves.
class Random {
public:
    explicit Random(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint64_t below(uint64_t n) { return next() % n; }

private:
    uint64_t state_;
};

TrainingResult result_from_white(int sign) {
    return sign > 0 ? TrainingResult::WhiteWins : sign < 0 ? TrainingResult::BlackWins : TrainingResult::Draw;
}

// The game's end by the rules, judged on its last position only: the players stop at
// the first ending, so an earlier position never ended the game (Game::status looks
// at the whole history each time, a cost that grows with the game). Claimable draws
// count as draws; the automatic ones (fivefold, 75 moves) come after them.
std::optional<int> rules_result(const Game& game) {
    const Position& pos = game.position();
    if (!has_legal_move(pos)) return pos.in_check() ? (pos.side_to_move() == White ? -1 : 1) : 0;
    if (is_dead_position(pos) || pos.halfmove_clock() >= 100) return 0;
    if (game.occurrences(game.positions().size() - 1) >= 3) return 0;
    return std::nullopt;
}

}  // namespace

Position dfrc_start(int number) {
    // Chess960 FENs: "<black rank>/pppppppp/8/8/8/8/PPPPPPPP/<white rank> w <WHITE><black> - 0 1".
    const std::string white = chess960_start_fen(number / 960), black = chess960_start_fen(number % 960);
    const auto rights = [](const std::string& fen) { return fen.substr(fen.find(" w ") + 3, 4); };
    const std::string fen = black.substr(0, black.find('/')) +
                            white.substr(white.find('/'), white.find(' ') - white.find('/')) + " w " +
                            rights(white).substr(0, 2) + rights(black).substr(2, 2) + " - 0 1";
    return *Position::from_fen(fen, true).position;
}

struct SelfPlayer::State {
    TranspositionTable tt;
    SharedSearch shared{tt};
    Worker worker{0, shared};
    std::vector<Move> root;  // reused: no allocation per search
};

SelfPlayer::SelfPlayer(const DatagenConfig& config) : config_(config), state_(std::make_unique<State>()) {
    state_->tt.resize(size_t(config.hash_mb));
    state_->shared.threads = 1;
    state_->shared.limits.nodes = config.nodes;
    state_->shared.limits.soft_nodes = config.soft_nodes;
    state_->shared.network = config.network;
}

SelfPlayer::~SelfPlayer() = default;

GameRecords SelfPlayer::play(uint64_t index, const std::atomic<bool>* abort) {
    State& s = *state_;
    Random random(config_.seed * 0x2545F4914F6CDD1Dull + index);
    s.tt.clear();
    s.worker.clear_histories();
    uint64_t nodes = 0;

    // One node-limited search; returns the best move and its score for the side to move.
    const auto search = [&](const Game& game) {
        s.shared.stop = false;
        s.tt.new_search();
        const MoveList moves = legal_moves(game.position());
        s.root.assign(moves.begin(), moves.end());
        s.worker.prepare(game, s.root);
        s.worker.iterative_deepening();
        nodes += s.worker.nodes();
        const RootMove& best = s.worker.root_moves()[0];
        return std::pair{best.move, best.score != -Infinite ? best.score : best.previous_score};
    };

    // Step 1. An opening: random legal plies from a start position, kept only when
    // the game goes on and a short search finds it roughly balanced. One roll picks
    // the start: Chess960 below chess960_percent, DFRC in the next dfrc_percent.
    bool chess960 = false;
    Game game;
    for (;;) {
        const int roll = int(random.below(100));
        chess960 = roll < config_.chess960_percent + config_.dfrc_percent;
        const Position start = roll < config_.chess960_percent
                                   ? *Position::from_fen(chess960_start_fen(int(random.below(960))), true).position
                               : chess960 ? dfrc_start(int(random.below(960 * 960)))
                                          : Position::startpos();
        game = Game(start);
        const int plies = config_.random_plies + int(random.below(2));
        bool ok = true;
        for (int i = 0; i < plies && ok; ++i) {
            const MoveList moves = legal_moves(game.position());
            if (moves.empty()) ok = false;
            else game.play(moves[random.below(moves.size())]);
        }
        if (!ok || game.status() != GameStatus::Ongoing || !has_legal_move(game.position())) continue;
        const auto [move, score] = search(game);
        if (std::abs(score) <= config_.opening_limit_cp) break;
    }

    // Step 2. Play it out. Scores are tracked from White's point of view. Records are
    // encoded as the positions are reached and given the result at the end.
    GameRecords out;
    out.game.start = game.position();
    out.game.plies.reserve(size_t(config_.max_plies) + 1);
    out.records.reserve(size_t(config_.max_plies) + 1);
    int win_streak = 0, win_sign = 0, draw_streak = 0, ply = 0;
    std::optional<int> adjudicated;  // White's point of view: +1, 0, -1
    for (;; ++ply) {
        if (abort && abort->load(std::memory_order_relaxed)) {
            out.complete = false;
            return out;
        }
        adjudicated = rules_result(game);
        if (adjudicated) break;
        if (ply >= config_.max_plies) {
            adjudicated = 0;
            break;
        }
        const Position& pos = game.position();
        const auto [move, score] = search(game);
        const int white_score = pos.side_to_move() == White ? score : -score;
        out.game.plies.push_back(make_ply(move, white_score));

        if (!pos.in_check() && !pos.is_noisy(move) && !is_mate(score))
            out.records.push_back(encode_record(pos, white_score, TrainingResult::Draw, chess960));

        const int sign = white_score >= config_.win_adjudication_cp    ? 1
                         : white_score <= -config_.win_adjudication_cp ? -1
                                                                       : 0;
        win_streak = sign != 0 && sign == win_sign ? win_streak + 1 : sign != 0 ? 1 : 0;
        win_sign = sign;
        if (win_streak >= config_.win_adjudication_plies) {
            adjudicated = sign;
            break;
        }
        draw_streak = std::abs(white_score) <= config_.draw_adjudication_cp ? draw_streak + 1 : 0;
        if (ply >= config_.draw_adjudication_ply && draw_streak >= config_.draw_adjudication_plies) {
            adjudicated = 0;
            break;
        }
        game.play(move);
    }

    out.result = result_from_white(*adjudicated);
    out.game.result = out.result;
    out.plies = ply;
    out.nodes = nodes;
    for (TrainingRecord& r : out.records) r[26] = uint8_t(out.result);  // the result byte of nets/README.md
    return out;
}

std::string parse_datagen_args(const Args& args, DatagenConfig& config) {
    ArgReader reader(args);
    std::string error;
    while (!reader.done() && error.empty()) {
        const std::string_view flag = reader.next();
        if (flag == "--output") {
            if (const std::optional<std::string_view> file = reader.value()) config.output = *file;
            else error = "--output needs a file name";
        } else if (flag == "--eval") {
            if (const std::optional<std::string_view> eval = reader.value()) config.eval = *eval;
            else error = "--eval needs default, hce or a .anet file";
        } else if (flag == "--format") {
            const std::optional<std::string_view> format = reader.value();
            if (format == "abin") config.format = DataFormat::Abin;
            else if (format == "agame") config.format = DataFormat::Agame;
            else if (format) error = fmt::format("--format takes abin or agame, not '{}'", *format);
            else error = "--format needs abin or agame";
        } else if (flag == "--games") reader.number(flag, uint64_t(1), MaxDatagenGames, config.games, error);
        else if (flag == "--threads") reader.number(flag, 1, 1024, config.threads, error);
        else if (flag == "--nodes")
            reader.number(flag, uint64_t(100), MaxDatagenNodes, config.nodes, error, "a number of nodes");
        else if (flag == "--soft-nodes")
            reader.number(flag, uint64_t(0), MaxDatagenNodes, config.soft_nodes, error, "a number of nodes");
        else if (flag == "--seed") reader.number(flag, uint64_t(0), UINT64_MAX, config.seed, error);
        else if (flag == "--random-plies") reader.number(flag, 0, 40, config.random_plies, error);
        else if (flag == "--chess960-percent") reader.number(flag, 0, 100, config.chess960_percent, error);
        else if (flag == "--dfrc-percent") reader.number(flag, 0, 100, config.dfrc_percent, error);
        else if (flag == "--hash") reader.number(flag, 1, 4096, config.hash_mb, error);
        else
            error = flag.starts_with("--") ? fmt::format("unknown option '{}'", flag)
                                           : fmt::format("unexpected argument '{}'", flag);
    }
    if (!error.empty()) return error;
    if (config.output.empty()) return "--output FILE is required";
    if (config.chess960_percent + config.dfrc_percent > 100)
        return "--chess960-percent plus --dfrc-percent exceeds 100";
    if (config.soft_nodes > config.nodes)
        return fmt::format("--soft-nodes {} exceeds the hard cap --nodes {}", config.soft_nodes, config.nodes);
    return {};
}

int datagen_main(const Args& args, std::ostream&, std::ostream& err) {
    DatagenConfig config;
    if (const std::string error = parse_datagen_args(args, config); !error.empty())
        return usage_error(err, "datagen", error);
    return run_datagen(config, err);
}

namespace {

// `<output>.progress`: the settings that fix the games, and how far the run got, as
// one line of "key value" pairs. The first eight keys are those of every version (a
// progress file of an older version stays valid: its run had no soft node limit, no
// DFRC openings and 16 MB of hash); the later ones are written when not those
// defaults, so an older run's line reads back unchanged.
struct Progress {
    uint64_t seed = 0, nodes = 0, random_plies = 0, chess960_percent = 0, games_done = 0, bytes = 0;
    uint32_t eval_id = 0;  // 0: hand-crafted; else the CRC-32 of the network's weights
    bool agame = false;
    uint64_t positions = 0;
    uint64_t soft_nodes = 0, dfrc_percent = 0, hash_mb = 16;

    static std::string path(const DatagenConfig& c) { return c.output + ".progress"; }
    bool same_settings(const Progress& o) const {
        return seed == o.seed && nodes == o.nodes && random_plies == o.random_plies &&
               chess960_percent == o.chess960_percent && eval_id == o.eval_id && agame == o.agame &&
               soft_nodes == o.soft_nodes && dfrc_percent == o.dfrc_percent && hash_mb == o.hash_mb;
    }
    std::string text() const {
        std::string line =
            fmt::format("seed {} nodes {} random-plies {} chess960-percent {} eval {:08x} games {} bytes {}", seed,
                        nodes, random_plies, chess960_percent, eval_id, games_done, bytes);
        if (agame) line += fmt::format(" format agame positions {}", positions);
        if (soft_nodes) line += fmt::format(" soft-nodes {}", soft_nodes);
        if (dfrc_percent) line += fmt::format(" dfrc-percent {}", dfrc_percent);
        if (hash_mb != 16) line += fmt::format(" hash {}", hash_mb);
        return line + "\n";
    }
    static std::optional<Progress> read(const std::string& file) {
        std::ifstream in(file);
        std::string line;
        std::getline(in, line);
        const std::vector<std::string_view> words = split_words(line);
        constexpr std::string_view FirstKeys[] = {"seed", "nodes", "random-plies", "chess960-percent",
                                                  "eval", "games", "bytes"};
        constexpr size_t First = std::size(FirstKeys);
        if (words.size() % 2 != 0 || words.size() < 2 * First) return std::nullopt;
        Progress p;
        bool positions_seen = false;
        for (size_t i = 0; i < words.size(); i += 2) {
            const std::string_view key = words[i], value = words[i + 1];
            // The first seven keys stand in this order, and nowhere else.
            const bool first_key = std::find(std::begin(FirstKeys), std::end(FirstKeys), key) != std::end(FirstKeys);
            if (first_key != (i < 2 * First) || (first_key && key != FirstKeys[i / 2])) return std::nullopt;
            if (key == "format") {
                if (value != "agame") return std::nullopt;
                p.agame = true;
                continue;
            }
            if (key == "eval") {
                const ParsedNumber<uint32_t> id = parse_number<uint32_t>(value, 0, UINT32_MAX, 16);
                if (!id) return std::nullopt;
                p.eval_id = *id;
                continue;
            }
            const ParsedNumber<uint64_t> number = parse_number<uint64_t>(value);
            if (!number) return std::nullopt;
            if (key == "seed") p.seed = *number;
            else if (key == "nodes") p.nodes = *number;
            else if (key == "random-plies") p.random_plies = *number;
            else if (key == "chess960-percent") p.chess960_percent = *number;
            else if (key == "games") p.games_done = *number;
            else if (key == "bytes") p.bytes = *number, p.positions = p.bytes / sizeof(TrainingRecord);
            else if (key == "positions") p.positions = *number, positions_seen = true;
            else if (key == "soft-nodes") p.soft_nodes = *number;
            else if (key == "dfrc-percent") p.dfrc_percent = *number;
            else if (key == "hash") p.hash_mb = *number;
            else return std::nullopt;
        }
        if (p.agame != positions_seen) return std::nullopt;
        return p;
    }
};

// Signals ask the run to stop: the count of SIGINT/SIGTERM received. A signal handler
// can only reach static storage, and a lock-free atomic is all it may touch.
std::atomic<int> stop_signals{0};
static_assert(std::atomic<int>::is_always_lock_free);
extern "C" void on_stop_signal(int) { stop_signals.fetch_add(1, std::memory_order_relaxed); }

// Installs the handlers for one run and puts the previous ones back after it.
class StopSignals {
public:
    StopSignals() {
        stop_signals = 0;
        old_int_ = std::signal(SIGINT, on_stop_signal);
        old_term_ = std::signal(SIGTERM, on_stop_signal);
    }
    ~StopSignals() {
        std::signal(SIGINT, old_int_);
        std::signal(SIGTERM, old_term_);
    }
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;
    static int count() { return stop_signals.load(std::memory_order_relaxed); }

private:
    void (*old_int_)(int);
    void (*old_term_)(int);
};

}  // namespace

int run_datagen(const DatagenConfig& settings, std::ostream& log) {
    namespace fs = std::filesystem;
    DatagenConfig config = settings;
    std::unique_ptr<eval::nnue::Network> loaded;
    if (config.eval == "default") {
        config.network = eval::nnue::default_network();
    } else if (config.eval != "hce") {
        eval::nnue::LoadResult result = eval::nnue::load_network_file(config.eval);
        if (!result.net) {
            log << "arbiter datagen: " << result.error << '\n';
            return 1;
        }
        loaded = std::move(result.net);
        config.network = loaded.get();
    }
    Progress progress{
        config.seed, config.nodes, uint64_t(config.random_plies), uint64_t(config.chess960_percent), 0, 0};
    progress.agame = config.format == DataFormat::Agame;
    progress.soft_nodes = config.soft_nodes;
    progress.dfrc_percent = uint64_t(config.dfrc_percent);
    progress.hash_mb = uint64_t(config.hash_mb);
    if (config.network)  // a fingerprint of the weights (the struct's padding is not data)
        progress.eval_id = eval::nnue::crc32(std::as_bytes(std::span(config.network->feature_weights))) ^
                           eval::nnue::crc32(std::as_bytes(std::span(config.network->output_weights))) * 0x9E3779B1u;
    log << (config.network ? fmt::format("evaluation: network {:08x}\n", progress.eval_id)
                           : std::string("evaluation: hand-crafted\n"));
    std::error_code ec;
    if (fs::exists(Progress::path(config))) {
        const auto previous = Progress::read(Progress::path(config));
        if (!previous) {
            log << "arbiter datagen: cannot read " << Progress::path(config) << '\n';
            return 1;
        }
        if (!previous->same_settings(progress)) {
            log << "arbiter datagen: " << config.output << " was generated with other settings ("
                << previous->text().substr(0, previous->text().size() - 1) << "); use another --output\n";
            return 1;
        }
        progress = *previous;
        // Drop anything written after the last completed game.
        if (fs::exists(config.output) && fs::file_size(config.output) > progress.bytes)
            fs::resize_file(config.output, progress.bytes, ec);
        if (ec || !fs::exists(config.output) || fs::file_size(config.output) != progress.bytes) {
            log << "arbiter datagen: " << config.output << " does not match its progress file\n";
            return 1;
        }
        log << fmt::format("resuming after {} games ({} positions)\n", progress.games_done, progress.positions);
    } else if (fs::exists(config.output)) {
        log << "arbiter datagen: " << config.output << " exists without a progress file; refusing to overwrite it\n";
        return 1;
    }
    std::FILE* file = std::fopen(config.output.c_str(), "ab");
    if (!file) {
        log << "arbiter datagen: cannot open " << config.output << " for writing: " << system_error_text(errno) << '\n';
        return 1;
    }
    const auto save_progress = [&] {
        const std::string tmp = Progress::path(config) + ".tmp";
        { std::ofstream(tmp) << progress.text(); }
        fs::rename(tmp, Progress::path(config), ec);
    };
    save_progress();
    if (progress.games_done >= config.games) {
        std::fclose(file);
        log << "nothing to do: " << progress.games_done << " games already generated\n";
        return 0;
    }

    // Workers take game numbers in order; the writer appends finished games in
    // number order, so the file does not depend on thread timing. After a signal no
    // worker takes a new number, so every number handed out is a game finished (or,
    // after a second signal, abandoned: those and any after them are not written).
    const StopSignals signals;
    std::atomic<bool> abandon{false};
    std::atomic<uint64_t> next_game{progress.games_done};
    std::atomic<int> running{config.threads};
    std::mutex mutex;
    std::condition_variable finished_cv;
    std::map<uint64_t, GameRecords> finished;
    std::vector<std::thread> threads;
    for (int t = 0; t < config.threads; ++t)
        threads.emplace_back([&] {
            SelfPlayer player(config);
            for (uint64_t index; StopSignals::count() == 0 && (index = next_game.fetch_add(1)) < config.games;) {
                GameRecords game = player.play(index, &abandon);
                std::lock_guard lock(mutex);
                finished.emplace(index, std::move(game));
                finished_cv.notify_one();
            }
            std::lock_guard lock(mutex);
            --running;
            finished_cv.notify_one();
        });

    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto last_report = start;
    const uint64_t first_game = progress.games_done;
    uint64_t positions_this_run = 0, plies_this_run = 0, nodes_this_run = 0;
    uint64_t results[3] = {};
    const auto report = [&](const char* prefix) {
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        const uint64_t games_run = progress.games_done - first_game;
        const double eta = games_run ? elapsed / double(games_run) * double(config.games - progress.games_done) : 0.0;
        log << fmt::format(
            "{}games {}/{}  positions {}  {:.0f} positions/s  elapsed {:.0f} s  ETA {:.0f} s  "
            "(this run: +{} / ={} / -{})\n",
            prefix, progress.games_done, config.games, progress.positions,
            double(positions_this_run) / std::max(elapsed, 1e-9), elapsed, eta, results[int(TrainingResult::WhiteWins)],
            results[int(TrainingResult::Draw)], results[int(TrainingResult::BlackWins)]);
        log.flush();
    };
    std::vector<uint8_t> agame;
    bool write_failed = false;
    while (progress.games_done < config.games) {
        GameRecords game;
        bool have = false;
        {
            std::unique_lock lock(mutex);
            finished_cv.wait_for(lock, std::chrono::milliseconds(200), [&] {
                return finished.count(progress.games_done) != 0 || running == 0 || StopSignals::count() > 1;
            });
            if (StopSignals::count() > 1) abandon = true;
            const auto it = finished.find(progress.games_done);
            if (it == finished.end() || !it->second.complete) {
                if (running == 0 || abandon) break;  // stopped, and nothing more to write in order
            } else {
                game = std::move(it->second);
                finished.erase(it);
                have = true;
            }
        }
        if (have) {
            // A game is written whole, then counted in the progress file: a run killed
            // in between leaves bytes past `progress.bytes`, which the next run cuts off.
            agame.clear();
            if (progress.agame) append_game(agame, game.game);
            const void* data = progress.agame ? static_cast<const void*>(agame.data()) : game.records.data();
            const size_t bytes = progress.agame ? agame.size() : game.records.size() * sizeof(TrainingRecord);
            const size_t positions = progress.agame ? game.game.plies.size() : game.records.size();
            if ((bytes && std::fwrite(data, 1, bytes, file) != bytes) || std::fflush(file) != 0) {
                log << "arbiter datagen: write to " << config.output << " failed\n";
                write_failed = abandon = true;
                break;
            }
            progress.bytes += bytes;
            progress.positions += positions;
            ++progress.games_done;
            positions_this_run += positions;
            plies_this_run += game.game.plies.size();
            nodes_this_run += game.nodes;
            ++results[int(game.result)];
            save_progress();
        }
        if (Clock::now() - last_report >= std::chrono::seconds(5)) {
            last_report = Clock::now();
            report("");
        }
    }
    if (progress.games_done < config.games) abandon = true;  // a second signal, or a failed write
    for (std::thread& t : threads) t.join();
    std::fclose(file);
    if (write_failed) return 1;
    const bool stopped = progress.games_done < config.games;
    report(stopped ? "stopped by signal: " : "done: ");
    log << fmt::format("this run: {} plies searched, {:.0f} nodes a ply (openings' searches included)\n",
                       plies_this_run, double(nodes_this_run) / double(std::max<uint64_t>(plies_this_run, 1)));
    if (stopped)
        log << fmt::format("{} holds {} complete games; the same command continues it\n", config.output,
                           progress.games_done);
    return 0;
}

}  // namespace arbiter::tools

#pragma once
// Self-play data generation for training the NNUE (`arbiter datagen ...`).
//
// Each game starts from a few random legal plies (from the standard start, a random
// Chess960 start or a random DFRC start: independent Chess960 back ranks for White
// and Black), is played with node-limited searches (a soft limit: no iteration
// starts past it, under a hard cap), and ends by the FIDE rules of the rules core or
// by adjudication. With `--format abin` (the default)
// positions are written as the 32-byte records of nets/README.md, without positions
// in check, positions whose best move is a capture or promotion, and positions with
// mate scores. With `--format agame` whole games are written in the compact format of
// tools/game_record.h, every searched ply unfiltered; `arbiter convert` applies the
// same filters later and gives the same records.
//
// Reproducible: game i depends only on (seed, i), because every game starts from a
// cleared hash table and cleared histories; games are written in index order
// whatever the number of threads. Resumable: `<output>.progress` records the games
// and bytes written, and a run with the same settings continues from there. SIGINT or
// SIGTERM: no new game starts, the games being played are finished and written (a
// second signal drops them instead; a rerun plays them again), then the summary.

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "eval/nnue/network.h"
#include "tools/cli.h"
#include "tools/game_record.h"
#include "tools/training_record.h"

namespace arbiter::tools {

enum class DataFormat { Abin, Agame };

struct DatagenConfig {
    std::string output;
    DataFormat format = DataFormat::Abin;
    uint64_t games = 1000;
    int threads = 1;
    uint64_t soft_nodes = 2500;  // no iteration starts past this many nodes (0: none)
    uint64_t nodes = 10000;      // hard node cap of every move's search
    uint64_t seed = 1;
    int random_plies = 8;              // 8 or 9 random plies open each game
    int chess960_percent = 0;          // share of games from random Chess960 starts
    int dfrc_percent = 0;              // share of games from random DFRC starts
    int opening_limit_cp = 1000;       // openings scoring beyond this are thrown away
    int hash_mb = 16;                  // per thread
    int win_adjudication_cp = 2000;    // a side this far ahead ...
    int win_adjudication_plies = 6;    // ... for this many consecutive plies wins
    int draw_adjudication_ply = 80;    // from this ply on ...
    int draw_adjudication_cp = 10;     // ... scores within this ...
    int draw_adjudication_plies = 12;  // ... for this many consecutive plies draw
    int max_plies = 500;               // a game still running after this is a draw
    // "default": the embedded network (the hand-crafted evaluation in a build without
    // one); "hce": the hand-crafted evaluation; anything else: a .anet file.
    std::string eval = "default";
    // Set by run_datagen from `eval`; nullptr: the hand-crafted evaluation.
    const eval::nnue::Network* network = nullptr;
};

struct GameRecords {
    std::vector<TrainingRecord> records;  // the filtered positions, as `.abin` stores them
    ScoredGame game;                      // every searched ply, as `.agame` stores them
    TrainingResult result = TrainingResult::Draw;
    int plies = 0;
    uint64_t nodes = 0;    // searched, openings included
    bool complete = true;  // false: abandoned at the abort flag's request
};

// The start position of DFRC number `number` (0 .. 960 * 960 - 1): White's back rank
// is Chess960 start number / 960, Black's number % 960, with Shredder-FEN castling.
Position dfrc_start(int number);

// Plays self-play games; one per thread, reused from game to game.
class SelfPlayer {
public:
    explicit SelfPlayer(const DatagenConfig& config);
    ~SelfPlayer();
    // Plays game number `index`: deterministic given the config's seed and nodes.
    // When `abort` becomes true the game is abandoned (`complete` false).
    GameRecords play(uint64_t index, const std::atomic<bool>* abort = nullptr);

private:
    struct State;
    DatagenConfig config_;
    std::unique_ptr<State> state_;
};

// The most games and nodes a move a run may ask for: far beyond any run's needs, and
// far from the counters' limits.
constexpr uint64_t MaxDatagenGames = 1'000'000'000;
constexpr uint64_t MaxDatagenNodes = 1'000'000'000;

// Parses `datagen` command-line options (`--output FILE --games N ...`) with the shared
// argument reader (tools/cli.h); an error message on failure, empty on success.
std::string parse_datagen_args(const Args& args, DatagenConfig& config);

// Runs the generation; progress lines go to `log`. Returns the process exit code.
int run_datagen(const DatagenConfig& config, std::ostream& log);

}  // namespace arbiter::tools

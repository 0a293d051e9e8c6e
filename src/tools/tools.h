#pragma once
// The command-line tools, one entry point each: `arbiter <tool> args...`. Each returns
// the process exit status; results go to `out`, messages and progress to `err`.
// main.cpp only dispatches to them.

#include <iosfwd>

#include "tools/cli.h"

namespace arbiter::tools {

int perft_main(const Args& args, std::ostream& out, std::ostream& err);
int bench_main(const Args& args, std::ostream& out, std::ostream& err);
// `analyse --pgn ...` reviews games (analyse_game.cpp), else a position (analyse_position.cpp).
int analyse_main(const Args& args, std::ostream& out, std::ostream& err);
int analyse_position_main(const Args& args, std::ostream& out, std::ostream& err);
int analyse_game_main(const Args& args, std::ostream& out, std::ostream& err);
int epd_main(const Args& args, std::ostream& out, std::ostream& err);
// Self-play training data (datagen.h).
int datagen_main(const Args& args, std::ostream& out, std::ostream& err);
// Training records from self-play (`.agame`, `.apack`: pool.h) or engine games in PGN
// (pgn_training.h).
int convert_main(const Args& args, std::ostream& out, std::ostream& err);
// Self-play games packed into `.apack` shards for keeping, and back (pool.h).
int pack_main(const Args& args, std::ostream& out, std::ostream& err);
int unpack_main(const Args& args, std::ostream& out, std::ostream& err);
// The search parameters as an SPSA tuner reads them (search/tunable.h).
int spsa_main(const Args& args, std::ostream& out, std::ostream& err);

}  // namespace arbiter::tools

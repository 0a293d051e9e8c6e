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

} // namespace arbiter::tools

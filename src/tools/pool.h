#pragma once
// The self-play pool: `.agame` runs packed into `.apack` shards for keeping
// (tools/game_pack.h), unpacked again, and any number of both converted into one
// `.abin` training file with every game once.
//
//   arbiter pack IN.agame OUT.apack [--skip N] [--games N]
//   arbiter unpack IN.apack OUT.agame
//   arbiter convert IN... OUT.abin      (each IN an .agame or .apack file)
//
// `pack` takes the complete games of IN from game `--skip` on (counted from 0), all
// or `--games` of them, so that a growing run is packed shard by shard; a truncated
// last game (a run still writing) is left for the next shard. Shards of runs with
// distinct seeds, on any number of machines, merge: `convert` drops a game it has
// already converted (same start, moves, scores and result), wherever it came from,
// and counts it.

#include <iosfwd>
#include <string>
#include <vector>

#include "tools/cli.h"

namespace arbiter::tools {

// `arbiter convert IN... OUT.abin` for `.agame` and `.apack` inputs: the summary line
// and any error go to `log`; returns the exit code (1 when an input is damaged or
// unreadable: the games before the damage are converted, later inputs too).
int run_convert_pool(const std::vector<std::string>& inputs, const std::string& output, std::ostream& log);

}  // namespace arbiter::tools

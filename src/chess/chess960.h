#pragma once
// The 960 starting positions of Chess960 (FIDE Laws, Guidelines II), by their
// standard number 0-959 (Scharnagl's numbering; 518 is the standard start).

#include <string>

namespace arbiter {

// The position's FEN with Shredder-FEN castling letters (for example "HAha").
// `number` must be in 0..959.
std::string chess960_start_fen(int number);

}  // namespace arbiter

#pragma once
// The UCI text protocol: reads command lines, prints responses. Chess knowledge
// comes from the layers below; this layer only parses and prints.

#include <iosfwd>
#include <string>
#include <string_view>

#include "chess/game.h"
#include "uci/options.h"

namespace arbiter::uci {

class Session {
public:
    explicit Session(std::ostream& out);

    // Handles one command line. Returns false once the session should end (`quit`).
    bool handle(std::string_view line);
    // Reads and handles lines until `quit` or the end of input.
    void run(std::istream& in);

    const Game& game() const { return game_; }

private:
    void println(std::string_view text);
    void error(std::string_view message);

    void cmd_uci();
    void cmd_setoption(const std::vector<std::string_view>& words);
    void cmd_position(const std::vector<std::string_view>& words);
    void cmd_go(const std::vector<std::string_view>& words);
    void cmd_perft(int depth);
    void cmd_display();

    std::ostream& out_;
    OptionRegistry options_;
    bool chess960_ = false;
    Game game_;
};

// The board as text, White at the bottom, as printed by `d`.
std::string board_diagram(const Position& pos);

// Runs a divide from the command line (`arbiter perft <depth> [fen]`). Returns the
// process exit code; errors go to `err`.
int perft_command(int depth, std::string_view fen, std::ostream& out, std::ostream& err);

} // namespace arbiter::uci

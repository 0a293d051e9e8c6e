#pragma once
// The UCI text protocol: reads command lines, prints responses. Chess knowledge and
// searching come from the layers below; this layer only parses and prints.
//
// Threads: the caller of handle() (the stdin reader) and the search thread both
// print; every line goes through println(), which holds a mutex and flushes.

#include <iosfwd>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "chess/game.h"
#include "search/engine.h"
#include "uci/options.h"

namespace arbiter::uci {

class Session {
public:
    explicit Session(std::ostream& out);
    ~Session();

    // Handles one command line. Returns false once the session should end (`quit`).
    bool handle(std::string_view line);
    // Reads and handles lines until `quit` or the end of input, then ends any search.
    void run(std::istream& in);

    const Game& game() const { return game_; }
    // Blocks until the current search, if any, has printed its bestmove.
    void wait_for_search() { engine_.wait(); }

private:
    void println(std::string_view text);
    void error(std::string_view message);
    void declare_options();

    void cmd_uci();
    void cmd_setoption(const std::vector<std::string_view>& words);
    void cmd_position(const std::vector<std::string_view>& words);
    void cmd_go(const std::vector<std::string_view>& words);
    void cmd_perft(int depth);
    void cmd_display();
    void cmd_eval();
    void cmd_bench(const std::vector<std::string_view>& words);

    void print_iteration(const std::vector<search::SearchInfo>& lines);
    void print_best_move(Move best, Move ponder);

    std::ostream& out_;
    std::mutex out_mutex_;
    OptionRegistry options_;
    bool chess960_ = false;
    FenCheck fen_check_ = FenCheck::Reachable;
    bool show_wdl_ = false;
    Game game_;
    // Declared last: destroyed first, so its search thread ends before the rest.
    search::Engine engine_;
};

// The board as text, White at the bottom, as printed by `d`.
std::string board_diagram(const Position& pos);

}  // namespace arbiter::uci

// The game review's output read back with our own PGN reader: standard output is a PGN
// file holding every game with its annotations and nothing else; the summary table goes
// to standard error; --json writes JSON lines only.

#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "chess/pgn.h"
#include "tools/tools.h"

using namespace arbiter;

namespace {

const std::string GamesFile = std::string(ARBITER_TEST_DATA) + "/engine-games-sample.pgn";
const std::string BlunderFile = std::string(ARBITER_TEST_DATA) + "/hand-blunder.pgn";

struct Run {
    int status = 0;
    std::string out, err;
};

Run analyse(std::vector<std::string_view> args) {
    std::ostringstream out, err;
    args.insert(args.begin(), {"--depth", "3"});
    const int status = tools::analyse_main(args, out, err);
    return {status, out.str(), err.str()};
}

std::string read_whole(const std::string& path) {
    std::string error;
    const std::optional<std::string> text = tools::read_file(path, error);
    REQUIRE(text);
    return *text;
}

bool has_nag(const PgnMove& m, int nag) { return std::find(m.nags.begin(), m.nags.end(), nag) != m.nags.end(); }

}  // namespace

TEST_CASE("analyse --pgn: standard output is the annotated games and nothing else", "[tools][review]") {
    for (const std::string& file : {GamesFile, BlunderFile}) {
        INFO(file);
        const PgnReadResult source = read_pgn(read_whole(file));
        REQUIRE(source.errors.empty());
        const Run run = analyse({"--pgn", file});
        REQUIRE(run.status == 0);
        const PgnReadResult annotated = read_pgn(run.out);
        CHECK(annotated.errors.empty());
        REQUIRE(annotated.games.size() == source.games.size());
        // Between and after the games there is nothing a PGN reader would have to skip.
        CHECK(run.out.find("Game 1:") == std::string::npos);
        CHECK(run.out.find("inaccuracies") == std::string::npos);
        for (size_t g = 0; g < source.games.size(); ++g) {
            const PgnGame& in = source.games[g];
            const PgnGame& out = annotated.games[g];
            INFO("game " << g + 1);
            CHECK(out.result == in.result);
            CHECK(out.start.fen() == in.start.fen());
            REQUIRE(out.moves.size() == in.moves.size());
            int judged = 0;
            for (size_t i = 0; i < in.moves.size(); ++i) {
                CHECK(out.moves[i].move == in.moves[i].move);
                const bool mates = i + 1 == in.moves.size() && out.mainline().status() == GameStatus::Checkmate;
                // Every move but a mating one has its evaluation; the original comments stay.
                CHECK((out.moves[i].comment.find("[%eval ") == 0) != mates);
                if (!in.moves[i].comment.empty())
                    CHECK(out.moves[i].comment.find(in.moves[i].comment) != std::string::npos);
                const bool marked = has_nag(out.moves[i], 2) || has_nag(out.moves[i], 4) || has_nag(out.moves[i], 6);
                if (marked) {
                    ++judged;
                    CHECK(out.moves[i].comment.find(" was best.") != std::string::npos);
                    CHECK_FALSE(out.moves[i].variations.empty());
                }
            }
            // The summary travels in the tags, and agrees with the marks.
            int counted = 0;
            for (const char* side : {"White", "Black"}) {
                REQUIRE(out.tag(std::string(side) + "Accuracy"));
                for (const char* what : {"Inaccuracies", "Mistakes", "Blunders"}) {
                    const std::optional<std::string> n = out.tag(std::string(side) + what);
                    REQUIRE(n);
                    counted += std::stoi(*n);
                }
            }
            CHECK(counted == judged);
            // And the table for the person watching is on standard error.
            CHECK(run.err.find("Game " + std::to_string(in.number) + ": ") != std::string::npos);
        }
    }
}

TEST_CASE("analyse --pgn --json: standard output is JSON lines only", "[tools][review]") {
    const Run run = analyse({"--pgn", GamesFile, "--json"});
    REQUIRE(run.status == 0);
    std::istringstream lines(run.out);
    int objects = 0, summaries = 0;
    for (std::string line; std::getline(lines, line);) {
        ++objects;
        CHECK(line.front() == '{');
        CHECK(line.back() == '}');
        summaries += line.find("\"summary\":") != std::string::npos;
    }
    CHECK(summaries == 2);
    CHECK(objects > 40);
    CHECK(run.out.find("[Event") == std::string::npos);
}

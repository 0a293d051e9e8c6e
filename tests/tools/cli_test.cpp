// The search limits of the command-line tools: bounds a person can read and would
// give (a year of milliseconds, a trillion nodes), and messages that say which unit
// and range a flag takes.

#include <catch2/catch.hpp>

#include <string>

#include "tools/cli.h"

using namespace arbiter::tools;

namespace {

// The error of reading `flag value` as a search flag into fresh options (copied to
// `taken`, when given); empty when it was taken.
std::string read_error(std::string_view flag, std::string_view value, SearchOptions* taken = nullptr) {
    SearchOptions options;
    const Args args = {flag, value};
    ArgReader reader(args);
    std::string error;
    REQUIRE(read_search_flag(reader, reader.next(), options, true, error));
    if (taken) *taken = options;
    return error;
}

}  // namespace

TEST_CASE("analyse and epd take --movetime in milliseconds up to a year", "[tools]") {
    SearchOptions options;
    CHECK(read_error("--movetime", "31536000000", &options).empty());
    CHECK(options.limits.movetime == 31'536'000'000);
    CHECK(read_error("--movetime", "31536000001") ==
          "--movetime needs milliseconds from 1 to 31536000000, not '31536000001'");
    CHECK(read_error("--movetime", "0") == "--movetime needs milliseconds from 1 to 31536000000, not '0'");
    CHECK(read_error("--movetime", "1.5") == "--movetime needs milliseconds from 1 to 31536000000, not '1.5'");
}

TEST_CASE("analyse and epd take --nodes up to a trillion", "[tools]") {
    SearchOptions options;
    CHECK(read_error("--nodes", "1000000000000", &options).empty());
    CHECK(options.limits.nodes == 1'000'000'000'000);
    CHECK(read_error("--nodes", "1000000000001") ==
          "--nodes needs a number of nodes from 1 to 1000000000000, not '1000000000001'");
    CHECK(read_error("--nodes", "-5") == "--nodes needs a number of nodes from 1 to 1000000000000, not '-5'");
}

TEST_CASE("the other search flags keep their plain bounds", "[tools]") {
    CHECK(read_error("--depth", "128") == "--depth needs a number from 1 to 127, not '128'");
    CHECK(read_error("--threads", "1025") == "--threads needs a number from 1 to 1024, not '1025'");
    CHECK(read_error("--hash", "65537") == "--hash needs a number from 1 to 65536, not '65537'");
    CHECK(read_error("--multipv", "257") == "--multipv needs a number from 1 to 256, not '257'");
}

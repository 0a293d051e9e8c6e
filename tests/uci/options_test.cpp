// The option registry reads every value itself: callbacks get a bool, an int within
// the declared range, a string or nothing, and a bad value reaches no callback but
// comes back as a message that names it and what the option takes.

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "uci/options.h"

using namespace arbiter::uci;

namespace {

struct Seen {
    std::optional<bool> check;
    std::optional<int> spin;
    int presses = 0;
    std::optional<std::string> text;
};

OptionRegistry registry(Seen& seen) {
    OptionRegistry options;
    options.add_check("Ponder", false, [&seen](bool on) { seen.check = on; });
    options.add_spin("Threads", 1, 1, 1024, [&seen](int n) { seen.spin = n; });
    options.add_button("Clear Hash", [&seen] { ++seen.presses; });
    options.add_string("SyzygyPath", "", [&seen](const std::string& path) { seen.text = path; });
    return options;
}

}  // namespace

TEST_CASE("option callbacks receive typed, checked values", "[uci][options]") {
    Seen seen;
    OptionRegistry options = registry(seen);
    CHECK(options.set("Ponder", "true").empty());
    CHECK(seen.check == true);
    CHECK(options.set("ponder", "FALSE").empty());
    CHECK(seen.check == false);
    CHECK(options.set("Threads", "1024").empty());
    CHECK(seen.spin == 1024);
    CHECK(options.set("THREADS", "1").empty());
    CHECK(seen.spin == 1);
    CHECK(options.set("Clear Hash", "").empty());
    CHECK(options.set("clear hash", "anything").empty());
    CHECK(seen.presses == 2);
    CHECK(options.set("SyzygyPath", "/tb/a:/tb/b").empty());
    CHECK(seen.text == "/tb/a:/tb/b");
}

TEST_CASE("a bad option value reaches no callback and says what was wrong", "[uci][options]") {
    Seen seen;
    OptionRegistry options = registry(seen);
    CHECK(options.set("Threads", "0") == "option Threads takes a value from 1 to 1024, not 0");
    CHECK(options.set("Threads", "1025") == "option Threads takes a value from 1 to 1024, not 1025");
    CHECK(options.set("Threads", "99999999999") == "option Threads takes a value from 1 to 1024, not 99999999999");
    CHECK(options.set("Threads", "abc") == "option Threads takes a whole number from 1 to 1024, not 'abc'");
    CHECK(options.set("Threads", "2.5") == "option Threads takes a whole number from 1 to 1024, not '2.5'");
    CHECK(options.set("Threads", "") == "option Threads needs a value: a whole number from 1 to 1024");
    CHECK(options.set("Ponder", "yes") == "option Ponder takes true or false, not 'yes'");
    CHECK(options.set("Ponder", "") == "option Ponder needs a value: true or false");
    CHECK(options.set("Nope", "3") == "unknown option 'Nope'");
    CHECK_FALSE(seen.check.has_value());
    CHECK_FALSE(seen.spin.has_value());
}

TEST_CASE("the uci listing of each option type", "[uci][options]") {
    Seen seen;
    const std::vector<std::string> lines = registry(seen).describe();
    CHECK(lines == std::vector<std::string>{"option name Ponder type check default false",
                                            "option name Threads type spin default 1 min 1 max 1024",
                                            "option name Clear Hash type button",
                                            "option name SyzygyPath type string default <empty>"});
}

#pragma once
// The UCI option registry: each option is declared once, and that one declaration
// both prints `option name ...` for `uci` and applies `setoption`.
//
// The registry reads the value: a callback receives it parsed and range-checked, as
// the type its option declares (a check's bool, a spin's int within min and max, a
// string's text, nothing for a button), and runs only for a good value. A bad one is
// refused with a message naming the value and what the option takes.

#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace arbiter::uci {

class OptionRegistry {
public:
    using OnCheck = std::function<void(bool value)>;
    using OnSpin = std::function<void(int value)>;
    using OnButton = std::function<void()>;
    using OnString = std::function<void(const std::string& value)>;

    void add_check(std::string name, bool default_value, OnCheck on_change);
    void add_spin(std::string name, int default_value, int min, int max, OnSpin on_change);
    void add_button(std::string name, OnButton on_press);
    void add_string(std::string name, std::string default_value, OnString on_change);

    // The `option name ...` lines, in declaration order.
    std::vector<std::string> describe() const;

    // Applies `setoption`: names compare case-insensitively. Returns an error message
    // (unknown name, a value that is not of the option's type or out of its range) or
    // an empty string on success.
    std::string set(std::string_view name, std::string_view value);

private:
    struct Option {
        std::string name;
        std::string default_value;  // as `uci` prints it
        int min = 0, max = 0;       // spin options only
        std::variant<OnCheck, OnSpin, OnButton, OnString> on_change;
    };
    std::vector<Option> options_;
};

}  // namespace arbiter::uci

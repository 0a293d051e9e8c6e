#pragma once
// The UCI option registry: each option is declared once, and that one declaration
// both prints `option name ...` for `uci` and applies `setoption`.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace arbiter::uci {

class OptionRegistry {
public:
    using OnChange = std::function<void(const std::string& value)>;

    void add_check(std::string name, bool default_value, OnChange on_change);
    void add_spin(std::string name, int default_value, int min, int max, OnChange on_change);
    void add_button(std::string name, OnChange on_press);
    void add_string(std::string name, std::string default_value, OnChange on_change);

    // The `option name ...` lines, in declaration order.
    std::vector<std::string> describe() const;

    // Applies `setoption`: names compare case-insensitively. Returns an error message
    // (unknown name, wrong type, out of range) or an empty string on success.
    std::string set(std::string_view name, std::string_view value);

private:
    enum class Type { Check, Spin, Button, String };
    struct Option {
        std::string name;
        Type type;
        std::string default_value;
        int min = 0, max = 0;
        OnChange on_change;
    };
    std::vector<Option> options_;
};

} // namespace arbiter::uci

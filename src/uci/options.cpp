#include "uci/options.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "util/parse.h"

namespace arbiter::uci {

namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

// std::visit over one callback of each option type.
template <typename... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <typename... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace

void OptionRegistry::add_check(std::string name, bool default_value, OnCheck on_change) {
    options_.push_back({std::move(name), default_value ? "true" : "false", 0, 0, std::move(on_change)});
}

void OptionRegistry::add_spin(std::string name, int default_value, int min, int max, OnSpin on_change) {
    options_.push_back({std::move(name), std::to_string(default_value), min, max, std::move(on_change)});
}

void OptionRegistry::add_button(std::string name, OnButton on_press) {
    options_.push_back({std::move(name), {}, 0, 0, std::move(on_press)});
}

void OptionRegistry::add_string(std::string name, std::string default_value, OnString on_change) {
    options_.push_back({std::move(name), std::move(default_value), 0, 0, std::move(on_change)});
}

std::vector<std::string> OptionRegistry::describe() const {
    std::vector<std::string> lines;
    for (const Option& o : options_) {
        lines.push_back(
            std::visit(Overloaded{
                           [&](const OnCheck&) {
                               return fmt::format("option name {} type check default {}", o.name, o.default_value);
                           },
                           [&](const OnSpin&) {
                               return fmt::format("option name {} type spin default {} min {} max {}", o.name,
                                                  o.default_value, o.min, o.max);
                           },
                           [&](const OnButton&) { return fmt::format("option name {} type button", o.name); },
                           [&](const OnString&) {
                               return fmt::format("option name {} type string default {}", o.name,
                                                  o.default_value.empty() ? "<empty>" : o.default_value);
                           },
                       },
                       o.on_change));
    }
    return lines;
}

std::string OptionRegistry::set(std::string_view name, std::string_view value) {
    const auto it = std::find_if(options_.begin(), options_.end(),
                                 [&](const Option& o) { return equal_ignoring_case(o.name, name); });
    if (it == options_.end()) return fmt::format("unknown option '{}'", name);
    const Option& o = *it;
    return std::visit(
        Overloaded{
            [&](const OnCheck& on_change) -> std::string {
                if (value.empty()) return fmt::format("option {} needs a value: true or false", o.name);
                if (equal_ignoring_case(value, "true")) on_change(true);
                else if (equal_ignoring_case(value, "false")) on_change(false);
                else return fmt::format("option {} takes true or false, not '{}'", o.name, value);
                return {};
            },
            [&](const OnSpin& on_change) -> std::string {
                if (value.empty())
                    return fmt::format("option {} needs a value: a whole number from {} to {}", o.name, o.min, o.max);
                const ParsedNumber<int> number = parse_number(value, o.min, o.max);
                if (number.error() == NumberError::NotANumber)
                    return fmt::format("option {} takes a whole number from {} to {}, not '{}'", o.name, o.min, o.max,
                                       value);
                if (!number)
                    return fmt::format("option {} takes a value from {} to {}, not {}", o.name, o.min, o.max, value);
                on_change(*number);
                return {};
            },
            [&](const OnButton& on_press) -> std::string {
                on_press();
                return {};
            },
            [&](const OnString& on_change) -> std::string {
                on_change(std::string(value));
                return {};
            },
        },
        o.on_change);
}

}  // namespace arbiter::uci

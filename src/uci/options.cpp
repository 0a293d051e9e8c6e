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

} // namespace

void OptionRegistry::add_check(std::string name, bool default_value, OnChange on_change) {
    options_.push_back({std::move(name), Type::Check, default_value ? "true" : "false", 0, 0, std::move(on_change)});
}

void OptionRegistry::add_spin(std::string name, int default_value, int min, int max, OnChange on_change) {
    options_.push_back({std::move(name), Type::Spin, std::to_string(default_value), min, max, std::move(on_change)});
}

void OptionRegistry::add_button(std::string name, OnChange on_press) {
    options_.push_back({std::move(name), Type::Button, {}, 0, 0, std::move(on_press)});
}

void OptionRegistry::add_string(std::string name, std::string default_value, OnChange on_change) {
    options_.push_back({std::move(name), Type::String, std::move(default_value), 0, 0, std::move(on_change)});
}

std::vector<std::string> OptionRegistry::describe() const {
    std::vector<std::string> lines;
    for (const Option& o : options_) {
        switch (o.type) {
        case Type::Check:
            lines.push_back(fmt::format("option name {} type check default {}", o.name, o.default_value));
            break;
        case Type::Spin:
            lines.push_back(fmt::format("option name {} type spin default {} min {} max {}", o.name,
                                        o.default_value, o.min, o.max));
            break;
        case Type::Button: lines.push_back(fmt::format("option name {} type button", o.name)); break;
        case Type::String:
            lines.push_back(fmt::format("option name {} type string default {}", o.name,
                                        o.default_value.empty() ? "<empty>" : o.default_value));
            break;
        }
    }
    return lines;
}

std::string OptionRegistry::set(std::string_view name, std::string_view value) {
    const auto it = std::find_if(options_.begin(), options_.end(),
                                 [&](const Option& o) { return equal_ignoring_case(o.name, name); });
    if (it == options_.end()) return fmt::format("unknown option '{}'", name);
    const Option& o = *it;
    switch (o.type) {
    case Type::Check:
        if (equal_ignoring_case(value, "true")) o.on_change("true");
        else if (equal_ignoring_case(value, "false")) o.on_change("false");
        else return fmt::format("option {} takes true or false, not '{}'", o.name, value);
        break;
    case Type::Spin: {
        const ParsedNumber<int> number = parse_number(value, o.min, o.max);
        if (number.error() == NumberError::NotANumber)
            return fmt::format("option {} takes a whole number, not '{}'", o.name, value);
        if (!number) return fmt::format("option {} takes a value from {} to {}, not {}", o.name, o.min, o.max, value);
        o.on_change(std::to_string(*number));
        break;
    }
    case Type::Button: o.on_change({}); break;
    case Type::String: o.on_change(std::string(value)); break;
    }
    return {};
}

} // namespace arbiter::uci

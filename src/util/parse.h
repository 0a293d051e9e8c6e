#pragma once
// Text to numbers, once for the whole engine: UCI commands and options, FEN clocks,
// PGN annotations, command-line flags and progress files all read their integers
// through parse_number, so every one of them accepts the same spelling and says the
// same things about a bad one.

#include <charconv>
#include <concepts>
#include <limits>
#include <string_view>

namespace arbiter {

// Why parse_number gave no value.
enum class NumberError {
    None,
    NotANumber,  // not an integer as written below (empty, a blank, a '+', a decimal point, ...)
    OutOfRange,  // an integer, but outside the range asked for (or outside the type)
};

// A number, or why there is none; reads like std::optional.
template <std::integral T>
class ParsedNumber {
public:
    ParsedNumber(T value) : value_(value) {}
    ParsedNumber(NumberError error) : error_(error) {}

    bool has_value() const { return error_ == NumberError::None; }
    explicit operator bool() const { return has_value(); }
    // The value; only when has_value().
    T operator*() const { return value_; }
    NumberError error() const { return error_; }

    friend bool operator==(const ParsedNumber& parsed, T value) { return parsed.has_value() && parsed.value_ == value; }

private:
    T value_{};
    NumberError error_ = NumberError::None;
};

// The whole of `text` as an integer from `min` to `max`, in `base` (10 unless said):
// digits only, after a '-' for a signed type; no blanks, no '+', nothing after the
// digits. A '-' before an unsigned type's digits makes it NotANumber.
template <std::integral T>
ParsedNumber<T> parse_number(std::string_view text, T min = std::numeric_limits<T>::min(),
                             T max = std::numeric_limits<T>::max(), int base = 10) {
    T value{};
    const char* const end = text.data() + text.size();
    const auto [stop, ec] = std::from_chars(text.data(), end, value, base);
    if (stop != end || (ec != std::errc() && ec != std::errc::result_out_of_range)) return NumberError::NotANumber;
    if (ec == std::errc::result_out_of_range || value < min || value > max) return NumberError::OutOfRange;
    return value;
}

}  // namespace arbiter

// parse_number, the one reader of integers in text: the whole text or nothing, the
// range asked for, and why a text was refused.

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "util/parse.h"

using namespace arbiter;

TEST_CASE("parse_number reads the whole text as an integer", "[util]") {
    CHECK(parse_number<int>("0") == 0);
    CHECK(parse_number<int>("42") == 42);
    CHECK(parse_number<int>("-17") == -17);
    CHECK(parse_number<int>("007") == 7);
    CHECK(parse_number<int64_t>("9223372036854775807") == std::numeric_limits<int64_t>::max());
    CHECK(parse_number<int64_t>("-9223372036854775808") == std::numeric_limits<int64_t>::min());
    CHECK(parse_number<uint64_t>("18446744073709551615") == std::numeric_limits<uint64_t>::max());
    CHECK(parse_number<uint32_t>("ffffffff", 0, UINT32_MAX, 16) == UINT32_MAX);
    CHECK(parse_number<uint32_t>("00c0ffee", 0, UINT32_MAX, 16) == 0xC0FFEEu);
}

TEST_CASE("parse_number refuses what is not an integer", "[util]") {
    for (const char* text : {"", " ", "12x", "x12", " 12", "12 ", "+12", "1.5", "1e3", "-", "--1", "0x10", "12\n"}) {
        INFO("'" << text << "'");
        const ParsedNumber<int> parsed = parse_number<int>(text);
        CHECK_FALSE(parsed.has_value());
        CHECK(parsed.error() == NumberError::NotANumber);
    }
    // An unsigned type takes no sign at all.
    CHECK(parse_number<uint64_t>("-1").error() == NumberError::NotANumber);
    CHECK(parse_number<unsigned>("-0").error() == NumberError::NotANumber);
    CHECK(parse_number<uint32_t>("c0ffeg", 0, UINT32_MAX, 16).error() == NumberError::NotANumber);
}

TEST_CASE("parse_number tells a number out of range from a word", "[util]") {
    CHECK(parse_number<int>("0", 1, 1024).error() == NumberError::OutOfRange);
    CHECK(parse_number<int>("1025", 1, 1024).error() == NumberError::OutOfRange);
    CHECK(parse_number<int>("-5", 0, 10).error() == NumberError::OutOfRange);
    CHECK(parse_number<int>("1", 1, 1024) == 1);
    CHECK(parse_number<int>("1024", 1, 1024) == 1024);
    // Beyond the type itself: still a number, out of range.
    CHECK(parse_number<int>("2147483648").error() == NumberError::OutOfRange);
    CHECK(parse_number<int64_t>("99999999999999999999").error() == NumberError::OutOfRange);
    CHECK(parse_number<int64_t>("-99999999999999999999").error() == NumberError::OutOfRange);
    CHECK(parse_number<uint8_t>("256").error() == NumberError::OutOfRange);
    // A value that is there reports no error.
    CHECK(parse_number<int>("12").error() == NumberError::None);
    CHECK(*parse_number<int>("12") == 12);
}

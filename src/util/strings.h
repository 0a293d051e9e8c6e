#pragma once
// Chess-agnostic text helpers.

#include <string>
#include <string_view>
#include <vector>

namespace arbiter {

// Splits on runs of spaces, tabs and carriage returns; no empty tokens.
inline std::vector<std::string_view> split_words(std::string_view text) {
    std::vector<std::string_view> words;
    size_t i = 0;
    auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (i < text.size()) {
        while (i < text.size() && is_space(text[i])) ++i;
        const size_t start = i;
        while (i < text.size() && !is_space(text[i])) ++i;
        if (i > start) words.push_back(text.substr(start, i - start));
    }
    return words;
}

// The words joined back with single spaces.
inline std::string join_words(const std::vector<std::string_view>& words, size_t first, size_t last) {
    std::string text;
    for (size_t i = first; i < last && i < words.size(); ++i) {
        if (!text.empty()) text += ' ';
        text += words[i];
    }
    return text;
}

}  // namespace arbiter

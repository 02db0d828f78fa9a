// Small text helpers shared by every parser: splitting on blanks, showing user text inside an
// error message, and reading a bounded decimal number. None of them throws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lasca {

// Tokens separated by one or more spaces or tabs.
std::vector<std::string_view> splitWhitespace(std::string_view text);

// User text as it may appear in an error line: printable ASCII kept, any other byte shown as
// '?', cut after maxChars characters with "..." appended.
std::string printable(std::string_view text, std::size_t maxChars = 40);

// A decimal number in [low, high]: digits only (no sign, no blanks, nothing after them).
std::optional<std::int64_t> parseBoundedInteger(std::string_view text, std::int64_t low,
                                                std::int64_t high);

}  // namespace lasca

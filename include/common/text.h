// Small text helpers shared by every parser of both games: splitting on blanks, showing user
// text inside an error message, the error reply line, and reading a bounded decimal number.
// None of them throws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace common {

// Tokens separated by one or more spaces or tabs.
std::vector<std::string_view> splitWhitespace(std::string_view text);

// User text as it may appear in an error line: printable ASCII kept, any other byte shown as
// '?', cut after maxChars characters with "..." appended.
std::string printable(std::string_view text, std::size_t maxChars = 40);

// The one error reply of every protocol program of the project (the Lasca engine, the Torneio
// player): "info string error: <message>".
std::string errorLine(std::string_view message);

// A decimal number in [low, high]: digits only (no sign, no blanks, nothing after them).
std::optional<std::int64_t> parseBoundedInteger(std::string_view text, std::int64_t low,
                                                std::int64_t high);

}  // namespace common

// Small text helpers shared by every parser of both games: splitting on blanks, showing user
// text inside an error message, the error reply line, and reading a bounded decimal number.
// None of them throws.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace common {

// Tokens separated by one or more spaces or tabs.
std::vector<std::string_view> splitWhitespace(std::string_view text);

// Equal but for the case of ASCII letters (option names and values, as UCI compares them).
bool equalsIgnoringCase(std::string_view a, std::string_view b);

// User text as it may appear in an error line: printable ASCII kept, any other byte shown as
// '?', cut after maxChars characters with "..." appended.
std::string printable(std::string_view text, std::size_t maxChars = 40);

// The characters of UTF-8 text (its code points: every byte but the continuation bytes
// 10xxxxxx), the width of a name in a report's fixed-width columns. Bytes that are not valid
// UTF-8 count as they come; no character is taken as wider than one column.
std::size_t characterCount(std::string_view text);

// The one error reply of every protocol program of the project (the Lasca engine, the Torneio
// player): "info string error: <message>".
std::string errorLine(std::string_view message);

// A decimal number in [low, high]: digits only (no sign, no blanks, nothing after them).
std::optional<std::int64_t> parseBoundedInteger(std::string_view text, std::int64_t low,
                                                std::int64_t high);

// A seed: a decimal number in 0..2^64-1, digits only (no sign, no blanks, nothing after them).
std::optional<std::uint64_t> parseSeed(std::string_view text);

// Text made safe inside XML or HTML (element text and quoted attributes): & < > " escaped.
std::string xmlEscape(std::string_view text);

// The values of every `name=value` pair named `name` in an HTTP Cookie header ("a=1; b=2"), in
// order, blanks around each pair trimmed and a value's surrounding double quotes removed.
std::vector<std::string_view> cookieValues(std::string_view header, std::string_view name);

// A time given as milliseconds since the Unix epoch, in UTC, written with a strftime format
// (at most 63 characters out): utcTime(t, "%Y.%m.%d") for a PDN date.
std::string utcTime(std::int64_t millisSinceEpoch, const char* format);

// SetOption: the two parts of `setoption name <id> [value <x>]`. The id is every token between
// `name` and the first `value` (it may hold blanks: "Debug Log File"), the value the rest of the
// line (empty without `value`); both joined with single blanks.
struct SetOption {
    std::string name;
    std::string value;
};
// Nothing when the line is not a setoption command, has no `name`, or an empty id.
std::optional<SetOption> parseSetOption(std::string_view line);
// The same for a line already split by splitWhitespace.
std::optional<SetOption> parseSetOption(const std::vector<std::string_view>& tokens);

// BoundedLine: one input line read by readBoundedLine.
//   text    the line without its end (LF or CRLF), cut after maxBytes + 1 bytes
//   length  the line's full length in bytes (without its end), also when it was cut
struct BoundedLine {
    std::string text;
    std::size_t length = 0;
    bool tooLong(std::size_t maxBytes) const { return length > maxBytes; }
};

// Reads the next line of `in` without ever holding more than maxBytes + 1 of it; false at the
// end of the input (a last line without a line end is still a line).
bool readBoundedLine(std::istream& in, std::size_t maxBytes, BoundedLine& line);

// The message of the error reply to a line longer than maxBytes:
// "line too long (<length> bytes, at most <maxBytes>)".
std::string lineTooLong(std::size_t length, std::size_t maxBytes);

// The command loop of every protocol program: reads the lines of `in` with readBoundedLine and
// hands each to `handle` until it returns false (quit) or the input ends. A line longer than
// maxBytes is not handed on: `tooLong` gets its length instead.
void readCommandLines(std::istream& in, std::size_t maxBytes,
                      const std::function<bool(std::string_view line)>& handle,
                      const std::function<void(std::size_t length)>& tooLong);

}  // namespace common

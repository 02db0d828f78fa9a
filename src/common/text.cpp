#include "common/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <ctime>
#include <span>

namespace common {

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

std::vector<std::string_view> splitWhitespace(std::string_view text) {
    std::vector<std::string_view> tokens;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != '\t') ++j;
        if (j > i) tokens.push_back(text.substr(i, j - i));
        i = j;
    }
    return tokens;
}

std::size_t characterCount(std::string_view text) {
    std::size_t count = 0;
    for (const char c : text)
        if ((static_cast<unsigned char>(c) & 0xC0u) != 0x80u) ++count;
    return count;
}

std::string printable(std::string_view text, std::size_t maxChars) {
    std::string out;
    for (char c : text.substr(0, maxChars)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    if (text.size() > maxChars) out += "...";
    return out;
}

std::string errorLine(std::string_view message) {
    return "info string error: " + std::string(message);
}

std::optional<std::int64_t> parseBoundedInteger(std::string_view text, std::int64_t low,
                                                std::int64_t high) {
    constexpr std::size_t kMaxDigits = 18;  // fits in int64 whatever the digits
    if (text.empty() || text.size() > kMaxDigits || text[0] < '0' || text[0] > '9')
        return std::nullopt;
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    if (value < low || value > high) return std::nullopt;
    return value;
}

std::optional<std::uint64_t> parseSeed(std::string_view text) {
    constexpr std::size_t kMaxDigits = 20;  // 18446744073709551615
    if (text.empty() || text.size() > kMaxDigits || text[0] < '0' || text[0] > '9')
        return std::nullopt;
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

namespace {

std::string joined(std::span<const std::string_view> tokens) {
    std::string text;
    for (const auto token : tokens) {
        if (!text.empty()) text += ' ';
        text += token;
    }
    return text;
}

}  // namespace

std::optional<SetOption> parseSetOption(std::string_view line) {
    return parseSetOption(splitWhitespace(line));
}

std::optional<SetOption> parseSetOption(const std::vector<std::string_view>& tokens) {
    const std::span<const std::string_view> all(tokens);
    if (tokens.size() < 3 || tokens[0] != "setoption" || tokens[1] != "name") return std::nullopt;
    const auto value = std::find(all.begin() + 2, all.end(), std::string_view("value"));
    const auto nameTokens = all.subspan(2, static_cast<std::size_t>(value - all.begin()) - 2);
    if (nameTokens.empty()) return std::nullopt;
    SetOption option{joined(nameTokens), ""};
    if (value != all.end())
        option.value = joined(all.subspan(static_cast<std::size_t>(value - all.begin()) + 1));
    return option;
}

bool readBoundedLine(std::istream& in, std::size_t maxBytes, BoundedLine& line) {
    line.text.clear();
    line.length = 0;
    if (in.peek() == std::istream::traits_type::eof()) return false;
    char chunk[4096];
    for (;;) {
        in.get(chunk, sizeof chunk, '\n');  // stops before the '\n'; fails when it reads nothing
        const auto got = static_cast<std::size_t>(in.gcount());
        line.length += got;
        const std::size_t room = maxBytes + 1 - std::min(line.text.size(), maxBytes + 1);
        line.text.append(chunk, std::min(got, room));
        if (in.eof()) break;
        if (in.fail()) in.clear();
        if (in.peek() == '\n') {
            in.ignore();
            break;
        }
    }
    if (!line.text.empty() && line.text.back() == '\r' && line.length == line.text.size()) {
        line.text.pop_back();
        --line.length;
    }
    return true;
}

std::string lineTooLong(std::size_t length, std::size_t maxBytes) {
    return "line too long (" + std::to_string(length) + " bytes, at most " +
           std::to_string(maxBytes) + ")";
}

void readCommandLines(std::istream& in, std::size_t maxBytes,
                      const std::function<bool(std::string_view line)>& handle,
                      const std::function<void(std::size_t length)>& tooLong) {
    BoundedLine line;
    while (readBoundedLine(in, maxBytes, line)) {
        if (line.tooLong(maxBytes))
            tooLong(line.length);
        else if (!handle(line.text))
            return;
    }
}

std::string xmlEscape(std::string_view text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::vector<std::string_view> cookieValues(std::string_view header, std::string_view name) {
    std::vector<std::string_view> out;
    while (!header.empty()) {
        const auto end = header.find(';');
        std::string_view pair = header.substr(0, end);
        header = end == std::string_view::npos ? std::string_view() : header.substr(end + 1);
        while (!pair.empty() && (pair.front() == ' ' || pair.front() == '\t'))
            pair.remove_prefix(1);
        while (!pair.empty() && (pair.back() == ' ' || pair.back() == '\t')) pair.remove_suffix(1);
        const auto equals = pair.find('=');
        if (equals == std::string_view::npos || pair.substr(0, equals) != name) continue;
        std::string_view value = pair.substr(equals + 1);
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
            value = value.substr(1, value.size() - 2);
        out.push_back(value);
    }
    return out;
}

std::string utcTime(std::int64_t millisSinceEpoch, const char* format) {
    const auto seconds = static_cast<std::time_t>(millisSinceEpoch / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[64];
    const std::size_t written = std::strftime(text, sizeof text, format, &utc);
    return std::string(text, written);
}

}  // namespace common

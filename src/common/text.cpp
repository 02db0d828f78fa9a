#include "common/text.h"

#include <charconv>

namespace common {

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

}  // namespace common

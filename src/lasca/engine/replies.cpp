#include "lasca/engine/replies.h"

#include <algorithm>
#include <charconv>
#include <iterator>

#include "common/text.h"

namespace lasca::engine {

namespace {

using Tokens = std::vector<std::string_view>;

std::optional<std::int64_t> integer(std::string_view text) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// The whole number after tokens[i]; i moves onto it.
std::optional<std::int64_t> numberAfter(const Tokens& tokens, std::size_t& i) {
    if (i + 1 >= tokens.size()) return std::nullopt;
    return integer(tokens[++i]);
}

// Notes a field of an info line in InfoReply::fields: once, and only the fields InfoReply holds.
void given(InfoReply& info, std::string_view field) {
    constexpr std::string_view kFields[] = {"depth", "seldepth", "multipv", "score",
                                            "nodes", "nps",      "time",    "hashfull"};
    if (std::find(std::begin(kFields), std::end(kFields), field) != std::end(kFields) &&
        std::find(info.fields.begin(), info.fields.end(), field) == info.fields.end())
        info.fields.emplace_back(field);
}

}  // namespace

std::optional<InfoReply> parseInfo(std::string_view line) {
    const Tokens tokens = common::splitWhitespace(line);
    if (tokens.size() < 2 || tokens[0] != "info" || tokens[1] == "string") return std::nullopt;
    InfoReply info;
    bool hasScore = false;
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        const std::string_view t = tokens[i];
        if (t == "pv") {
            for (++i; i < tokens.size(); ++i) info.pv.emplace_back(tokens[i]);
            break;
        }
        if (t == "lowerbound" || t == "upperbound") {
            info.bound = t == "lowerbound" ? ScoreBound::Lower : ScoreBound::Upper;
            continue;
        }
        if (t == "score" && i + 1 < tokens.size()) {
            info.mate = tokens[++i] == "mate";
            const auto v = numberAfter(tokens, i);
            if (!v) return std::nullopt;
            info.score = *v;
            hasScore = true;
            given(info, "score");
            continue;
        }
        const auto v = numberAfter(tokens, i);
        if (!v) return std::nullopt;
        given(info, t);
        if (t == "depth") info.depth = static_cast<int>(*v);
        if (t == "seldepth") info.selDepth = static_cast<int>(*v);
        if (t == "multipv") info.multiPv = static_cast<int>(*v);
        if (t == "nodes") info.nodes = *v;
        if (t == "nps") info.nps = *v;
        if (t == "time") info.timeMs = *v;
        if (t == "hashfull") info.hashfull = *v;
    }
    if (!hasScore || info.pv.empty()) return std::nullopt;
    return info;
}

std::optional<std::string> parseInfoString(std::string_view line) {
    constexpr std::string_view kPrefix = "info string";
    if (!line.starts_with(kPrefix)) return std::nullopt;
    line.remove_prefix(kPrefix.size());
    if (line.empty()) return std::string();
    if (line.front() != ' ') return std::nullopt;
    return std::string(line.substr(1));
}

std::optional<BestMoveReply> parseBestMove(std::string_view line) {
    const Tokens tokens = common::splitWhitespace(line);
    if (tokens.empty() || tokens[0] != "bestmove") return std::nullopt;
    BestMoveReply reply;
    if (tokens.size() >= 2) reply.move = tokens[1];
    if (tokens.size() >= 4 && tokens[2] == "ponder") reply.ponder = tokens[3];
    return reply;
}

std::optional<OptionReply> parseOption(std::string_view line) {
    const Tokens t = common::splitWhitespace(line);
    if (t.size() < 4 || t[0] != "option" || t[1] != "name") return std::nullopt;
    OptionReply o;
    std::size_t i = 2;
    for (; i < t.size() && t[i] != "type"; ++i)
        o.name += (o.name.empty() ? "" : " ") + std::string(t[i]);
    if (i + 1 >= t.size()) return std::nullopt;
    o.spin = t[i + 1] == "spin";
    for (std::size_t k = i + 2; k + 1 < t.size(); ++k) {
        if (t[k] == "min") o.min = integer(t[k + 1]).value_or(0);
        if (t[k] == "max") o.max = integer(t[k + 1]).value_or(0);
    }
    return o;
}

std::optional<IdReply> parseId(std::string_view line) {
    for (const std::string_view field : {"name", "author"}) {
        const std::string prefix = "id " + std::string(field) + " ";
        if (line.starts_with(prefix))
            return IdReply{std::string(field), std::string(line.substr(prefix.size()))};
    }
    return std::nullopt;
}

}  // namespace lasca::engine

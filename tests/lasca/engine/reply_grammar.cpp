#include "lasca/engine/reply_grammar.h"

#include <regex>
#include <utility>

namespace lasca::test {

namespace {

#define LASCA_SQUARE "(?:[aceg][1357]|[bdf][246])"
#define LASCA_MOVE \
    "(?:" LASCA_SQUARE "-" LASCA_SQUARE "|" LASCA_SQUARE "(?:x" LASCA_SQUARE "){1,13})"
#define LASCA_INT "(?:0|[1-9][0-9]*)"
#define LASCA_SIGNED "(?:0|-?[1-9][0-9]*)"

struct Form {
    std::string name;
    std::regex pattern;
};

// protocol.md, "Replies", one entry per listed form.
const std::vector<Form>& forms() {
    static const std::vector<std::pair<const char*, const char*>> kForms = {
        {"id name", "id name \\S.*"},
        {"id author", "id author \\S.*"},
        {"option spin", "option name \\S.* type spin default " LASCA_SIGNED " min " LASCA_SIGNED
                        " max " LASCA_SIGNED},
        {"option check", "option name \\S.* type check default (?:true|false)"},
        {"option string", "option name \\S.* type string default \\S.*"},
        {"uciok", "uciok"},
        {"ugiok", "ugiok"},
        {"readyok", "readyok"},
        {"info search", "info depth " LASCA_INT " seldepth " LASCA_INT " multipv " LASCA_INT
                        " score (?:cp " LASCA_SIGNED "|mate " LASCA_SIGNED
                        ")(?: lowerbound| upperbound)? nodes " LASCA_INT " nps " LASCA_INT
                        " time " LASCA_INT " hashfull (?:1000|[0-9]{1,3}) pv(?: " LASCA_MOVE ")+"},
        {"info string", "info string .*\\S.*"},
        {"bestmove", "bestmove (?:" LASCA_MOVE "|0000)(?: ponder " LASCA_MOVE ")?"},
        {"response", "response (?:true|false|p1win|p2win|draw|none)"},
        {"perft divide", LASCA_MOVE ": " LASCA_INT},
        {"Nodes searched", "Nodes searched: " LASCA_INT},
        {"Nodes/second", "Nodes/second: " LASCA_INT},
        {"Total time", "Total time \\(ms\\): " LASCA_INT},
    };
    static const std::vector<Form> compiled = [] {
        std::vector<Form> out;
        for (const auto& [name, pattern] : kForms)
            out.push_back(
                {name, std::regex(pattern, std::regex::ECMAScript | std::regex::optimize)});
        return out;
    }();
    return compiled;
}

}  // namespace

const char* const kMovePattern = LASCA_MOVE;

std::optional<std::string> replyForm(std::string_view line) {
    // No engine reply is anywhere near this long (user text is cut to 40 characters); the bound
    // also keeps std::regex's recursion shallow.
    if (line.empty() || line.size() > 8192) return std::nullopt;
    for (char c : line)
        if (c < 0x20 || c > 0x7e) return std::nullopt;
    for (const Form& form : forms())
        if (std::regex_match(line.begin(), line.end(), form.pattern)) return form.name;
    return std::nullopt;
}

std::vector<std::string> nonConformingLines(const std::vector<std::string>& lines) {
    std::vector<std::string> bad;
    for (const std::string& line : lines)
        if (!replyForm(line)) bad.push_back(line);
    return bad;
}

}  // namespace lasca::test

#include "lasca/match/pdn.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "lasca/position.h"

namespace lasca::match {

namespace {

std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += (c == '\n' || c == '\r') ? ' ' : c;
    }
    return out;
}

bool isResultToken(const std::string& t) {
    return t == "2-0" || t == "0-2" || t == "1-1" || t == "*" || t == "0-0";
}

// A move number: digits followed by one or three dots ("12." or "12...").
bool isMoveNumber(const std::string& t) {
    std::size_t i = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    return i > 0 && i < t.size() && t.find_first_not_of('.', i) == std::string::npos;
}

// Parses `[Name "value"]`; false when the line is not a well-formed tag pair.
bool parseTag(const std::string& line, std::pair<std::string, std::string>& tag) {
    const auto open = line.find('"');
    const auto close = line.rfind('"');
    if (line.size() < 2 || line.front() != '[' || line.back() != ']' || open == close ||
        open == std::string::npos)
        return false;
    std::istringstream name(line.substr(1, open - 1));
    name >> tag.first;
    tag.second.clear();
    for (std::size_t i = open + 1; i < close; ++i) {
        if (line[i] == '\\' && i + 1 < close) ++i;
        tag.second += line[i];
    }
    return !tag.first.empty();
}

// Movetext without what readers skip: {comments}, (variations, nested), and ; comments to the
// end of the line. Braces inside a comment and parentheses inside a comment do not count.
std::string withoutCommentsAndVariations(const std::string& text) {
    std::string kept;
    bool inComment = false, inLineComment = false;
    int variations = 0;
    for (char c : text) {
        if (inLineComment) {
            inLineComment = c != '\n';
        } else if (inComment) {
            inComment = c != '}';
        } else if (c == '{') {
            inComment = true;
        } else if (c == ';') {
            inLineComment = true;
        } else if (c == '(') {
            ++variations;
        } else if (c == ')') {
            variations = std::max(0, variations - 1);
        } else if (variations == 0) {
            kept += c;
            continue;
        }
        kept += ' ';  // what is skipped still separates tokens
    }
    return kept;
}

// A move token without its marks ("c3-d4?!" -> "c3-d4").
std::string withoutMarks(const std::string& token) {
    const auto end = token.find_last_not_of("!?");
    return end == std::string::npos ? "" : token.substr(0, end + 1);
}

// Splits movetext into moves and the result, skipping numbers, comments, variations, NAGs and
// move marks.
void readMovetext(const std::string& text, PdnGame& game) {
    std::istringstream in(withoutCommentsAndVariations(text));
    for (std::string t; in >> t;) {
        if (isResultToken(t)) {
            game.result = t;
        } else if (isMoveNumber(t) || t.front() == '$') {
            continue;
        } else {
            const auto dot = t.find_last_of('.');  // "1.c3-d4" written without a space
            const std::string move = withoutMarks(dot == std::string::npos ? t : t.substr(dot + 1));
            if (!move.empty()) game.moves.push_back(move);
        }
    }
}

// True when `text` ends inside a {comment}: a line starting with '[' is then comment text, not
// a tag pair.
bool insideComment(const std::string& text) {
    const auto open = text.rfind('{');
    return open != std::string::npos && text.find('}', open) == std::string::npos;
}

std::string movetext(const PdnGame& game, const Position& start) {
    std::string text;
    int number = start.moveNumber();
    bool white = start.sideToMove() == Color::White;
    if (!game.comment.empty()) text += "{" + game.comment + "} ";
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        if (white) text += std::to_string(number) + ". ";
        if (!white && i == 0) text += std::to_string(number) + "... ";
        text += game.moves[i];
        if (i < game.annotations.size()) text += game.annotations[i];
        text += " ";
        if (!white) ++number;
        white = !white;
    }
    return text + game.result;
}

}  // namespace

Outcome outcomeOf(const std::string& result) {
    if (result == "2-0") return Outcome::WhiteWins;
    if (result == "0-2") return Outcome::BlackWins;
    if (result == "1-1") return Outcome::Draw;
    return Outcome::Ongoing;
}

common::Result<Position> startOf(const PdnGame& game) {
    const auto fen = game.tag("FEN");
    auto start = Position::fromLfen(fen ? *fen : std::string(kStartLfen));
    if (!start) return common::makeError("FEN: " + start.error());
    return start;
}

std::optional<std::string> PdnGame::tag(const std::string& name) const {
    for (const auto& [n, v] : tags)
        if (n == name) return v;
    return std::nullopt;
}

const char* pdnResult(Outcome outcome) {
    switch (outcome) {
        case Outcome::WhiteWins:
            return "2-0";
        case Outcome::BlackWins:
            return "0-2";
        case Outcome::Draw:
            return "1-1";
        case Outcome::Ongoing:
            break;
    }
    return "*";
}

PdnGame toPdn(const GameRecord& record, const PdnHeader& header) {
    PdnGame game;
    game.result = pdnResult(record.outcome);
    game.moves = record.moves;
    game.tags = {
        {"Event", header.event},
        {"Site", header.site},
        {"Date", header.date},
        {"Round", std::to_string(record.pair + 1) + "." + std::to_string(record.index % 2 + 1)},
        {"White", record.white},
        {"Black", record.black},
        {"Result", game.result},
        {"GameType", "Lasca"},
        {"FEN", record.startLfen},
        {"Termination", endReasonName(record.reason)}};
    if (!record.detail.empty()) game.tags.emplace_back("TerminationDetails", record.detail);
    game.tags.emplace_back("PlyCount", std::to_string(record.moves.size()));
    return game;
}

std::string writePdn(const PdnGame& game) {
    std::string out;
    for (const auto& [name, value] : game.tags) out += "[" + name + " \"" + escape(value) + "\"]\n";
    const auto fen = game.tag("FEN");
    auto start = Position::fromLfen(fen ? *fen : std::string(kStartLfen));
    const Position from = start ? start.value() : Position::startPosition();
    return out + "\n" + movetext(game, from) + "\n\n";
}

std::vector<PdnEntry> readPdnEntries(std::istream& in) {
    std::vector<PdnEntry> entries;
    PdnEntry current;
    PdnGame game;
    std::string error, text;
    bool inMoves = false, started = false;
    int number = 0;
    auto finish = [&] {
        readMovetext(text, game);
        current.game = error.empty() ? common::Result<PdnGame>(std::move(game))
                                     : common::Result<PdnGame>(common::makeError(error));
        entries.push_back(std::move(current));
        current = PdnEntry{};
        game = PdnGame{};
        error.clear();
        text.clear();
        inMoves = started = false;
    };
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const bool blank = line.find_first_not_of(" \t") == std::string::npos;
        if (!line.empty() && line.front() == '%') continue;  // PDN escape line
        const bool tagLine = !line.empty() && line.front() == '[' && !insideComment(text);
        if (tagLine && inMoves) finish();
        if (!blank && !started) {
            current.line = number;
            started = true;
        }
        if (tagLine) {
            std::pair<std::string, std::string> tag;
            if (parseTag(line, tag))
                game.tags.push_back(tag);
            else if (error.empty())
                error = "malformed tag pair on line " + std::to_string(number);
        } else if (!blank || inMoves) {
            inMoves = inMoves || !blank;
            text += line + "\n";
        }
    }
    if (inMoves || started) finish();
    return entries;
}

common::Result<std::vector<PdnGame>> readPdn(std::istream& in) {
    std::vector<PdnGame> games;
    for (auto& entry : readPdnEntries(in)) {
        if (!entry.game) return common::makeError(entry.game.error());
        games.push_back(std::move(entry.game).value());
    }
    return games;
}

common::Result<std::string> replayPdn(const PdnGame& pdn, const DrawRules& rules) {
    auto start = startOf(pdn);
    if (!start) return common::makeError(start.error());
    Game game(start.value());
    for (std::size_t i = 0; i < pdn.moves.size(); ++i) {
        if (game.status(rules).over())
            return common::makeError("move " + std::to_string(i + 1) +
                                     " played after the game ended");
        auto played = game.playText(pdn.moves[i]);
        if (!played)
            return common::makeError("ply " + std::to_string(i + 1) + ": " + played.error());
    }
    const GameStatus status = game.status(rules);
    const auto termination = pdn.tag("Termination");
    const bool byRules = termination && (*termination == endReasonName(EndReason::NoLegalMove) ||
                                         *termination == endReasonName(EndReason::Repetition) ||
                                         *termination == endReasonName(EndReason::NoProgress));
    if (byRules && (!status.over() || status.outcome != outcomeOf(pdn.result)))
        return common::makeError("result " + pdn.result + " (" + *termination +
                                 ") is not what the rules say: " + outcomeName(status.outcome));
    return game.current().toLfen();
}

common::Result<GameRecord> toRecord(const PdnGame& game) {
    GameRecord record;
    const auto round = game.tag("Round");
    int pair = 0, inPair = 0;
    char dot = 0;
    std::istringstream in(round ? *round : "");
    if (!(in >> pair >> dot >> inPair) || dot != '.' || pair < 1 || inPair < 1 || inPair > 2)
        return common::makeError("Round tag '" + (round ? *round : "") + "' is not <pair>.<1|2>");
    record.pair = pair - 1;
    record.index = 2 * record.pair + inPair - 1;
    record.whiteIsFirst = inPair == 1;
    record.white = game.tag("White").value_or("?");
    record.black = game.tag("Black").value_or("?");
    record.startLfen = game.tag("FEN").value_or(std::string(kStartLfen));
    record.moves = game.moves;
    record.outcome = outcomeOf(game.result);
    if (record.outcome == Outcome::Ongoing) return common::makeError("unfinished game (result *)");
    const std::string termination = game.tag("Termination").value_or("");
    for (int r = 0; r <= static_cast<int>(EndReason::Disconnected); ++r)
        if (termination == endReasonName(static_cast<EndReason>(r)))
            record.reason = static_cast<EndReason>(r);
    record.detail = game.tag("TerminationDetails").value_or("");
    return record;
}

}  // namespace lasca::match

#include "lasca/core/pdn.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <optional>
#include <sstream>
#include <string_view>

#include "lasca/core/position.h"

namespace lasca {

namespace {

std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += (c == '\n' || c == '\r') ? ' ' : c;
    }
    return out;
}

// A comment's text as it can stand between braces: a '}' would end the comment early (and
// what follows it would be read as moves), so it is dropped, as python-chess does; line
// breaks and tabs become spaces (the reader reads them so).
std::string commentText(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '}') continue;
        out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    }
    const auto first = out.find_first_not_of(' ');
    if (first == std::string::npos) return "";
    return out.substr(first, out.find_last_not_of(' ') - first + 1);
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

// Parses `[Name "value"]`; false when the line is not a well-formed tag pair. A carriage return
// inside the value (a line is split at line feeds only) is read as a space, as the writer
// writes it (escape), so that a value reads back as it was read.
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
        tag.second += line[i] == '\r' ? ' ' : line[i];
    }
    return !tag.first.empty();
}

// A movetext token: a {comment} (its text), "(", ")" or a word (a move, a number, a NAG, a
// result). Comments to the end of the line (";") are dropped.
struct MovetextToken {
    enum class Kind { Comment, Open, Close, Word } kind;
    std::string text;
};

std::vector<MovetextToken> tokenizeMovetext(const std::string& text) {
    using Kind = MovetextToken::Kind;
    std::vector<MovetextToken> tokens;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '{') {
            const auto close = text.find('}', i + 1);
            const auto end = close == std::string::npos ? text.size() : close;
            std::string comment = text.substr(i + 1, end - i - 1);
            for (char& ch : comment)
                if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
            const auto first = comment.find_first_not_of(' ');
            const auto last = comment.find_last_not_of(' ');
            tokens.push_back({Kind::Comment, first == std::string::npos
                                                 ? std::string()
                                                 : comment.substr(first, last - first + 1)});
            i = end + 1;
        } else if (c == '}') {  // a stray closing brace
            ++i;
        } else if (c == ';') {
            const auto eol = text.find('\n', i);
            i = eol == std::string::npos ? text.size() : eol + 1;
        } else if (c == '(' || c == ')') {
            tokens.push_back({c == '(' ? Kind::Open : Kind::Close, std::string(1, c)});
            ++i;
        } else {
            std::size_t end = i;
            while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
                   std::string_view("{}();").find(text[end]) == std::string_view::npos)
                ++end;
            tokens.push_back({Kind::Word, text.substr(i, end - i)});
            i = end;
        }
    }
    return tokens;
}

// A move token without its marks ("c3-d4?!" -> "c3-d4").
std::string withoutMarks(const std::string& token) {
    const auto end = token.find_last_not_of("!?");
    return end == std::string::npos ? "" : token.substr(0, end + 1);
}

// The glyph of a move mark ("!" 1 ... "?!" 6), or nothing.
std::optional<int> markNag(std::string_view mark) {
    constexpr std::string_view kMarks[] = {"!", "?", "!!", "??", "!?", "?!"};
    for (std::size_t i = 0; i < std::size(kMarks); ++i)
        if (mark == kMarks[i]) return static_cast<int>(i) + 1;
    return std::nullopt;
}

// The glyph of a "$n" token, or nothing when n is not a number in 0..kMaxNag.
std::optional<int> dollarNag(const std::string& token) {
    if (token.size() < 2 || token.size() > 4) return std::nullopt;
    int n = 0;
    for (std::size_t i = 1; i < token.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(token[i]))) return std::nullopt;
        n = n * 10 + (token[i] - '0');
    }
    if (n > kMaxNag) return std::nullopt;
    return n;
}

void appendNag(std::vector<Nags>& nags, std::size_t at, int nag) {
    if (nags.size() <= at) nags.resize(at + 1);
    nags[at].push_back(nag);
}

void appendComment(std::vector<std::string>& comments, std::size_t at, const std::string& text) {
    if (text.empty()) return;
    if (comments.size() <= at) comments.resize(at + 1);
    if (!comments[at].empty()) comments[at] += ' ';
    comments[at] += text;
}

// Reads one line of movetext from tokens[i] up to its ")" (or the end): its moves, their
// comments and its variations, nested; a comment before its first move goes to `before`, a
// result token to `result`. Variations deeper than kMaxPdnVariationDepth are skipped whole.
struct LineReader {
    const std::vector<MovetextToken>& tokens;
    std::size_t i = 0;

    void skipVariation() {
        for (int open = 1; i < tokens.size() && open > 0; ++i) {
            if (tokens[i].kind == MovetextToken::Kind::Open) ++open;
            if (tokens[i].kind == MovetextToken::Kind::Close) --open;
        }
    }

    void read(PdnLine& line, std::string* before, std::string* result, int depth) {
        using Kind = MovetextToken::Kind;
        while (i < tokens.size()) {
            const MovetextToken& t = tokens[i++];
            if (t.kind == Kind::Close) {
                if (depth > 0) return;  // a stray ")" in the main line is ignored
            } else if (t.kind == Kind::Comment) {
                if (!line.moves.empty())
                    appendComment(line.comments, line.moves.size() - 1, t.text);
                else if (!t.text.empty())
                    *before += (before->empty() ? "" : " ") + t.text;
            } else if (t.kind == Kind::Open) {
                if (line.moves.empty() || depth + 1 > kMaxPdnVariationDepth) {
                    skipVariation();
                    continue;
                }
                PdnVariation variation;
                variation.at = line.moves.size() - 1;
                read(variation.line, &variation.line.comment, nullptr, depth + 1);
                if (!variation.line.moves.empty()) line.variations.push_back(std::move(variation));
            } else {
                readWord(line, t.text, result);
            }
        }
    }

    // A word: a move number, a result, a glyph ($n, or a move mark on its own) or a move with
    // its marks. "1.c3-d4" (no space after the number) is read as the word after its last dot,
    // so that "1.2-0" is the result and "1.$1" a glyph, as they are written back. A result
    // with marks ("*?!") is the result.
    static void readWord(PdnLine& line, const std::string& text, std::string* result) {
        if (isMoveNumber(text)) return;
        const auto dot = text.find_last_of('.');
        const std::string token = dot == std::string::npos ? text : text.substr(dot + 1);
        const std::string bare = withoutMarks(token);
        if (isResultToken(bare)) {
            if (result) *result = bare;
            return;
        }
        if (bare.empty() || bare.front() == '$') {
            const auto nag = bare.empty() ? markNag(token) : dollarNag(token);
            if (nag && !line.moves.empty()) appendNag(line.nags, line.moves.size() - 1, *nag);
            return;
        }
        line.moves.push_back(bare);
        if (const auto nag = markNag(std::string_view(token).substr(bare.size())))
            appendNag(line.nags, line.moves.size() - 1, *nag);
    }
};

// Splits movetext into the main line, its comments, variations and the result, skipping
// numbers, NAGs and move marks.
void readMovetext(const std::string& text, PdnGame& game) {
    const auto tokens = tokenizeMovetext(text);
    LineReader reader{tokens};
    PdnLine main;
    reader.read(main, &game.comment, &game.result, 0);
    game.moves = std::move(main.moves);
    game.comments = std::move(main.comments);
    game.variations = std::move(main.variations);
    game.nags = std::move(main.nags);
}

// True when `text` ends inside a {comment}: a line starting with '[' is then comment text, not
// a tag pair.
bool insideComment(const std::string& text) {
    const auto open = text.rfind('{');
    return open != std::string::npos && text.find('}', open) == std::string::npos;
}

// Writes a line's moves with numbers ("N." before White's moves, "N..." before a Black move
// that opens a line or follows a comment or a variation), their annotations, glyphs and
// comments, and each variation in parentheses right after the move it replaces (with its
// comment before its first move).
void writeLine(std::string& text, const PdnLine& line, const std::vector<std::string>* annotations,
               int number, bool white) {
    const auto& moves = line.moves;
    const auto& comments = line.comments;
    const auto& nags = line.nags;
    bool needNumber = true;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (white)
            text += std::to_string(number) + ". ";
        else if (needNumber)
            text += std::to_string(number) + "... ";
        needNumber = false;
        text += moves[i];
        if (annotations && i < annotations->size()) text += (*annotations)[i];
        if (i < nags.size())
            for (int nag : nags[i])
                if (nag >= 0 && nag <= kMaxNag) text += " $" + std::to_string(nag);
        if (const std::string comment = i < comments.size() ? commentText(comments[i]) : "";
            !comment.empty()) {
            text += " {" + comment + "}";
            needNumber = true;
        }
        text += " ";
        for (const PdnVariation& v : line.variations) {
            if (v.at != i) continue;
            text += "(";
            if (const std::string comment = commentText(v.line.comment); !comment.empty())
                text += "{" + comment + "} ";
            writeLine(text, v.line, nullptr, number, white);
            if (text.back() == ' ') text.pop_back();
            text += ") ";
            needNumber = true;
        }
        if (!white) ++number;
        white = !white;
    }
}

std::string movetext(const PdnGame& game, const Position& start) {
    std::string text;
    if (const std::string comment = commentText(game.comment); !comment.empty())
        text += "{" + comment + "} ";
    const PdnLine main{game.moves, game.comments, game.variations, "", game.nags};
    writeLine(text, main, &game.annotations, start.moveNumber(),
              start.sideToMove() == Color::White);
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

std::string writePdn(const PdnGame& game) {
    std::string out;
    for (const auto& [name, value] : game.tags) out += "[" + name + " \"" + escape(value) + "\"]\n";
    const auto fen = game.tag("FEN");
    auto start = Position::fromLfen(fen ? *fen : std::string(kStartLfen));
    const Position from = start ? start.value() : Position::startPosition();
    return out + "\n" + movetext(game, from) + "\n\n";
}

PdnEntry PdnReader::take() {
    readMovetext(text_, game_);
    current_.game = error_.empty() ? common::Result<PdnGame>(std::move(game_))
                                   : common::Result<PdnGame>(common::makeError(error_));
    PdnEntry done = std::move(current_);
    current_ = PdnEntry{};
    game_ = PdnGame{};
    error_.clear();
    text_.clear();
    inMoves_ = started_ = false;
    return done;
}

std::optional<PdnEntry> PdnReader::feed(std::string line) {
    ++number_;
    if (!line.empty() && line.back() == '\n') line.pop_back();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line.front() == '%') return std::nullopt;  // PDN escape line
    std::optional<PdnEntry> done;
    const bool blank = line.find_first_not_of(" \t") == std::string::npos;
    const bool tagLine = !line.empty() && line.front() == '[' && !insideComment(text_);
    if (tagLine && inMoves_) done = take();
    if (!blank && !started_) {
        current_.line = number_;
        started_ = true;
    }
    if (tagLine) {
        std::pair<std::string, std::string> tag;
        if (parseTag(line, tag))
            game_.tags.push_back(tag);
        else if (error_.empty())
            error_ = "malformed tag pair on line " + std::to_string(number_);
    } else if (!blank || inMoves_) {
        inMoves_ = inMoves_ || !blank;
        text_ += line + "\n";
    }
    return done;
}

std::optional<PdnEntry> PdnReader::finish() {
    if (!inMoves_ && !started_) return std::nullopt;
    return take();
}

std::vector<PdnEntry> readPdnEntries(std::istream& in) {
    std::vector<PdnEntry> entries;
    PdnReader reader;
    for (std::string line; std::getline(in, line);)
        if (auto entry = reader.feed(std::move(line))) entries.push_back(std::move(*entry));
    if (auto entry = reader.finish()) entries.push_back(std::move(*entry));
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
    const bool byRules =
        termination && (*termination == terminationName(Termination::NoLegalMove) ||
                        *termination == terminationName(Termination::Repetition) ||
                        *termination == terminationName(Termination::NoProgress));
    if (byRules && (!status.over() || status.outcome != outcomeOf(pdn.result)))
        return common::makeError("result " + pdn.result + " (" + *termination +
                                 ") is not what the rules say: " + outcomeName(status.outcome));
    return game.current().toLfen();
}

}  // namespace lasca

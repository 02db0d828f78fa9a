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

// The result a movetext word stands for, read as LineReader::readWord reads it ("2-0", "1.*",
// "*?!"), or nothing.
std::optional<std::string> resultOf(std::string_view word) {
    if (isMoveNumber(std::string(word))) return std::nullopt;
    const auto dot = word.find_last_of('.');
    const std::string_view token = dot == std::string_view::npos ? word : word.substr(dot + 1);
    const auto end = token.find_last_not_of("!?");
    const std::string bare(end == std::string_view::npos ? "" : token.substr(0, end + 1));
    if (!isResultToken(bare)) return std::nullopt;
    return bare;
}

// A byte that is no text: a control character other than white space (NUL, ESC...), or DEL.
bool isControl(char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && !std::isspace(u)) || u == 0x7f;
}

std::string controlCharacterError(char c, int line) {
    constexpr std::string_view kHex = "0123456789abcdef";
    const auto u = static_cast<unsigned char>(c);
    std::string hex = "0x";
    hex += kHex[u >> 4];
    hex += kHex[u & 15];
    return "control character " + hex + " on line " + std::to_string(line);
}

std::size_t firstControl(std::string_view text) {
    const auto found = std::find_if(text.begin(), text.end(), isControl);
    return static_cast<std::size_t>(found - text.begin());
}

// The stream's number of line `index` (0-based) of a game's movetext.
int lineNumber(const std::vector<int>& numbers, std::size_t index) {
    if (numbers.empty()) return static_cast<int>(index) + 1;
    return numbers[std::min(index, numbers.size() - 1)];
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
// result), and the line of the movetext it starts on (0-based). Comments to the end of the
// line (";") are dropped.
struct MovetextToken {
    enum class Kind { Comment, Open, Close, Word } kind;
    std::string text;
    std::size_t line = 0;
};

// Where the movetext word starting at text[i] ends: at white space or at one of "{}();".
std::size_t wordEnd(std::string_view text, std::size_t i) {
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) &&
           std::string_view("{}();").find(text[i]) == std::string_view::npos)
        ++i;
    return i;
}

std::vector<MovetextToken> tokenizeMovetext(const std::string& text) {
    using Kind = MovetextToken::Kind;
    std::vector<MovetextToken> tokens;
    std::size_t line = 0;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (c == '\n') ++line;
            ++i;
        } else if (c == '{') {
            const auto close = text.find('}', i + 1);
            const auto end = close == std::string::npos ? text.size() : close;
            std::string comment = text.substr(i + 1, end - i - 1);
            for (char& ch : comment)
                if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
            const auto first = comment.find_first_not_of(' ');
            const auto last = comment.find_last_not_of(' ');
            tokens.push_back({Kind::Comment,
                              first == std::string::npos ? std::string()
                                                         : comment.substr(first, last - first + 1),
                              line});
            line += static_cast<std::size_t>(
                std::count(text.begin() + static_cast<std::ptrdiff_t>(i),
                           text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
            i = end + 1;
        } else if (c == '}') {  // a stray closing brace
            ++i;
        } else if (c == ';') {
            const auto eol = text.find('\n', i);
            i = eol == std::string::npos ? text.size() : eol + 1;
            if (eol != std::string::npos) ++line;
        } else if (c == '(' || c == ')') {
            tokens.push_back({c == '(' ? Kind::Open : Kind::Close, std::string(1, c), line});
            ++i;
        } else {
            const std::size_t end = wordEnd(text, i);
            tokens.push_back({Kind::Word, text.substr(i, end - i), line});
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
// result token to `result`. A variation before a line's first move replaces no move: it is
// skipped whole. The first error (a variation nested deeper than kMaxPdnVariationDepth, an
// unclosed '(', a glyph outside $0..$255) goes to `error`, naming its line, and ends reading.
struct LineReader {
    const std::vector<MovetextToken>& tokens;
    const std::vector<int>& lineNumbers;  // the stream's number of each line of the movetext
    std::size_t i = 0;
    std::string error{};

    void fail(const std::string& what, std::size_t line) {
        if (error.empty())
            error = what + " on line " + std::to_string(lineNumber(lineNumbers, line));
        i = tokens.size();
    }

    void skipVariation(std::size_t openLine) {
        int open = 1;
        for (; i < tokens.size() && open > 0; ++i) {
            if (tokens[i].kind == MovetextToken::Kind::Open) ++open;
            if (tokens[i].kind == MovetextToken::Kind::Close) --open;
        }
        if (open > 0) fail("unclosed '('", openLine);
    }

    // openLine: the line of the '(' that opened this line (depth > 0).
    void read(PdnLine& line, std::string* before, std::string* result, int depth,
              std::size_t openLine) {
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
                if (line.moves.empty()) {
                    skipVariation(t.line);
                    continue;
                }
                if (depth + 1 > kMaxPdnVariationDepth) {
                    fail("variation nested deeper than " + std::to_string(kMaxPdnVariationDepth) +
                             " levels",
                         t.line);
                    return;
                }
                PdnVariation variation;
                variation.at = line.moves.size() - 1;
                read(variation.line, &variation.line.comment, nullptr, depth + 1, t.line);
                if (!error.empty()) return;
                if (!variation.line.moves.empty()) line.variations.push_back(std::move(variation));
            } else {
                readWord(line, t, result);
            }
        }
        if (depth > 0) fail("unclosed '('", openLine);
    }

    // A word: a move number, a result, a glyph ($n, or a move mark on its own) or a move with
    // its marks. "1.c3-d4" (no space after the number) is read as the word after its last dot,
    // so that "1.2-0" is the result and "1.$1" a glyph, as they are written back. A result
    // with marks ("*?!") is the result.
    void readWord(PdnLine& line, const MovetextToken& word, std::string* result) {
        const std::string& text = word.text;
        if (isMoveNumber(text)) return;
        if (const auto read = resultOf(text)) {
            if (result) *result = *read;
            return;
        }
        const auto dot = text.find_last_of('.');
        const std::string token = dot == std::string::npos ? text : text.substr(dot + 1);
        const std::string bare = withoutMarks(token);
        if (bare.empty() || bare.front() == '$') {
            const auto nag = bare.empty() ? markNag(token) : dollarNag(token);
            if (!bare.empty() && !nag)
                return fail("glyph '" + token + "' is not $0..$" + std::to_string(kMaxNag),
                            word.line);
            if (nag && !line.moves.empty()) appendNag(line.nags, line.moves.size() - 1, *nag);
            return;
        }
        line.moves.push_back(bare);
        if (const auto nag = markNag(std::string_view(token).substr(bare.size())))
            appendNag(line.nags, line.moves.size() - 1, *nag);
    }
};

// Splits movetext into the main line, its comments, variations and the result, skipping
// numbers, NAGs and move marks. lineNumbers: the stream's number of each line of text. Returns
// the first error, naming its line.
std::optional<std::string> readMovetext(const std::string& text,
                                        const std::vector<int>& lineNumbers, PdnGame& game) {
    if (const auto at = firstControl(text); at < text.size()) {
        const auto line = static_cast<std::size_t>(
            std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
        return controlCharacterError(text[at], lineNumber(lineNumbers, line));
    }
    const auto tokens = tokenizeMovetext(text);
    LineReader reader{tokens, lineNumbers};
    PdnLine main;
    reader.read(main, &game.comment, &game.result, 0, 0);
    game.moves = std::move(main.moves);
    game.comments = std::move(main.comments);
    game.variations = std::move(main.variations);
    game.nags = std::move(main.nags);
    if (!reader.error.empty()) return reader.error;
    return std::nullopt;
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

std::vector<std::pair<std::string, std::string>> exportTags(const PdnGame& game) {
    constexpr std::string_view kRoster[] = {"Event", "Site",  "Date",  "Round",
                                            "White", "Black", "Result"};
    std::vector<std::pair<std::string, std::string>> tags;
    std::vector<bool> inRoster(game.tags.size(), false);
    for (const std::string_view name : kRoster) {
        const auto found = std::find_if(game.tags.begin(), game.tags.end(),
                                        [&](const auto& tag) { return tag.first == name; });
        if (found != game.tags.end()) {
            inRoster[static_cast<std::size_t>(found - game.tags.begin())] = true;
            tags.push_back(*found);
        } else {
            tags.emplace_back(name, name == "Date"     ? "????.??.??"
                                    : name == "Result" ? game.result
                                                       : "?");
        }
    }
    for (std::size_t i = 0; i < game.tags.size(); ++i)
        if (!inRoster[i]) tags.push_back(game.tags[i]);
    return tags;
}

std::string writePdn(const PdnGame& game) {
    std::string out;
    for (const auto& [name, value] : exportTags(game))
        out += "[" + name + " \"" + escape(value) + "\"]\n";
    const auto fen = game.tag("FEN");
    auto start = Position::fromLfen(fen ? *fen : std::string(kStartLfen));
    const Position from = start ? start.value() : Position::startPosition();
    return out + "\n" + movetext(game, from) + "\n\n";
}

void PdnReader::end() {
    if (auto error = readMovetext(text_, lines_, game_); error && error_.empty())
        error_ = std::move(*error);
    current_.game = error_.empty() ? common::Result<PdnGame>(std::move(game_))
                                   : common::Result<PdnGame>(common::makeError(error_));
    ended_.push_back(std::move(current_));
    current_ = PdnEntry{};
    game_ = PdnGame{};
    error_.clear();
    text_.clear();
    lines_.clear();
    depth_ = 0;
    inComment_ = hasResult_ = inMoves_ = started_ = false;
}

std::optional<PdnEntry> PdnReader::next() {
    if (ended_.empty()) return std::nullopt;
    PdnEntry entry = std::move(ended_.front());
    ended_.pop_front();
    return entry;
}

// Reads line[from..] as tokenizeMovetext does, following comments and parentheses across
// lines: notes the game's result (a result word outside comments and variations), and returns
// where the next game begins (the first word or '(' after the result), or npos.
std::size_t PdnReader::scan(const std::string& line, std::size_t from) {
    std::size_t i = from;
    while (i < line.size()) {
        const char c = line[i];
        if (inComment_) {
            const auto close = line.find('}', i);
            if (close == std::string::npos) return std::string::npos;
            inComment_ = false;
            i = close + 1;
        } else if (c == ';') {
            return std::string::npos;  // a comment to the end of the line
        } else if (c == '{') {
            inComment_ = true;
            ++i;
        } else if (std::isspace(static_cast<unsigned char>(c)) || c == '}') {
            ++i;  // white space, a stray '}'
        } else if (c == ')') {
            if (depth_ > 0) --depth_;  // a stray ')' in the main line is ignored
            ++i;
        } else if (hasResult_) {
            return i;
        } else if (c == '(') {
            ++depth_;
            ++i;
        } else {
            const std::size_t end = wordEnd(line, i);
            if (depth_ == 0 && resultOf(std::string_view(line).substr(i, end - i)))
                hasResult_ = true;
            i = end;
        }
    }
    return std::string::npos;
}

// Adds a piece of a line (the whole line, or the part of it before or after a game's end) to
// the movetext of the game being read; blank lines before its movetext are not part of it.
void PdnReader::append(std::string_view piece) {
    const bool blank = piece.find_first_not_of(" \t") == std::string_view::npos;
    if (!blank && !started_) {
        current_.line = number_;
        started_ = true;
    }
    inMoves_ = inMoves_ || !blank;
    if (!inMoves_) return;
    text_ += piece;
    text_ += '\n';
    lines_.push_back(number_);
}

// A line of movetext: the game ends at its result, and the next begins on this line when a
// word follows the result.
void PdnReader::movetext(const std::string& line) {
    std::size_t from = 0;
    for (std::size_t next = scan(line, from); next != std::string::npos; next = scan(line, from)) {
        append(std::string_view(line).substr(from, next - from));
        end();
        from = next;
    }
    append(std::string_view(line).substr(from));
}

std::optional<PdnEntry> PdnReader::feed(std::string line) {
    ++number_;
    if (!line.empty() && line.back() == '\n') line.pop_back();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line.front() == '%') return next();  // PDN escape line
    const bool tagLine = !line.empty() && line.front() == '[' && !inComment_;
    if (tagLine && inMoves_) end();
    if (tagLine) {
        if (!started_) {
            current_.line = number_;
            started_ = true;
        }
        std::pair<std::string, std::string> tag;
        if (const auto at = firstControl(line); at < line.size()) {
            if (error_.empty()) error_ = controlCharacterError(line[at], number_);
        } else if (parseTag(line, tag)) {
            game_.tags.push_back(tag);
        } else if (error_.empty()) {
            error_ = "malformed tag pair on line " + std::to_string(number_);
        }
    } else {
        movetext(line);
    }
    return next();
}

std::optional<PdnEntry> PdnReader::finish() {
    if (inMoves_ || started_) end();
    return next();
}

std::vector<PdnEntry> readPdnEntries(std::istream& in) {
    std::vector<PdnEntry> entries;
    PdnReader reader;
    for (std::string line; std::getline(in, line);)
        if (auto entry = reader.feed(std::move(line))) entries.push_back(std::move(*entry));
    while (auto entry = reader.finish()) entries.push_back(std::move(*entry));
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

}  // namespace lasca

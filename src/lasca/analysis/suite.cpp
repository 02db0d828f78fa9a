#include "lasca/analysis/suite.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "common/text.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/egtb/egtb.h"

namespace lasca::analysis {

namespace {

using Json = nlohmann::ordered_json;

bool isBlank(char c) {
    return c == ' ' || c == '\t';
}

bool allDigits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
}

// LineReader: walks one suite line, token by token.
struct LineReader {
    std::string_view text;
    std::size_t at = 0;

    void skipBlanks() {
        while (at < text.size() && isBlank(text[at])) ++at;
    }
    bool done() {
        skipBlanks();
        return at >= text.size();
    }
    // The next blank-separated token, without consuming it.
    std::string_view peek() {
        skipBlanks();
        std::size_t end = at;
        while (end < text.size() && !isBlank(text[end])) ++end;
        return text.substr(at, end - at);
    }
    std::string_view take() {
        const std::string_view token = peek();
        at += token.size();
        return token;
    }
};

// Operation: one EPD-style operation, "opcode operand ...;".
struct Operation {
    std::string opcode;
    std::vector<std::string> operands;
};

// Reads the operations after the LFEN. An operand in double quotes may hold blanks and ';'.
common::Result<std::vector<Operation>> readOperations(LineReader& in) {
    std::vector<Operation> ops;
    while (!in.done()) {
        Operation op;
        while (in.at < in.text.size() && !isBlank(in.text[in.at]) && in.text[in.at] != ';')
            op.opcode += in.text[in.at++];
        while (!in.done() && in.text[in.at] != ';') {
            std::string operand;
            if (in.text[in.at] == '"') {
                const auto close = in.text.find('"', in.at + 1);
                if (close == std::string_view::npos)
                    return common::makeError("operation '" + common::printable(op.opcode) +
                                             "' has an unclosed quote");
                operand = std::string(in.text.substr(in.at + 1, close - in.at - 1));
                in.at = close + 1;
            } else {
                while (in.at < in.text.size() && !isBlank(in.text[in.at]) && in.text[in.at] != ';')
                    operand += in.text[in.at++];
            }
            op.operands.push_back(operand);
        }
        if (in.at < in.text.size()) ++in.at;  // the ';' (the last one may be left out)
        if (op.opcode.empty()) return common::makeError("an operation without an opcode");
        ops.push_back(std::move(op));
    }
    return ops;
}

common::Result<std::vector<Move>> readMoves(const Position& pos, const Operation& op) {
    if (op.operands.empty())
        return common::makeError("operation '" + op.opcode + "' needs at least one move");
    std::vector<Move> moves;
    for (const std::string& text : op.operands) {
        auto move = parseMove(pos, text);
        if (!move) return common::makeError(op.opcode + ": " + move.error());
        moves.push_back(move.value());
    }
    return moves;
}

std::string joinMoves(const std::vector<Move>& moves) {
    std::string text;
    for (const Move& m : moves) {
        if (!text.empty()) text += ' ';
        text += formatMove(m);
    }
    return text;
}

bool contains(const std::vector<Move>& moves, const Move& m) {
    return std::find(moves.begin(), moves.end(), m) != moves.end();
}

Json movesJson(const std::vector<Move>& moves) {
    Json list = Json::array();
    for (const Move& m : moves) list.push_back(formatMove(m));
    return list;
}

void putScore(Json& j, Score score) {
    const bool mate = search::isMateScore(score);
    j["cp"] = mate ? Json() : Json(score);
    j["mate"] = mate ? Json(search::mateInMoves(score)) : Json();
}

bool provenWin(const PositionAnalysis& a, int mate) {
    return a.hasMove() && a.best().score >= kMateBound &&
           search::mateInMoves(a.best().score) <= mate;
}

// A found win when `prover` proves one at `pos` and the position is a real test (see findWin).
std::optional<FoundWin> proveWin(const Position& pos, Analyser& prover, Analyser& checker,
                                 const WinSearch& search) {
    MoveList legal;
    generateMoves(pos, legal);
    if (legal.size() < 2) return std::nullopt;
    prover.clear();
    if (!provenWin(prover.analyse(pos), search.mate)) return std::nullopt;
    FoundWin win;
    win.position = pos;
    win.mateIn = search.mate + 1;
    for (const Move& m : legal) {
        prover.clear();
        const PositionAnalysis only = prover.analyse(pos, {}, {m});
        if (!provenWin(only, search.mate)) continue;
        win.winning.push_back(m);
        win.mateIn = std::min(win.mateIn, search::mateInMoves(only.best().score));
    }
    if (win.winning.empty() || win.winning.size() == legal.size()) return std::nullopt;
    checker.clear();
    if (!contains(win.winning, checker.analyse(pos).bestMove())) return std::nullopt;
    return win;
}

}  // namespace

bool isSuiteComment(std::string_view line) {
    const auto first = line.find_first_not_of(" \t\r");
    return first == std::string_view::npos || line[first] == '#';
}

common::Result<SuiteEntry> parseSuiteLine(std::string_view line, int number) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    LineReader in{line};
    std::string lfen = std::string(in.take());
    lfen += " " + std::string(in.take());
    for (int counters = 0; counters < 2 && allDigits(in.peek()); ++counters)
        lfen += " " + std::string(in.take());
    auto pos = Position::fromLfen(lfen);
    if (!pos) return common::makeError("LFEN: " + pos.error());
    auto ops = readOperations(in);
    if (!ops) return common::makeError(ops.error());

    SuiteEntry entry;
    entry.line = number;
    entry.position = pos.value();
    for (const Operation& op : ops.value()) {
        if (op.opcode == "bm" || op.opcode == "am") {
            auto moves = readMoves(entry.position, op);
            if (!moves) return common::makeError(moves.error());
            auto& into = op.opcode == "bm" ? entry.best : entry.avoid;
            into.insert(into.end(), moves.value().begin(), moves.value().end());
        } else if (op.opcode == "id" && !op.operands.empty()) {
            entry.id = op.operands.front();
        }
    }
    return entry;
}

std::string formatSuiteLine(const Position& pos, const std::vector<Move>& best,
                            const std::string& id, const std::string& comment) {
    std::string line = pos.toLfen();
    if (!best.empty()) line += " bm " + joinMoves(best) + ";";
    if (!id.empty()) line += " id \"" + id + "\";";
    if (!comment.empty()) line += " c0 \"" + comment + "\";";
    return line;
}

Verdict judge(const SuiteEntry& entry, const Move& chosen) {
    if (!entry.judged()) return Verdict::Unjudged;
    const bool good = entry.best.empty() || contains(entry.best, chosen);
    const bool bad = contains(entry.avoid, chosen);
    return good && !bad ? Verdict::Solved : Verdict::Failed;
}

const char* verdictName(Verdict verdict) {
    constexpr const char* kNames[] = {"-", "solved", "failed"};  // by Verdict
    return kNames[static_cast<std::size_t>(verdict)];
}

std::string scoreText(Score score) {
    return search::isMateScore(score) ? "mate " + std::to_string(search::mateInMoves(score))
                                      : "cp " + std::to_string(score);
}

std::vector<std::string> resultLines(int number, const SuiteEntry& entry,
                                     const PositionAnalysis& analysis) {
    const std::string n = std::to_string(number);
    if (!analysis.hasMove()) return {n + " " + (entry.id.empty() ? "-" : entry.id) + " gameover"};
    const PvLine& best = analysis.best();
    std::vector<std::string> lines = {
        n + " " + (entry.id.empty() ? "-" : entry.id) + " bestmove " + formatMove(best.pv.front()) +
        " score " + scoreText(best.score) + " depth " + std::to_string(best.depth) + " nodes " +
        std::to_string(analysis.nodes) + " " + verdictName(judge(entry, best.pv.front())) + " pv " +
        joinMoves(best.pv)};
    for (std::size_t k = 1; k < analysis.lines.size(); ++k) {
        const PvLine& line = analysis.lines[k];
        lines.push_back(n + " multipv " + std::to_string(k + 1) + " " +
                        formatMove(line.pv.front()) + " score " + scoreText(line.score) +
                        " depth " + std::to_string(line.depth) + " pv " + joinMoves(line.pv));
    }
    if (analysis.table)
        lines.push_back(n + " table " +
                        egtb::verdictText(*analysis.table, entry.position.sideToMove()));
    return lines;
}

std::string resultJson(int number, const SuiteEntry& entry, const PositionAnalysis& analysis) {
    Json j;
    j["type"] = "position";
    j["number"] = number;
    j["line"] = entry.line;
    j["id"] = entry.id;
    j["fen"] = entry.position.toLfen();
    j["bm"] = movesJson(entry.best);
    j["am"] = movesJson(entry.avoid);
    j["nodes"] = analysis.nodes;
    if (!analysis.hasMove()) {
        j["best"] = Json();
        j["verdict"] = verdictName(Verdict::Unjudged);
        return j.dump();
    }
    j["best"] = formatMove(analysis.bestMove());
    putScore(j, analysis.best().score);
    j["depth"] = analysis.best().depth;
    j["verdict"] = verdictName(judge(entry, analysis.bestMove()));
    j["table"] = analysis.table
                     ? Json(egtb::verdictText(*analysis.table, entry.position.sideToMove()))
                     : Json();
    Json lines = Json::array();
    for (const PvLine& line : analysis.lines) {
        Json l;
        l["move"] = formatMove(line.pv.front());
        putScore(l, line.score);
        l["depth"] = line.depth;
        l["pv"] = movesJson(line.pv);
        lines.push_back(l);
    }
    j["lines"] = lines;
    return j.dump();
}

std::optional<FoundWin> findWin(const Position& opening, Analyser& player, Analyser& prover,
                                Analyser& checker, const WinSearch& search) {
    player.clear();
    Game game(opening);
    for (int ply = 0; ply < search.maxPlies; ++ply) {
        if (game.status(player.settings().rules).over()) return std::nullopt;
        const PositionAnalysis own = player.analyse(game);
        if (ply >= search.firstPly && own.best().score >= search.probeScore) {
            if (auto win = proveWin(game.current(), prover, checker, search)) {
                win->ply = ply;
                return win;
            }
        }
        game.play(own.bestMove());
    }
    return std::nullopt;
}

}  // namespace lasca::analysis

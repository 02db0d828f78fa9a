#include "lasca/engine/protocol.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "common/logging.h"
#include "common/text.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/core/perft.h"
#include "lasca/core/version.h"
#include "lasca/egtb/egtb.h"

namespace lasca::engine {

namespace {

constexpr std::int64_t kMaxMilliseconds = 1'000'000'000;  // about 11.5 days
constexpr std::uint64_t kMaxNodes = 1ULL << 50;
constexpr int kMaxProtocolPerftDepth = 24;
constexpr int kMaxBenchDepth = 30;

std::string join(const std::vector<std::string_view>& tokens, std::size_t from, std::size_t to) {
    std::string text;
    for (std::size_t i = from; i < to; ++i) {
        if (i > from) text += ' ';
        text += tokens[i];
    }
    return text;
}

const char* resultWord(Outcome o) {
    switch (o) {
        case Outcome::WhiteWins:
            return "p1win";
        case Outcome::BlackWins:
            return "p2win";
        case Outcome::Draw:
            return "draw";
        case Outcome::Ongoing:
            return "none";
    }
    return "none";
}

// Commands that need the engine idle and end a running search first.
bool endsSearch(std::string_view command) {
    return command == "go" || command == "bench" || command == "ucinewgame" ||
           command == "uginewgame";
}

// Commands that need the engine idle but leave a running search alone: kept until it ends.
bool waitsForSearch(std::string_view command) {
    return command == "position" || command == "setoption";
}

}  // namespace

// ---------------------------------------------------------------------------------------------

void Output::line(const std::string& text) {
    std::lock_guard lock(mutex_);
    out_ << text << '\n';
    out_.flush();
    common::logger().debug(">> {}", text);
}

Protocol::Protocol(Output& out)
    : out_(out),
      engine_(EngineCallbacks{
          [this](const search::SearchInfo& info) { out_.line(formatInfo(info)); },
          [this](const Move& best, const Move& ponder) { out_.line(formatBestMove(best, ponder)); },
          [](const std::string& file) { return common::setDebugLogFile(file); }}) {
}

Protocol::~Protocol() {
    finish();
}

void Protocol::finish() {
    engine_.stop();
    engine_.waitForSearch();
}

void Protocol::error(const std::string& message) {
    out_.line(common::errorLine(message));
}

bool Protocol::handle(std::string_view line) {
    common::logger().debug("<< {}", common::printable(line));
    if (line.size() > kMaxLineBytes) {
        error(common::lineTooLong(line.size(), kMaxLineBytes));
        return true;
    }
    const Tokens t = common::splitWhitespace(line);
    if (t.empty()) {
        error("empty line");
        return true;
    }
    const std::string_view command = t[0];
    if (!engine_.searching()) runPending();
    if (command == "quit") {
        finish();
        return false;
    }
    if (command == "isready") {
        out_.line("readyok");
    } else if (command == "stop") {
        endSearch();
    } else if (command == "ponderhit") {
        engine_.ponderhit();
    } else if (engine_.searching() && endsSearch(command)) {
        // A malformed go or bench is answered without touching the running search.
        if (const auto problem = malformedSearchCommand(t)) {
            error(*problem);
        } else {
            endSearch();
            execute(t);
        }
    } else if (engine_.searching() && (!pending_.empty() || waitsForSearch(command))) {
        pending_.emplace_back(line);
    } else {
        execute(t);
    }
    return true;
}

std::optional<std::string> Protocol::malformedSearchCommand(const Tokens& t) const {
    if (t[0] == "go") {
        if (auto request = parseGo(t); !request) return request.error();
    } else if (t[0] == "bench") {
        if (auto depth = parseBench(t); !depth) return depth.error();
    }
    return std::nullopt;
}

void Protocol::endSearch() {
    engine_.stop();
    engine_.waitForSearch();
    runPending();
}

void Protocol::runPending() {
    while (!pending_.empty()) {
        const std::string line = std::move(pending_.front());
        pending_.pop_front();
        execute(common::splitWhitespace(line));
    }
}

void Protocol::execute(const Tokens& t) {
    const std::string_view command = t[0];
    if (command == "uci") {
        identify(Dialect::Uci);
    } else if (command == "ugi") {
        identify(Dialect::Ugi);
    } else if (command == "setoption") {
        setOption(t);
    } else if (command == "ucinewgame" || command == "uginewgame") {
        engine_.newGame();
    } else if (command == "position") {
        position(t);
    } else if (command == "go") {
        auto request = parseGo(t);
        if (request)
            go(request.value());
        else
            error(request.error());
    } else if (command == "query") {
        query(t);
    } else if (command == "d") {
        display();
    } else if (command == "eval") {
        showEvaluation();
    } else if (command == "bench") {
        auto depth = parseBench(t);
        if (depth)
            bench(depth.value());
        else
            error(depth.error());
    } else if (command == "help") {
        help();
    } else if (command == "debug" && t.size() == 2 && (t[1] == "on" || t[1] == "off")) {
        (void)common::initLogging(t[1] == "on" ? "debug" : "warn",
                                  engine_.options().stringValue("Debug Log File"));
    } else {
        error("unknown command '" + common::printable(command) + "' (try help)");
    }
}

void Protocol::identify(Dialect dialect) {
    dialect_ = dialect;
    out_.line(std::string("id name ") + kEngineName + " " + kVersion);
    out_.line(std::string("id author ") + kAuthor);
    for (const common::Option& o : engine_.options().all()) out_.line(common::Options::describe(o));
    out_.line(dialect == Dialect::Ugi ? "ugiok" : "uciok");
}

// setoption name <id> [value <x>]: the name may hold spaces, the value is the rest of the line.
void Protocol::setOption(const Tokens& t) {
    const auto option = common::parseSetOption(t);
    if (!option) {
        error(t.size() < 3 || t[1] != "name" ? "setoption needs: setoption name <id> [value <x>]"
                                             : "setoption needs an option name");
        return;
    }
    auto applied = engine_.options().set(option->name, option->value);
    if (!applied) error(applied.error());
}

std::variant<PositionCommand, PositionCommandError> parsePositionCommand(
    const std::vector<std::string_view>& t) {
    using Kind = PositionCommandError::Kind;
    if (t.size() < 2) return PositionCommandError{Kind::NoStart, ""};
    const auto movesAt =
        static_cast<std::size_t>(std::find(t.begin(), t.end(), "moves") - t.begin());
    PositionCommand command;
    if (t[1] == "startpos") {
        if (movesAt != 2 && t.size() > 2)
            return PositionCommandError{Kind::AfterStartpos, std::string(t[2])};
        command.start = Position::startPosition();
    } else if (t[1] == "fen") {
        auto parsed = Position::fromLfen(join(t, 2, movesAt));
        if (!parsed) return PositionCommandError{Kind::BadLfen, parsed.error()};
        command.start = parsed.value();
    } else {
        return PositionCommandError{Kind::NoStart, std::string(t[1])};
    }
    for (std::size_t i = movesAt + 1; i < t.size(); ++i) command.moves.emplace_back(t[i]);
    return command;
}

// position startpos|fen <LFEN> [moves <m1> <m2> ...]
void Protocol::position(const Tokens& t) {
    auto parsed = parsePositionCommand(t);
    if (const auto* bad = std::get_if<PositionCommandError>(&parsed)) {
        using Kind = PositionCommandError::Kind;
        if (bad->kind == Kind::AfterStartpos)
            error("unexpected '" + common::printable(bad->word) + "' after startpos");
        else if (bad->kind == Kind::BadLfen)
            error(bad->word);
        else if (bad->word.empty())
            error("position needs startpos or fen <LFEN>");
        else
            error("position needs startpos or fen <LFEN>, got '" + common::printable(bad->word) +
                  "'");
        return;
    }
    const auto& command = std::get<PositionCommand>(parsed);
    const PositionOutcome outcome = engine_.setPosition(command.start, command.moves);
    if (!outcome.ok) error(outcome.error);
}

// Reads `go` without looking at the position: numbers and keywords only.
common::Result<GoRequest> Protocol::parseGo(const Tokens& t) const {
    GoRequest request;
    search::SearchLimits& limits = request.limits;
    static const std::vector<std::string_view> kKeywords = {
        "wtime",  "btime",    "winc",   "binc",        "movestogo", "p1time",
        "p2time", "p1inc",    "p2inc",  "depth",       "nodes",     "movetime",
        "mate",   "infinite", "ponder", "searchmoves", "perft"};
    auto isKeyword = [&](std::string_view s) {
        return std::find(kKeywords.begin(), kKeywords.end(), s) != kKeywords.end();
    };
    for (std::size_t i = 1; i < t.size(); ++i) {
        const std::string_view key = t[i];
        if (key == "infinite") {
            limits.infinite = true;
            continue;
        }
        if (key == "ponder") {
            limits.ponder = true;
            continue;
        }
        if (key == "searchmoves") {
            while (i + 1 < t.size() && !isKeyword(t[i + 1]))
                request.searchMoves.emplace_back(t[++i]);
            if (request.searchMoves.empty())
                return common::makeError("searchmoves needs at least one move");
            continue;
        }
        if (!isKeyword(key))
            return common::makeError("go: unknown parameter '" + common::printable(key) + "'");
        if (i + 1 >= t.size())
            return common::makeError("go: " + std::string(key) + " needs a value");
        const std::string_view text = t[++i];
        std::int64_t low = 0, high = kMaxMilliseconds;
        if (key == "depth") high = search::kMaxDepth, low = 1;
        if (key == "nodes") high = static_cast<std::int64_t>(kMaxNodes), low = 1;
        if (key == "mate") high = kMaxPly / 2, low = 1;
        if (key == "movestogo") high = 1000, low = 1;
        if (key == "perft") high = kMaxProtocolPerftDepth, low = 1;
        const auto value = common::parseBoundedInteger(text, low, high);
        if (!value)
            return common::makeError("go: " + std::string(key) + " needs a number in " +
                                     std::to_string(low) + ".." + std::to_string(high) + ", got '" +
                                     common::printable(text) + "'");
        const std::int64_t v = *value;
        if (key == "wtime" || key == "p1time") limits.clock.time[0] = v;
        if (key == "btime" || key == "p2time") limits.clock.time[1] = v;
        if (key == "winc" || key == "p1inc") limits.clock.inc[0] = v;
        if (key == "binc" || key == "p2inc") limits.clock.inc[1] = v;
        if (key == "movestogo") limits.clock.movesToGo = static_cast<int>(v);
        if (key == "movetime") limits.clock.moveTime = v;
        if (key == "depth") limits.depth = static_cast<int>(v);
        if (key == "nodes") limits.nodes = static_cast<std::uint64_t>(v);
        if (key == "mate") limits.mate = static_cast<int>(v);
        if (key == "perft") request.perftDepth = static_cast<int>(v);
    }
    return request;
}

// Runs a read `go` on the idle engine: the root moves are read against its position now.
void Protocol::go(const GoRequest& request) {
    const Position& pos = engine_.game().current();
    search::SearchLimits limits = request.limits;
    for (const std::string& text : request.searchMoves) {
        auto m = parseMove(pos, text);
        if (!m) {
            error("searchmoves: " + m.error());
            return;
        }
        limits.searchMoves.push_back(m.value());
    }
    if (request.perftDepth > 0) {
        perft(request.perftDepth);
        return;
    }
    if (!hasLegalMove(pos)) {
        out_.line("info string gameover");
        out_.line("bestmove 0000");
        return;
    }
    if (const auto table = engine_.tableResult())
        out_.line("info string table " + egtb::verdictText(*table, pos.sideToMove()));
    engine_.go(limits);
}

void Protocol::query(const Tokens& t) {
    if (t.size() != 2) {
        error("query needs one of p1turn, gameover, result");
        return;
    }
    const GameStatus status = engine_.status();
    if (t[1] == "p1turn") {
        out_.line(std::string("response ") +
                  (engine_.game().current().sideToMove() == Color::White ? "true" : "false"));
    } else if (t[1] == "gameover") {
        out_.line(std::string("response ") + (status.over() ? "true" : "false"));
    } else if (t[1] == "result") {
        out_.line(std::string("response ") + resultWord(status.outcome));
    } else {
        error("query: unknown question '" + common::printable(t[1]) +
              "' (p1turn, gameover, result)");
    }
}

void Protocol::perft(int depth) {
    Position pos = engine_.game().current();
    std::uint64_t total = 0;
    for (const DivideLine& line : divide(pos, depth)) {
        out_.line(formatMove(line.move) + ": " + std::to_string(line.nodes));
        total += line.nodes;
    }
    out_.line("Nodes searched: " + std::to_string(total));
}

void Protocol::display() {
    const Position& pos = engine_.game().current();
    std::size_t width = 3;
    for (Square s = 0; s < kSquares; ++s)
        width = std::max(width, columnText(pos.column(s), pos.height(s)).size() + 1);
    auto pad = [width](std::string s) {
        s.resize(width, ' ');
        return s;
    };
    std::string header = "info string   ";
    for (int f = 0; f < kFiles; ++f) header += pad(std::string(1, static_cast<char>('a' + f)));
    out_.line(header);
    for (int r = kRanks - 1; r >= 0; --r) {
        std::string row = "info string " + std::to_string(r + 1) + " ";
        for (int f = 0; f < kFiles; ++f) {
            const Square s = makeSquare(f, r);
            row += pad(s == kNoSquare ? "" : columnText(pos.column(s), pos.height(s)));
        }
        while (!row.empty() && row.back() == ' ') row.pop_back();
        out_.line(row);
    }
    const GameStatus status = engine_.status();
    char key[32];
    std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(pos.key()));
    out_.line("info string columns are written top first: w W b B = white/black soldier/officer");
    out_.line(std::string("info string side to move: ") + std::string(colorName(pos.sideToMove())));
    out_.line("info string lfen: " + pos.toLfen());
    out_.line(std::string("info string key: ") + key);
    out_.line("info string quiet plies: " + std::to_string(pos.quietPlies()) +
              ", repetitions: " + std::to_string(engine_.game().occurrences()));
    out_.line(std::string("info string state: ") + outcomeName(status.outcome) +
              (status.over() ? std::string(" (") + terminationName(status.termination) + ")" : ""));
}

void Protocol::showEvaluation() {
    const Position& pos = engine_.game().current();
    const eval::EvalBreakdown e = eval::explainEvaluation(pos, engine_.evalWeights());
    for (const eval::EvalTerm& term : e.terms)
        out_.line("info string eval " + term.name + " count " + std::to_string(term.count[0]) +
                  " " + std::to_string(term.count[1]) + " white " + std::to_string(term.white) +
                  " black " + std::to_string(term.black));
    out_.line("info string eval total " + std::to_string(e.total) + " for " +
              std::string(colorName(pos.sideToMove())) + " phase " + std::to_string(e.phase) +
              (hasCapture(pos) ? " (not quiet: a capture is pending)" : ""));
    if (const auto network = engine_.network()) {
        eval::nnue::Accumulator acc;
        eval::nnue::refreshAccumulator(*network, pos, acc);
        const Score own = eval::nnue::evaluate(*network, acc, pos.sideToMove());
        out_.line(
            "info string eval nnue " +
            std::to_string(eval::nnue::staticScore(*network, acc, pos, engine_.evalWeights())) +
            " for " + std::string(colorName(pos.sideToMove())) +
            (network->residual
                 ? " (the classic total plus the network's correction " + std::to_string(own) + ")"
                 : std::string()) +
            " (UseNNUE: the search uses this score)");
    }
}

common::Result<int> Protocol::parseBench(const Tokens& t) const {
    if (t.size() > 2) return common::makeError("bench takes at most one argument: the depth");
    if (t.size() < 2) return Engine::kDefaultBenchDepth;
    const auto value = common::parseBoundedInteger(t[1], 1, kMaxBenchDepth);
    if (!value)
        return common::makeError("bench depth must be a number in 1.." +
                                 std::to_string(kMaxBenchDepth));
    return static_cast<int>(*value);
}

void Protocol::bench(int depth) {
    const Engine::BenchResult r = Engine::bench(depth, engine_.network());
    out_.line("Total time (ms): " + std::to_string(r.timeMs));
    out_.line("Nodes searched: " + std::to_string(r.nodes));
    out_.line("Nodes/second: " +
              std::to_string(r.nodes * 1000 /
                             static_cast<std::uint64_t>(std::max<std::int64_t>(r.timeMs, 1))));
}

void Protocol::help() {
    static const char* kLines[] = {
        "commands: uci | ugi | isready | setoption name <id> [value <x>] | ucinewgame | uginewgame",
        "  position startpos|fen <LFEN> [moves <m1> ...]",
        "  go [wtime|btime|winc|binc|p1time|p2time|p1inc|p2inc <ms>] [movestogo <n>] [depth <n>]",
        "     [nodes <n>] [movetime <ms>] [mate <n>] [infinite] [ponder] [searchmoves <m> ...]",
        "  go perft <n> | stop | ponderhit | query p1turn|gameover|result | quit",
        "  d (board) | eval (evaluation terms) | bench [depth] | help",
        "see protocol.md for the exact grammar"};
    for (const char* line : kLines) out_.line(std::string("info string ") + line);
}

std::string Protocol::formatInfo(const search::SearchInfo& info) const {
    std::string line = "info depth " + std::to_string(info.depth) + " seldepth " +
                       std::to_string(info.selDepth) + " multipv " + std::to_string(info.multiPV);
    if (search::isMateScore(info.score))
        line += " score mate " + std::to_string(search::mateInMoves(info.score));
    else
        line += " score cp " + std::to_string(info.score);
    if (info.bound == search::Bound::Lower) line += " lowerbound";
    if (info.bound == search::Bound::Upper) line += " upperbound";
    const std::int64_t ms = std::max<std::int64_t>(info.timeMs, 1);
    line += " nodes " + std::to_string(info.nodes) + " nps " +
            std::to_string(info.nodes * 1000 / static_cast<std::uint64_t>(ms)) + " time " +
            std::to_string(info.timeMs) + " hashfull " + std::to_string(info.hashfull) + " pv";
    for (const Move& m : info.pv) line += " " + formatMove(m);
    return line;
}

std::string Protocol::formatBestMove(const Move& best, const Move& ponder) const {
    std::string line = "bestmove " + formatMove(best);
    if (dialect_ == Dialect::Uci && !ponder.isNull() && !best.isNull())
        line += " ponder " + formatMove(ponder);
    return line;
}

int Protocol::run(std::istream& in, std::ostream& out) {
    // Reading must never flush the output stream behind Output's back: a tied stream would be
    // flushed by the reading thread while the search thread writes, duplicating lines.
    in.tie(nullptr);
    Output output(out);
    Protocol protocol(output);
    common::readCommandLines(
        in, kMaxLineBytes, [&](std::string_view line) { return protocol.handle(line); },
        [&](std::size_t length) { protocol.error(common::lineTooLong(length, kMaxLineBytes)); });
    protocol.finish();
    return 0;
}

}  // namespace lasca::engine

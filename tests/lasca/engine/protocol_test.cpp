// Protocol tests: the real `lasca` binary driven through pipes, checked against protocol.md.
//
// Every test runs under ProtocolFixture, which checks after the test that every line any engine
// wrote matches the reply grammar of protocol.md ("Replies"). Timing is measured and printed,
// but only generous bounds are asserted.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lasca/core/game.h"
#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/core/position.h"
#include "lasca/engine/protocol_test_support.h"
#include "test_directory.h"

namespace lasca::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using Lines = std::vector<std::string>;

// ---------------------------------------------------------------------------------------------
// Helpers

bool startsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

Lines tokens(const std::string& line) {
    std::istringstream in(line);
    Lines out;
    for (std::string t; in >> t;) out.push_back(t);
    return out;
}

// Input or output shown in a failure message: unprintable bytes escaped, long text cut.
std::string printable(std::string_view text) {
    std::string out;
    for (char c : text.substr(0, 100)) {
        if (c >= 0x20 && c < 0x7f) {
            out += c;
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
            out += hex;
        }
    }
    if (text.size() > 100) out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

std::string joined(const Lines& lines) {
    std::string out;
    for (const std::string& line : lines) out += "  " + printable(line) + "\n";
    return out;
}

long long msSince(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

std::size_t countPrefix(const Lines& lines, std::string_view prefix) {
    return static_cast<std::size_t>(std::count_if(
        lines.begin(), lines.end(), [&](const std::string& l) { return startsWith(l, prefix); }));
}

Lines withoutSearchInfo(const Lines& lines) {
    Lines out;
    for (const std::string& l : lines)
        if (!startsWith(l, "info depth ")) out.push_back(l);
    return out;
}

// Sends isready and returns the lines that came before readyok.
Lines sync(EngineProcess& e) {
    EXPECT_TRUE(e.send("isready"));
    bool found = false;
    Lines lines = e.readUntil("readyok", kReplyTimeout, &found);
    EXPECT_TRUE(found) << "no readyok; got:\n" << joined(lines);
    if (found) lines.pop_back();
    return lines;
}

// Sends one command and expects no reply at all.
void sendQuiet(EngineProcess& e, const std::string& command) {
    ASSERT_TRUE(e.send(command));
    const Lines lines = sync(e);
    EXPECT_TRUE(lines.empty()) << "'" << command << "' answered:\n" << joined(lines);
}

Lines handshake(EngineProcess& e, const std::string& command) {
    EXPECT_TRUE(e.send(command));
    bool found = false;
    Lines lines = e.readUntil(command + "ok", kReplyTimeout, &found);
    EXPECT_TRUE(found) << joined(lines);
    return lines;
}

// Asks a query and returns its answer (search info lines that come first are skipped).
std::string query(EngineProcess& e, const std::string& question) {
    EXPECT_TRUE(e.send("query " + question));
    while (const auto line = e.readLine(kReplyTimeout))
        if (!startsWith(*line, "info depth ")) return *line;
    ADD_FAILURE() << "no answer to query " << question;
    return "";
}

// The engine's whole view of the game: `d` (board, side, LFEN, key, counters, state) and the
// three queries. Equal before and after a bad input means the input changed nothing.
std::string stateOf(EngineProcess& e) {
    e.send("d");
    e.send("query p1turn");
    e.send("query gameover");
    e.send("query result");
    const Lines lines = sync(e);
    std::string state;
    for (const std::string& l : lines) state += l + "\n";
    EXPECT_EQ(countPrefix(lines, "info string lfen: "), 1u) << state;
    EXPECT_EQ(countPrefix(lines, "response "), 3u) << state;
    return state;
}

std::string lfenOf(EngineProcess& e) {
    e.send("d");
    for (const std::string& l : sync(e))
        if (startsWith(l, "info string lfen: ")) return l.substr(18);
    ADD_FAILURE() << "d printed no lfen line";
    return "";
}

// Sends `bytes` (which end the line themselves) and checks that exactly one error line comes
// back and that the state is unchanged. Returns the error line.
std::string expectOneError(EngineProcess& e, std::string_view bytes) {
    const std::string before = stateOf(e);
    EXPECT_TRUE(e.sendRaw(bytes));
    const Lines lines = sync(e);
    EXPECT_EQ(lines.size(), 1u) << "input: " << printable(bytes) << "\nreplies:\n" << joined(lines);
    const std::string error = lines.empty() ? "" : lines.front();
    EXPECT_TRUE(startsWith(error, "info string error: "))
        << "input: " << printable(bytes) << "\nreply: " << printable(error);
    EXPECT_EQ(stateOf(e), before) << "input changed the state: " << printable(bytes);
    return error;
}

std::string expectOneErrorLine(EngineProcess& e, const std::string& line) {
    return expectOneError(e, line + "\n");
}

// A position as sent with `position`: an LFEN (empty: startpos) and moves.
struct PositionSetup {
    std::string lfen;
    Lines moves;

    std::string command() const {
        std::string c = lfen.empty() ? "position startpos" : "position fen " + lfen;
        if (!moves.empty()) c += " moves";
        for (const std::string& m : moves) c += " " + m;
        return c;
    }
    Game game() const {
        Game g(lfen.empty() ? Position::startPosition() : Position::fromLfen(lfen).value());
        for (const std::string& m : moves) {
            auto played = g.playText(m);
            if (!played) throw std::runtime_error("bad test setup move " + m);
        }
        return g;
    }
    PositionSetup then(const std::string& move) const {
        PositionSetup s = *this;
        s.moves.push_back(move);
        return s;
    }
};

// A position where White has no legal move: its soldier on a1 is blocked by black columns on
// b2 and c3 (the jump would land on c3).
const std::string kWhiteBlocked = "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,b,-,-/b,-,-/w,-,-,- w";
// Black to move without any piece: the position of the UGI worked session.
const std::string kBlackHasNothing = "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b";
// Two officers far apart: the only moves are officer moves, which never reset the T2 counter.
const std::string kOfficers = "-,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- w";
// White to move with a single legal move, e7xc5xe3 (the UCI worked session's second position).
const PositionSetup kSingleMove{
    "", {"c3-d4", "e5xc3", "d2xb4", "g5-f4", "e3xg5", "d6-e5", "b4xd6", "e7xc5", "g5xe7", "c5-d4"}};
const PositionSetup kStart{};
const PositionSetup kBlackToMove{"", {"c3-d4", "e5xc3", "d2xb4"}};

// The first move of the principal variation of the last `info ... multipv 1 ... pv` line.
std::string lastPvMove(const Lines& lines) {
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
        if (!startsWith(*it, "info depth ")) continue;
        const Lines t = tokens(*it);
        const auto multipv = std::find(t.begin(), t.end(), "multipv");
        if (multipv == t.end() || multipv + 1 == t.end() || *(multipv + 1) != "1") continue;
        const auto pv = std::find(t.begin(), t.end(), "pv");
        if (pv != t.end() && pv + 1 != t.end()) return *(pv + 1);
    }
    return "";
}

std::string field(const std::string& infoLine, const std::string& name) {
    const Lines t = tokens(infoLine);
    const auto it = std::find(t.begin(), t.end(), name);
    return it == t.end() || it + 1 == t.end() ? "" : *(it + 1);
}

// The search info lines of one search: every pv is a legal line of play from the root; depth
// and time never decrease; time is at most what the test measured; bounds (aspiration
// failures) only after two seconds.
void checkSearchInfo(const PositionSetup& setup, const Lines& lines, long long measuredMs) {
    long long lastDepth = 0, lastTime = 0;
    for (const std::string& line : lines) {
        if (!startsWith(line, "info depth ")) continue;
        const long long depth = std::stoll(field(line, "depth"));
        const long long time = std::stoll(field(line, "time"));
        EXPECT_GE(depth, lastDepth) << line;
        EXPECT_GE(time, lastTime) << line;
        EXPECT_LE(time, measuredMs + 2) << line;
        lastDepth = depth;
        lastTime = time;
        if (time < 2000) {
            EXPECT_EQ(line.find("bound"), std::string::npos)
                << "bound sent before two seconds: " << line;
        }
        Game game = setup.game();
        const Lines t = tokens(line);
        const auto pv = std::find(t.begin(), t.end(), "pv");
        for (auto it = pv == t.end() ? pv : pv + 1; it != t.end(); ++it) {
            const auto played = game.playText(*it);
            EXPECT_TRUE(played.ok()) << "pv move " << *it << " is illegal in " << line;
            if (!played.ok()) break;
        }
    }
}

enum class Dialect { None, Uci, Ugi };

struct SearchOutcome {
    Lines lines;  // every line up to and including the bestmove
    std::string best;
    std::string ponder;
    long long ms = 0;  // from sending go to reading bestmove
};

// Sets the position, runs `go` and checks the reply: info lines, then exactly one bestmove
// (nothing follows it), a legal move equal to the first move of the last principal variation;
// in UGI exactly two tokens, in UCI an optional legal ponder move.
SearchOutcome checkSearch(EngineProcess& e, const PositionSetup& setup, const std::string& go,
                          Dialect dialect) {
    SearchOutcome out;
    sendQuiet(e, setup.command());
    const auto start = Clock::now();
    EXPECT_TRUE(e.send(go));
    bool found = false;
    out.lines = e.readUntil("bestmove", kSearchTimeout, &found);
    out.ms = msSince(start);
    EXPECT_TRUE(found) << go << ": no bestmove; got:\n" << joined(out.lines);
    if (!found) return out;
    const Lines after = sync(e);
    EXPECT_TRUE(after.empty()) << go << ": output after the bestmove:\n" << joined(after);

    for (std::size_t i = 0; i + 1 < out.lines.size(); ++i)
        EXPECT_TRUE(startsWith(out.lines[i], "info depth ")) << go << ": " << out.lines[i];
    checkSearchInfo(setup, out.lines, out.ms);
    const Lines best = tokens(out.lines.back());
    if (dialect == Dialect::Ugi) {
        EXPECT_EQ(best.size(), 2u) << "UGI bestmove must be two tokens: " << out.lines.back();
    } else {
        EXPECT_TRUE(best.size() == 2 || (best.size() == 4 && best[2] == "ponder"))
            << out.lines.back();
    }
    if (best.size() < 2) return out;
    out.best = best[1];
    if (best.size() == 4) out.ponder = best[3];

    EXPECT_EQ(out.best, lastPvMove(out.lines))
        << go << ": bestmove is not the first move of the last pv\n"
        << joined(out.lines);

    const Game game = setup.game();
    const auto move = parseMove(game.current(), out.best);
    EXPECT_TRUE(move.ok()) << go << ": bestmove " << out.best << " is not legal in "
                           << game.current().toLfen();
    if (!move.ok()) return out;
    EXPECT_EQ(formatMove(move.value()), out.best) << "bestmove not in the written form";
    if (!out.ponder.empty()) {
        Position next = game.current();
        Undo undo{};
        next.make(move.value(), undo);
        EXPECT_TRUE(parseMove(next, out.ponder).ok())
            << "ponder move " << out.ponder << " is not legal after " << out.best;
    }
    // The engine itself accepts the move in that position; then the position is set back.
    sendQuiet(e, setup.then(out.best).command());
    sendQuiet(e, setup.command());
    return out;
}

Lines searchInfos(const Lines& lines) {
    Lines out;
    for (const std::string& l : lines)
        if (startsWith(l, "info depth ")) out.push_back(l);
    return out;
}

class ProtocolTest : public ProtocolFixture {};

const Lines kOptionLines = {
    "option name Hash type spin default 16 min 1 max 32768",
    "option name Threads type spin default 1 min 1 max 256",
    "option name MultiPV type spin default 1 min 1 max 64",
    "option name MoveOverhead type spin default 30 min 0 max 5000",
    "option name Ponder type check default false",
    "option name RepetitionDraw type check default true",
    "option name NoProgressDraw type check default true",
    "option name EvalMaterialOnly type check default false",
    "option name UseNNUE type check default true",
    "option name EvalFile type string default <empty>",
    "option name Debug Log File type string default <empty>",
    "option name RfpMargin type spin default 108 min 1 max 1000",
    "option name RfpDepth type spin default 4 min 0 max 20",
    "option name LmrBase type spin default 59 min 0 max 400",
    "option name LmrDivisor type spin default 207 min 50 max 1000",
    "option name LmrMinDepth type spin default 3 min 2 max 20",
    "option name LmrMinMove type spin default 2 min 1 max 63",
    "option name AspirationDelta type spin default 25 min 5 max 1000",
    "option name AspirationGrowth type spin default 50 min 10 max 400",
    "option name AspirationDepth type spin default 4 min 1 max 100",
    "option name HistoryBonusMax type spin default 416 min 1 max 16384",
};

Lines expectedHandshake(const std::string& ok) {
    Lines lines = {"id name Lasca 0.1.0", "id author the lasca developers"};
    lines.insert(lines.end(), kOptionLines.begin(), kOptionLines.end());
    lines.push_back(ok);
    return lines;
}

// ---------------------------------------------------------------------------------------------
// The grammar itself

TEST(ReplyGrammar, AcceptsEveryDocumentedForm) {
    const Lines good = {
        "id name Lasca 0.1.0",
        "id author the lasca developers",
        "option name Hash type spin default 16 min 1 max 32768",
        "option name Ponder type check default false",
        "option name Debug Log File type string default <empty>",
        "uciok",
        "ugiok",
        "readyok",
        "info depth 1 seldepth 1 multipv 1 score cp 166 nodes 2 nps 2000 time 1 hashfull 0 pv "
        "b2xd4",
        "info depth 9 seldepth 14 multipv 2 score mate -3 upperbound nodes 1 nps 1 time 0 "
        "hashfull 1000 pv c3-d4 e5xc3xe1 d2xb4",
        "info string error: empty line",
        "bestmove c3-d4",
        "bestmove 0000",
        "bestmove d2xb4xd6 ponder e5-f4",
        "response true",
        "response p2win",
        "e7xc5xe3: 1",
        "Nodes searched: 1",
        "Nodes/second: 12345",
        "Total time (ms): 0",
    };
    for (const std::string& line : good) EXPECT_TRUE(replyForm(line).has_value()) << line;
}

TEST(ReplyGrammar, RejectsMalformedLines) {
    const Lines bad = {
        "",
        "bestmove",
        "bestmove c3d4",
        "bestmove c3-d4 ponder",
        "bestmove c3-d4 extra",
        "bestmove a2-b3",  // not playable squares
        "bestmove c3-d4x",
        "info depth x seldepth 1 multipv 1 score cp 1 nodes 1 nps 1 time 1 hashfull 0 pv c3-d4",
        "info depth 1 seldepth 1 multipv 1 score cp 1 nodes 1 nps 1 time 1 hashfull 0 pv",
        "info string",
        "readyok ",
        "readyok\r",
        "response maybe",
        "uciok\x01",
        "option name Hash type spin default 16",
    };
    for (const std::string& line : bad)
        EXPECT_FALSE(replyForm(line).has_value()) << printable(line);
}

// ---------------------------------------------------------------------------------------------
// Handshakes and dialects

TEST_F(ProtocolTest, UciHandshakeIsExact) {
    auto e = startEngine();
    EXPECT_EQ(handshake(*e, "uci"), expectedHandshake("uciok"));
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, UgiHandshakeIsExact) {
    auto e = startEngine();
    EXPECT_EQ(handshake(*e, "ugi"), expectedHandshake("ugiok"));
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, HandshakeCanBeRepeatedAndSwitchesTheDialect) {
    auto e = startEngine();
    EXPECT_EQ(handshake(*e, "uci"), expectedHandshake("uciok"));
    EXPECT_EQ(handshake(*e, "ugi"), expectedHandshake("ugiok"));
    checkSearch(*e, kStart, "go depth 4", Dialect::Ugi);
    EXPECT_EQ(handshake(*e, "uci"), expectedHandshake("uciok"));
    checkSearch(*e, kStart, "go depth 4", Dialect::Uci);
    EXPECT_EQ(handshake(*e, "ugi"), expectedHandshake("ugiok"));
    checkSearch(*e, kBlackToMove, "go depth 4", Dialect::Ugi);
}

TEST_F(ProtocolTest, WithoutHandshakeTheEngineBehavesAsUci) {
    auto e = startEngine();
    EXPECT_EQ(sync(*e), Lines{});
    checkSearch(*e, kStart, "go depth 3", Dialect::Uci);
    // query and the p1/p2 names of go are UGI's but accepted in UCI.
    EXPECT_EQ(query(*e, "p1turn"), "response true");
    checkSearch(*e, kBlackToMove, "go p1time 1000 p2time 1000 p1inc 10 p2inc 10", Dialect::Uci);
}

// ---------------------------------------------------------------------------------------------
// Searches: exactly one legal bestmove, equal to the first move of the last pv

struct SearchCase {
    const char* name;
    Dialect dialect;
    PositionSetup setup;
    std::string go;
    Lines options;           // setoption commands sent first
    long long clockMs = -1;  // the mover's remaining time, if any
};

class SearchReplies : public ProtocolFixture, public ::testing::WithParamInterface<SearchCase> {};

TEST_P(SearchReplies, OneLegalBestmoveEqualToThePv) {
    const SearchCase& c = GetParam();
    auto e = startEngine();
    if (c.dialect != Dialect::None) handshake(*e, c.dialect == Dialect::Ugi ? "ugi" : "uci");
    for (const std::string& option : c.options) sendQuiet(*e, option);
    const SearchOutcome r = checkSearch(*e, c.setup, c.go, c.dialect);
    std::cout << "[ info     ] " << c.go << " -> " << (r.lines.empty() ? "" : r.lines.back())
              << " after " << r.ms << " ms, " << searchInfos(r.lines).size() << " info lines\n";
    EXPECT_FALSE(searchInfos(r.lines).empty()) << "no info line before the bestmove";
    // No bound on the answer time: on a busy machine the wall clock says nothing about the
    // engine. That the engine never oversteps its clock is checked on a virtual clock
    // (Search.FastGamesNeverLoseOnTime); here kSearchTimeout is only a hang guard.
}

void PrintTo(const SearchCase& c, std::ostream* os) {
    *os << c.go;
}

std::string searchCaseName(const ::testing::TestParamInfo<SearchCase>& info) {
    return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(
    Go, SearchReplies,
    ::testing::Values(
        SearchCase{"Depth5Uci", Dialect::Uci, kStart, "go depth 5", {}},
        SearchCase{"Depth5Ugi", Dialect::Ugi, kStart, "go depth 5", {}},
        SearchCase{"Depth5BlackUgi", Dialect::Ugi, kBlackToMove, "go depth 5", {}},
        SearchCase{"Depth5NoHandshake", Dialect::None, kBlackToMove, "go depth 5", {}},
        SearchCase{"Nodes5000Uci", Dialect::Uci, kStart, "go nodes 5000", {}},
        SearchCase{"Nodes5000Ugi", Dialect::Ugi, kBlackToMove, "go nodes 5000", {}},
        SearchCase{"Movetime100Uci", Dialect::Uci, kStart, "go movetime 100", {}},
        SearchCase{"Movetime100Ugi", Dialect::Ugi, kBlackToMove, "go movetime 100", {}},
        SearchCase{"ClockWhiteUci",
                   Dialect::Uci,
                   kStart,
                   "go wtime 2000 btime 2000 winc 10 binc 10",
                   {},
                   2000},
        SearchCase{"ClockBlackUci",
                   Dialect::Uci,
                   kBlackToMove,
                   "go wtime 2000 btime 1500 winc 10 binc 10",
                   {},
                   1500},
        SearchCase{"ClockMovestogoUci",
                   Dialect::Uci,
                   kStart,
                   "go wtime 3000 btime 3000 movestogo 5",
                   {},
                   3000},
        SearchCase{"P1timeWhiteUgi",
                   Dialect::Ugi,
                   kStart,
                   "go p1time 2000 p2time 2000 p1inc 10 p2inc 10",
                   {},
                   2000},
        SearchCase{"P1timeBlackUgi",
                   Dialect::Ugi,
                   kBlackToMove,
                   "go p1time 1500 p2time 2000 p1inc 10 p2inc 10",
                   {},
                   2000},
        SearchCase{"P1timeInUci", Dialect::Uci, kStart, "go p1time 2000 p2time 2000", {}, 2000},
        SearchCase{"SingleMoveDepth5", Dialect::Ugi, kSingleMove, "go depth 5", {}},
        SearchCase{
            "MultiPV3Uci", Dialect::Uci, kStart, "go depth 4", {"setoption name MultiPV value 3"}},
        SearchCase{
            "Threads2Ugi", Dialect::Ugi, kStart, "go depth 6", {"setoption name Threads value 2"}},
        SearchCase{"ParametersInAnyOrder",
                   Dialect::Uci,
                   kBlackToMove,
                   "go binc 5 movetime 80 depth 30 btime 5000",
                   {},
                   5000},
        SearchCase{"Mate2", Dialect::Uci, kStart, "go depth 4 mate 2", {}}),
    searchCaseName);

TEST_F(ProtocolTest, NodesLimitBoundsTheReportedNodes) {
    auto e = startEngine();
    const SearchOutcome r = checkSearch(*e, kStart, "go nodes 5000", Dialect::Uci);
    for (const std::string& info : searchInfos(r.lines))
        EXPECT_LE(std::stoull(field(info, "nodes")), 5000u) << info;
}

TEST_F(ProtocolTest, OneThreadNodeSearchesRepeatAfterNewGame) {
    auto e = startEngine();
    const SearchOutcome first = checkSearch(*e, kBlackToMove, "go nodes 20000", Dialect::Uci);
    sendQuiet(*e, "ucinewgame");
    const SearchOutcome second = checkSearch(*e, kBlackToMove, "go nodes 20000", Dialect::Uci);
    EXPECT_EQ(first.best, second.best);
    EXPECT_EQ(lastPvMove(first.lines), lastPvMove(second.lines));
}

TEST_F(ProtocolTest, MultiPVReportsEveryRank) {
    auto e = startEngine();
    sendQuiet(*e, "setoption name MultiPV value 3");
    const SearchOutcome r = checkSearch(*e, kStart, "go depth 3", Dialect::Uci);
    std::set<std::string> ranks;
    for (const std::string& info : searchInfos(r.lines)) ranks.insert(field(info, "multipv"));
    EXPECT_EQ(ranks, (std::set<std::string>{"1", "2", "3"}));
}

TEST_F(ProtocolTest, SearchmovesRestrictsTheRoot) {
    auto e = startEngine();
    EXPECT_EQ(checkSearch(*e, kStart, "go depth 4 searchmoves g3-f4", Dialect::Uci).best, "g3-f4");
    const std::string best =
        checkSearch(*e, kStart, "go searchmoves a3-b4 e3-f4 depth 3", Dialect::Uci).best;
    EXPECT_TRUE(best == "a3-b4" || best == "e3-f4") << best;
    // The compact form is read too.
    EXPECT_EQ(checkSearch(*e, kStart, "go searchmoves c3d4 depth 2", Dialect::Uci).best, "c3-d4");
}

TEST_F(ProtocolTest, SingleLegalMoveIsPlayedAtOnceWithAClock) {
    auto e = startEngine();
    handshake(*e, "ugi");
    const SearchOutcome r =
        checkSearch(*e, kSingleMove, "go p1time 600000 p2time 600000", Dialect::Ugi);
    EXPECT_EQ(r.best, "e7xc5xe3");
    std::cout << "[ info     ] single legal move answered after " << r.ms << " ms\n";
    // Played at once: a single iteration, where the planned time for 10 minutes would reach a
    // deep one. Counted in iterations, not milliseconds, so a busy machine cannot fail it.
    for (const std::string& info : searchInfos(r.lines)) EXPECT_EQ(field(info, "depth"), "1");
}

// movetime: "think this long, less MoveOverhead" (400 - 30 here). Load can only make the answer
// later, so the lower bound (90% of the time) is safe; there is no upper bound (a busy machine
// may answer late through no fault of the engine; kSearchTimeout is the hang guard).
TEST_F(ProtocolTest, MovetimeIsUsedFully) {
    auto e = startEngine();
    for (const PositionSetup& setup : {kStart, kBlackToMove}) {
        const SearchOutcome r = checkSearch(*e, setup, "go movetime 400", Dialect::Uci);
        std::cout << "[ info     ] go movetime 400 (MoveOverhead 30) answered after " << r.ms
                  << " ms\n";
        EXPECT_GE(r.ms, (400 - 30) * 9 / 10) << "movetime 400 answered too early";
    }
}

// ---------------------------------------------------------------------------------------------
// go infinite, isready, stop, ponder

// Starts `go infinite` (or another go) and waits for the first search info line.
void startSearch(EngineProcess& e, const PositionSetup& setup,
                 const std::string& go = "go infinite") {
    sendQuiet(e, setup.command());
    ASSERT_TRUE(e.send(go));
    bool found = false;
    const Lines lines = e.readUntil("info depth", kReplyTimeout, &found);
    ASSERT_TRUE(found) << go << ": no info line; got:\n" << joined(lines);
    EXPECT_EQ(countPrefix(lines, "bestmove"), 0u);
}

// Sends stop and returns the lines up to the bestmove, and the latency.
std::pair<Lines, long long> stopSearch(EngineProcess& e) {
    const auto start = Clock::now();
    EXPECT_TRUE(e.send("stop"));
    bool found = false;
    Lines lines = e.readUntil("bestmove", kReplyTimeout, &found);
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
    EXPECT_TRUE(found) << "stop: no bestmove";
    return {lines, static_cast<long long>(us)};
}

TEST_F(ProtocolTest, IsreadyAnsweredWhileSearchingAndStopGivesOneBestmove) {
    auto e = startEngine();
    handshake(*e, "uci");
    const std::vector<PositionSetup> setups = {kStart, kBlackToMove, kStart, kBlackToMove, kStart};
    std::vector<long long> latencies;
    for (const PositionSetup& setup : setups) {
        startSearch(*e, setup);
        // isready during the search: readyok, and no bestmove.
        ASSERT_TRUE(e->send("isready"));
        bool found = false;
        const Lines ready = e->readUntil("readyok", kReplyTimeout, &found);
        EXPECT_TRUE(found) << "no readyok while searching";
        EXPECT_EQ(countPrefix(ready, "bestmove"), 0u) << joined(ready);
        // go infinite: no bestmove before stop.
        const Lines during = e->readFor(150ms);
        EXPECT_EQ(countPrefix(during, "bestmove"), 0u) << joined(during);

        auto [lines, us] = stopSearch(*e);
        latencies.push_back(us);
        Lines all = ready;
        all.insert(all.end(), during.begin(), during.end());
        all.insert(all.end(), lines.begin(), lines.end());
        ASSERT_FALSE(lines.empty());
        const Lines best = tokens(lines.back());
        ASSERT_GE(best.size(), 2u);
        EXPECT_EQ(best[1], lastPvMove(all)) << joined(all);
        EXPECT_TRUE(parseMove(setup.game().current(), best[1]).ok()) << best[1];
        // Exactly one bestmove: nothing more after it, and a second stop does nothing.
        EXPECT_EQ(withoutSearchInfo(sync(*e)), Lines{});
        sendQuiet(*e, "stop");
    }
    std::sort(latencies.begin(), latencies.end());
    std::cout << "[ info     ] stop -> bestmove latency (us): min " << latencies.front()
              << ", median " << latencies[latencies.size() / 2] << ", max " << latencies.back()
              << "\n";
    RecordProperty("stop_latency_us_median", std::to_string(latencies[latencies.size() / 2]));
    RecordProperty("stop_latency_us_max", std::to_string(latencies.back()));
    // Latency is printed, not asserted: stopSearch's kReplyTimeout is the hang guard.
}

TEST_F(ProtocolTest, StopWithTwoThreadsAndMultiPVGivesOneBestmove) {
    auto e = startEngine();
    sendQuiet(*e, "setoption name Threads value 2");
    sendQuiet(*e, "setoption name MultiPV value 2");
    startSearch(*e, kBlackToMove);
    std::this_thread::sleep_for(200ms);
    auto [lines, us] = stopSearch(*e);
    std::cout << "[ info     ] stop latency with 2 threads: " << us << " us\n";
    EXPECT_EQ(withoutSearchInfo(sync(*e)), Lines{});
}

TEST_F(ProtocolTest, StopWithoutSearchDoesNothing) {
    auto e = startEngine();
    sendQuiet(*e, "stop");
    sendQuiet(*e, "stop");
    checkSearch(*e, kStart, "go depth 2", Dialect::Uci);
    sendQuiet(*e, "stop");  // after a finished search
    sendQuiet(*e, "ponderhit");
}

TEST_F(ProtocolTest, InfiniteSearchWithOneLegalMoveWaitsForStop) {
    auto e = startEngine();
    startSearch(*e, kSingleMove);
    const Lines during = e->readFor(300ms);
    EXPECT_EQ(countPrefix(during, "bestmove"), 0u) << joined(during);
    auto [lines, us] = stopSearch(*e);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(tokens(lines.back()).at(1), "e7xc5xe3") << lines.back();
}

TEST_F(ProtocolTest, PonderWaitsForStop) {
    auto e = startEngine();
    startSearch(*e, kStart, "go ponder wtime 1000 btime 1000");
    const Lines during = e->readFor(400ms);  // more than the planned time for 1 s
    EXPECT_EQ(countPrefix(during, "bestmove"), 0u) << joined(during);
    auto [lines, us] = stopSearch(*e);
    EXPECT_EQ(withoutSearchInfo(sync(*e)), Lines{});
}

TEST_F(ProtocolTest, PonderhitTurnsIntoATimedSearch) {
    auto e = startEngine();
    startSearch(*e, kStart, "go ponder wtime 1000 btime 1000");
    const Lines during = e->readFor(300ms);
    EXPECT_EQ(countPrefix(during, "bestmove"), 0u) << joined(during);
    const auto start = Clock::now();
    ASSERT_TRUE(e->send("ponderhit"));
    bool found = false;
    const Lines lines = e->readUntil("bestmove", kReplyTimeout, &found);
    EXPECT_TRUE(found) << "no bestmove after ponderhit";
    std::cout << "[ info     ] ponderhit -> bestmove after " << msSince(start) << " ms\n";
    EXPECT_EQ(withoutSearchInfo(sync(*e)), Lines{});
}

TEST_F(ProtocolTest, NewGameDuringSearchStopsItAndResets) {
    auto e = startEngine();
    startSearch(*e, kBlackToMove);
    ASSERT_TRUE(e->send("ucinewgame"));
    const Lines lines = withoutSearchInfo(sync(*e));
    ASSERT_EQ(lines.size(), 1u) << joined(lines);
    EXPECT_TRUE(startsWith(lines[0], "bestmove ")) << lines[0];
    EXPECT_EQ(lfenOf(*e), kStartLfen);
    sendQuiet(*e, "uginewgame");
}

// position and setoption during a search that was not stopped are kept for after it (and so
// is every later command but isready, stop, ponderhit and quit): they run in arrival order once
// the search has ended. The running search is not disturbed.
TEST_F(ProtocolTest, CommandsWhileSearchingAreKeptUntilItEnds) {
    auto e = startEngine();
    startSearch(*e, kBlackToMove);
    for (const char* command : {"setoption name MultiPV value 3", "position startpos", "d"})
        ASSERT_TRUE(e->send(command));
    ASSERT_TRUE(e->send("query p1turn"));
    // isready is answered at once; nothing kept has run yet, the search goes on.
    const Lines during = withoutSearchInfo(sync(*e));
    EXPECT_EQ(during, Lines{}) << joined(during);
    // stop: the bestmove (for Black, the searched position), then the kept commands in order.
    auto [lines, us] = stopSearch(*e);
    EXPECT_TRUE(parseMove(kBlackToMove.game().current(), tokens(lines.back()).at(1)).ok())
        << lines.back();
    const Lines after = sync(*e);
    ASSERT_FALSE(after.empty());
    EXPECT_EQ(countPrefix(after, "info string lfen: " + std::string(kStartLfen)), 1u)
        << joined(after);
    EXPECT_EQ(after.back(), "response true") << joined(after);
    EXPECT_EQ(countPrefix(after, "info string error"), 0u) << joined(after);
    // MultiPV 3 took effect for the next search.
    const SearchOutcome r = checkSearch(*e, kStart, "go depth 3", Dialect::Uci);
    std::set<std::string> ranks;
    for (const std::string& info : searchInfos(r.lines)) ranks.insert(field(info, "multipv"));
    EXPECT_EQ(ranks, (std::set<std::string>{"1", "2", "3"}));
}

// A go, bench or ucinewgame during a search ends it first: its bestmove, then the new command.
TEST_F(ProtocolTest, GoDuringASearchEndsItFirst) {
    auto e = startEngine();
    startSearch(*e, kBlackToMove);
    ASSERT_TRUE(e->send(kStart.command()));  // kept, then run before the go
    ASSERT_TRUE(e->send("go depth 2"));
    bool found = false;
    Lines lines = withoutSearchInfo(e->readUntil("bestmove", kReplyTimeout, &found));
    ASSERT_TRUE(found);
    EXPECT_TRUE(parseMove(kBlackToMove.game().current(), tokens(lines.back()).at(1)).ok());
    lines = withoutSearchInfo(e->readUntil("bestmove", kSearchTimeout, &found));
    ASSERT_TRUE(found);
    EXPECT_EQ(lines.size(), 1u) << joined(lines);
    EXPECT_TRUE(parseMove(kStart.game().current(), tokens(lines.back()).at(1)).ok());
    EXPECT_EQ(withoutSearchInfo(sync(*e)), Lines{});
}

// A malformed go or bench during a search is one error line and leaves the search running.
TEST_F(ProtocolTest, MalformedGoDuringASearchLeavesItRunning) {
    auto e = startEngine();
    startSearch(*e, kBlackToMove);
    for (const char* command : {"go depth 0", "go searchmoves", "bench 99", "go frobnicate"}) {
        ASSERT_TRUE(e->send(command));
        const Lines lines = withoutSearchInfo(sync(*e));
        ASSERT_EQ(lines.size(), 1u) << command << ":\n" << joined(lines);
        EXPECT_TRUE(startsWith(lines[0], "info string error: ")) << command << ": " << lines[0];
    }
    auto [lines, us] = stopSearch(*e);
    EXPECT_EQ(withoutSearchInfo(sync(*e)), Lines{});
}

// Issue 12: a GUI writes a whole burst of commands at once, without waiting between them. Each
// burst is sent in one write, many times over; every go must get exactly one bestmove, legal in
// the position it searched, and no error line may appear.
struct Burst {
    std::string name;
    std::string lines;                    // the commands, each ending in '\n'
    std::vector<PositionSetup> searched;  // the position of each go, in order
    bool endsWithReadyok = false;         // the burst's last command is isready
};

void playBursts(EngineProcess& e, const Burst& burst, int times) {
    int bad = 0;
    std::string first;
    for (int i = 0; i < times; ++i) {
        ASSERT_TRUE(e.sendRaw(burst.lines));
        Lines all;
        std::vector<std::string> best;
        for (std::size_t k = 0; k < burst.searched.size(); ++k) {
            bool found = false;
            const Lines lines = e.readUntil("bestmove", kSearchTimeout, &found);
            all.insert(all.end(), lines.begin(), lines.end());
            if (!found) break;
            best.push_back(tokens(lines.back()).at(1));
        }
        if (burst.endsWithReadyok) {
            bool found = false;
            const Lines lines = e.readUntil("readyok", kReplyTimeout, &found);
            all.insert(all.end(), lines.begin(), lines.end());
            if (!found) best.clear();
        }
        const Lines rest = sync(e);
        all.insert(all.end(), rest.begin(), rest.end());
        std::string problem;
        if (best.size() != burst.searched.size()) problem = "missing bestmove";
        if (countPrefix(all, "bestmove") != burst.searched.size()) problem = "bestmove count";
        if (countPrefix(all, "info string error") > 0) problem = "error line";
        for (std::size_t k = 0; k < best.size() && problem.empty(); ++k)
            if (!parseMove(burst.searched[k].game().current(), best[k]).ok())
                problem = "bestmove " + best[k] + " illegal in go number " + std::to_string(k + 1);
        if (!problem.empty() && bad++ == 0)
            first = "round " + std::to_string(i) + ": " + problem + "\n" + joined(all);
        if (bad >= 3) break;  // broken: no need to wait out every round's timeouts
    }
    ::testing::Test::RecordProperty(burst.name, bad);
    EXPECT_EQ(bad, 0) << burst.name << ": " << bad << " of " << times
                      << " rounds failed; the first:\n"
                      << first;
}

const PositionSetup kAfterTwoPlies{"", {"c3-d4", "e5xc3"}};

TEST_F(ProtocolTest, BurstsAfterStopRunInOrder) {
    auto e = startEngine();
    const std::vector<Burst> bursts = {
        {"infinite, stop, position, go depth",
         "position startpos\ngo infinite\nstop\nposition startpos moves c3-d4 e5xc3\n"
         "go depth 4\n",
         {kStart, kAfterTwoPlies}},
        {"ponder, stop, position, go depth",
         "position startpos\ngo ponder depth 30\nstop\nposition startpos moves c3-d4 e5xc3\n"
         "go depth 3\n",
         {kStart, kAfterTwoPlies}},
        {"ponder on a clock, stop, position, go on a clock",
         "position startpos moves c3-d4\ngo ponder wtime 1000 btime 1000\nstop\n"
         "position startpos moves c3-d4 e5xc3\ngo wtime 200 btime 200 winc 5 binc 5\n",
         {PositionSetup{"", {"c3-d4"}}, kAfterTwoPlies}},
        {"go without stop ends the search",
         "position startpos\ngo infinite\nposition startpos moves c3-d4 e5xc3\ngo depth 2\n",
         {kStart, kAfterTwoPlies}},
        {"stop, ucinewgame, setoption, isready",
         "position startpos moves c3-d4\ngo infinite\nstop\nucinewgame\n"
         "setoption name MultiPV value 2\nsetoption name Hash value 8\nisready\n",
         {PositionSetup{"", {"c3-d4"}}},
         true},
        {"ponder, ponderhit",
         "position startpos moves c3-d4\ngo ponder depth 3\nponderhit\n",
         {PositionSetup{"", {"c3-d4"}}}},
    };
    for (const Burst& burst : bursts) playBursts(*e, burst, 200);
}

// The same bursts in the UGI dialect (bestmove without ponder), fewer rounds.
TEST_F(ProtocolTest, BurstsAfterStopRunInOrderUgi) {
    auto e = startEngine();
    handshake(*e, "ugi");
    playBursts(*e,
               {"ugi: infinite, stop, position, go",
                "uginewgame\nposition startpos\ngo infinite\nstop\n"
                "position startpos moves c3-d4 e5xc3\ngo p1time 300 p2time 300\n",
                {kStart, kAfterTwoPlies}},
               100);
}

// A GUI sends its next command as soon as it has read the bestmove: the engine must accept it
// and must not write anything more for the finished search (no second bestmove).
TEST_F(ProtocolTest, NextCommandRightAfterBestmove) {
    auto e = startEngine();
    int bad = 0;
    std::string first;
    const int rounds = 100;
    for (int i = 0; i < rounds; ++i) {
        ASSERT_TRUE(e->send("go depth 1"));
        bool found = false;
        e->readUntil("bestmove", kReplyTimeout, &found);
        ASSERT_TRUE(found);
        ASSERT_TRUE(e->send(i % 2 == 0 ? "position startpos moves c3-d4" : "position startpos"));
        const Lines lines = sync(*e);
        if (!lines.empty() && bad++ == 0)
            first = "round " + std::to_string(i) + ":\n" + joined(lines);
    }
    RecordProperty("bad_rounds", bad);
    EXPECT_EQ(bad, 0) << bad << " of " << rounds
                      << " rounds had output between the bestmove and readyok; the first:\n"
                      << first;
}

// ---------------------------------------------------------------------------------------------
// quit and end of input

TEST_F(ProtocolTest, QuitMidSearchSendsBestmoveAndExits0) {
    auto e = startEngine();
    startSearch(*e, kStart);
    const auto start = Clock::now();
    ASSERT_TRUE(e->send("quit"));
    const auto code = e->exitCode(5s);
    std::cout << "[ info     ] quit -> exit after " << msSince(start) << " ms\n";
    ASSERT_TRUE(code.has_value()) << "still running 5 s after quit";
    EXPECT_EQ(*code, 0);
    bool ended = false;
    const Lines lines = e->readToEnd(kReplyTimeout, &ended);
    EXPECT_TRUE(ended);
    EXPECT_EQ(withoutSearchInfo(lines).size(), 1u) << joined(lines);
    EXPECT_EQ(countPrefix(lines, "bestmove "), 1u) << joined(lines);
}

TEST_F(ProtocolTest, EndOfInputMidSearchSendsBestmoveAndExits0) {
    auto e = startEngine();
    startSearch(*e, kBlackToMove);
    const auto start = Clock::now();
    e->closeStdin();
    const auto code = e->exitCode(5s);
    std::cout << "[ info     ] end of input -> exit after " << msSince(start) << " ms\n";
    ASSERT_TRUE(code.has_value()) << "still running 5 s after the end of input";
    EXPECT_EQ(*code, 0);
    const Lines lines = e->readToEnd(kReplyTimeout);
    EXPECT_EQ(withoutSearchInfo(lines).size(), 1u) << joined(lines);
    EXPECT_EQ(countPrefix(lines, "bestmove "), 1u) << joined(lines);
}

TEST_F(ProtocolTest, QuitWithoutSearchExits0Silently) {
    auto e = startEngine();
    ASSERT_TRUE(e->send("quit"));
    EXPECT_EQ(e->exitCode(5s), 0);
    EXPECT_EQ(e->readToEnd(kReplyTimeout), Lines{});
}

TEST_F(ProtocolTest, EmptyInputExits0Silently) {
    auto e = startEngine();
    e->closeStdin();
    EXPECT_EQ(e->exitCode(5s), 0);
    EXPECT_EQ(e->readToEnd(kReplyTimeout), Lines{});
}

TEST_F(ProtocolTest, NothingIsReadAfterQuit) {
    auto e = startEngine();
    ASSERT_TRUE(e->sendRaw("isready\nquit\r\nisready\nuci\n"));
    EXPECT_EQ(e->exitCode(5s), 0);
    EXPECT_EQ(e->readToEnd(kReplyTimeout), Lines{"readyok"});
}

TEST_F(ProtocolTest, PonderingSearchEndsOnQuit) {
    auto e = startEngine();
    startSearch(*e, kStart, "go ponder");
    ASSERT_TRUE(e->send("quit"));
    EXPECT_EQ(e->exitCode(5s), 0);
    EXPECT_EQ(countPrefix(e->readToEnd(kReplyTimeout), "bestmove "), 1u);
}

// ---------------------------------------------------------------------------------------------
// UGI: bestmove form, queries, game end

TEST_F(ProtocolTest, UgiQueriesAtTheStart) {
    auto e = startEngine();
    handshake(*e, "ugi");
    sendQuiet(*e, "uginewgame");
    sendQuiet(*e, "position startpos");
    EXPECT_EQ(query(*e, "p1turn"), "response true");
    EXPECT_EQ(query(*e, "gameover"), "response false");
    EXPECT_EQ(query(*e, "result"), "response none");
    sendQuiet(*e, "position startpos moves c3-d4");
    EXPECT_EQ(query(*e, "p1turn"), "response false");
    EXPECT_EQ(query(*e, "gameover"), "response false");
    EXPECT_EQ(query(*e, "result"), "response none");
}

TEST_F(ProtocolTest, UgiNoLegalMoveLosesForEitherColour) {
    auto e = startEngine();
    handshake(*e, "ugi");
    // Black to move without pieces: White (p1) has won.
    sendQuiet(*e, "position fen " + kBlackHasNothing);
    EXPECT_EQ(query(*e, "p1turn"), "response false");
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response p1win");
    // White to move but blocked: Black (p2) has won.
    sendQuiet(*e, "position fen " + kWhiteBlocked);
    EXPECT_EQ(query(*e, "p1turn"), "response true");
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response p2win");
    // Reached through a move: White takes Black's last column.
    sendQuiet(*e, "position fen -,-,-,-/-,-,-/-,-,-,-/b,-,-/-,w,-,-/-,-,-/-,-,-,- w moves c3xa5");
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response p1win");
    // R9 comes before T2: no legal move with 150 quiet plies is a loss, not a draw.
    sendQuiet(*e, "position fen -,-,-,-/-,-,-/-,-,-,-/-,-,-/-,b,-,-/b,-,-/w,-,-,- w 150 80");
    EXPECT_EQ(query(*e, "result"), "response p2win");
}

TEST_F(ProtocolTest, UgiThreefoldRepetition) {
    auto e = startEngine();
    handshake(*e, "ugi");
    const std::string shuffle = "a1-b2 g7-f6 b2-a1 f6-g7";
    sendQuiet(*e, "position fen " + kOfficers + " moves " + shuffle);
    EXPECT_EQ(query(*e, "gameover"), "response false");  // twice so far
    EXPECT_EQ(query(*e, "result"), "response none");
    sendQuiet(*e, "position fen " + kOfficers + " moves " + shuffle + " " + shuffle);
    EXPECT_EQ(query(*e, "p1turn"), "response true");
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response draw");
    sendQuiet(*e, "setoption name RepetitionDraw value false");
    EXPECT_EQ(query(*e, "gameover"), "response false");
    EXPECT_EQ(query(*e, "result"), "response none");
    sendQuiet(*e, "setoption name repetitiondraw value TRUE");
    EXPECT_EQ(query(*e, "result"), "response draw");
    // A drawn position still has legal moves: go searches and plays one of them.
    checkSearch(*e, PositionSetup{kOfficers, tokens(shuffle + " " + shuffle)}, "go depth 3",
                Dialect::Ugi);
}

TEST_F(ProtocolTest, UgiNoProgressDraw) {
    auto e = startEngine();
    handshake(*e, "ugi");
    const std::string at99 = "-,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- w 99 50";
    sendQuiet(*e, "position fen " + at99);
    EXPECT_EQ(query(*e, "gameover"), "response false");
    sendQuiet(*e, "position fen " + at99 + " moves a1-b2");  // the 100th quiet ply
    EXPECT_EQ(query(*e, "p1turn"), "response false");
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response draw");
    sendQuiet(*e, "setoption name NoProgressDraw value false");
    EXPECT_EQ(query(*e, "gameover"), "response false");
    EXPECT_EQ(query(*e, "result"), "response none");
    sendQuiet(*e, "setoption name NoProgressDraw value true");
    EXPECT_EQ(query(*e, "result"), "response draw");
    // A soldier move resets the counter.
    sendQuiet(*e,
              "position fen -,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/w,-,-,- w 99 50 moves a1-b2");
    EXPECT_EQ(query(*e, "result"), "response none");
    checkSearch(*e, PositionSetup{at99, {"a1-b2"}}, "go depth 3", Dialect::Ugi);
}

TEST_F(ProtocolTest, UgiIllegalMoveInPositionLosesTheGame) {
    auto e = startEngine();
    handshake(*e, "ugi");
    // Black's second ply is illegal: White wins; the position stays after c3-d4.
    ASSERT_TRUE(e->send("position startpos moves c3-d4 e5-f4"));
    EXPECT_EQ(sync(*e), Lines{"info string error: illegal move e5-f4 at ply 2"});
    EXPECT_EQ(lfenOf(*e), "b,b,b,b/b,b,b/b,b,b,b/-,w,-/w,-,w,w/w,w,w/w,w,w,w b 0 1");
    EXPECT_EQ(query(*e, "p1turn"), "response false");
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response p1win");
    // White's first ply is illegal: Black wins; the start position stays.
    ASSERT_TRUE(e->send("position startpos moves c3-e5 d6-c5"));
    EXPECT_EQ(sync(*e), Lines{"info string error: illegal move c3-e5 at ply 1"});
    EXPECT_EQ(lfenOf(*e), kStartLfen);
    EXPECT_EQ(query(*e, "gameover"), "response true");
    EXPECT_EQ(query(*e, "result"), "response p2win");
    // Unreadable moves and wrong separators are illegal moves too.
    for (const auto& [moves, error] : std::vector<std::pair<std::string, std::string>>{
             {"c3-d4 zz", "illegal move zz at ply 2"},
             {"c3-d4 e5-c3", "illegal move e5-c3 at ply 2"},  // a capture written as a step
             {"c3xd4", "illegal move c3xd4 at ply 1"},        // a step written as a capture
             {"c3-d4 e5xc3 d2-b4xd6", "illegal move d2-b4xd6 at ply 3"},
             {"c3-d4 e5xc3 d2xb4 g5-f4 e3xg5 d6-e5 b4xd6 e7xc5 g5xe7 c5-d4 e7xc5",
              "illegal move e7xc5 at ply 11"}}) {  // a capture must list every landing square
        ASSERT_TRUE(e->send("position startpos moves " + moves));
        EXPECT_EQ(sync(*e), Lines{"info string error: " + error}) << moves;
        EXPECT_EQ(query(*e, "gameover"), "response true") << moves;
    }
    // A new legal position clears the forfeit.
    sendQuiet(*e, "position startpos moves c3-d4");
    EXPECT_EQ(query(*e, "gameover"), "response false");
    EXPECT_EQ(query(*e, "result"), "response none");
}

TEST_F(ProtocolTest, MovesAreReadInEveryDocumentedForm) {
    auto e = startEngine();
    sendQuiet(*e, "position startpos moves c3-d4 e5xc3 d2xb4");
    const std::string written = lfenOf(*e);
    sendQuiet(*e, "position startpos moves c3d4 e5c3 d2b4");
    EXPECT_EQ(lfenOf(*e), written);
    sendQuiet(*e, "position startpos moves c3-d4* e5xc3* d2xb4");
    EXPECT_EQ(lfenOf(*e), written);
}

TEST_F(ProtocolTest, LfenIsReadInEveryDocumentedFormAndWrittenInFull) {
    auto e = startEngine();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {",,,/,,/,,,/,,/,,,/,,/W,,, b", "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b 0 1"},
        {"-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b 5",
         "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b 5 1"},
        {"-,-,-,-/-,-,-/-,-,-,-/-,Wbb,-/-,-,-,-/-,-,-/-,-,-,B b 1000000 1000000",
         "-,-,-,-/-,-,-/-,-,-,-/-,Wbb,-/-,-,-,-/-,-,-/-,-,-,B b 1000000 1000000"},
        {std::string(kStartLfen), std::string(kStartLfen)},
    };
    for (const auto& [input, written] : cases) {
        sendQuiet(*e, "position fen " + input);
        EXPECT_EQ(lfenOf(*e), written) << input;
    }
}

TEST_F(ProtocolTest, GoWithoutLegalMoveAnswersGameover) {
    const Lines expected = {"info string gameover", "bestmove 0000"};
    for (const char* dialect : {"uci", "ugi"}) {
        auto e = startEngine();
        handshake(*e, dialect);
        for (const std::string& lfen : {kBlackHasNothing, kWhiteBlocked}) {
            sendQuiet(*e, "position fen " + lfen);
            for (const char* go : {"go depth 5", "go infinite", "go ponder",
                                   "go p1time 1000 p2time 1000 p1inc 10 p2inc 10",
                                   "go wtime 1000 btime 1000", "go"}) {
                ASSERT_TRUE(e->send(go));
                EXPECT_EQ(sync(*e), expected) << dialect << " " << go << " at " << lfen;
                sendQuiet(*e, "stop");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Developer commands

TEST_F(ProtocolTest, PerftDividesInGenerationOrder) {
    auto e = startEngine();
    for (const PositionSetup& setup : {kStart, kBlackToMove, kSingleMove}) {
        sendQuiet(*e, setup.command());
        for (int depth : {1, 3}) {
            ASSERT_TRUE(e->send("go perft " + std::to_string(depth)));
            bool found = false;
            const Lines lines = e->readUntil("Nodes searched: ", kReplyTimeout, &found);
            ASSERT_TRUE(found) << joined(lines);
            MoveList legal;
            generateMoves(setup.game().current(), legal);
            ASSERT_EQ(lines.size(), legal.size() + 1) << joined(lines);
            std::uint64_t sum = 0;
            for (std::size_t i = 0; i < legal.size(); ++i) {
                const std::string prefix = formatMove(legal[i]) + ": ";
                ASSERT_TRUE(startsWith(lines[i], prefix)) << lines[i] << " vs " << prefix;
                sum += std::stoull(lines[i].substr(prefix.size()));
            }
            EXPECT_EQ(lines.back(), "Nodes searched: " + std::to_string(sum));
            EXPECT_EQ(sync(*e), Lines{});
        }
    }
}

TEST_F(ProtocolTest, DisplayEvalHelpBenchAndDebug) {
    auto e = startEngine();
    e->send("d");
    const Lines board = sync(*e);
    EXPECT_EQ(countPrefix(board, "info string "), board.size());
    EXPECT_EQ(countPrefix(board, "info string lfen: " + std::string(kStartLfen)), 1u);

    // The classic evaluation's terms (the network's own line: NnueOptions).
    sendQuiet(*e, "setoption name UseNNUE value false");
    e->send("eval");
    const Lines eval = sync(*e);
    ASSERT_FALSE(eval.empty());
    for (std::size_t i = 0; i + 1 < eval.size(); ++i)
        EXPECT_TRUE(startsWith(eval[i], "info string eval ") &&
                    eval[i].find(" white ") != std::string::npos &&
                    eval[i].find(" black ") != std::string::npos)
            << eval[i];
    EXPECT_TRUE(startsWith(eval.back(), "info string eval total ")) << eval.back();
    EXPECT_NE(eval.back().find(" for white phase 20"), std::string::npos) << eval.back();
    sendQuiet(*e, "position startpos moves c3-d4");  // Black must capture
    e->send("eval");
    const Lines pending = sync(*e);
    ASSERT_FALSE(pending.empty());
    EXPECT_TRUE(pending.back().ends_with(" for black phase 20 (not quiet: a capture is pending)"))
        << pending.back();
    // The terms add up to the total (negated for Black); material only leaves two terms.
    auto sumOfTerms = [](const Lines& lines, int* nonZeroTerms) {
        long sum = 0;
        *nonZeroTerms = 0;
        for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
            std::istringstream in(lines[i]);
            std::string info, str, evalWord, name, countWord, whiteWord, blackWord;
            long whiteCount = 0, blackCount = 0, white = 0, black = 0;
            in >> info >> str >> evalWord >> name >> countWord >> whiteCount >> blackCount >>
                whiteWord >> white >> blackWord >> black;
            EXPECT_TRUE(in && countWord == "count" && whiteWord == "white" && blackWord == "black")
                << lines[i];
            sum += white - black;
            *nonZeroTerms += white != 0 || black != 0;
        }
        return sum;
    };
    int nonZero = 0;
    const long black = -sumOfTerms(pending, &nonZero);
    EXPECT_TRUE(startsWith(pending.back(),
                           "info string eval total " + std::to_string(black) + " for black"))
        << pending.back();
    sendQuiet(*e, "setoption name EvalMaterialOnly value true");
    e->send("eval");
    const Lines material = sync(*e);
    EXPECT_EQ(sumOfTerms(material, &nonZero), 0);  // 11 soldiers each
    EXPECT_EQ(nonZero, 1) << "only the soldier commanders count";
    sendQuiet(*e, "setoption name EvalMaterialOnly value false");

    e->send("help");
    const Lines help = sync(*e);
    EXPECT_FALSE(help.empty());
    EXPECT_EQ(countPrefix(help, "info string "), help.size());

    e->send("bench 1");
    const Lines bench = sync(*e);
    ASSERT_EQ(bench.size(), 3u) << joined(bench);
    EXPECT_TRUE(startsWith(bench[0], "Total time (ms): "));
    EXPECT_TRUE(startsWith(bench[1], "Nodes searched: "));
    EXPECT_TRUE(startsWith(bench[2], "Nodes/second: "));

    // Logs never go to standard output.
    sendQuiet(*e, "debug on");
    checkSearch(*e, kStart, "go depth 3", Dialect::Uci);
    sendQuiet(*e, "debug off");
}

TEST_F(ProtocolTest, DebugLogFileRecordsTheDialogue) {
    const auto path = common::test::testDirectory() / "debug.log";
    {
        auto e = startEngine();
        sendQuiet(*e, "setoption name Debug Log File value " + path.string());
        sendQuiet(*e, "position startpos moves c3-d4");
        ASSERT_TRUE(e->send("quit"));
        EXPECT_EQ(e->exitCode(5s), 0);
    }
    const std::string text = common::test::readText(path);
    EXPECT_NE(text.find("<< position startpos moves c3-d4"), std::string::npos) << text;
    EXPECT_NE(text.find(">> readyok"), std::string::npos) << text;
}

// ---------------------------------------------------------------------------------------------
// Errors and bad input: one error line each, nothing changed

// A game state that differs from the start: White to move, one move played by each side.
const PositionSetup kErrorSetup{"", {"c3-d4", "e5xc3", "b2xd4"}};

TEST_F(ProtocolTest, UnknownCommand) {
    auto e = startEngine();
    handshake(*e, "ugi");
    sendQuiet(*e, kErrorSetup.command());
    EXPECT_EQ(expectOneErrorLine(*e, "foo"), "info string error: unknown command 'foo' (try help)");
    for (const char* line : {"foo bar baz", "UCI", "Isready", "go_depth", "debug maybe", "debug",
                             "positionstartpos", "isready\x01", "0000", "c3-d4"})
        expectOneErrorLine(*e, line);
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, UnknownOptionAndMalformedSetoption) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    for (const char* line :
         {"setoption name Foo value 1", "setoption name Hashh value 16", "setoption name Debug",
          "setoption name Log File value x", "setoption", "setoption name",
          "setoption Hash value 16", "setoption value 3", "setoption name value 3"})
        expectOneErrorLine(*e, line);
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, MalformedPositionAndLfen) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    EXPECT_EQ(expectOneErrorLine(
                  *e, "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-,-/w,w,w,w/w,w,w/w,w,w,w w"),
              "info string error: LFEN rank 4 has 4 squares, expected 3");
    // A column play cannot make: black over white over black on d4. The engine names it and
    // keeps its position (expectOneErrorLine compares the state before and after).
    EXPECT_EQ(expectOneErrorLine(*e,
                                 "position fen -,-,b,b/b,b,b/b,b,b,b/-,bwb,-/w,w,w,w/w,w,w/"
                                 "-,w,w,w w 0 1"),
              "info string error: LFEN column 'bwb' on d4 has 3 colour blocks; play makes at "
              "most two (the commander's colour over the other's)");
    for (const char* line : {
             "position",
             "position foo",
             "position startpos extra",
             "position startpos c3-d4",
             "position fen",
             "position fen moves c3-d4",
             "position fen w",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w",  // no side
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w w",        // 6 ranks
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w/- w",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w w",  // 3 on rank 1
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,x w",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w x",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w W",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w -1",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 1000001",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w x",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 0",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 1000001",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 1 5",
             "position fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 99999999999",
             "position fen b,b,b,b/b,b,b/b,b,b,b/w,-,-/w,w,w,w/w,w,w/w,w,w,w w",   // 12 white
             "position fen bb,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,- w",  // 12 black
             "position fen w,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,b w",   // soldiers
                                                                                   // unpromoted
             "position fen -,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/b,-,-,- w",
             "position fen "
             "wwwwwwwwwwwwbbbbbbbbbbb,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w",  // 23
             "position fen -,-,-,-/-,-,-/-,-,-,-/-,bwbw,-/-,-,-,-/-,-,-/-,-,-,- w",  // 4 blocks
             "position fen -,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/Wwbw,-,-/-,-,-,- b",  // 3 blocks
             "position fen b;b;b;b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w",
             "position fen start",
             "position startpos fen b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w",
         })
        expectOneErrorLine(*e, line);
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, BadGoParametersStartNoSearch) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    EXPECT_EQ(expectOneErrorLine(*e, "go depth -3"),
              "info string error: go: depth needs a number in 1..100, got '-3'");
    for (const char* line : {
             "go foo",
             "go depth",
             "go depth abc",
             "go depth 0",
             "go depth 101",
             "go depth 5x",
             "go depth +5",
             "go depth 1.5",
             "go depth 99999999999999999999999999",
             "go nodes 0",
             "go nodes -1",
             "go nodes 1125899906842625",
             "go nodes 99999999999999999999",
             "go wtime",
             "go wtime -1",
             "go wtime abc",
             "go wtime 1000000001",
             "go wtime 99999999999999999999999",
             "go btime -5",
             "go winc x",
             "go binc -1",
             "go p1time -1",
             "go p2time x",
             "go p1inc 1000000001",
             "go p2inc -",
             "go movestogo 0",
             "go movestogo 1001",
             "go movetime -100",
             "go movetime 1e3",
             "go mate 0",
             "go mate 65",
             "go perft 0",
             "go perft 25",
             "go perft",
             "go depth 3 foo",
             "go searchmoves",
             "go searchmoves c3-e5",
             "go searchmoves z9-a1",
             "go searchmoves c3-d4 c3-d4x",
             "go depth 3 searchmoves",
             "go infinite depth",
             "go wtime 1000 btime",
         })
        expectOneErrorLine(*e, line);
    // No search was started by any of them: stop finds nothing to stop.
    sendQuiet(*e, "stop");
}

TEST_F(ProtocolTest, BadOptionValuesLeaveOptionsUnchanged) {
    auto e = startEngine();
    sendQuiet(*e, "setoption name MultiPV value 2");
    EXPECT_EQ(expectOneErrorLine(*e, "setoption name Hash value 0"),
              "info string error: option Hash value '0' out of range 1..32768");
    for (const char* line : {
             "setoption name MultiPV value 0",
             "setoption name MultiPV value 65",
             "setoption name MultiPV value -1",
             "setoption name MultiPV value abc",
             "setoption name MultiPV value 2.5",
             "setoption name MultiPV value 3x",
             "setoption name MultiPV value 99999999999999999999",
             "setoption name MultiPV value",
             "setoption name MultiPV",
             "setoption name Hash value -16",
             "setoption name Hash value 99999999999999999999999",
             "setoption name Hash value sixteen",
             "setoption name Threads value 0",
             "setoption name Threads value 257",
             "setoption name MoveOverhead value 5001",
             "setoption name MoveOverhead value -1",
             "setoption name Ponder value yes",
             "setoption name Ponder value 1",
             "setoption name RepetitionDraw value maybe",
             "setoption name NoProgressDraw value",
             "setoption name RfpMargin value 0",
             "setoption name RfpMargin value 1001",
             "setoption name LmrDivisor value 49",
             "setoption name LmrMinDepth value 1",
             "setoption name LmrMinMove value 64",
             "setoption name AspirationDelta value 4",
             "setoption name AspirationGrowth value ten",
             "setoption name HistoryBonusMax value 16385",
         })
        expectOneErrorLine(*e, line);
    EXPECT_EQ(expectOneErrorLine(*e, "setoption name LmrDivisor value 0"),
              "info string error: option LmrDivisor value '0' out of range 50..1000");
    // MultiPV is still 2.
    const SearchOutcome r = checkSearch(*e, kStart, "go depth 3", Dialect::Uci);
    std::set<std::string> ranks;
    for (const std::string& info : searchInfos(r.lines)) ranks.insert(field(info, "multipv"));
    EXPECT_EQ(ranks, (std::set<std::string>{"1", "2"}));

    // Check options keep their value after bad values.
    sendQuiet(*e, "position fen " + kOfficers + " moves a1-b2 g7-f6 b2-a1 f6-g7 a1-b2 g7-f6 " +
                      "b2-a1 f6-g7");
    EXPECT_EQ(query(*e, "result"), "response draw");
    expectOneErrorLine(*e, "setoption name RepetitionDraw value 0");
    EXPECT_EQ(query(*e, "result"), "response draw");
    sendQuiet(*e, "setoption name RepetitionDraw value False");
    EXPECT_EQ(query(*e, "result"), "response none");
    expectOneErrorLine(*e, "setoption name RepetitionDraw value true!");
    EXPECT_EQ(query(*e, "result"), "response none");
}

// The learned evaluation's options (issue 17): UseNNUE (on by default) switches the search and
// `eval` between the network and the classic evaluation; an EvalFile that does not load is one
// error line and the network in use stays; the embedded network's own file loads.
TEST_F(ProtocolTest, NnueOptions) {
    auto e = startEngine();
    e->send("eval");
    const Lines withNet = sync(*e);
    ASSERT_FALSE(withNet.empty());
    EXPECT_TRUE(startsWith(withNet.back(), "info string eval nnue ")) << withNet.back();
    const std::string before = withNet.back();
    expectOneErrorLine(*e, "setoption name EvalFile value /nonexistent/net.nnue");
    expectOneErrorLine(*e, "setoption name EvalFile value " LASCA_SOURCE_DIR "/protocol.md");
    expectOneErrorLine(*e, "setoption name UseNNUE value perhaps");
    e->send("eval");
    const Lines still = sync(*e);
    ASSERT_FALSE(still.empty());
    EXPECT_EQ(still.back(), before);
    sendQuiet(*e, "setoption name EvalFile value " LASCA_SOURCE_DIR "/src/lasca/eval/default.nnue");
    e->send("eval");
    const Lines loaded = sync(*e);
    ASSERT_FALSE(loaded.empty());
    EXPECT_EQ(loaded.back(), before);
    checkSearch(*e, kStart, "go depth 4", Dialect::Uci);
    sendQuiet(*e, "setoption name UseNNUE value false");
    e->send("eval");
    const Lines classic = sync(*e);
    ASSERT_FALSE(classic.empty());
    EXPECT_TRUE(startsWith(classic.back(), "info string eval total ")) << classic.back();
}

TEST_F(ProtocolTest, BadQueryAndBench) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    for (const char* line : {"query", "query foo", "query p1turn result", "query P1TURN", "bench 0",
                             "bench 31", "bench abc", "bench 1 2", "bench -1"})
        expectOneErrorLine(*e, line);
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, EmptyLines) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    EXPECT_EQ(expectOneError(*e, "\n"), "info string error: empty line");
    EXPECT_EQ(expectOneError(*e, "\r\n"), "info string error: empty line");
    EXPECT_EQ(expectOneError(*e, "   \t  \n"), "info string error: empty line");
    EXPECT_EQ(expectOneError(*e, " \t \r\n"), "info string error: empty line");
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, OverlongLines) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    EXPECT_EQ(expectOneError(*e, std::string(1'048'577, 'a') + "\n"),
              "info string error: line too long (1048577 bytes, at most 1048576)");
    // Even when it starts with a valid command.
    EXPECT_EQ(expectOneError(*e, "isready" + std::string(1'048'570, ' ') + "\n"),
              "info string error: line too long (1048577 bytes, at most 1048576)");
    EXPECT_EQ(expectOneError(*e, "position startpos moves c3-d4" +
                                     std::string(3 * 1'048'576 - 29, ' ') + "\n"),
              "info string error: line too long (3145728 bytes, at most 1048576)");
    // With CRLF (the count may or may not include the '\r': protocol.md does not say).
    EXPECT_TRUE(startsWith(expectOneError(*e, std::string(2'000'000, 'z') + "\r\n"),
                           "info string error: line too long (200000"));
    // Long lines within the limit are read as usual commands.
    EXPECT_EQ(expectOneError(*e, std::string(1'000'000, 'a') + "\n"),
              "info string error: unknown command '" + std::string(40, 'a') + "...' (try help)");
    EXPECT_EQ(expectOneError(*e, std::string(1'048'576, 'b') + "\n"),
              "info string error: unknown command '" + std::string(40, 'b') + "...' (try help)");
    EXPECT_EQ(expectOneError(*e, std::string(1'048'576, 'c') + "\r\n"),
              "info string error: unknown command '" + std::string(40, 'c') + "...' (try help)");
    // A command padded to exactly 1 MiB is still that command.
    ASSERT_TRUE(e->send("isready" + std::string(1'048'576 - 7, ' ')));
    EXPECT_EQ(e->readLine(kReplyTimeout), "readyok");
    EXPECT_EQ(sync(*e), Lines{});
}

// The part of an unknown-command error that shows the input: '?' for unprintable bytes, at
// most 40 characters (then "...").
void expectShownGarbage(const std::string& error, std::string_view input) {
    const std::string head = "info string error: unknown command '";
    const std::string tail = "' (try help)";
    ASSERT_TRUE(startsWith(error, head)) << error;
    ASSERT_GE(error.size(), head.size() + tail.size());
    ASSERT_EQ(error.substr(error.size() - tail.size()), tail) << error;
    std::string shown = error.substr(head.size(), error.size() - head.size() - tail.size());
    std::size_t firstToken = 0;
    while (firstToken < input.size() && input[firstToken] != ' ' && input[firstToken] != '\t')
        ++firstToken;
    if (firstToken > 40) {
        ASSERT_GE(shown.size(), 3u);
        EXPECT_EQ(shown.substr(shown.size() - 3), "...") << error;
        shown.resize(shown.size() - 3);
    }
    ASSERT_EQ(shown.size(), std::min<std::size_t>(firstToken, 40)) << error;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const char c = input[i];
        EXPECT_EQ(shown[i], c >= 0x20 && c < 0x7f ? c : '?') << "at " << i << ": " << error;
    }
}

TEST_F(ProtocolTest, BinaryGarbage) {
    auto e = startEngine();
    sendQuiet(*e, kErrorSetup.command());
    std::vector<std::string> inputs;
    std::string controls;  // 0x00..0x1f without '\n', '\t' and '\r' (first token: all of them)
    for (int c = 0; c < 0x20; ++c)
        if (c != '\n' && c != '\t' && c != '\r') controls += static_cast<char>(c);
    inputs.push_back(controls);
    inputs.push_back(std::string(1, '\0'));
    inputs.push_back(std::string(100, '\xff'));
    std::string high;
    for (int c = 0x7f; c <= 0xff; ++c) high += static_cast<char>(c);
    inputs.push_back(high);
    std::mt19937 rng(20240611);
    for (std::size_t length : {1u, 7u, 39u, 40u, 41u, 200u, 4096u, 70000u}) {
        std::string bytes;
        for (std::size_t i = 0; i < length; ++i) {
            char c = static_cast<char>(rng() & 0xff);
            if (c == '\n') c = '\0';
            bytes += c;
        }
        bytes[0] = '\x01';  // the first token is garbage, not a command
        if (bytes.size() > 1 && bytes.back() == '\r') bytes.back() = '\x02';
        inputs.push_back(bytes);
    }
    inputs.push_back(std::string("isready\0", 8));  // a NUL byte inside a command
    for (const std::string& input : inputs) {
        const std::string error = expectOneError(*e, input + "\n");
        expectShownGarbage(error, input);
    }
    EXPECT_EQ(sync(*e), Lines{});
}

TEST_F(ProtocolTest, CrlfLineEndsAreAccepted) {
    auto e = startEngine();
    ASSERT_TRUE(e->sendRaw("isready\r\n"));
    EXPECT_EQ(e->readLine(kReplyTimeout), "readyok");
    ASSERT_TRUE(e->sendRaw("ugi\r\n"));
    bool found = false;
    EXPECT_EQ(e->readUntil("ugiok", kReplyTimeout, &found), expectedHandshake("ugiok"));
    ASSERT_TRUE(e->sendRaw("position startpos moves c3-d4 e5xc3\r\n"));
    EXPECT_EQ(sync(*e), Lines{});
    const std::string crlf = lfenOf(*e);
    sendQuiet(*e, "position startpos moves c3-d4 e5xc3");
    EXPECT_EQ(lfenOf(*e), crlf);
    ASSERT_TRUE(e->sendRaw("query p1turn\r\nsetoption name MultiPV value 2\r\nisready\r\n"));
    EXPECT_EQ(e->readLine(kReplyTimeout), "response true");
    EXPECT_EQ(e->readLine(kReplyTimeout), "readyok");
    ASSERT_TRUE(e->sendRaw("go depth 2\r\n"));
    e->readUntil("bestmove", kReplyTimeout, &found);
    EXPECT_TRUE(found);
    EXPECT_EQ(sync(*e), Lines{});
    ASSERT_TRUE(e->sendRaw("quit\r\n"));
    EXPECT_EQ(e->exitCode(5s), 0);
}

TEST_F(ProtocolTest, TokensSeparatedBySpacesAndTabs) {
    auto e = startEngine();
    sendQuiet(*e, "position startpos moves c3-d4 e5xc3");
    const std::string plain = lfenOf(*e);
    sendQuiet(*e, "position startpos");
    sendQuiet(*e, "  position\tstartpos \t moves   c3-d4\t\te5xc3  ");
    EXPECT_EQ(lfenOf(*e), plain);
    sendQuiet(*e, "position\tfen\tb,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w \t w  0\t1");
    EXPECT_EQ(lfenOf(*e), kStartLfen);
    sendQuiet(*e, "setoption   name\tDebug  Log\tFile value <empty>");
    sendQuiet(*e, "setoption name multipv value 2");
}

TEST_F(ProtocolTest, InputInPiecesAndManyLinesAtOnce) {
    auto e = startEngine();
    ASSERT_TRUE(e->sendRaw("isr"));
    std::this_thread::sleep_for(50ms);
    ASSERT_TRUE(e->sendRaw("eady"));
    std::this_thread::sleep_for(50ms);
    ASSERT_TRUE(e->sendRaw("\nisready\nisready\r\n"));
    EXPECT_EQ(e->readLine(kReplyTimeout), "readyok");
    EXPECT_EQ(e->readLine(kReplyTimeout), "readyok");
    EXPECT_EQ(e->readLine(kReplyTimeout), "readyok");
    std::string many;
    for (int i = 0; i < 1000; ++i) many += "query p1turn\n";
    ASSERT_TRUE(e->sendRaw(many));
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(e->readLine(kReplyTimeout), "response true") << i;
    EXPECT_EQ(sync(*e), Lines{});
}

// After every kind of bad input in one session, the engine still works.
TEST_F(ProtocolTest, StillAnswersAfterAllBadInput) {
    auto e = startEngine();
    handshake(*e, "uci");
    std::string garbage;
    std::mt19937 rng(7);
    for (int i = 0; i < 10000; ++i) {
        const char c = static_cast<char>(rng() & 0xff);
        garbage += c == '\n' ? '\0' : c;
    }
    const std::vector<std::string> inputs = {
        "foo\n",
        "setoption name Nope value 1\n",
        "position fen x\n",
        "go depth -1\n",
        "setoption name Hash value huge\n",
        "\n",
        std::string(1'048'577, 'x') + "\n",
        std::string(1'000'000, 'y') + "\n",
        "\x01" + garbage + "\n",
        "query nothing\r\n",
    };
    for (const std::string& input : inputs) ASSERT_TRUE(e->sendRaw(input));
    const Lines lines = sync(*e);
    EXPECT_EQ(lines.size(), inputs.size()) << joined(lines);
    EXPECT_EQ(countPrefix(lines, "info string error: "), lines.size()) << joined(lines);
    EXPECT_EQ(lfenOf(*e), kStartLfen);
    EXPECT_EQ(handshake(*e, "uci"), expectedHandshake("uciok"));
    checkSearch(*e, kStart, "go depth 4", Dialect::Uci);
    ASSERT_TRUE(e->send("quit"));
    EXPECT_EQ(e->exitCode(5s), 0);
}

}  // namespace
}  // namespace lasca::test

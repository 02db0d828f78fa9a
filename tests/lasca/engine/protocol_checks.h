// The checks the protocol test files share (protocol_*_test.cpp): reading replies, the
// positions the tests set up, a checked search, the handshake, starting and stopping a search.
#pragma once

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

namespace lasca::test {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using Lines = std::vector<std::string>;

// ---------------------------------------------------------------------------------------------
// Helpers

inline bool startsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

inline Lines tokens(const std::string& line) {
    std::istringstream in(line);
    Lines out;
    for (std::string t; in >> t;) out.push_back(t);
    return out;
}

// Input or output shown in a failure message: unprintable bytes escaped, long text cut.
inline std::string printable(std::string_view text) {
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

inline std::string joined(const Lines& lines) {
    std::string out;
    for (const std::string& line : lines) out += "  " + printable(line) + "\n";
    return out;
}

inline long long msSince(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

inline std::size_t countPrefix(const Lines& lines, std::string_view prefix) {
    return static_cast<std::size_t>(std::count_if(
        lines.begin(), lines.end(), [&](const std::string& l) { return startsWith(l, prefix); }));
}

inline Lines withoutSearchInfo(const Lines& lines) {
    Lines out;
    for (const std::string& l : lines)
        if (!startsWith(l, "info depth ")) out.push_back(l);
    return out;
}

// Sends isready and returns the lines that came before readyok.
inline Lines sync(EngineProcess& e) {
    EXPECT_TRUE(e.send("isready"));
    bool found = false;
    Lines lines = e.readUntil("readyok", kReplyTimeout, &found);
    EXPECT_TRUE(found) << "no readyok; got:\n" << joined(lines);
    if (found) lines.pop_back();
    return lines;
}

// Sends one command and expects no reply at all.
inline void sendQuiet(EngineProcess& e, const std::string& command) {
    ASSERT_TRUE(e.send(command));
    const Lines lines = sync(e);
    EXPECT_TRUE(lines.empty()) << "'" << command << "' answered:\n" << joined(lines);
}

inline Lines handshake(EngineProcess& e, const std::string& command) {
    EXPECT_TRUE(e.send(command));
    bool found = false;
    Lines lines = e.readUntil(command + "ok", kReplyTimeout, &found);
    EXPECT_TRUE(found) << joined(lines);
    return lines;
}

// Asks a query and returns its answer (search info lines that come first are skipped).
inline std::string query(EngineProcess& e, const std::string& question) {
    EXPECT_TRUE(e.send("query " + question));
    while (const auto line = e.readLine(kReplyTimeout))
        if (!startsWith(*line, "info depth ")) return *line;
    ADD_FAILURE() << "no answer to query " << question;
    return "";
}

// The engine's whole view of the game: `d` (board, side, LFEN, key, counters, state) and the
// three queries. Equal before and after a bad input means the input changed nothing.
inline std::string stateOf(EngineProcess& e) {
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

inline std::string lfenOf(EngineProcess& e) {
    e.send("d");
    for (const std::string& l : sync(e))
        if (startsWith(l, "info string lfen: ")) return l.substr(18);
    ADD_FAILURE() << "d printed no lfen line";
    return "";
}

// Sends `bytes` (which end the line themselves) and checks that exactly one error line comes
// back and that the state is unchanged. Returns the error line.
inline std::string expectOneError(EngineProcess& e, std::string_view bytes) {
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

inline std::string expectOneErrorLine(EngineProcess& e, const std::string& line) {
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
inline const std::string kWhiteBlocked = "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,b,-,-/b,-,-/w,-,-,- w";
// Black to move without any piece: the position of the UGI worked session.
inline const std::string kBlackHasNothing = "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- b";
// Two officers far apart: the only moves are officer moves, which never reset the T2 counter.
inline const std::string kOfficers = "-,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- w";
// White to move with a single legal move, e7xc5xe3 (the UCI worked session's second position).
inline const PositionSetup kSingleMove{
    "", {"c3-d4", "e5xc3", "d2xb4", "g5-f4", "e3xg5", "d6-e5", "b4xd6", "e7xc5", "g5xe7", "c5-d4"}};
inline const PositionSetup kStart{};
inline const PositionSetup kBlackToMove{"", {"c3-d4", "e5xc3", "d2xb4"}};

// The first move of the principal variation of the last `info ... multipv 1 ... pv` line.
inline std::string lastPvMove(const Lines& lines) {
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

inline std::string field(const std::string& infoLine, const std::string& name) {
    const Lines t = tokens(infoLine);
    const auto it = std::find(t.begin(), t.end(), name);
    return it == t.end() || it + 1 == t.end() ? "" : *(it + 1);
}

// The search info lines of one search: every pv is a legal line of play from the root; depth
// and time never decrease; time is at most what the test measured; bounds (aspiration
// failures) only after two seconds.
inline void checkSearchInfo(const PositionSetup& setup, const Lines& lines, long long measuredMs) {
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
inline SearchOutcome checkSearch(EngineProcess& e, const PositionSetup& setup,
                                 const std::string& go, Dialect dialect) {
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

inline Lines searchInfos(const Lines& lines) {
    Lines out;
    for (const std::string& l : lines)
        if (startsWith(l, "info depth ")) out.push_back(l);
    return out;
}

class ProtocolTest : public ProtocolFixture {};

inline const Lines kOptionLines = {
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
    "option name EgtbPath type string default <empty>",
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
    "option name TimeMovesToGo type spin default 30 min 1 max 200",
    "option name TimeIncrementPercent type spin default 75 min 0 max 100",
    "option name TimeSoftMaxPercent type spin default 50 min 1 max 100",
    "option name TimeHardPercent type spin default 400 min 100 max 2000",
    "option name TimeHardMaxDivisor type spin default 300 min 150 max 2000",
    "option name TimeIterationPercent type spin default 55 min 10 max 100",
};

inline Lines expectedHandshake(const std::string& ok) {
    Lines lines = {"id name Lasca 0.1.0", "id author the lasca developers"};
    lines.insert(lines.end(), kOptionLines.begin(), kOptionLines.end());
    lines.push_back(ok);
    return lines;
}

// ---------------------------------------------------------------------------------------------
// go infinite, isready, stop, ponder

// Starts `go infinite` (or another go) and waits for the first search info line.
inline void startSearch(EngineProcess& e, const PositionSetup& setup,
                        const std::string& go = "go infinite") {
    sendQuiet(e, setup.command());
    ASSERT_TRUE(e.send(go));
    bool found = false;
    const Lines lines = e.readUntil("info depth", kReplyTimeout, &found);
    ASSERT_TRUE(found) << go << ": no info line; got:\n" << joined(lines);
    EXPECT_EQ(countPrefix(lines, "bestmove"), 0u);
}

// Sends stop and returns the lines up to the bestmove, and the latency.
inline std::pair<Lines, long long> stopSearch(EngineProcess& e) {
    const auto start = Clock::now();
    EXPECT_TRUE(e.send("stop"));
    bool found = false;
    Lines lines = e.readUntil("bestmove", kReplyTimeout, &found);
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
    EXPECT_TRUE(found) << "stop: no bestmove";
    return {lines, static_cast<long long>(us)};
}

}  // namespace lasca::test

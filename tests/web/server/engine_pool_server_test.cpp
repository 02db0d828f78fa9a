// The engine pool in the real lasca-web with one engine process (`--max-engines 1`): an
// endless analysis holds the process, and the engine's move another tab waits for is still
// played (moves first); a second analysis is told it waits, with how many are ahead of it,
// and gets its turn when the first one's slice ends. No step depends on the machine's speed:
// analyses never end by themselves, and every wait is a read the ctest timeout guards.
#include <gtest/gtest.h>

#include <string>

#include "live_server.h"
#include "test_directory.h"

namespace web::server {
namespace {

using test::Json;
using test::Server;
using test::Tab;

// Reads until a message of `type` (and `event`, when given); the ones before it are dropped.
Json readUntil(Tab& tab, const std::string& type, const std::string& event = "") {
    for (;;) {
        Json m = tab.read();
        if (m.value("type", "") == type && (event.empty() || m.value("event", "") == event))
            return m;
    }
}

// Reads until an `analysis` message with at least one line.
Json readAnalysisLine(Tab& tab) {
    for (;;) {
        Json m = readUntil(tab, "analysis");
        if (!m["lines"].empty()) return m;
    }
}

// A tab that turns the analysis on, once the analysis shows its first line.
void analyseUntilALine(Tab& tab) {
    tab.readState();
    tab.send({{"type", "analyse"}, {"on", true}});
    readAnalysisLine(tab);
}

TEST(EnginePoolServer, AMoveIsPlayedWhileAnAnalysisHoldsTheOnlyEngine) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    auto server = Server::start(db, 0, {"--max-engines", "1"});
    ASSERT_TRUE(server);
    Tab analyst(server->port);
    analyseUntilALine(analyst);  // the one process now searches without end
    Tab player(server->port);
    player.readState();
    player.send({{"type", "new"}, {"engine", "white"}, {"level", 1}});
    for (;;) {
        const Json state = player.readState();
        if (state["moves"].size() == 1U) break;  // the engine's move came
    }
    readAnalysisLine(analyst);  // and the analysis resumes afterwards
}

TEST(EnginePoolServer, AWaitingAnalysisIsToldHowManyAreAheadAndThenGetsItsTurn) {
    const std::string db = (common::test::testDirectory() / "web.db").string();
    auto server = Server::start(db, 0, {"--max-engines", "1"});
    ASSERT_TRUE(server);
    Tab first(server->port);
    analyseUntilALine(first);
    Tab second(server->port);
    second.readState();
    second.send({{"type", "analyse"}, {"on", true}});
    // Before any line of its own: the notice that one search is ahead of it.
    for (;;) {
        const Json m = second.read();
        ASSERT_FALSE(m.value("type", "") == "analysis" && !m["lines"].empty())
            << "an analysis line came before the busy notice";
        if (m.value("type", "") == "engine" && m.value("event", "") == "busy") {
            EXPECT_EQ(m["ahead"], 1);
            EXPECT_EQ(m["text"], "the engine is busy, 1 ahead of you");
            break;
        }
    }
    const Json serving = readUntil(second, "engine", "serving");
    EXPECT_EQ(serving["ahead"], 0);
    readAnalysisLine(second);
    readAnalysisLine(first);  // its turn comes back when the second one's slice ends
}

}  // namespace
}  // namespace web::server

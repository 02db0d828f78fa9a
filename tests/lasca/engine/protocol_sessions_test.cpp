// Replays the worked sessions of protocol.md against the real binary.
//
// A session is the fenced block that follows a `<!-- session: <name> -->` marker. Lines starting
// with `> ` are sent to the engine; every other line is a reply expected in that order, where
// `...` matches any text. After each sent line the replies listed below it are read, so the
// engine is driven as a GUI drives it (the next command goes out once the expected replies came
// in). After the last command the engine must exit with code 0 and write nothing more, so an
// unexpected extra reply anywhere fails the replay.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "lasca/engine/protocol_test_support.h"

namespace lasca::test {
namespace {

struct Step {
    std::string send;                 // the line sent (without "> ")
    std::vector<std::string> expect;  // the replies that follow it
};

struct Session {
    std::string name;
    int line = 0;  // where its block starts in protocol.md
    std::vector<Step> steps;
};

std::vector<Session> readSessions(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    const std::string marker = "<!-- session: ";
    std::vector<Session> sessions;
    std::string text;
    int number = 0;
    Session* current = nullptr;
    bool inBlock = false;
    while (std::getline(in, text)) {
        ++number;
        if (!text.empty() && text.back() == '\r') text.pop_back();
        if (!inBlock && text.starts_with(marker)) {
            const std::size_t end = text.find(" -->");
            sessions.push_back({text.substr(marker.size(), end - marker.size()), number, {}});
            current = &sessions.back();
            continue;
        }
        if (current && !inBlock) {
            if (text.starts_with("```")) {
                inBlock = true;
                current->line = number;
            } else if (!text.empty()) {
                throw std::runtime_error(path + ":" + std::to_string(number) +
                                         ": session marker not followed by a code block");
            }
            continue;
        }
        if (!current) continue;
        if (text.starts_with("```")) {
            inBlock = false;
            current = nullptr;
        } else if (text.starts_with("> ")) {
            current->steps.push_back({text.substr(2), {}});
        } else if (current->steps.empty()) {
            throw std::runtime_error(path + ":" + std::to_string(number) +
                                     ": a reply before the first command");
        } else {
            current->steps.back().expect.push_back(text);
        }
    }
    return sessions;
}

const std::vector<Session>& sessions() {
    static const std::vector<Session> all = readSessions(LASCA_PROTOCOL_MD);
    return all;
}

// `pattern` with `...` matching any text (possibly empty).
bool matches(std::string_view pattern, std::string_view text) {
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const std::size_t dots = pattern.find("...", start);
        parts.push_back(
            pattern.substr(start, dots == std::string_view::npos ? dots : dots - start));
        if (dots == std::string_view::npos) break;
        start = dots + 3;
    }
    if (parts.size() == 1) return pattern == text;
    if (!text.starts_with(parts.front()) || text.size() < parts.front().size()) return false;
    std::size_t at = parts.front().size();
    for (std::size_t i = 1; i + 1 < parts.size(); ++i) {
        const std::size_t found = text.find(parts[i], at);
        if (found == std::string_view::npos) return false;
        at = found + parts[i].size();
    }
    return text.size() >= at + parts.back().size() && text.ends_with(parts.back());
}

class ProtocolSessions : public ProtocolFixture {
  protected:
    void replay(const std::string& name) {
        const Session* session = nullptr;
        for (const Session& s : sessions())
            if (s.name == name) session = &s;
        ASSERT_NE(session, nullptr) << "protocol.md has no session '" << name << "'";
        ASSERT_FALSE(session->steps.empty());
        auto engine = startEngine();
        std::string log;  // the dialogue so far, for failure messages
        for (const Step& step : session->steps) {
            ASSERT_TRUE(engine->send(step.send)) << "engine closed its input\n" << log;
            log += "> " + step.send + "\n";
            for (const std::string& expected : step.expect) {
                const auto line = engine->readLine(kSearchTimeout);
                ASSERT_TRUE(line.has_value()) << "session " << name << " (protocol.md line "
                                              << session->line << "): after '> " << step.send
                                              << "' expected '" << expected << "', got nothing\n"
                                              << log;
                log += *line + "\n";
                ASSERT_TRUE(matches(expected, *line))
                    << "session " << name << " (protocol.md line " << session->line
                    << "): after '> " << step.send << "'\n  expected: " << expected
                    << "\n  got:      " << *line << "\ndialogue:\n"
                    << log;
            }
        }
        if (session->steps.back().send != "quit") engine->closeStdin();
        const auto code = engine->exitCode(std::chrono::milliseconds(5000));
        ASSERT_TRUE(code.has_value()) << "session " << name << ": engine did not exit";
        EXPECT_EQ(*code, 0);
        bool ended = false;
        const auto rest = engine->readToEnd(kReplyTimeout, &ended);
        EXPECT_TRUE(ended);
        for (const std::string& line : rest)
            ADD_FAILURE() << "session " << name << ": unexpected reply at the end: " << line
                          << "\ndialogue:\n"
                          << log;
    }
};

TEST(SessionPattern, DotsMatchAnyText) {
    EXPECT_TRUE(matches("bestmove ...", "bestmove c3-d4"));
    EXPECT_TRUE(matches("bestmove ...", "bestmove "));
    EXPECT_FALSE(matches("bestmove ...", "bestmove"));
    EXPECT_TRUE(matches("a ... b ... c", "a 1 b 2 c"));
    EXPECT_FALSE(matches("a ... b ... c", "a 1 b 2 c d"));
    EXPECT_FALSE(matches("a ... b", "a b"));
    EXPECT_TRUE(matches("readyok", "readyok"));
    EXPECT_FALSE(matches("readyok", "readyok "));
}

TEST(SessionFile, HoldsTheUciAndUgiSessions) {
    std::map<std::string, int> names;
    for (const Session& s : sessions()) ++names[s.name];
    EXPECT_EQ(names["uci"], 1);
    EXPECT_EQ(names["ugi"], 1);
    for (const Session& s : sessions()) {
        EXPECT_FALSE(s.steps.empty()) << s.name;
        EXPECT_EQ(s.steps.back().send, "quit") << s.name << " should end with quit";
    }
}

TEST_F(ProtocolSessions, Uci) {
    replay("uci");
}

TEST_F(ProtocolSessions, Ugi) {
    replay("ugi");
}

// Sessions added to protocol.md later are replayed too, except the Torneio player protocol's
// (`torneio-...`), which tests/lasca/torneio replays against the `torneio` program.
TEST_F(ProtocolSessions, AllOthers) {
    for (const Session& s : sessions()) {
        if (s.name == "uci" || s.name == "ugi" || s.name.starts_with("torneio-")) continue;
        SCOPED_TRACE("session " + s.name);
        replay(s.name);
    }
}

}  // namespace
}  // namespace lasca::test

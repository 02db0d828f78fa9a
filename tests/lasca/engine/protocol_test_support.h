// What the protocol test files share: starting the binary and the reply-grammar check that runs
// after every test on every line any engine process wrote.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "lasca/engine/engine_process.h"
#include "lasca/engine/reply_grammar.h"

namespace lasca::test {

// Generous timeouts: they only keep a broken engine from hanging the suite.
inline constexpr Millis kReplyTimeout{5'000};
inline constexpr Millis kSearchTimeout{20'000};

// The binary under test: the one built with the tests, or $LASCA_TEST_BINARY when set (to run
// the suite against another build, e.g. a sanitizer build).
inline std::string engineBinary() {
    const char* override = std::getenv("LASCA_TEST_BINARY");
    return override && *override ? override : LASCA_BINARY;
}

inline std::unique_ptr<EngineProcess> startEngine() {
    return std::make_unique<EngineProcess>(engineBinary());
}

// Every test checks, when it ends, that all lines read from any engine match the grammar of
// protocol.md's "Replies" section.
class ProtocolFixture : public ::testing::Test {
  protected:
    void SetUp() override { (void)EngineProcess::takeRecordedLines(); }
    void TearDown() override {
        const auto lines = EngineProcess::takeRecordedLines();
        std::map<std::string, int> bad;  // each distinct line once, with its count
        for (const std::string& line : nonConformingLines(lines)) ++bad[line];
        for (const auto& [line, count] : bad)
            ADD_FAILURE() << "reply outside the grammar of protocol.md (" << count << " times): '"
                          << line << "'";
        RecordProperty("reply_lines_checked", static_cast<int>(lines.size()));
    }
};

}  // namespace lasca::test

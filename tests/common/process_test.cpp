// A child process on pipes (common/process.h): a write waits for the child to take its bytes
// until a deadline and no longer, so a child that stops reading cannot block the runner; a line
// comes only with its line end. The children are /bin/sh one-liners; sizes are counted in bytes,
// and the only time checked is a generous guard against a hang.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "common/process.h"

namespace common {
namespace {

using namespace std::chrono_literals;

std::unique_ptr<ChildProcess> shell(const std::string& script) {
    auto started = ChildProcess::start("/bin/sh", {"-c", script}, "");
    EXPECT_TRUE(started.ok()) << started.error();
    return std::move(started).value();
}

// 4 MiB, many times a pipe's capacity (64 KiB on Linux, 1 MiB at most by default).
const std::string kFlood(std::size_t{4} << 20, 'x');

// 40,000 lines of 100 bytes, 4 MB in one write: the child takes them all, and counts them.
TEST(ChildProcess, AReadingChildTakesAFloodAndCountsIt) {
    auto child = shell("head -n 40000 | wc -l");
    std::string lines;
    for (int i = 0; i < 40000; ++i) lines += std::string(99, 'x') + "\n";
    EXPECT_EQ(child->write(lines, SteadyClock::now() + 60s), WriteStatus::Written);  // a guard
    std::string line;
    ASSERT_EQ(child->readLine(line, SteadyClock::now() + 60s), ReadStatus::Line);
    EXPECT_EQ(line.substr(line.find_first_not_of(' ')), "40000");
}

TEST(ChildProcess, AChildThatStopsReadingTimesTheWriteOut) {
    const auto start = SteadyClock::now();
    // Reads 1000 bytes, then sleeps without reading; its output stays open.
    auto child = shell("head -c 1000 >/dev/null; echo read; sleep 30");
    EXPECT_EQ(child->write(kFlood, SteadyClock::now() + 300ms), WriteStatus::Timeout);
    // The input is closed for good: a line cut in two is never completed.
    EXPECT_EQ(child->writeLine("more", SteadyClock::now() + 300ms), WriteStatus::Closed);
    std::string line;
    EXPECT_EQ(child->readLine(line, SteadyClock::now() + 30s), ReadStatus::Line);
    EXPECT_EQ(line, "read");
    child->kill();
    EXPECT_LT(SteadyClock::now() - start, 25s);  // a guard: the write did not wait for the sleep
}

TEST(ChildProcess, APastDeadlineWritesWhatThePipeTakesAtOnce) {
    auto child = shell("sleep 30");
    EXPECT_EQ(child->writeLine("quit", SteadyClock::now() - 1s), WriteStatus::Written);
    EXPECT_EQ(child->write(kFlood, SteadyClock::now() - 1s), WriteStatus::Timeout);
    child->kill();
}

TEST(ChildProcess, AWriteToAChildThatEndedIsClosed) {
    auto child = shell("exit 0");
    ASSERT_TRUE(child->wait(30s).has_value());
    EXPECT_EQ(child->write(kFlood, SteadyClock::now() + 30s), WriteStatus::Closed);
    EXPECT_EQ(child->writeLine("x", SteadyClock::now() + 30s), WriteStatus::Closed);
}

// The bytes after the last line end are no line: the output just closes.
TEST(ChildProcess, BytesWithoutALineEndAreNoLine) {
    auto child = shell("printf 'whole\\r\\ncom'");
    std::string line;
    ASSERT_EQ(child->readLine(line, SteadyClock::now() + 30s), ReadStatus::Line);
    EXPECT_EQ(line, "whole");
    EXPECT_EQ(child->readLine(line, SteadyClock::now() + 30s), ReadStatus::Closed);
    EXPECT_EQ(child->readLine(line, SteadyClock::now() + 30s), ReadStatus::Closed);
}

// A child that closes its input with bytes unread can never answer them: with
// UnreadInput::Closed the read says so at once (the guard is a minute); by default it waits.
// The shell's `read` takes one line and leaves the next in the pipe.
TEST(ChildProcess, AChildThatClosesItsInputUnreadIsClosedAtOnce) {
    auto child = shell("read first; exec 0<&-; sleep 30");
    ASSERT_EQ(child->write("one\ntwo\n", SteadyClock::now() + 30s), WriteStatus::Written);
    std::string line;
    EXPECT_EQ(child->readLine(line, SteadyClock::now() + 200ms), ReadStatus::Timeout);
    EXPECT_EQ(child->readLine(line, SteadyClock::now() + 60s, UnreadInput::Closed),
              ReadStatus::Closed);
    child->kill();
}

// A child that read every byte and then closed its input may still answer.
TEST(ChildProcess, AChildThatReadEverythingMayAnswerAfterClosingItsInput) {
    auto child = shell("read first; exec 0<&-; echo \"got $first\"; sleep 30");
    ASSERT_EQ(child->write("one\n", SteadyClock::now() + 30s), WriteStatus::Written);
    std::string line;
    ASSERT_EQ(child->readLine(line, SteadyClock::now() + 60s, UnreadInput::Closed),
              ReadStatus::Line);
    EXPECT_EQ(line, "got one");
    child->kill();
}

}  // namespace
}  // namespace common

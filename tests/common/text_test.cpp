// Text helpers: the tokenizer and number parser every protocol of both games reads with.
#include "common/text.h"

#include <gtest/gtest.h>

#include <sstream>

namespace common {
namespace {

TEST(Text, UtcTimeWritesMillisecondsSinceTheEpochInUtc) {
    EXPECT_EQ(utcTime(0, "%Y.%m.%d %H:%M:%S"), "1970.01.01 00:00:00");
    EXPECT_EQ(utcTime(1764696600999, "%Y-%m-%d %H:%M UTC"), "2025-12-02 17:30 UTC");
}

TEST(Text, CharacterCountCountsCodePointsNotBytes) {
    EXPECT_EQ(characterCount(""), 0u);
    EXPECT_EQ(characterCount("player"), 6u);
    EXPECT_EQ(characterCount("J\xC3\xB6rg"), 4u);          // Jörg: 5 bytes
    EXPECT_EQ(characterCount("\xE5\x9B\x9B"), 1u);         // one CJK character: 3 bytes
    EXPECT_EQ(characterCount("\xF0\x9F\x8E\xB2 go"), 4u);  // an emoji (4 bytes) and " go"
}

TEST(Text, SplitsOnSpacesAndTabs) {
    const auto t = splitWhitespace("  go \t depth  4 ");
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[0], "go");
    EXPECT_EQ(t[1], "depth");
    EXPECT_EQ(t[2], "4");
    EXPECT_TRUE(splitWhitespace(" \t ").empty());
}

TEST(Text, PrintableHidesControlBytesAndCuts) {
    EXPECT_EQ(printable("a\x01"
                        "b"),
              "a?b");
    EXPECT_EQ(printable("abcdef", 3), "abc...");
}

TEST(Text, BoundedIntegerRejectsSignsBlanksAndRange) {
    EXPECT_EQ(parseBoundedInteger("42", 0, 100), 42);
    EXPECT_FALSE(parseBoundedInteger("-1", -5, 100));
    EXPECT_FALSE(parseBoundedInteger("4 2", 0, 100));
    EXPECT_FALSE(parseBoundedInteger("101", 0, 100));
    EXPECT_FALSE(parseBoundedInteger("99999999999999999999", 0, 100));
    EXPECT_FALSE(parseBoundedInteger("", 0, 100));
}

TEST(Text, ErrorLineHasTheProtocolPrefix) {
    EXPECT_EQ(errorLine("empty line"), "info string error: empty line");
}

}  // namespace
}  // namespace common

namespace common {
namespace {

TEST(Text, SetOptionIdMayHoldBlanks) {
    const auto o = parseSetOption("setoption  name Debug Log File value /tmp/a b");
    ASSERT_TRUE(o);
    EXPECT_EQ(o->name, "Debug Log File");
    EXPECT_EQ(o->value, "/tmp/a b");
    const auto button = parseSetOption("setoption name Clear");
    ASSERT_TRUE(button);
    EXPECT_EQ(button->value, "");
    EXPECT_FALSE(parseSetOption("setoption name value 3"));
    EXPECT_FALSE(parseSetOption("setoption Hash value 3"));
}

TEST(Text, BoundedLinesKeepTheFullLengthAndDropCr) {
    std::istringstream in("ab\r\n" + std::string(10000, 'x') + "\nlast");
    BoundedLine line;
    ASSERT_TRUE(readBoundedLine(in, 100, line));
    EXPECT_EQ(line.text, "ab");
    ASSERT_TRUE(readBoundedLine(in, 100, line));
    EXPECT_EQ(line.length, 10000u);
    EXPECT_EQ(line.text.size(), 101u);
    EXPECT_TRUE(line.tooLong(100));
    ASSERT_TRUE(readBoundedLine(in, 100, line));
    EXPECT_EQ(line.text, "last");
    EXPECT_FALSE(readBoundedLine(in, 100, line));
    std::istringstream empty("\n\n");
    ASSERT_TRUE(readBoundedLine(empty, 100, line));
    EXPECT_EQ(line.text, "");
    ASSERT_TRUE(readBoundedLine(empty, 100, line));
    EXPECT_FALSE(readBoundedLine(empty, 100, line));
}

TEST(Text, CommandLinesStopAtQuitAndReportLongLines) {
    std::istringstream in("a\r\n" + std::string(200, 'x') + "\n\nquit\nafter\n");
    std::vector<std::string> handled;
    std::vector<std::size_t> tooLong;
    readCommandLines(
        in, 100,
        [&](std::string_view line) {
            handled.emplace_back(line);
            return line != "quit";
        },
        [&](std::size_t length) { tooLong.push_back(length); });
    EXPECT_EQ(handled, (std::vector<std::string>{"a", "", "quit"}));
    EXPECT_EQ(tooLong, std::vector<std::size_t>{200});
    EXPECT_EQ(lineTooLong(200, 100), "line too long (200 bytes, at most 100)");
}

TEST(Text, CookieValuesAreReadPairByPair) {
    using V = std::vector<std::string_view>;
    EXPECT_EQ(cookieValues("a=1; b=2;  a=\"3\" ;a", "a"), (V{"1", "3"}));
    EXPECT_EQ(cookieValues("ab=1; b=2", "a"), V{});
    EXPECT_EQ(cookieValues("", "a"), V{});
    EXPECT_EQ(cookieValues("a=", "a"), V{""});
}

}  // namespace
}  // namespace common

// Text helpers: the tokenizer and number parser every protocol of both games reads with.
#include "common/text.h"

#include <gtest/gtest.h>

namespace common {
namespace {

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

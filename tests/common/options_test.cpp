// Options: one declaration drives listing, parsing, range checks and the on-change action.
#include "common/options.h"

#include <gtest/gtest.h>

namespace common {
namespace {

Options sample(int* applied) {
    Options o;
    o.add({"Hash",
           OptionType::Spin,
           "16",
           1,
           1024,
           [applied](const Option& opt) -> Result<bool> {
               if (opt.asInt() == 999) return makeError("cannot allocate");
               *applied = static_cast<int>(opt.asInt());
               return true;
           },
           {}});
    o.add({"Ponder", OptionType::Check, "false", 0, 0, {}, {}});
    o.add({"Debug Log File", OptionType::String, "", 0, 0, {}, {}});
    return o;
}

TEST(Options, ListsDeclarations) {
    int applied = 0;
    const Options o = sample(&applied);
    EXPECT_EQ(Options::describe(o.all()[0]),
              "option name Hash type spin default 16 min 1 max 1024");
    EXPECT_EQ(Options::describe(o.all()[1]), "option name Ponder type check default false");
    EXPECT_EQ(Options::describe(o.all()[2]),
              "option name Debug Log File type string default <empty>");
}

TEST(Options, SetsValuesCaseInsensitivelyAndAppliesThem) {
    int applied = 0;
    Options o = sample(&applied);
    ASSERT_TRUE(o.set("hASH", "64").ok());
    EXPECT_EQ(o.intValue("Hash"), 64);
    EXPECT_EQ(applied, 64);
    ASSERT_TRUE(o.set("ponder", "TRUE").ok());
    EXPECT_TRUE(o.boolValue("Ponder"));
    ASSERT_TRUE(o.set("debug log file", "/tmp/x.log").ok());
    EXPECT_EQ(o.stringValue("Debug Log File"), "/tmp/x.log");
    ASSERT_TRUE(o.set("Debug Log File", "<empty>").ok());
    EXPECT_EQ(o.stringValue("Debug Log File"), "");
}

TEST(Options, RejectsBadValuesAndKeepsTheOldOne) {
    int applied = 0;
    Options o = sample(&applied);
    for (const char* bad : {"0", "1025", "-5", "abc", "12abc", "", "99999999999999999999999"}) {
        const auto r = o.set("Hash", bad);
        EXPECT_FALSE(r.ok()) << bad;
        EXPECT_EQ(o.intValue("Hash"), 16) << bad;
    }
    EXPECT_NE(o.set("Hash", "2000").error().find("out of range 1..1024"), std::string::npos);
    EXPECT_NE(o.set("Hash", "x").error().find("needs an integer"), std::string::npos);
    EXPECT_FALSE(o.set("Ponder", "yes").ok());
    EXPECT_NE(o.set("Nope", "1").error().find("unknown option 'Nope'"), std::string::npos);
    EXPECT_EQ(applied, 0);
}

TEST(Options, FailedActionLeavesTheValue) {
    int applied = 0;
    Options o = sample(&applied);
    const auto r = o.set("Hash", "999");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error(), "cannot allocate");
    EXPECT_EQ(o.intValue("Hash"), 16);
}

TEST(Options, ComboTakesOneOfItsChoices) {
    Options o;
    Option player{"Player", OptionType::Combo, "heuristic", 0, 0, {}, {}};
    player.choices = {"random", "heuristic"};
    o.add(player);
    EXPECT_EQ(Options::describe(o.all()[0]),
              "option name Player type combo default heuristic var random var heuristic");
    ASSERT_TRUE(o.set("player", "RANDOM").ok());
    EXPECT_EQ(o.stringValue("Player"), "random");
    const auto bad = o.set("Player", "clever");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error(), "option Player must be one of random, heuristic, got 'clever'");
    EXPECT_EQ(o.stringValue("Player"), "random");
}

}  // namespace
}  // namespace common

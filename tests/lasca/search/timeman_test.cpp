// Time management: budgets stay within the clock, with the overhead in reserve.
#include "lasca/search/timeman.h"

#include <gtest/gtest.h>

namespace lasca::search {
namespace {

TEST(TimeManager, NoClockMeansNoLimit) {
    EXPECT_FALSE(planTime(ClockLimits{}, Color::White, 30).limited());
}

TEST(TimeManager, MoveTimeLeavesTheOverhead) {
    ClockLimits c;
    c.moveTime = 1000;
    const TimeBudget b = planTime(c, Color::Black, 30);
    EXPECT_EQ(b.hard, 970);
    EXPECT_EQ(b.soft, 970);
    // The overhead never takes more than half of a short movetime.
    c.moveTime = 10;
    EXPECT_EQ(planTime(c, Color::Black, 30).hard, 5);
    c.moveTime = 60;
    EXPECT_EQ(planTime(c, Color::Black, 30).hard, 30);
    c.moveTime = 61;
    EXPECT_EQ(planTime(c, Color::Black, 30).hard, 31);
    c.moveTime = 1;
    EXPECT_EQ(planTime(c, Color::Black, 30).hard, 1);
    c.moveTime = 0;
    EXPECT_EQ(planTime(c, Color::Black, 30).hard, 1);  // never zero
}

TEST(TimeManager, UsesTheSideToMovesClock) {
    ClockLimits c;
    c.time[0] = 60000;
    c.time[1] = 1000;
    EXPECT_GT(planTime(c, Color::White, 30).soft, planTime(c, Color::Black, 30).soft * 10);
}

TEST(TimeManager, BudgetsStayWithinTheClock) {
    for (std::int64_t left : {1, 5, 30, 100, 1000, 10000, 300000}) {
        for (std::int64_t inc : {0, 10, 1000}) {
            for (int togo : {0, 1, 2, 40}) {
                ClockLimits c;
                c.time[0] = left;
                c.inc[0] = inc;
                c.movesToGo = togo;
                const TimeBudget b = planTime(c, Color::White, 30);
                ASSERT_TRUE(b.limited());
                EXPECT_GE(b.soft, 1);
                EXPECT_LE(b.soft, b.hard);
                // Never plan beyond the remaining time less the overhead (1 ms minimum).
                EXPECT_LE(b.hard, std::max<std::int64_t>(1, left - 30)) << left << " " << inc;
                if (togo != 1) {
                    EXPECT_LE(b.hard, std::max<std::int64_t>(1, (left - 30) / 3));
                }
            }
        }
    }
}

TEST(TimeManager, IncrementBuysTime) {
    ClockLimits a, b;
    a.time[0] = b.time[0] = 10000;
    b.inc[0] = 1000;
    EXPECT_GT(planTime(b, Color::White, 30).soft, planTime(a, Color::White, 30).soft);
}

}  // namespace
}  // namespace lasca::search

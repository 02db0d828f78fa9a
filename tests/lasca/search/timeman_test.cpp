// Time management: budgets stay within the clock, with the overhead in reserve.
#include "lasca/search/timeman.h"

#include <gtest/gtest.h>

#include "lasca/core/game.h"
#include "lasca/engine/engine.h"
#include "lasca/search/search.h"

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

// The default TimeParams are the numbers the time manager was written with: a third of the
// time, three quarters of the increment, thirty moves to go, four times the soft budget.
TEST(TimeManager, TheDefaultParametersAreTheWrittenNumbers) {
    ClockLimits c;
    c.time[0] = 60030;
    c.inc[0] = 1000;
    const TimeBudget b = planTime(c, Color::White, 30);
    EXPECT_EQ(b.soft, 60000 / 30 + 750);
    EXPECT_EQ(b.hard, (60000 / 30 + 750) * 4);
    EXPECT_EQ(b.deepen, (60000 / 30 + 750) * 55 / 100);
    c.inc[0] = 0;
    c.time[0] = 930;  // soft 900 / 30, hard four times that
    EXPECT_EQ(planTime(c, Color::White, 30).soft, 30);
    EXPECT_EQ(planTime(c, Color::White, 30).hard, 120);
    c.time[0] = 330;  // soft 10 + 750, capped at 300 / 2; hard capped at 300 / 3
    c.inc[0] = 1000;
    EXPECT_EQ(planTime(c, Color::White, 30).hard, 100);
    EXPECT_EQ(planTime(c, Color::White, 30).soft, 100);
    EXPECT_EQ(planTime(c, Color::White, 30, TimeParams{}).hard, planTime(c, Color::White, 30).hard);
}

// Each parameter changes the time a move is given, in the direction its name says.
TEST(TimeManager, EveryParameterChangesTheBudget) {
    ClockLimits c;
    c.time[1] = 60030;
    c.inc[1] = 1000;
    const TimeBudget base = planTime(c, Color::Black, 30);
    TimeParams p;
    p.movesToGo = 20;
    EXPECT_EQ(planTime(c, Color::Black, 30, p).soft, 60000 / 20 + 750);
    p = {};
    p.incrementPercent = 0;
    EXPECT_EQ(planTime(c, Color::Black, 30, p).soft, 2000);
    p = {};
    p.softMaxPercent = 1;  // at most 1% of 60000
    EXPECT_EQ(planTime(c, Color::Black, 30, p).soft, 600);
    p = {};
    p.hardPercent = 200;
    EXPECT_EQ(planTime(c, Color::Black, 30, p).hard, base.soft * 2);
    EXPECT_EQ(planTime(c, Color::Black, 30, p).soft, base.soft);
    p = {};
    p.hardPercent = 2000;
    p.hardMaxDivisor = 1000;  // at most a tenth of 60000
    EXPECT_EQ(planTime(c, Color::Black, 30, p).hard, 6000);
    p = {};
    p.iterationPercent = 100;
    EXPECT_EQ(planTime(c, Color::Black, 30, p).deepen, base.soft);
    EXPECT_LT(base.deepen, base.soft);
}

// At the ends of every option's range the budgets still stay within the clock.
TEST(TimeManager, ExtremeParametersStayWithinTheClock) {
    TimeParams lowest{1, 0, 1, 100, 150, 10};
    TimeParams highest{200, 100, 100, 2000, 2000, 100};
    for (const TimeParams& p : {lowest, highest}) {
        for (std::int64_t left : {1, 30, 1000, 300000}) {
            for (std::int64_t inc : {0, 1000}) {
                for (int togo : {0, 1, 2}) {
                    ClockLimits c;
                    c.time[0] = left;
                    c.inc[0] = inc;
                    c.movesToGo = togo;
                    const TimeBudget b = planTime(c, Color::White, 30, p);
                    EXPECT_GE(b.soft, 1);
                    EXPECT_LE(b.soft, b.hard);
                    EXPECT_LE(b.deepen, b.soft);
                    EXPECT_LE(b.hard, std::max<std::int64_t>(1, left - 30)) << left;
                }
            }
        }
    }
}

// The parameters reach the search: with a virtual clock that advances 1 ms at each reading, a
// search of the same position on the same clock stops at another time when they change, and
// at the same time with the defaults.
TEST(TimeManager, TheParametersChangeTheTimeASearchTakes) {
    TranspositionTable tt;
    Search search(tt);
    std::int64_t virtualMs = 0;
    const auto usedMs = [&](const TimeParams& params) {
        tt.clear();
        search.clear();
        SearchLimits limits;
        limits.clock.time[0] = limits.clock.time[1] = 3000;
        SearchSettings settings;
        settings.time = params;
        settings.clockMs = [&virtualMs] { return ++virtualMs; };
        const std::int64_t before = virtualMs;
        (void)search.run(Game().current(), {}, limits, settings);
        return virtualMs - before;
    };
    const std::int64_t byDefault = usedMs({});
    TimeParams more;
    more.movesToGo = 3;
    EXPECT_GT(usedMs(more), byDefault);
    TimeParams cut;
    cut.hardPercent = 100;
    cut.iterationPercent = 100;
    EXPECT_NE(usedMs(cut), byDefault);
    EXPECT_EQ(usedMs({}), byDefault);
}

// The engine's options: declared with TimeParams' defaults, refused outside their ranges (the
// old value stays), and read into the settings of the next search.
TEST(TimeManager, TheOptionsSetTheParameters) {
    engine::Engine engine;
    const TimeParams defaults;
    const struct {
        const char* name;
        int TimeParams::*field;
    } declared[] = {{"TimeMovesToGo", &TimeParams::movesToGo},
                    {"TimeIncrementPercent", &TimeParams::incrementPercent},
                    {"TimeSoftMaxPercent", &TimeParams::softMaxPercent},
                    {"TimeHardPercent", &TimeParams::hardPercent},
                    {"TimeHardMaxDivisor", &TimeParams::hardMaxDivisor},
                    {"TimeIterationPercent", &TimeParams::iterationPercent}};
    EXPECT_EQ(engine.searchSettings().time, defaults);
    for (const auto& d : declared) {
        const common::Option* o = engine.options().find(d.name);
        ASSERT_NE(o, nullptr) << d.name;
        EXPECT_EQ(o->type, common::OptionType::Spin);
        EXPECT_EQ(o->defaultValue, std::to_string(defaults.*d.field)) << d.name;
        for (const std::string& bad : {std::to_string(o->min - 1), std::to_string(o->max + 1),
                                       std::string("x"), std::string("1.5")})
            EXPECT_FALSE(engine.options().set(d.name, bad)) << d.name << " " << bad;
        EXPECT_EQ(o->value, o->defaultValue) << d.name;
        // Each option sets its own field and no other.
        ASSERT_TRUE(engine.options().set(d.name, std::to_string(o->min)));
        TimeParams expected = defaults;
        expected.*d.field = static_cast<int>(o->min);
        EXPECT_EQ(engine.searchSettings().time, expected) << d.name;
        ASSERT_TRUE(engine.options().set(d.name, o->defaultValue));
    }
    ASSERT_TRUE(engine.options().set("TimeMovesToGo", "10"));
    ClockLimits c;
    c.time[0] = 60030;
    EXPECT_EQ(planTime(c, Color::White, 30, engine.searchSettings().time).soft, 6000);
}

}  // namespace
}  // namespace lasca::search

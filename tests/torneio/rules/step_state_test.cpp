// A set-up placed step by step (step_state.h): the steps end in the very set-up the referee's
// one line would make (same events, pieces and history), the steps in progress show in the
// placing seat's view and observation and in no other seat's, a whole action is refused halfway,
// and the numbers replay to the same state.
#include "torneio/rules/step_state.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/random.h"
#include "torneio/rules/random_play.h"
#include "torneio/torneio_test_util.h"

namespace torneio {
namespace {

TEST(StepState, StepsMakeTheSameGameAsWholeSetUps) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        State whole = State::create(defaultParams(seats)).value();
        StepState stepped(State::create(defaultParams(seats)).value());
        common::Random random(static_cast<std::uint64_t>(seats));
        std::vector<std::int64_t> legal;
        for (int decision = 0; decision < 60 && !whole.over(); ++decision) {
            const Action action = randomAction(whole, random);
            if (action.kind == ActionKind::SetUp) {
                const auto steps = setUpStepNumbers(action.setUp, whole.geometry()).value();
                for (std::size_t i = 0; i < steps.size(); ++i) {
                    stepped.legalNumbers(legal);
                    ASSERT_TRUE(std::binary_search(legal.begin(), legal.end(), steps[i]));
                    ASSERT_TRUE(stepped.applyNumber(steps[i]).ok());
                    EXPECT_EQ(stepped.pending().has_value(), i + 1 < steps.size());
                }
            } else {
                ASSERT_TRUE(stepped.applyAction(action).ok());
            }
            ASSERT_TRUE(whole.apply(whole.toDecide(), action).ok());
            ASSERT_EQ(stepped.state().events(), whole.events());
            ASSERT_EQ(stepped.state().history(), whole.history());
        }
        const auto numbers = stepped.historyNumbers();
        ASSERT_TRUE(numbers.ok());
        const auto replayed =
            replayNumbers(State::create(defaultParams(seats)).value(), numbers.value());
        ASSERT_TRUE(replayed.ok()) << replayed.error();
        EXPECT_EQ(replayed.value().state().events(), whole.events());
    }
}

TEST(StepState, AStepInProgressIsTheSeatsOwnInformation) {
    StepState state(State::create(defaultParams(3)).value());
    const Geometry& g = state.geometry();
    const std::vector<std::string> before = state.viewText(1);
    ASSERT_TRUE(state.applyText("place c1").ok());
    ASSERT_TRUE(state.applyText("place e1").ok());
    ASSERT_TRUE(state.applyText("strength 7").ok());
    const std::vector<std::string> mine = state.viewText(0);
    ASSERT_GE(mine.size(), 2u);
    EXPECT_EQ(mine[mine.size() - 2], "placing king c1 warriors e1:7");
    EXPECT_EQ(mine.back(), "request setup");
    EXPECT_EQ(state.viewText(1), before);  // seat 2 sees nothing of it
    const std::vector<double> seen = state.observation(0);
    EXPECT_EQ(seen[static_cast<std::size_t>(test::sq(g, "c1"))], 1.0);  // plane 0: king
    EXPECT_EQ(seen[static_cast<std::size_t>(g.squareCount() + test::sq(g, "e1"))], 1.0);
    // Halfway, a whole set-up line is refused, and so is a step that is not legal now.
    EXPECT_FALSE(state.applyText("setup king g1 warriors c2:3 e2:3 g2:4").ok());
    EXPECT_FALSE(state.applyText("place c1").ok());
    EXPECT_FALSE(state.applyText("strength 4").ok());  // a square comes next
    EXPECT_EQ(state.historyNumbers().value().size(), 3u);
    EXPECT_EQ(state.numberText(0, firstStrengthAction(g) + 7).value(), "strength 7");
    EXPECT_EQ(state.textNumber(0, "place c1").value(), firstSetUpAction(g) + test::sq(g, "c1"));
}

}  // namespace
}  // namespace torneio

// States as text (serialize.h): a round trip gives the same state (history, events, pieces),
// the text of a known game is exact, and bad text is an error value naming what is wrong.
#include "torneio/rules/serialize.h"

#include <gtest/gtest.h>

#include "torneio/rules/random_play.h"
#include "torneio/torneio_test_util.h"

namespace torneio {
namespace {

using test::army;
using test::play;
using test::position;

void expectSameState(const State& a, const State& b) {
    EXPECT_EQ(a.history(), b.history());
    EXPECT_EQ(a.events(), b.events());
    EXPECT_EQ(a.outcome(), b.outcome());
    EXPECT_EQ(a.start(), b.start());
    for (int seat = 0; seat < a.seats(); ++seat) EXPECT_EQ(a.pieces(seat), b.pieces(seat));
}

TEST(Serialize, RoundTripOfRandomGames) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            State state = State::create(defaultParams(seats)).value();
            common::Random random(seed);
            for (int step = 0; !state.over(); ++step) {
                if (step % 50 == 0 || step < 5) {  // during the set-ups and the game
                    const auto text = serializeState(state);
                    ASSERT_TRUE(text.ok()) << text.error();
                    const auto back = deserializeState(text.value());
                    ASSERT_TRUE(back.ok()) << back.error();
                    expectSameState(back.value().state(), state);
                    EXPECT_EQ(serializeState(back.value()).value(), text.value());
                }
                ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
            }
            const auto back = deserializeState(serializeState(state).value());
            ASSERT_TRUE(back.ok()) << back.error();
            expectSameState(back.value().state(), state);
            EXPECT_TRUE(back.value().over());
        }
    }
}

// A game from a position keeps its start line; dead pieces are "-".
TEST(Serialize, StartPositionTextAndRoundTrip) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    State state = position(
        params, {army(g, "c1", {"a1:3", "-:3", "g1:4"}), army(g, "b8", {"a7:3", "c7:3", "e7:4"})},
        1, 5);
    play(state, 1, "move 2 c6");
    const auto text = serializeState(state);
    ASSERT_TRUE(text.ok()) << text.error();
    const auto numbers = historyNumbers(state).value();
    ASSERT_EQ(numbers.size(), 1u);
    EXPECT_EQ(text.value(), "torneio-state 2\nparams " + formatParams(params) +
                                "\nstart 2 5 c1 a1:3 -:3 g1:4 / b8 a7:3 c7:3 e7:4\nactions " +
                                std::to_string(numbers[0]));
    const auto back = deserializeState(text.value());
    ASSERT_TRUE(back.ok()) << back.error();
    expectSameState(back.value().state(), state);
}

TEST(Serialize, HistoryNumbersAreActionIndexNumbers) {
    const State state = playRandomGame(defaultParams(2), 7);
    const auto numbers = historyNumbers(state);
    ASSERT_TRUE(numbers.ok());
    // Each seat's set-up is six steps (action_index.h), every other decision one number.
    ASSERT_EQ(numbers.value().size(),
              state.history().size() + static_cast<std::size_t>(state.seats()) * (kSetUpSteps - 1));
    EXPECT_EQ(
        serializeState(state).value().rfind("actions " + std::to_string(numbers.value()[0]) + " "),
        serializeState(state).value().find("actions"));
}

// Bad text is an error value (never an exception), and says what is wrong.
TEST(Serialize, BadTextIsAnError) {
    const std::string params = "params " + formatParams(defaultParams(2));
    const std::string start = "start 1 1 c1 a1:3 e1:3 g1:4 / b8 a7:3 c7:3 e7:4";
    const struct {
        std::string text;
        std::string error;
    } cases[] = {
        {"", "not a serialized state"},
        {"torneio-state 1\n" + params + "\nactions", "not a serialized state"},
        {"torneio-state 2\nactions", "not a serialized state"},
        {"torneio-state 2\nparams seats=9\nactions", "seats"},
        {"torneio-state 2\n" + params + "\nactions x", "action 1: 'x' is not a number"},
        {"torneio-state 2\n" + params + "\nactions 99999999999", "action 1: "},
        {"torneio-state 2\n" + params + "\nactions 1", "action 1: "},
        {"torneio-state 2\n" + params + "\nbogus 1\nactions", "expected a 'start ...' line"},
        {"torneio-state 2\n" + params + "\nstart 1 1 c1\nactions", "start: expected 12 fields"},
        {"torneio-state 2\n" + params +
             "\nstart 3 1 c1 a1:3 e1:3 g1:4 / b8 a7:3 c7:3 e7:4\n"
             "actions",
         "start: bad turn seat or round"},
        {"torneio-state 2\n" + params + "\nstart 1 1 c1 a1:3 e1:3 g1 / b8 a7:3 c7:3 e7:4\nactions",
         "start: expected <square>:<strength>"},
        {"torneio-state 2\n" + params +
             "\nstart 1 1 c1 a1:3 e1:3 g1:x / b8 a7:3 c7:3 e7:4\n"
             "actions",
         "start: bad strength"},
        {"torneio-state 2\n" + params +
             "\nstart 1 1 z9 a1:3 e1:3 g1:4 / b8 a7:3 c7:3 e7:4\n"
             "actions",
         "start: "},
        {"torneio-state 2\n" + params +
             "\nstart 1 1 c1 a1:3 e1:3 g1:4 + b8 a7:3 c7:3 e7:4\n"
             "actions",
         "start: expected '/'"},
        {std::string(kMaxSerializedLength + 1, 'x'), "serialized state too long"},
    };
    for (const auto& c : cases) {
        const auto result = deserializeState(c.text);
        ASSERT_FALSE(result.ok()) << c.text.substr(0, 200);
        EXPECT_NE(result.error().find(c.error), std::string::npos)
            << result.error() << " (expected '" << c.error << "')";
    }
    // After the end of the game: one number too many.
    const State over = playRandomGame(defaultParams(2), 3);
    const auto extra = deserializeState(serializeState(over).value() + " 0");
    ASSERT_FALSE(extra.ok());
    EXPECT_NE(extra.error().find("after the end of the game"), std::string::npos) << extra.error();
    // A set-up in progress is kept as its steps; a step that is not legal is refused.
    StepState placing(State::create(defaultParams(2)).value());
    const Geometry& g = placing.geometry();
    ASSERT_TRUE(placing.applyText("place c1").ok());
    ASSERT_TRUE(placing.applyText("place a1").ok());
    ASSERT_TRUE(placing.applyText("strength 4").ok());
    const auto partial = serializeState(placing);
    ASSERT_TRUE(partial.ok());
    EXPECT_EQ(partial.value(), "torneio-state 2\n" + params + "\nactions " +
                                   std::to_string(firstSetUpAction(g) + 2) + " " +
                                   std::to_string(firstSetUpAction(g)) + " " +
                                   std::to_string(firstStrengthAction(g) + 4));
    const auto resumed = deserializeState(partial.value());
    ASSERT_TRUE(resumed.ok()) << resumed.error();
    EXPECT_EQ(resumed.value().pending(), placing.pending());
    const auto twice = deserializeState("torneio-state 2\n" + params + "\nactions " +
                                        std::to_string(firstSetUpAction(g) + 2) + " " +
                                        std::to_string(firstSetUpAction(g) + 2));
    ASSERT_FALSE(twice.ok());
    EXPECT_NE(twice.error().find("action 2: 'place c1' is not a free square"), std::string::npos)
        << twice.error();
    // A valid start line is accepted.
    EXPECT_TRUE(deserializeState("torneio-state 2\n" + params + "\n" + start + "\nactions").ok());
}

}  // namespace
}  // namespace torneio

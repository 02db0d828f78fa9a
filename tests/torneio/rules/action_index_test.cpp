// Actions as numbers (action_index.h): the layout's size, every legal action's number and back,
// the set-up numbering against legalActions' order, and numbers that stand for nothing.
#include "torneio/rules/action_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "common/random.h"
#include "torneio/rules/random_play.h"
#include "torneio/rules/state.h"
#include "torneio/torneio_test_util.h"

namespace torneio {
namespace {

using test::sq;

Request setUpRequest(int seat) {
    Request r;
    r.kind = RequestKind::SetUp;
    r.seat = seat;
    return r;
}

TEST(ActionIndex, SizesOfTheDefaultGames) {
    // 7 * 64 + 4 = 452 whole actions, 64 squares to place on, strengths 0..10.
    EXPECT_EQ(actionCount(Geometry(defaultParams(2))), 452 + 64 + 11);
    EXPECT_EQ(actionCount(Geometry(defaultParams(3))), 704 + 100 + 11);
    EXPECT_EQ(actionCount(Geometry(defaultParams(4))), 704 + 100 + 11);
    EXPECT_EQ(firstSetUpAction(Geometry(defaultParams(2))), 452);
    EXPECT_EQ(firstStrengthAction(Geometry(defaultParams(2))), 452 + 64);
}

// Counts the complete set-ups below `steps` by walking every legal step.
std::uint64_t setUpsBelow(const SetUpSteps& steps, const Geometry& g, std::size_t& widest) {
    if (steps.complete()) return 1;
    std::vector<std::int64_t> legal;
    legalSetUpSteps(steps, g, legal);
    widest = std::max(widest, legal.size());
    std::uint64_t count = 0;
    for (std::int64_t number : legal) {
        SetUpSteps next = steps;
        EXPECT_TRUE(applySetUpStep(next, number, g).ok());
        count += setUpsBelow(next, g, widest);
    }
    return count;
}

// The steps reach every legal set-up once (8*7*6*5 squares * 66 splits on 8x8, D2, D3), each
// complete one is legal and its six numbers are the steps that made it; no step offers more
// than a zone's squares or the strengths.
TEST(ActionIndex, TheStepsOfASetUpReachEverySetUpOnce) {
    for (int seats : {2, 3}) {
        const Geometry g(defaultParams(seats));
        for (int seat = 0; seat < seats; ++seat) {
            std::size_t widest = 0;
            const std::uint64_t all = countLegalActions(setUpRequest(seat), OwnPieces{}, g);
            EXPECT_EQ(setUpsBelow(SetUpSteps{seat, 0, {}}, g, widest), all);
            EXPECT_EQ(widest, 11u);  // strengths 0..10; the zone has 8 or 6 dark squares
        }
    }
    const Geometry g(defaultParams(2));
    common::Random random(5);
    for (int k = 0; k < 200; ++k) {
        const Action whole = randomAction(setUpRequest(1), OwnPieces{}, g, random);
        const auto numbers = setUpStepNumbers(whole.setUp, g);
        ASSERT_TRUE(numbers.ok());
        SetUpSteps steps{1, 0, {}};
        for (std::int64_t n : numbers.value()) ASSERT_TRUE(applySetUpStep(steps, n, g).ok());
        ASSERT_TRUE(steps.complete());
        EXPECT_EQ(steps.setUp, whole.setUp);
    }
}

TEST(ActionIndex, StepsOutOfTurnOrRangeAreRefused) {
    Params params = defaultParams(2);
    params.minStrength = 2;
    const Geometry g(params);
    SetUpSteps steps{0, 0, {}};
    EXPECT_FALSE(applySetUpStep(steps, firstStrengthAction(g) + 3, g).ok());  // a square first
    EXPECT_FALSE(applySetUpStep(steps, firstSetUpAction(g) + sq(g, "a8"), g).ok());  // not its zone
    EXPECT_FALSE(applySetUpStep(steps, firstSetUpAction(g) + sq(g, "b1"), g).ok());  // not dark
    ASSERT_TRUE(applySetUpStep(steps, firstSetUpAction(g) + sq(g, "c1"), g).ok());
    EXPECT_FALSE(applySetUpStep(steps, firstSetUpAction(g) + sq(g, "c1"), g).ok());  // taken
    ASSERT_TRUE(applySetUpStep(steps, firstSetUpAction(g) + sq(g, "a1"), g).ok());
    // Warrior 1 may take 2..6 (two more warriors need 2 each, D3).
    std::vector<std::int64_t> legal;
    legalSetUpSteps(steps, g, legal);
    ASSERT_EQ(legal.size(), 5u);
    EXPECT_EQ(legal.front(), firstStrengthAction(g) + 2);
    EXPECT_EQ(legal.back(), firstStrengthAction(g) + 6);
    EXPECT_EQ(stepsText(steps, g), "king c1 warriors a1");
    EXPECT_EQ(stepText(legal.back(), g).value(), "strength 6");
    EXPECT_EQ(parseStep("place e1", g).value(), firstSetUpAction(g) + sq(g, "e1"));
    EXPECT_FALSE(parseStep("place", g).ok());
    EXPECT_FALSE(parseStep("strength 11", g).ok());
}

TEST(ActionIndex, TheLayoutOfTheHeader) {
    const Geometry g(defaultParams(2));  // Q = 64
    EXPECT_EQ(actionNumber(0, moveAction(0, sq(g, "a1")), g).value(), 0);
    EXPECT_EQ(actionNumber(0, moveAction(3, sq(g, "h8")), g).value(), 3 * 64 + 63);
    EXPECT_EQ(actionNumber(0, combatAction(sq(g, "b2")), g).value(), 4 * 64 + 9);
    EXPECT_EQ(actionNumber(0, passAction(), g).value(), 5 * 64);
    EXPECT_EQ(actionNumber(0, orderAction(sq(g, "a1")), g).value(), 5 * 64 + 1);
    EXPECT_EQ(actionNumber(0, withdrawAction(sq(g, "h8")), g).value(), 7 * 64);
    EXPECT_EQ(actionNumber(0, rewardAction(1), g).value(), 7 * 64 + 1);
    EXPECT_EQ(actionNumber(0, rewardAction(3), g).value(), 7 * 64 + 3);
}

// A set-up's number is its place in legalActions' list, for every set-up of every seat.
TEST(ActionIndex, SetUpNumbersFollowTheLegalActionsOrder) {
    for (int seats : {2, 3}) {
        const Geometry g(defaultParams(seats));
        for (int seat = 0; seat < seats; ++seat) {
            const std::vector<Action> all = legalActions(setUpRequest(seat), OwnPieces{}, g);
            ASSERT_EQ(all.size(), seats == 2 ? 110'880u : 23'760u);
            for (std::size_t k = 0; k < all.size(); ++k) {
                auto setUp = nthSetUp(seat, k, g);
                ASSERT_TRUE(setUp.ok());
                ASSERT_EQ(setUp.value(), all[k].setUp) << k;
                auto number = setUpNumber(seat, all[k].setUp, g);
                ASSERT_TRUE(number.ok());
                ASSERT_EQ(number.value(), k);
            }
            EXPECT_FALSE(nthSetUp(seat, all.size(), g).ok());
        }
    }
}

TEST(ActionIndex, SetUpNumbersOfOtherRules) {
    Params params = defaultParams(2);
    params.minStrength = 2;  // 4 free points: 15 splits
    params.strengthTotal = 10;
    const Geometry g(params);
    const std::vector<Action> all = legalActions(setUpRequest(1), OwnPieces{}, g);
    ASSERT_EQ(all.size(), 1680u * 15u);
    for (std::size_t k = 0; k < all.size(); k += 7)
        ASSERT_EQ(setUpNumber(1, all[k].setUp, g).value(), k);
}

// Random games of 2, 3 and 4 seats: every legal action's number decodes to the action, the
// numbers are legalActionNumbers' list, and applying the decoded number plays the same game.
TEST(ActionIndex, EveryLegalActionOfRandomGamesRoundTrips) {
    for (int seats = 2; seats <= 4; ++seats) {
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            auto made = State::create(defaultParams(seats));
            ASSERT_TRUE(made.ok());
            State state = std::move(made).value();
            state.setEventLogging(false);
            const Geometry& g = state.geometry();
            common::Random random(seed);
            std::vector<std::int64_t> numbers;
            int checked = 0;
            while (!state.over()) {
                const Request& request = state.request();
                const int seat = request.seat;
                legalActionNumbers(request, state.pieces(seat), g, numbers);
                ASSERT_TRUE(std::is_sorted(numbers.begin(), numbers.end()));
                if (request.kind != RequestKind::SetUp) {
                    const std::vector<Action> legal = legalActions(request, state.pieces(seat), g);
                    ASSERT_EQ(legal.size(), numbers.size());
                    std::vector<std::int64_t> expected;
                    for (const Action& a : legal) {
                        auto number = actionNumber(seat, a, g);
                        ASSERT_TRUE(number.ok());
                        auto back = actionOfNumber(seat, number.value(), g);
                        ASSERT_TRUE(back.ok());
                        ASSERT_EQ(back.value(), a);
                        expected.push_back(number.value());
                    }
                    std::sort(expected.begin(), expected.end());
                    ASSERT_EQ(expected, numbers);
                    ++checked;
                } else {
                    // The first step: the king's square, one of the zone's (D2).
                    ASSERT_EQ(numbers.size(), g.zone(seat).size());
                    ASSERT_EQ(numbers.front(), firstSetUpAction(g) + g.zone(seat).front());
                }
                const Action chosen = randomAction(state, random);
                if (chosen.kind == ActionKind::SetUp) {
                    EXPECT_FALSE(actionNumber(seat, chosen, g).ok());
                    ASSERT_TRUE(setUpStepNumbers(chosen.setUp, g).ok());
                    ASSERT_TRUE(state.apply(seat, chosen).ok());
                    continue;
                }
                auto number = actionNumber(seat, chosen, g);
                ASSERT_TRUE(number.ok());
                ASSERT_TRUE(std::binary_search(numbers.begin(), numbers.end(), number.value()));
                auto decoded = actionOfNumber(seat, number.value(), g);
                ASSERT_TRUE(decoded.ok());
                ASSERT_TRUE(state.apply(seat, decoded.value()).ok());
            }
            EXPECT_GT(checked, 10);
        }
    }
}

TEST(ActionIndex, NumbersThatStandForNothing) {
    const Geometry g(defaultParams(2));
    EXPECT_FALSE(actionOfNumber(0, -1, g).ok());
    EXPECT_FALSE(actionOfNumber(0, actionCount(g), g).ok());
    EXPECT_FALSE(actionOfNumber(0, firstSetUpAction(g), g).ok());  // a step, not an action
    EXPECT_FALSE(actionNumber(0, moveAction(4, 0), g).ok());
    EXPECT_FALSE(actionNumber(0, combatAction(kNoSquare), g).ok());
    EXPECT_FALSE(actionNumber(0, rewardAction(0), g).ok());
    // A set-up is numbered as its steps only; a set-up without squares has none.
    const Action southern = legalActions(setUpRequest(0), OwnPieces{}, g).front();
    EXPECT_FALSE(actionNumber(0, southern, g).ok());
    EXPECT_TRUE(setUpStepNumbers(southern.setUp, g).ok());
    EXPECT_FALSE(setUpStepNumbers(torneio::SetUp{}, g).ok());
}

}  // namespace
}  // namespace torneio

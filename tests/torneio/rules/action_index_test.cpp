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
    // 7 * 64 + 4 = 452 non-set-up actions and 8*7*6*5 squares * 66 strength splits (D2, D3).
    EXPECT_EQ(actionCount(Geometry(defaultParams(2))), 452 + 110'880);
    EXPECT_EQ(actionCount(Geometry(defaultParams(3))), 704 + 23'760);
    EXPECT_EQ(actionCount(Geometry(defaultParams(4))), 704 + 23'760);
    EXPECT_EQ(firstSetUpAction(Geometry(defaultParams(2))), 452);
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
                    ASSERT_EQ(numbers.front(), firstSetUpAction(g));
                    ASSERT_EQ(numbers.back(), actionCount(g) - 1);
                }
                const Action chosen = randomAction(state, random);
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
    EXPECT_FALSE(actionOfNumber(5, firstSetUpAction(g), g).ok());  // no seat 6
    EXPECT_FALSE(actionNumber(0, moveAction(4, 0), g).ok());
    EXPECT_FALSE(actionNumber(0, combatAction(kNoSquare), g).ok());
    EXPECT_FALSE(actionNumber(0, rewardAction(0), g).ok());
    // Seat 1's set-up is not one of seat 2's (D2: its own zone).
    const Action southern = legalActions(setUpRequest(0), OwnPieces{}, g).front();
    EXPECT_TRUE(actionNumber(0, southern, g).ok());
    EXPECT_FALSE(actionNumber(1, southern, g).ok());
}

}  // namespace
}  // namespace torneio

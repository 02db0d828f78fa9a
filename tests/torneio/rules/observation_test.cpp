// The observation tensor (observation.h): its size, that it holds only what the seat may know
// (D8: facts hidden from the seat do not change it), and its values in a known position.
#include "torneio/rules/observation.h"

#include <gtest/gtest.h>

#include <numeric>

#include "torneio/rules/random_play.h"
#include "torneio/torneio_test_util.h"

namespace torneio {
namespace {

using test::army;
using test::play;
using test::position;
using test::sq;

// The value of `plane` on `square` (a square name) of seat's tensor.
double planeAt(const std::vector<double>& tensor, const Geometry& g, int plane,
               std::string_view square) {
    return tensor[static_cast<std::size_t>(plane * g.squareCount() + sq(g, square))];
}

double planeSum(const std::vector<double>& tensor, const Geometry& g, int plane) {
    const auto from = tensor.begin() + plane * g.squareCount();
    return std::accumulate(from, from + g.squareCount(), 0.0);
}

// The scalars after the planes.
std::vector<double> scalars(const std::vector<double>& tensor, const Geometry& g) {
    return {tensor.begin() + kObservationPlanes * g.squareCount(), tensor.end()};
}

TEST(Observation, SizeIsTenPlanesAndFifteenScalars) {
    EXPECT_EQ(observationSize(defaultParams(2)), 10u * 64 + 15);
    EXPECT_EQ(observationSize(defaultParams(3)), 10u * 100 + 15);
    EXPECT_EQ(observationSize(defaultParams(4)), 10u * 100 + 15);
    // Every seat's tensor has that size at every point of a game.
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        State state = State::create(defaultParams(seats)).value();
        common::Random random(static_cast<std::uint64_t>(seats));
        for (int step = 0; step < 300 && !state.over(); ++step) {
            for (int seat = 0; seat < seats; ++seat)
                ASSERT_EQ(observationTensor(state, seat).size(), observationSize(state.params()));
            ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
        }
    }
}

// D8: two games that differ only in facts hidden from seat 1 (test::gamesDifferingInHiddenFacts:
// seat 2's hidden pieces, its withdrawal, moves and reward) give seat 1 identical tensors; seat
// 2's own differ.
TEST(Observation, HiddenPiecesDoNotChangeTheSeatsTensorD8) {
    const auto [a, b] = test::gamesDifferingInHiddenFacts();
    EXPECT_EQ(observationTensor(a, 0), observationTensor(b, 0));
    EXPECT_NE(observationTensor(a, 1), observationTensor(b, 1));
}

// G3, D8: another seat's secret set-up does not show in a seat's tensor.
TEST(Observation, OtherSetUpsDoNotChangeTheTensorG3D8) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    const torneio::SetUp mine = parseSetUp("king c1 warriors a1:3 e1:3 g1:4", g).value();
    State a = State::withSetUps(params,
                                std::vector<torneio::SetUp>{
                                    mine, parseSetUp("king b8 warriors a7:3 c7:3 e7:4", g).value()})
                  .value();
    State b = State::withSetUps(params,
                                std::vector<torneio::SetUp>{
                                    mine, parseSetUp("king h8 warriors b8:0 d8:5 f8:5", g).value()})
                  .value();
    EXPECT_EQ(observationTensor(a, 0), observationTensor(b, 0));
    EXPECT_NE(observationTensor(a, 1), observationTensor(b, 1));
}

// The values in a known position: own pieces and strengths, the zone, the scalars; then an
// opponent's combat call shows on the next opponent's plane and fades with its moves.
TEST(Observation, ValuesOfAKnownPosition) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    State state = position(
        params, {army(g, "c1", {"a1:3", "e1:3", "g1:4"}), army(g, "b8", {"a7:3", "c7:3", "e7:4"})});
    std::vector<double> t = observationTensor(state, 0);
    EXPECT_EQ(planeAt(t, g, 0, "c1"), 1.0);  // own king
    EXPECT_EQ(planeAt(t, g, 1, "a1"), 1.0);  // own warriors 1..3
    EXPECT_EQ(planeAt(t, g, 2, "e1"), 1.0);
    EXPECT_EQ(planeAt(t, g, 3, "g1"), 1.0);
    for (int plane = 0; plane < 4; ++plane) EXPECT_EQ(planeSum(t, g, plane), 1.0);
    EXPECT_DOUBLE_EQ(planeAt(t, g, 4, "a1"), 0.3);  // strength / strengthTotal
    EXPECT_DOUBLE_EQ(planeAt(t, g, 4, "g1"), 0.4);
    EXPECT_EQ(planeAt(t, g, 4, "c1"), 0.0);  // not the king
    EXPECT_EQ(planeSum(t, g, 5), static_cast<double>(g.zone(0).size()));
    for (Square s : g.zone(0)) EXPECT_EQ(t[static_cast<std::size_t>(5 * g.squareCount() + s)], 1);
    for (int plane = 6; plane < kObservationPlanes; ++plane) EXPECT_EQ(planeSum(t, g, plane), 0);
    // round / maxRounds; in the game: seats 1, 2 (relative); gained; one-hot turn; points.
    EXPECT_EQ(scalars(t, g),
              (std::vector<double>{1.0 / 200, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0}));
    // The seat not deciding has no request; its relative seats start with itself.
    EXPECT_EQ(scalars(observationTensor(state, 1), g),
              (std::vector<double>{1.0 / 200, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));

    play(state, 0, "move 1 a2");
    play(state, 1, "combat c7");  // nobody else on c7 (D5): seat 2's warrior seen there
    t = observationTensor(state, 0);
    EXPECT_EQ(planeAt(t, g, 6, "c7"), 1.0);
    EXPECT_EQ(planeSum(t, g, 6), 1.0);
    EXPECT_EQ(planeAt(t, g, 1, "a2"), 1.0);
    play(state, 0, "move 1 a3");
    play(state, 1, "move 0 b7");  // one move of seat 2 since: 1 / (1 + 1)
    t = observationTensor(state, 0);
    EXPECT_EQ(planeAt(t, g, 6, "c7"), 0.5);
    EXPECT_DOUBLE_EQ(scalars(t, g)[0], 3.0 / 200);  // two rounds played: round 3
}

// The request plane: a retreat order shows the combat square (1) and the refused squares (0.5).
TEST(Observation, RequestSquaresOnPlaneNine) {
    const Params params = defaultParams(3);
    const Geometry g(params);
    State state =
        position(params,
                 {army(g, "c1", {"e5:2", "e1:4", "g1:4"}), army(g, "a3", {"e5:5", "h8:4", "b7:1"}),
                  army(g, "c10", {"e5:5", "h8:1", "g10:4"})},
                 1);
    play(state, 1, "combat h8");  // seat 2 beats seat 3's warrior there and orders it
    ASSERT_EQ(state.request().kind, RequestKind::RetreatOrder);
    const std::vector<double> t = observationTensor(state, 1);
    EXPECT_EQ(planeAt(t, g, 9, "h8"), 1.0);
    EXPECT_EQ(planeSum(t, g, 9), 1.0);
    EXPECT_EQ(scalars(t, g)[1 + 2 * kMaxSeats + 2], 1.0);  // one-hot: order
}

}  // namespace
}  // namespace torneio

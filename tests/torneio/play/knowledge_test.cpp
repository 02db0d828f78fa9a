// Knowledge: a seat's knowledge rebuilt from the event lines it receives agrees with the rules
// core's true state at every decision (its own pieces, who is out, the points gained, the round),
// in random games of 2, 3 and 4 seats, disqualifications included.
#include "torneio/play/knowledge.h"

#include <gtest/gtest.h>

#include "torneio/rules/random_play.h"
#include "torneio/rules/view.h"
#include "torneio/torneio_test_util.h"

namespace torneio::play {
namespace {

TEST(Knowledge, AgreesWithTheStateThroughRandomGames) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        const Params params = defaultParams(seats);
        for (std::uint64_t seed = 1; seed <= 12; ++seed) {
            State state = State::create(params).value();
            std::vector<Knowledge> known;
            for (int s = 0; s < seats; ++s) known.emplace_back(params, s);
            common::Random random(seed);
            std::size_t fed = 0;
            for (int step = 0; !state.over(); ++step) {
                if (step == 150 + static_cast<int>(seed)) {
                    const int out = static_cast<int>(seed) % seats;
                    if (!state.eliminated(out)) {
                        ASSERT_TRUE(state.disqualify(out, Fault::Crash).ok());
                    }
                } else {
                    ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
                }
                for (; fed < state.events().size(); ++fed) {
                    const Event& e = state.events()[fed];
                    for (int s = 0; s < seats; ++s) {
                        if (!visibleTo(e, s)) continue;
                        const std::string line = formatEvent(e, state.geometry());
                        auto updated = known[static_cast<std::size_t>(s)].update(line);
                        ASSERT_TRUE(updated.ok()) << line << ": " << updated.error();
                    }
                }
                for (int s = 0; s < seats; ++s) {
                    const Knowledge& k = known[static_cast<std::size_t>(s)];
                    ASSERT_EQ(k.own(), viewOf(state, s).own) << "seat " << s + 1;
                    for (int t = 0; t < seats; ++t) {
                        EXPECT_EQ(k.eliminated(t), state.eliminated(t));
                        EXPECT_EQ(k.pointsGained(t), state.pointsGained(t));
                    }
                    if (state.phase() == Phase::Turn) {
                        EXPECT_EQ(k.round(), state.round());
                    }
                }
            }
            for (const Knowledge& k : known) EXPECT_EQ(k.outcome(), state.outcome());
        }
    }
}

TEST(Knowledge, RefusesEventsItCannotHaveSeen) {
    const Params params = defaultParams(2);
    Knowledge k(params, 0);
    ASSERT_TRUE(k.update("event setup king c1 warriors a1:5 e1:3 g1:2").ok());
    EXPECT_FALSE(k.update("event move 1 b2 c3").ok());  // warrior 1 stands on a1
    EXPECT_FALSE(k.update("event retreat 1 b2").ok());  // no combat
    EXPECT_FALSE(k.update("event removed 1 h8").ok());  // nothing of mine there
    EXPECT_FALSE(k.update("event nonsense").ok());
    EXPECT_FALSE(k.update("event result 1").ok());  // no combat is being resolved
    EXPECT_FALSE(k.update("event reveal 2 5").ok());
    Event other;
    other.kind = EventKind::Move;
    other.audience = 1;
    other.seat = 1;
    EXPECT_FALSE(k.update(other).ok());
    EXPECT_EQ(k.own()[1].square, test::sq(k.geometry(), "a1"));
    ASSERT_TRUE(k.update("event move 1 a1 b2").ok());
    EXPECT_EQ(k.own()[1].square, test::sq(k.geometry(), "b2"));
}

// A second set-up, a set-up that is not a legal one of this seat (another seat's zone, wrong
// strengths) and any event after the end are refused, and change nothing.
TEST(Knowledge, RefusesImpossibleSetUpsAndEventsAfterTheEnd) {
    const Params params = defaultParams(2);
    Knowledge k(params, 0);
    EXPECT_FALSE(k.setUp());
    EXPECT_FALSE(k.update("event setup king b8 warriors d8:3 f8:3 h8:4").ok());  // seat 2's zone
    EXPECT_FALSE(k.update("event setup king a1 warriors c1:3 e1:3 g1:3").ok());  // adds up to 9
    EXPECT_FALSE(k.setUp());
    ASSERT_TRUE(k.update("event setup king c1 warriors a1:5 e1:3 g1:2").ok());
    EXPECT_TRUE(k.setUp());
    const OwnPieces first = k.own();
    EXPECT_FALSE(k.update("event setup king a1 warriors c1:5 e1:3 g1:2").ok());
    EXPECT_EQ(k.own(), first);
    ASSERT_TRUE(k.update("event turn 1 1").ok());
    ASSERT_TRUE(k.update("event end win 1").ok());
    EXPECT_FALSE(k.update("event turn 2 1").ok());
    EXPECT_FALSE(k.update("event combat 2 c1").ok());
    EXPECT_FALSE(k.update("event move 1 a1 b2").ok());
    EXPECT_EQ(k.own(), first);
    EXPECT_EQ(k.round(), 1);
    EXPECT_EQ(k.turnSeat(), 0);
}

// A game from a position starts set up.
TEST(Knowledge, AGameFromAPositionIsSetUp) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    const OwnPieces start = test::army(g, "c1", {"a1:5", "e1:3", "g1:2"});
    Knowledge k(params, 0, start);
    EXPECT_TRUE(k.setUp());
    EXPECT_FALSE(k.update("event setup king c1 warriors a1:5 e1:3 g1:2").ok());
}

}  // namespace
}  // namespace torneio::play

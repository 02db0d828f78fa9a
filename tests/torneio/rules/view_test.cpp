// Views (D8): what one seat may know. No event private to another seat reaches it, and games
// that differ only in facts hidden from it give it byte-identical lines.
#include "torneio/rules/view.h"

#include <gtest/gtest.h>

#include "torneio/rules/random_play.h"
#include "torneio/torneio_test_util.h"

namespace torneio {
namespace {

using test::army;
using test::play;
using test::position;

// D8: every event a seat's view holds is public or private to that seat, and it holds every
// public event; the request is there only for the seat to decide.
TEST(View, NoEventPrivateToAnotherSeatD8) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            const State state = playRandomGame(defaultParams(seats), seed);
            std::size_t publicEvents = 0;
            for (const Event& e : state.events()) publicEvents += e.audience == kPublic ? 1 : 0;
            for (int seat = 0; seat < seats; ++seat) {
                const View view = viewOf(state, seat);
                std::size_t publicSeen = 0;
                for (const Event& e : view.events) {
                    ASSERT_TRUE(e.audience == kPublic || e.audience == seat);
                    publicSeen += e.audience == kPublic ? 1 : 0;
                }
                EXPECT_EQ(publicSeen, publicEvents);
                EXPECT_EQ(view.own, state.pieces(seat));
                EXPECT_FALSE(view.request.has_value());  // the game is over
            }
        }
    }
}

TEST(View, RequestOnlyForTheSeatToDecide) {
    State state = State::create(defaultParams(3)).value();
    common::Random random(5);
    for (int step = 0; step < 200 && !state.over(); ++step) {
        for (int seat = 0; seat < 3; ++seat) {
            const View view = viewOf(state, seat);
            EXPECT_EQ(view.request.has_value(), seat == state.toDecide());
            if (view.request) {
                EXPECT_EQ(*view.request, state.request());
            }
        }
        ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
    }
}

// D8: two games that differ only in another seat's hidden choices (its set-up beyond what
// combats revealed, where its moves went, where its piece withdrew, which warrior its reward
// went to) give seat 1 byte-identical view lines.
TEST(View, HiddenFactsOfOtherSeatsDoNotChangeTheViewD8) {
    const auto [a, b] = test::gamesDifferingInHiddenFacts();
    const Geometry& g = a.geometry();
    const std::vector<std::string> linesA = viewLines(viewOf(a, 0), g);
    const std::vector<std::string> linesB = viewLines(viewOf(b, 0), g);
    EXPECT_EQ(linesA, linesB);
    EXPECT_EQ(viewOf(a, 0), viewOf(b, 0));
    EXPECT_EQ(linesA.back(), "event turn 3 2");
    // The games really differ, and seat 2 sees it.
    EXPECT_NE(viewLines(viewOf(a, 1), g), viewLines(viewOf(b, 1), g));
    EXPECT_NE(a.pieces(1), b.pieces(1));
}

// D8/G3: another seat's set-up is hidden: different set-ups, the same view for seat 1.
TEST(View, OtherSetUpsDoNotChangeTheViewG3D8) {
    const Params params = defaultParams(2);
    const Geometry g(params);
    const torneio::SetUp mine = parseSetUp("king c1 warriors a1:3 e1:3 g1:4", g).value();
    const std::vector<torneio::SetUp> setUpsA{
        mine, parseSetUp("king b8 warriors a7:3 c7:3 e7:4", g).value()};
    const std::vector<torneio::SetUp> setUpsB{
        mine, parseSetUp("king h8 warriors b8:0 d8:5 f8:5", g).value()};
    State a = State::withSetUps(params, setUpsA).value();
    State b = State::withSetUps(params, setUpsB).value();
    for (State* s : {&a, &b}) play(*s, 0, "move 1 a2");
    play(a, 1, "move 0 b6");
    play(b, 1, "move 2 d7");
    for (State* s : {&a, &b}) play(*s, 0, "combat a2");  // nobody there (D5)
    EXPECT_EQ(viewLines(viewOf(a, 0), g), viewLines(viewOf(b, 0), g));
    EXPECT_NE(viewLines(viewOf(a, 1), g), viewLines(viewOf(b, 1), g));
    // visibleEvents from an index: what a referee sends after one decision.
    const std::vector<Event> last = visibleEvents(a, 1, a.history().back().firstEvent);
    ASSERT_EQ(last.size(), 3u);
    EXPECT_EQ(formatEvent(last[1], g), "event unopposed 1 a2");
}

}  // namespace
}  // namespace torneio

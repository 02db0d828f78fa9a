// Events: the line of every kind, reading it back, and the audience of each kind (D8).
#include "torneio/rules/event.h"

#include <gtest/gtest.h>

#include "torneio/torneio_test_util.h"

namespace torneio {
namespace {

using test::sq;

Event make(EventKind kind, int seat, int audience = kPublic) {
    Event e;
    e.kind = kind;
    e.seat = seat;
    e.audience = audience;
    return e;
}

// Every kind: the documented line, read back to the same event.
TEST(EventText, EveryKindRoundTrips) {
    const Geometry g(defaultParams(4));
    std::vector<std::pair<Event, std::string>> cases;
    Event e = make(EventKind::Turn, 2);
    e.value = 17;
    cases.emplace_back(e, "event turn 3 17");
    cases.emplace_back(make(EventKind::Moved, 0), "event moved 1");
    cases.emplace_back(make(EventKind::Pass, 3), "event pass 4");
    e = make(EventKind::Combat, 0);
    e.square = sq(g, "d4");
    cases.emplace_back(e, "event combat 1 d4");
    e.kind = EventKind::Unopposed;
    cases.emplace_back(e, "event unopposed 1 d4");
    e = make(EventKind::Reveal, 1);
    e.value = kKingReveal;
    cases.emplace_back(e, "event reveal 2 king");
    e.value = 0;
    cases.emplace_back(e, "event reveal 2 0");
    e.value = 13;
    cases.emplace_back(e, "event reveal 2 13");
    cases.emplace_back(make(EventKind::Result, 3), "event result 4");
    cases.emplace_back(make(EventKind::Result, -1), "event result none");
    cases.emplace_back(make(EventKind::Eliminated, 1), "event eliminated 2");
    e = make(EventKind::Refused, 1);
    e.square = sq(g, "e5");
    cases.emplace_back(e, "event refused 2 e5");
    e.kind = EventKind::Retreat;
    cases.emplace_back(e, "event retreat 2 e5");
    e.kind = EventKind::Removed;
    e.square = sq(g, "j10");
    cases.emplace_back(e, "event removed 2 j10");
    cases.emplace_back(make(EventKind::Withdrew, 2), "event withdrew 3");
    e = make(EventKind::Gained, 0);
    e.value = 3;
    cases.emplace_back(e, "event gained 1 3");
    e.kind = EventKind::Forfeit;
    cases.emplace_back(e, "event forfeit 1 3");
    e = make(EventKind::End, -1);
    e.value = 1 << 2;
    cases.emplace_back(e, "event end win 3");
    e.value = (1 << 0) | (1 << 3);
    e.draw = true;
    cases.emplace_back(e, "event end draw 1 4");
    e = make(EventKind::SetUp, 1, 1);
    e.setUp.king = sq(g, "a3");
    e.setUp.warriors = {sq(g, "b4"), sq(g, "a5"), sq(g, "b8")};
    e.setUp.strengths = {2, 0, 8};
    cases.emplace_back(e, "event setup king a3 warriors b4:2 a5:0 b8:8");
    e = make(EventKind::Move, 1, 1);
    e.piece = 0;
    e.square = sq(g, "a3");
    e.to = sq(g, "a5");
    cases.emplace_back(e, "event move 0 a3 a5");
    e.kind = EventKind::Withdraw;
    e.piece = 2;
    cases.emplace_back(e, "event withdraw 2 a3 a5");
    e = make(EventKind::Placed, 1, 1);
    e.piece = 3;
    e.value = 9;
    cases.emplace_back(e, "event placed 3 9");
    e = make(EventKind::Position, 1, 1);
    e.setUp.king = sq(g, "c5");
    e.setUp.warriors = {kNoSquare, sq(g, "a5"), sq(g, "d6")};
    e.setUp.strengths = {2, 0, 12};
    cases.emplace_back(e, "event position king c5 warriors -:2 a5:0 d6:12");

    for (const auto& [event, line] : cases) {
        EXPECT_EQ(formatEvent(event, g), line);
        auto parsed = parseEvent(line, 1, g);
        ASSERT_TRUE(parsed.ok()) << line << ": " << parsed.error();
        EXPECT_EQ(parsed.value(), event) << line;
    }
}

// D8: set-ups, moves, withdrawals and reward placements are private; everything else public.
TEST(EventText, AudienceFollowsKindD8) {
    const Geometry g(defaultParams(2));
    EXPECT_TRUE(isPrivateKind(EventKind::SetUp));
    EXPECT_TRUE(isPrivateKind(EventKind::Move));
    EXPECT_TRUE(isPrivateKind(EventKind::Withdraw));
    EXPECT_TRUE(isPrivateKind(EventKind::Placed));
    EXPECT_TRUE(isPrivateKind(EventKind::Position));
    for (EventKind kind :
         {EventKind::Turn, EventKind::Moved, EventKind::Pass, EventKind::Combat,
          EventKind::Unopposed, EventKind::Reveal, EventKind::Result, EventKind::Eliminated,
          EventKind::Refused, EventKind::Retreat, EventKind::Removed, EventKind::Withdrew,
          EventKind::Gained, EventKind::Forfeit, EventKind::End})
        EXPECT_FALSE(isPrivateKind(kind));
    EXPECT_EQ(parseEvent("event moved 2", 0, g).value().audience, kPublic);
    EXPECT_EQ(parseEvent("event move 1 a1 b2", 0, g).value().audience, 0);
    EXPECT_FALSE(parseEvent("event move 1 a1 b2", kPublic, g).ok());  // who received it?
    Event privateToOne = make(EventKind::Placed, 0, 0);
    EXPECT_TRUE(visibleTo(privateToOne, 0));
    EXPECT_FALSE(visibleTo(privateToOne, 1));
    EXPECT_TRUE(visibleTo(make(EventKind::Moved, 0), 1));
}

TEST(EventText, ErrorsAreValues) {
    const Geometry g(defaultParams(2));
    for (const char* bad : {"",
                            "event",
                            "moved 1",
                            "event moved",
                            "event moved 3",
                            "event moved 0",
                            "event moved 1 2",
                            "event turn 1",
                            "event turn 1 0",
                            "event combat 1 z9",
                            "event reveal 1 queen",
                            "event reveal 1 -2",
                            "event result nobody",
                            "event gained 1 0",
                            "event end",
                            "event end win",
                            "event end win 1 2",
                            "event end draw 2 1",
                            "event end draw 1 1",
                            "event end tie 1",
                            "event move 4 a1 a2",
                            "event withdraw 0 a1 a2",
                            "event placed 0 3",
                            "event placed 1",
                            "event setup king a1",
                            "event jump 1"})
        EXPECT_FALSE(parseEvent(bad, 0, g).ok()) << bad;
}

}  // namespace
}  // namespace torneio

// State::disqualify: the referee puts a seat out for a protocol fault at any moment. The seat
// only is out (its pieces leave as for G11, its turns are skipped, D9), the game goes on for the
// others, the record keeps the public event and replays.
#include <gtest/gtest.h>

#include "torneio/rules/random_play.h"
#include "torneio/rules/record.h"
#include "torneio/torneio_test_util.h"

namespace torneio {
namespace {

using test::army;
using test::play;
using test::position;

// Three seats, seat 1 to play, each with a warrior of the given strength on e5 (the rest of
// their pieces apart): a combat on e5 is one call away.
State allOnE5(int first, int second, int third) {
    const Params params = defaultParams(3);
    const Geometry g(params);
    const std::string e1 = "e5:" + std::to_string(first), e2 = "e5:" + std::to_string(second),
                      e3 = "e5:" + std::to_string(third);
    return position(params,
                    {army(g, "c1", {e1, "e1:2", "f2:2"}), army(g, "a3", {e2, "a5:3", "b6:4"}),
                     army(g, "c10", {e3, "e10:4", "f9:4"})});
}

void disqualify(State& state, int seat, Fault fault = Fault::Timeout) {
    auto out = state.disqualify(seat, fault);
    ASSERT_TRUE(out.ok()) << out.error();
    auto invariants = checkInvariants(state);
    ASSERT_TRUE(invariants.ok()) << invariants.error();
}

TEST(Disqualify, EventLineNamesTheFault) {
    const Geometry g(defaultParams(3));
    Event e;
    e.kind = EventKind::Disqualified;
    e.seat = 1;
    e.value = static_cast<int>(Fault::OutOfTurn);
    EXPECT_EQ(formatEvent(e, g), "event disqualified 2 outofturn");
    auto back = parseEvent("event disqualified 2 outofturn", 0, g);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back.value(), e);
    EXPECT_FALSE(parseEvent("event disqualified 2 sulking", 0, g).ok());
    EXPECT_FALSE(parseEvent("event disqualified 4 crash", 0, g).ok());
    for (int f = 0; f < kFaultCount; ++f)
        EXPECT_EQ(parseFault(faultName(static_cast<Fault>(f))).value(), static_cast<Fault>(f));
}

// A seat that fails before setting up sets nothing up; the next one does; seat 1 out: seat 2
// moves first (D9).
TEST(Disqualify, DuringSetUpTheOthersSetUpAndTheNextSeatStarts) {
    State state = State::create(defaultParams(3)).value();
    disqualify(state, 0, Fault::NoStart);
    EXPECT_EQ(state.toDecide(), 1);
    common::Random random(1);
    ASSERT_TRUE(state.apply(1, randomAction(state, random)).ok());
    EXPECT_EQ(state.toDecide(), 2);
    ASSERT_TRUE(state.apply(2, randomAction(state, random)).ok());
    EXPECT_EQ(state.phase(), Phase::Turn);
    EXPECT_EQ(state.turnSeat(), 1);
    EXPECT_EQ(test::eventLines(state).front(), "all: event disqualified 1 nostart");
}

TEST(Disqualify, TwoSeatsTheOtherWinsG12) {
    State state = State::create(defaultParams(2)).value();
    disqualify(state, 1, Fault::Crash);
    EXPECT_TRUE(state.over());
    EXPECT_EQ(state.outcome().kind, OutcomeKind::Win);
    EXPECT_EQ(state.outcome().seats, 1u);
}

TEST(Disqualify, OnItsTurnTheTurnPassesD9) {
    const Params params = defaultParams(3);
    const Geometry g(params);
    State state = position(
        params, {army(g, "c1", {"d2:4", "e1:3", "f2:3"}), army(g, "a3", {"b4:4", "a5:3", "b6:3"}),
                 army(g, "c10", {"d9:4", "e10:3", "f9:3"})});
    disqualify(state, 0, Fault::Illegal);
    EXPECT_EQ(state.turnSeat(), 1);
    EXPECT_EQ(state.request().kind, RequestKind::Turn);
    play(state, 1, "move 1 c5");
    EXPECT_EQ(state.turnSeat(), 2);
    play(state, 2, "move 1 d8");
    EXPECT_EQ(state.turnSeat(), 1);  // seat 1's turns are skipped
    EXPECT_EQ(state.round(), 2);
}

// The winner fails while ordering retreats: the losing pieces not yet ordered stay on the
// square and its points are dropped; the next seat plays.
TEST(Disqualify, WinnerOrderingARetreatLeavesTheLosersThere) {
    State state = allOnE5(6, 3, 2);
    const Geometry& g = state.geometry();
    play(state, 0, "combat e5");
    ASSERT_EQ(state.phase(), Phase::Retreat);
    ASSERT_EQ(state.toDecide(), 0);
    disqualify(state, 0, Fault::Timeout);
    EXPECT_EQ(state.phase(), Phase::Turn);
    EXPECT_EQ(state.turnSeat(), 1);
    EXPECT_EQ(state.pieces(1).pieceOn(test::sq(g, "e5")), 1);
    EXPECT_EQ(state.pieces(2).pieceOn(test::sq(g, "e5")), 1);
}

// A loser fails while the winner orders its retreat: the winner goes on with the next loser.
TEST(Disqualify, LoserBeingOrderedIsSkipped) {
    State state = allOnE5(6, 3, 2);
    play(state, 0, "combat e5");
    ASSERT_EQ(state.request().loser, 1);
    disqualify(state, 1, Fault::Crash);
    ASSERT_EQ(state.phase(), Phase::Retreat);
    EXPECT_EQ(state.request().loser, 2);
    play(state, 0, "order e6");
    ASSERT_EQ(state.phase(), Phase::Reward);
    EXPECT_EQ(state.request().points, 2);  // both warriors were beaten before the fault
}

TEST(Disqualify, WithdrawAndRewardGoOnWithTheOthers) {
    // No winner: two defenders of 5 above the attacker's 3 (G8); everybody withdraws.
    State state = allOnE5(3, 5, 5);
    play(state, 0, "combat e5");
    ASSERT_EQ(state.phase(), Phase::Withdraw);
    ASSERT_EQ(state.toDecide(), 1);
    disqualify(state, 1, Fault::Malformed);
    EXPECT_EQ(state.toDecide(), 2);
    play(state, 2, "withdraw e6");
    EXPECT_EQ(state.toDecide(), 0);
    play(state, 0, "withdraw d5");
    EXPECT_EQ(state.phase(), Phase::Turn);
    EXPECT_EQ(state.turnSeat(), 2);  // seat 2 is out
}

TEST(Disqualify, ErrorsChangeNothing) {
    State state = playRandomGame(defaultParams(2), 3);
    EXPECT_FALSE(state.disqualify(0, Fault::Crash).ok());  // over
    State fresh = State::create(defaultParams(3)).value();
    ASSERT_TRUE(fresh.disqualify(2, Fault::Crash).ok());
    EXPECT_FALSE(fresh.disqualify(2, Fault::Crash).ok());  // already out
    EXPECT_FALSE(fresh.disqualify(5, Fault::Crash).ok());
}

// Random games with a random seat disqualified at a random moment: invariants hold at every
// step and the record replays (replayRecord disqualifies again where the event stands).
TEST(Disqualify, RandomGamesStayValidAndReplay) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        for (std::uint64_t seed = 1; seed <= 30; ++seed) {
            State state = State::create(defaultParams(seats)).value();
            common::Random random(seed);
            const auto when = static_cast<int>(random.below(300));
            for (int step = 0; !state.over(); ++step) {
                if (step == when || step == 2 * when + 7) {
                    const auto seat =
                        static_cast<int>(random.below(static_cast<std::uint64_t>(seats)));
                    if (!state.eliminated(seat)) disqualify(state, seat);
                    continue;
                }
                ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
                auto invariants = checkInvariants(state);
                ASSERT_TRUE(invariants.ok()) << invariants.error();
            }
            const Record record = recordOf(state, seed);
            auto replayed = replayRecord(record);
            ASSERT_TRUE(replayed.ok()) << replayed.error();
            auto reread = parseRecord(formatRecord(record));
            ASSERT_TRUE(reread.ok()) << reread.error();
            EXPECT_TRUE(replayRecord(reread.value()).ok());
        }
    }
}

}  // namespace
}  // namespace torneio

// Random games to the end for 2, 3 and 4 seats, with every invariant checked after every
// decision; determinism; text round trips of everything a game produces.
#include <gtest/gtest.h>

#include <set>

#include "torneio/rules/random_play.h"
#include "torneio/rules/record.h"
#include "torneio/rules/state.h"
#include "torneio/rules/view.h"

namespace torneio {
namespace {

struct GameStats {
    std::set<EventKind> kinds;
    std::size_t decisions = 0;
    int wins = 0;
    int draws = 0;
};

// Plays `games` random games, checking after each decision: the invariants, that the pending
// request has a legal reply, and (when `textChecks`) that every action, request and event
// reads back from its text.
void playCheckedGames(int seats, int games, std::uint64_t seed, bool textChecks, GameStats& stats) {
    const Params params = defaultParams(seats);
    for (int game = 0; game < games; ++game) {
        State state = State::create(params).value();
        const Geometry& g = state.geometry();
        common::Random random(common::mixSeed(seed, static_cast<std::uint64_t>(game)));
        while (!state.over()) {
            const int seat = state.toDecide();
            const Request& request = state.request();
            const Action action = randomAction(state, random);
            ASSERT_TRUE(isLegal(request, state.pieces(seat), g, action));
            if (textChecks) {
                ASSERT_EQ(parseAction(formatAction(action, g), g).value(), action);
                ASSERT_EQ(parseRequest(formatRequest(request, g), seat, g).value(), request);
            }
            auto applied = state.apply(seat, action);
            ASSERT_TRUE(applied.ok()) << applied.error();
            auto invariants = checkInvariants(state);
            ASSERT_TRUE(invariants.ok()) << invariants.error();
            ++stats.decisions;
        }
        for (const Event& e : state.events()) {
            stats.kinds.insert(e.kind);
            if (textChecks) {
                const int receiver = e.audience == kPublic ? 0 : e.audience;
                auto parsed = parseEvent(formatEvent(e, g), receiver, g);
                ASSERT_TRUE(parsed.ok()) << parsed.error();
                ASSERT_EQ(parsed.value(), e) << formatEvent(e, g);
            }
        }
        ASSERT_NE(state.outcome().kind, OutcomeKind::Ongoing);
        (state.outcome().kind == OutcomeKind::Win ? stats.wins : stats.draws)++;
    }
}

// Event kinds random play must reach: everything but a pass (D10: a king alone always has a
// move) and a forfeit (a seat always keeps a warrior to take its points; see state.cpp), and,
// with 2 seats, withdrawals (G8: "no winner" needs two defenders).
void expectEveryReachableKind(const GameStats& stats, int seats) {
    for (EventKind kind :
         {EventKind::Turn, EventKind::Moved, EventKind::Combat, EventKind::Unopposed,
          EventKind::Reveal, EventKind::Result, EventKind::Eliminated, EventKind::Refused,
          EventKind::Retreat, EventKind::Gained, EventKind::End, EventKind::SetUp, EventKind::Move,
          EventKind::Placed})
        EXPECT_TRUE(stats.kinds.count(kind)) << static_cast<int>(kind);
    const bool withdrawals = seats >= 3;
    EXPECT_EQ(stats.kinds.count(EventKind::Withdrew) == 1, withdrawals);
    EXPECT_EQ(stats.kinds.count(EventKind::Withdraw) == 1, withdrawals);
    EXPECT_FALSE(stats.kinds.count(EventKind::Pass));
    EXPECT_FALSE(stats.kinds.count(EventKind::Forfeit));
}

TEST(RandomGames, TwoSeats) {
    GameStats stats;
    playCheckedGames(2, 500, 2002, /*textChecks=*/false, stats);
    expectEveryReachableKind(stats, 2);
    EXPECT_GT(stats.wins, 0);
}

TEST(RandomGames, ThreeSeats) {
    GameStats stats;
    playCheckedGames(3, 500, 3003, /*textChecks=*/false, stats);
    expectEveryReachableKind(stats, 3);
}

TEST(RandomGames, FourSeats) {
    GameStats stats;
    playCheckedGames(4, 500, 4004, /*textChecks=*/false, stats);
    expectEveryReachableKind(stats, 4);
}

// Every action, request and event of some random games reads back from its text form.
TEST(RandomGames, TextRoundTrips) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        GameStats stats;
        playCheckedGames(seats, 20, 77, /*textChecks=*/true, stats);
    }
}

// A variant: free passes (D10 as a parameter) and short games (D11).
TEST(RandomGames, VariantParams) {
    Params p = defaultParams(3);
    p.pass = PassRule::Always;
    p.maxRounds = 30;
    p.strengthTotal = 15;
    p.minStrength = 2;
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        State state = State::create(p).value();
        common::Random random(seed);
        while (!state.over()) {
            ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
            auto invariants = checkInvariants(state);
            ASSERT_TRUE(invariants.ok()) << invariants.error();
        }
        EXPECT_LE(state.outcome().round, 30);
    }
}

// The same seed gives the same game; another seed another game.
TEST(RandomGames, SameSeedSameGame) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        const State a = playRandomGame(defaultParams(seats), 12345);
        const State b = playRandomGame(defaultParams(seats), 12345);
        const State c = playRandomGame(defaultParams(seats), 12346);
        EXPECT_EQ(a.history(), b.history());
        EXPECT_EQ(a.events(), b.events());
        EXPECT_EQ(a.outcome(), b.outcome());
        EXPECT_NE(a.history(), c.history());
    }
}

// The rules run the same with event logging off (as a search would use them).
TEST(RandomGames, LoggingOffPlaysTheSameGame) {
    const State logged = playRandomGame(defaultParams(3), 99);
    State quiet = State::create(defaultParams(3)).value();
    quiet.setEventLogging(false);
    common::Random random(99);
    while (!quiet.over()) ASSERT_TRUE(quiet.apply(quiet.toDecide(), randomAction(quiet, random)));
    EXPECT_TRUE(quiet.events().empty());
    EXPECT_EQ(quiet.outcome(), logged.outcome());
    for (int seat = 0; seat < 3; ++seat) EXPECT_EQ(quiet.pieces(seat), logged.pieces(seat));
}

// The referee's disqualifications (State::disqualify) at random moments of random games, in
// every phase: the invariants hold after each, the game still ends, and its record replays.
TEST(RandomGames, DisqualificationsKeepInvariants) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        for (std::uint64_t seed = 1; seed <= 150; ++seed) {
            State state = State::create(defaultParams(seats)).value();
            common::Random random(seed);
            while (!state.over()) {
                if (random.chance(0.004)) {
                    const int seat =
                        static_cast<int>(random.index(static_cast<std::size_t>(seats)));
                    const bool out = state.eliminated(seat);
                    auto done = state.disqualify(seat, Fault::Timeout);
                    ASSERT_EQ(done.ok(), !out);
                } else {
                    ASSERT_TRUE(state.apply(state.toDecide(), randomAction(state, random)).ok());
                }
                auto invariants = checkInvariants(state);
                ASSERT_TRUE(invariants.ok())
                    << invariants.error() << " (seats " << seats << ", seed " << seed << ")";
            }
            auto replayed = replayRecord(parseRecord(formatRecord(recordOf(state))).value());
            ASSERT_TRUE(replayed.ok()) << replayed.error();
            EXPECT_EQ(replayed.value().outcome, state.outcome());
        }
    }
}

// 10,000 games per seat count (`ctest -L slow`).
TEST(RandomGames, RandomGamesSlow) {
    for (int seats = kMinSeats; seats <= kMaxSeats; ++seats) {
        GameStats stats;
        playCheckedGames(seats, 10'000, 10'000 + static_cast<std::uint64_t>(seats), false, stats);
        expectEveryReachableKind(stats, seats);
    }
}

}  // namespace
}  // namespace torneio

// Matches: the schedule (seats rotate, shards hold whole rotation cycles), the score of a seat,
// the per-player totals, and a small match in which the heuristic player beats the random one.
#include <gtest/gtest.h>

#include <set>

#include "torneio/referee/match.h"

namespace torneio::referee {
namespace {

TEST(Schedule, SeatsRotateAndShardsHoldWholeCycles) {
    const auto all = schedule(7, 3, 9, common::Shard{});
    ASSERT_EQ(all.size(), 7u);
    EXPECT_EQ(all[0].playerAt, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(all[1].playerAt, (std::vector<int>{1, 2, 0}));
    EXPECT_EQ(all[2].playerAt, (std::vector<int>{2, 0, 1}));
    EXPECT_EQ(all[3].cycle, 1);
    EXPECT_NE(all[0].seed, all[1].seed);
    std::set<int> seen;
    for (int i = 0; i < 2; ++i)
        for (const GameSlot& slot : schedule(7, 3, 9, common::Shard{i, 2})) {
            EXPECT_TRUE(seen.insert(slot.index).second);
            EXPECT_EQ(slot.cycle % 2, i);
            EXPECT_EQ(slot.seed, all[static_cast<std::size_t>(slot.index)].seed);
        }
    EXPECT_EQ(seen.size(), 7u);
}

TEST(Tally, WinsDrawsAndScores) {
    GameSummary win{0, {"a", "b", "c"}, Outcome{OutcomeKind::Win, 0b010u, 40}, {}};
    win.faults = {std::nullopt, std::nullopt, Fault::Timeout};
    GameSummary draw{1, {"b", "c", "a"}, Outcome{OutcomeKind::Draw, 0b011u, 200}, {}};
    draw.faults.resize(3);
    EXPECT_EQ(seatScore(win, 1), 1);
    EXPECT_EQ(seatScore(win, 0), 0);
    EXPECT_EQ(seatScore(draw, 0), 0.5);
    EXPECT_EQ(seatScore(draw, 2), 0);
    const auto totals = tally({win, draw}, {"a", "b", "c"});
    ASSERT_EQ(totals.size(), 3u);
    EXPECT_EQ(totals[0].losses, 2);  // a: lost both (out of the draw)
    EXPECT_EQ(totals[1].wins, 1);    // b: won, then drew
    EXPECT_EQ(totals[1].draws, 1);
    EXPECT_DOUBLE_EQ(totals[1].points, 1.5);
    EXPECT_DOUBLE_EQ(totals[1].rate.mean, 0.75);
    EXPECT_EQ(totals[2].faults, 1);
    EXPECT_DOUBLE_EQ(totals[2].rate.mean, 0.25);
}

// A score's interval stays inside [0, 1]: 3 wins and a loss (a normal interval reaches 1.174),
// 50 losses (a normal interval collapses to [0, 0]).
TEST(Tally, ScoreIntervalStaysInsideZeroOne) {
    std::vector<GameSummary> games;
    for (int i = 0; i < 4; ++i) {
        const unsigned winner = i < 3 ? 0b01u : 0b10u;
        games.push_back(GameSummary{i, {"a", "b"}, Outcome{OutcomeKind::Win, winner, 10}, {}});
        games.back().faults.resize(2);
    }
    for (int i = 4; i < 54; ++i) {
        games.push_back(GameSummary{i, {"a", "c"}, Outcome{OutcomeKind::Win, 0b01u, 10}, {}});
        games.back().faults.resize(2);
    }
    const auto totals = tally(games, {"a", "b", "c"});
    ASSERT_EQ(totals.size(), 3u);
    const auto& b = totals[1].rate;  // 1 win in 4
    EXPECT_DOUBLE_EQ(b.mean, 0.25);
    EXPECT_GT(b.low, 0.0);
    EXPECT_LT(b.high, 1.0);
    const auto& c = totals[2].rate;  // 50 losses
    EXPECT_EQ(c.mean, 0.0);
    EXPECT_EQ(c.low, 0.0);
    EXPECT_GT(c.high, 0.05);
    EXPECT_LT(c.high, 0.1);
    const auto& a = totals[0].rate;  // 53 wins in 54
    EXPECT_GE(a.low, 0.0);
    EXPECT_LE(a.high, 1.0);
}

// A 40-game match of in-process players, 2 seats: the heuristic player wins clearly. The
// games are the same on every run (seeded players, seeded match).
TEST(Match, HeuristicBeatsRandomClearly) {
    MatchConfig config;
    config.players = {SeatSpec{"heuristic", SeatKind::InProcess, "", {}, {{"Player", "heuristic"}}},
                      SeatSpec{"random", SeatKind::InProcess, "", {}, {{"Player", "random"}}}};
    config.params = defaultParams(2);
    config.games = 40;
    config.seed = 2024;
    config.concurrency = 2;
    int calls = 0;
    const auto games =
        runMatch(config, {}, [&](const GameSummary&, const std::vector<GameSummary>&) {
            ++calls;
            return true;
        });
    ASSERT_EQ(games.size(), 40u);
    EXPECT_EQ(calls, 40);
    const auto totals = tally(games, {"heuristic", "random"});
    EXPECT_EQ(totals[0].faults + totals[1].faults, 0);
    EXPECT_GE(totals[0].rate.mean, 0.65);
    EXPECT_GT(totals[0].rate.low, 0.5);
    EXPECT_GT(totals[0].wins, 3 * totals[1].wins);
}

}  // namespace
}  // namespace torneio::referee

// Whole matches: the schedule, a short real match, and the lasca-match command line.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "lasca/match/match.h"
#include "lasca/match/pdn_record.h"
#include "test_directory.h"

namespace lasca::match {
namespace {

EngineSpec reference(const std::string& name, const std::string& player, int depth) {
    EngineSpec spec;
    spec.name = name;
    spec.path = LASCA_REFERENCE;
    spec.options = {{"Player", player}, {"Depth", std::to_string(depth)}, {"Seed", "3"}};
    return spec;
}

TEST(Schedule, PairsShareAnOpeningWithColoursSwapped) {
    const auto s = schedule(7, 3, Shard{});
    ASSERT_EQ(s.size(), 7u);
    EXPECT_EQ(s[4].pair, 2);
    EXPECT_EQ(s[4].opening, 2);
    EXPECT_EQ(s[5].opening, 2);
    EXPECT_TRUE(s[4].firstIsWhite);
    EXPECT_FALSE(s[5].firstIsWhite);
    EXPECT_EQ(s[6].opening, 0);
}

TEST(Schedule, ShardsPartitionTheGames) {
    std::set<int> seen;
    for (int i = 0; i < 3; ++i)
        for (const auto& slot : schedule(20, 4, Shard{i, 3})) {
            EXPECT_TRUE(seen.insert(slot.index).second);
            EXPECT_EQ(slot.pair % 3, i);
        }
    EXPECT_EQ(seen.size(), 20u);
}

TEST(Tally, PentanomialCountsCompletePairs) {
    std::vector<GameRecord> r(5);
    for (int i = 0; i < 5; ++i) {
        r[static_cast<std::size_t>(i)].index = i;
        r[static_cast<std::size_t>(i)].pair = i / 2;
        r[static_cast<std::size_t>(i)].whiteIsFirst = i % 2 == 0;
    }
    r[0].outcome = Outcome::WhiteWins;  // first wins
    r[1].outcome = Outcome::WhiteWins;  // first (Black) loses
    r[2].outcome = Outcome::WhiteWins;  // first wins
    r[3].outcome = Outcome::Draw;
    r[4].outcome = Outcome::Draw;  // pair 2 is incomplete
    const MatchTotals t = tally(r);
    EXPECT_EQ(t.wdl.wins, 2);
    EXPECT_EQ(t.wdl.draws, 2);
    EXPECT_EQ(t.wdl.losses, 1);
    EXPECT_EQ(t.pentanomial.counts, (std::array<std::int64_t, 5>{0, 0, 1, 1, 0}));
}

// A short real match: alpha-beta at depth 2 should beat a random mover clearly.
TEST(Match, AlphaBetaBeatsRandom) {
    MatchConfig c;
    c.engines = {reference("ab2", "alphabeta", 2), reference("random", "random", 1)};
    c.games = 8;
    c.concurrency = 2;
    c.game.timeControl.kind = TimeControl::Kind::Nodes;  // no time forfeit on a busy machine
    c.game.timeControl.nodes = 1000;
    c.openings = {std::string(kStartLfen),
                  "b,b,b,b/b,b,b/b,b,b,b/-,w,-/w,w,-,w/w,w,w/w,w,w,w b 0 1"};
    int calls = 0;
    const auto records = runMatch(c, {}, [&](const GameRecord&, const std::vector<GameRecord>&) {
        ++calls;
        return true;
    });
    ASSERT_EQ(records.size(), 8u);
    EXPECT_EQ(calls, 8);
    for (std::size_t i = 0; i < records.size(); ++i) {
        EXPECT_EQ(records[i].index, static_cast<int>(i));
        EXPECT_TRUE(replayPdn(toPdn(records[i], PdnHeader{}), c.game.rules).ok());
    }
    const MatchTotals t = tally(records);
    EXPECT_EQ(t.wdl.games(), 8);
    EXPECT_EQ(t.pentanomial.pairs(), 4);
    EXPECT_GE(t.wdl.score(), 0.75);
}

TEST(Match, StopsWhenTheCallbackSaysSo) {
    MatchConfig c;
    c.engines = {reference("a", "random", 1), reference("b", "random", 1)};
    c.games = 40;
    c.concurrency = 1;
    const auto records = runMatch(c, {}, [](const GameRecord&, const std::vector<GameRecord>& all) {
        return all.size() < 3;
    });
    EXPECT_EQ(records.size(), 3u);
}

TEST(Match, ResumeSkipsPlayedGames) {
    MatchConfig c;
    c.engines = {reference("a", "random", 1), reference("b", "greedy", 1)};
    c.games = 6;
    c.concurrency = 2;
    auto first = runMatch(c, {}, [](const GameRecord&, const std::vector<GameRecord>& all) {
        return all.size() < 2;
    });
    ASSERT_GE(first.size(), 2u);
    const auto all = runMatch(c, first, nullptr);
    ASSERT_EQ(all.size(), 6u);
    for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].index, static_cast<int>(i));
}

int run(const std::string& command) {
    const int status = std::system((command + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Cli, UnknownFlagExitsWithTwo) {
    EXPECT_EQ(run(std::string(LASCA_MATCH) + " --no-such-flag"), 2);
    EXPECT_EQ(run(std::string(LASCA_MATCH) + " --help"), 0);
    EXPECT_EQ(run(std::string(LASCA_MATCH) + " --engine /nonexistent --games 2"), 2);
}

// An engine's own limit is range-checked before any engine starts.
TEST(Cli, BadEngineLimitExitsWithTwo) {
    const std::string match = std::string(LASCA_MATCH) + " --games 2 --engine cmd=" LASCA_REFERENCE;
    EXPECT_EQ(run(match + ",movetime=abc"), 2);
    EXPECT_EQ(run(match + ",movetime=0"), 2);
    EXPECT_EQ(run(match + ",nodes=-5"), 2);
    EXPECT_EQ(run(match + ",movetime=10,nodes=100"), 2);
}

// --pdn appends, as its help says: the games of an earlier run in the file stay.
TEST(Cli, PdnAppendsToAnExistingFile) {
    const auto dir = common::test::testDirectory();
    const std::string file = (dir / "games.pdn").string();
    const std::string match = std::string(LASCA_MATCH) + " --engine name=g,cmd=" + LASCA_REFERENCE +
                              ",option.Player=greedy --engine name=r,cmd=" + LASCA_REFERENCE +
                              ",option.Player=random --games 2 --nodes 100 --log-dir '' --pdn " +
                              file;
    ASSERT_EQ(run(match), 0);
    ASSERT_EQ(run(match), 0);
    std::ifstream in(file);
    const auto games = readPdn(in);
    ASSERT_TRUE(games.ok()) << games.error();
    EXPECT_EQ(games.value().size(), 4u);
}

// Shards played separately and merged give the statistics of the whole match.
TEST(Cli, ShardsMergeAndReplay) {
    const auto dir = common::test::testDirectory();
    const std::string engines =
        " --engine name=g,cmd=" + std::string(LASCA_REFERENCE) +
        ",option.Player=greedy --engine name=r,cmd=" + std::string(LASCA_REFERENCE) +
        ",option.Player=random";
    const std::string common = std::string(LASCA_MATCH) + engines +
                               " --games 8 --nodes 1000 --concurrency 2 --log-dir '' --openings " +
                               LASCA_OPENINGS;
    for (int i = 1; i <= 2; ++i)
        ASSERT_EQ(run(common + " --shard " + std::to_string(i) + "/2 --pdn " +
                      (dir / ("s" + std::to_string(i) + ".pdn")).string()),
                  0);
    const std::string files = (dir / "s1.pdn").string() + " " + (dir / "s2.pdn").string();
    EXPECT_EQ(run(std::string(LASCA_MATCH) + " replay " + files), 0);
    const std::string out = (dir / "merged.txt").string();
    ASSERT_EQ(std::system((std::string(LASCA_MATCH) + " merge " + files + " > " + out).c_str()), 0);
    const std::string text = common::test::readText(out);
    EXPECT_NE(text.find("(8 games)"), std::string::npos) << text;
    EXPECT_NE(text.find("(4 pairs)"), std::string::npos) << text;
}

}  // namespace
}  // namespace lasca::match

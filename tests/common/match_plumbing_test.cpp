// The match runners' shared plumbing: shards, program specs, the worker pool with resume, and
// score intervals (used by lasca-match and torneio-referee alike).
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <set>
#include <string_view>

#include "common/jobs.h"
#include "common/program_spec.h"
#include "common/shard.h"
#include "common/stats.h"

namespace common {
namespace {

TEST(Shard, ParsesOneBasedAndChecksTheRange) {
    const auto s = parseShard("2/3");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s.value().index, 1);
    EXPECT_EQ(s.value().count, 3);
    EXPECT_TRUE(s.value().holds(4));
    EXPECT_FALSE(s.value().holds(3));
    for (const char* bad : {"0/3", "4/3", "3", "a/b", "1/", "/2", "-1/2", "1/2/3"})
        EXPECT_FALSE(parseShard(bad).ok()) << bad;
}

TEST(ProgramSpec, BarePathAndFields) {
    constexpr std::string_view kKeys[] = {"human", "proto"};
    const auto bare = parseProgramSpec("build/torneio", kKeys);
    ASSERT_TRUE(bare.ok());
    EXPECT_EQ(bare.value().path, "build/torneio");
    EXPECT_EQ(bare.value().name, "torneio");

    const auto full =
        parseProgramSpec("name=h,cmd=/bin/p,arg=-x,arg=y,option.Player=heuristic,proto=ugi", kKeys);
    ASSERT_TRUE(full.ok()) << full.error();
    const ProgramSpec& p = full.value();
    EXPECT_EQ(p.name, "h");
    EXPECT_EQ(p.path, "/bin/p");
    EXPECT_EQ(p.args, (std::vector<std::string>{"-x", "y"}));
    ASSERT_EQ(p.options.size(), 1u);
    EXPECT_EQ(p.options[0].first, "Player");
    EXPECT_EQ(p.options[0].second, "heuristic");
    ASSERT_EQ(p.extra.size(), 1u);
    EXPECT_EQ(p.extra[0].first, "proto");

    const auto human = parseProgramSpec("name=me,human", kKeys);
    ASSERT_TRUE(human.ok());
    EXPECT_TRUE(human.value().path.empty());
    ASSERT_EQ(human.value().extra.size(), 1u);
    EXPECT_EQ(human.value().extra[0].first, "human");
}

TEST(ProgramSpec, ErrorsNameTheField) {
    constexpr std::string_view kKeys[] = {"proto"};
    EXPECT_FALSE(parseProgramSpec("name=x,colour=red", kKeys).ok());
    EXPECT_FALSE(parseProgramSpec("name=x,cmd", kKeys).ok());
    EXPECT_FALSE(parseProgramSpec("name=x,,cmd=y", kKeys).ok());
    EXPECT_FALSE(parseProgramSpec("name=x,option.=1", kKeys).ok());
}

struct Job {
    int index = 0;
};
struct Record {
    int index = 0;
    int worker = 0;
};

TEST(Jobs, EveryJobOnceSortedAndResumeSkipsDone) {
    std::vector<Job> jobs;
    for (int i = 0; i < 20; ++i) jobs.push_back({i});
    std::vector<Record> done = {{3, 0}, {7, 0}};
    std::atomic<int> played = 0;
    auto makeWorker = [&](int id) {
        return [&played, id](const Job& job) {
            ++played;
            return Record{job.index, id};
        };
    };
    const auto all = runJobs(jobs, done, 3, makeWorker, RecordCallback<Record>{});
    EXPECT_EQ(played, 18);
    ASSERT_EQ(all.size(), 20u);
    for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].index, static_cast<int>(i));
    std::set<int> workers;
    for (const auto& r : all)
        if (r.worker > 0) workers.insert(r.worker);
    EXPECT_LE(workers.size(), 3u);
}

TEST(Jobs, CallbackStopsTheRun) {
    std::vector<Job> jobs(30);
    for (int i = 0; i < 30; ++i) jobs[static_cast<std::size_t>(i)].index = i;
    auto makeWorker = [](int id) { return [id](const Job& job) { return Record{job.index, id}; }; };
    const auto all =
        runJobs(jobs, std::vector<Record>{}, 1, makeWorker,
                RecordCallback<Record>(
                    [](const Record&, const std::vector<Record>& a) { return a.size() < 4; }));
    EXPECT_EQ(all.size(), 4u);
}

// Scores 1, 0, 0.5 seen 6, 2, 2 times: mean 0.7, E[x^2] = 0.65, variance 0.16, n 10.
TEST(Stats, MeanAndIntervalByHand) {
    const double scores[] = {1, 0, 0.5};
    const double counts[] = {6, 2, 2};
    const Moments m = momentsOf(scores, counts);
    EXPECT_NEAR(m.mean, 0.7, 1e-12);
    EXPECT_NEAR(m.variance, 0.16, 1e-12);
    EXPECT_NEAR(m.n, 10, 1e-12);
    const Interval i = interval95(m);
    EXPECT_NEAR(i.low, 0.7 - kZ95 * std::sqrt(0.016), 1e-12);
    EXPECT_NEAR(i.high, 0.7 + kZ95 * std::sqrt(0.016), 1e-12);
    const Interval none = interval95(Moments{});
    EXPECT_EQ(none.low, 0.5);
    EXPECT_EQ(none.high, 0.5);
}

// The Wilson interval stays in [0, 1] where the normal one leaves it (3 wins and a loss: the
// normal interval is [0.326, 1.174]) or collapses (50 losses: [0, 0]).
TEST(Stats, WilsonIntervalStaysInsideZeroOne) {
    const double scores[] = {1, 0};
    const double threeToOne[] = {3, 1};
    const Moments m = momentsOf(scores, threeToOne);
    EXPECT_GT(interval95(m).high, 1.0);  // the normal interval's flaw
    const Interval w = wilson95(m);
    EXPECT_DOUBLE_EQ(w.mean, 0.75);
    EXPECT_NEAR(w.low, 0.300642, 1e-6);  // Wilson's formula by hand, z = 1.96
    EXPECT_NEAR(w.high, 0.954413, 1e-6);
    const double fiftyLosses[] = {0, 50};
    const Interval lost = wilson95(momentsOf(scores, fiftyLosses));
    EXPECT_EQ(lost.low, 0.0);
    EXPECT_NEAR(lost.high, kZ95 * kZ95 / (50 + kZ95 * kZ95), 1e-12);
    EXPECT_GT(lost.high, 0.05);
    const double fiftyWins[] = {50, 0};
    const Interval won = wilson95(momentsOf(scores, fiftyWins));
    EXPECT_EQ(won.high, 1.0);
    EXPECT_NEAR(won.low, 50 / (50 + kZ95 * kZ95), 1e-12);
    const Interval none = wilson95(Moments{});
    EXPECT_EQ(none.low, 0.5);
    EXPECT_EQ(none.high, 0.5);
}

}  // namespace
}  // namespace common

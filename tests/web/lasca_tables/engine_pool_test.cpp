// The engine pool with fake workers, a queue of posted calls the test runs, and a virtual
// clock: who is served first, what each worker is told, busy notices, slices and deaths.
#include "web/lasca_tables/engine_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../web_test_util.h"
#include "web/lasca_tables/lasca_table.h"

namespace web::lasca_tables {
namespace {

using Clock = std::chrono::steady_clock;

// What the fake workers were told, per worker index, and which generation each runs.
struct Workers {
    std::map<int, std::vector<std::string>> lines;
    std::map<int, std::uint64_t> generation;
    int started = 0;
    bool refuse = false;
};

class FakeWorker : public EngineWorker {
  public:
    FakeWorker(std::shared_ptr<Workers> log, int index) : log_(std::move(log)), index_(index) {}
    bool send(std::string_view line) override {
        log_->lines[index_].emplace_back(line);
        return true;
    }

  private:
    std::shared_ptr<Workers> log_;
    int index_;
};

// One table's side: what it was told.
struct Seen {
    std::vector<std::string> lines;
    int closed = 0;
    std::vector<int> busy;
};

class EnginePoolTest : public ::testing::Test {
  protected:
    void make(int size) {
        pool_ = std::make_unique<EnginePool>(
            size, 16,
            [log = log_](int index, std::uint64_t generation)
                -> common::Result<std::unique_ptr<EngineWorker>> {
                if (log->refuse) return common::makeError("no engine");
                ++log->started;
                log->generation[index] = generation;
                log->lines[index].clear();
                return std::unique_ptr<EngineWorker>(std::make_unique<FakeWorker>(log, index));
            },
            [this](std::function<void()> f) { posted_.push_back(std::move(f)); },
            [this] { return now_; });
    }
    std::unique_ptr<EngineChannel> connect(Seen& seen) {
        PoolClient c;
        c.onLine = [&seen](std::string line) { seen.lines.push_back(std::move(line)); };
        c.onClosed = [&seen] { ++seen.closed; };
        c.onBusy = [&seen](int ahead) { seen.busy.push_back(ahead); };
        return pool_->connect(std::move(c));
    }
    void run() {
        while (!posted_.empty()) {
            auto f = std::move(posted_.front());
            posted_.erase(posted_.begin());
            f();
        }
    }
    // A request for the position `lfen` (the tests' positions are names: the pool never reads
    // them), for a move or an analysis, at 100 nodes or (infinite) until stopped.
    void search(EngineChannel& channel, const std::string& lfen, bool move, bool infinite = false,
                int multiPv = 1, std::vector<std::string> moves = {}) {
        EngineRequest request;
        request.purpose = move ? EnginePurpose::Move : EnginePurpose::Analysis;
        request.startLfen = lfen;
        request.moves = std::move(moves);
        request.nodes = infinite ? 0 : 100;
        request.multiPv = multiPv;
        channel.search(request);
    }
    // The `go` worker `index` was given last, and the position before it.
    std::string lastGo(int index) {
        const auto& l = log_->lines[index];
        for (auto it = l.rbegin(); it != l.rend(); ++it)
            if (it->rfind("go", 0) == 0) return *(it + 1) + " | " + *it;
        return "";
    }
    void answer(int index, const std::string& line) {
        pool_->workerLine(index, log_->generation[index], line);
        run();
    }

    std::shared_ptr<Workers> log_ = std::make_shared<Workers>();
    std::vector<std::function<void()>> posted_;
    Clock::time_point now_{};
    std::unique_ptr<EnginePool> pool_;
};

TEST_F(EnginePoolTest, AWorkerIsSetUpOnceAndEachSearchStartsFromAClearTable) {
    make(1);
    Seen a;
    auto ca = connect(a);
    search(*ca, "S", true);
    EXPECT_EQ(log_->started, 1);
    EXPECT_EQ(log_->lines[0],
              (std::vector<std::string>{"uci", "setoption name Hash value 16", "isready",
                                        "ucinewgame", "position fen S", "go nodes 100"}));
    answer(0, "info depth 3 score cp 5 nodes 100 pv c3-d4");
    answer(0, "bestmove c3-d4");
    EXPECT_EQ(a.lines, (std::vector<std::string>{"info depth 3 score cp 5 nodes 100 pv c3-d4",
                                                 "bestmove c3-d4"}));
    search(*ca, "S", false, true, 3, {"c3-d4"});
    EXPECT_EQ(log_->started, 1);
    const std::vector<std::string> tail(log_->lines[0].end() - 4, log_->lines[0].end());
    EXPECT_EQ(tail, (std::vector<std::string>{"setoption name MultiPV value 3", "ucinewgame",
                                              "position fen S moves c3-d4", "go infinite"}));
    // Only the core's reply parser decides what a line is: a line that is neither an info line
    // nor a bestmove is not passed on, and the search goes on until its bestmove.
    answer(0, "readyok");
    answer(0, "info depth 2 score cp 7 nodes 40 pv e5-f4");
    answer(0, "info string table White wins in 5 plies");
    answer(0, "bestmove e5-f4");
    const std::vector<std::string> seen(a.lines.end() - 3, a.lines.end());
    EXPECT_EQ(seen, (std::vector<std::string>{"info depth 2 score cp 7 nodes 40 pv e5-f4",
                                              "info string table White wins in 5 plies",
                                              "bestmove e5-f4"}));
    EXPECT_EQ(a.lines.size(), 5U);
}

// The set-up lines (lasca-web --egtb) go to every worker once, when it starts, before isready.
TEST_F(EnginePoolTest, EveryWorkerGetsTheSetUpLinesOnceWhenItStarts) {
    make(2);
    pool_->setWorkerSetup({"setoption name EgtbPath value /tables"});
    Seen a, b;
    auto ca = connect(a), cb = connect(b);
    search(*ca, "S", true);
    search(*cb, "S", true);
    ASSERT_EQ(log_->started, 2);
    for (int index : {0, 1})
        EXPECT_EQ(
            std::vector<std::string>(log_->lines[index].begin(), log_->lines[index].begin() + 4),
            (std::vector<std::string>{"uci", "setoption name Hash value 16",
                                      "setoption name EgtbPath value /tables", "isready"}));
    answer(0, "bestmove c3-d4");
    search(*ca, "S", true, false, 1, {"c3-d4"});
    EXPECT_EQ(std::count(log_->lines[0].begin(), log_->lines[0].end(),
                         "setoption name EgtbPath value /tables"),
              1);
}

TEST_F(EnginePoolTest, MovesAreServedBeforeAnalysisAndTablesInTurn) {
    make(1);
    Seen a, b, c, d;
    auto ca = connect(a), cb = connect(b), cc = connect(c), cd = connect(d);
    search(*ca, "A", true);   // runs at once
    search(*cb, "B", false);  // an annotation: waits
    search(*cc, "C", true);   // a move: before B
    search(*cd, "D", true);   // after C
    EXPECT_EQ(lastGo(0), "position fen A | go nodes 100");
    answer(0, "bestmove x");
    EXPECT_EQ(lastGo(0), "position fen C | go nodes 100");
    answer(0, "bestmove x");
    EXPECT_EQ(lastGo(0), "position fen D | go nodes 100");
    answer(0, "bestmove x");
    EXPECT_EQ(lastGo(0), "position fen B | go nodes 100");
    answer(0, "bestmove x");
    for (const Seen* s : {&a, &b, &c, &d})
        EXPECT_EQ(s->lines, (std::vector<std::string>{"bestmove x"}));
    EXPECT_EQ(pool_->stats().served, 4);
}

TEST_F(EnginePoolTest, ATableHasOneSearchAtATimeSoItsBestmovesKeepTheirOrder) {
    make(2);
    Seen a;
    auto ca = connect(a);
    search(*ca, "1", false, true);
    ca->stop();
    search(*ca, "2", true);
    // The second search waits for the first's bestmove though worker 1 is free.
    EXPECT_EQ(log_->lines[1].size(), 0U);
    EXPECT_EQ(log_->lines[0].back(), "stop");
    answer(0, "bestmove first");
    EXPECT_EQ(lastGo(0), "position fen 2 | go nodes 100");
    answer(0, "bestmove second");
    EXPECT_EQ(a.lines, (std::vector<std::string>{"bestmove first", "bestmove second"}));
}

TEST_F(EnginePoolTest, AStoppedWaitingSearchEndsAtOnceWithNoMove) {
    make(1);
    Seen a, b;
    auto ca = connect(a), cb = connect(b);
    search(*ca, "A", true);
    search(*cb, "B", true);
    cb->stop();
    EXPECT_TRUE(b.lines.empty());  // told later, never from inside the table's own call
    run();
    EXPECT_EQ(b.lines, (std::vector<std::string>{"bestmove 0000"}));
    EXPECT_EQ(pool_->stats().queued, 0);
}

TEST_F(EnginePoolTest, AWaitingMoveStopsAnEndlessAnalysisWhichResumesLaterUnseen) {
    make(1);
    Seen a, b;
    auto ca = connect(a), cb = connect(b);
    search(*ca, "A", false, true);
    answer(0, "info depth 9 score cp 1 nodes 9000 pv a");
    search(*cb, "B", true);
    EXPECT_EQ(log_->lines[0].back(), "stop");
    answer(0, "bestmove a");  // the analysis' answer to the pool's stop: not passed on
    EXPECT_EQ(a.lines, (std::vector<std::string>{"info depth 9 score cp 1 nodes 9000 pv a"}));
    EXPECT_EQ(lastGo(0), "position fen B | go nodes 100");
    answer(0, "bestmove b");
    EXPECT_EQ(b.lines, (std::vector<std::string>{"bestmove b"}));
    EXPECT_EQ(lastGo(0), "position fen A | go infinite");  // the analysis again
    EXPECT_EQ(pool_->stats().preempted, 1);
}

TEST_F(EnginePoolTest, AnalysesShareAWorkerBySlicesAndWaitersAreToldHowManyAreAhead) {
    make(1);
    Seen a, b, c;
    auto ca = connect(a), cb = connect(b), cc = connect(c);
    search(*ca, "A", false, true);
    search(*cb, "B", false, true);
    search(*cc, "C", false, true);
    now_ += kBusyNotice;
    pool_->tick();
    run();
    EXPECT_EQ(b.busy, (std::vector<int>{1}));
    EXPECT_EQ(c.busy, (std::vector<int>{2}));
    EXPECT_EQ(log_->lines[0].back(), "go infinite");  // the slice has not run out
    now_ += kAnalysisSlice;
    pool_->tick();
    run();
    EXPECT_EQ(log_->lines[0].back(), "stop");
    answer(0, "bestmove a");
    EXPECT_EQ(lastGo(0), "position fen B | go infinite");
    EXPECT_EQ(b.busy, (std::vector<int>{1, 0}));  // its turn came
    EXPECT_TRUE(a.lines.empty());
    pool_->tick();  // C is now 1 ahead (B runs, A queued after it)
    run();
    EXPECT_EQ(c.busy, (std::vector<int>{2, 1}));
}

TEST_F(EnginePoolTest, AWorkerThatDiesIsReplacedAndItsTableToldItsEngineClosed) {
    make(1);
    Seen a, b;
    auto ca = connect(a), cb = connect(b);
    search(*ca, "A", true);
    search(*cb, "B", true);
    const auto first = log_->generation[0];
    pool_->workerClosed(0, first);
    run();
    EXPECT_EQ(a.closed, 1);
    EXPECT_EQ(log_->started, 2);
    EXPECT_EQ(pool_->stats().restarts, 1);
    EXPECT_EQ(lastGo(0), "position fen B | go nodes 100");  // the new worker serves the queue
    pool_->workerLine(0, first, "bestmove stale");          // the dead one's late line
    answer(0, "bestmove b");
    EXPECT_EQ(b.lines, (std::vector<std::string>{"bestmove b"}));
    EXPECT_TRUE(a.lines.empty());
}

TEST_F(EnginePoolTest, AnEngineThatCannotStartFailsTheRequestInsteadOfHoldingIt) {
    make(1);
    log_->refuse = true;
    Seen a;
    auto ca = connect(a);
    search(*ca, "A", true);
    run();
    EXPECT_EQ(a.closed, 1);
    EXPECT_EQ(pool_->stats().queued, 0);
}

TEST_F(EnginePoolTest, ATableThatLeavesHasItsSearchStoppedAndItsLinesDropped) {
    make(1);
    Seen a, b;
    auto ca = connect(a), cb = connect(b);
    search(*ca, "A", false, true);
    search(*cb, "B", true);
    answer(0, "bestmove a");  // preempted analysis goes back to the queue
    ca.reset();               // A's tab closes while B's move runs
    answer(0, "bestmove b");
    EXPECT_EQ(pool_->stats().queued, 0);
    EXPECT_EQ(pool_->stats().busy, 0);
    EXPECT_TRUE(a.lines.empty());
}

// A real table through the pool: the engine's move reaches the table, and a busy notice
// becomes an `engine` message while the table waits.
TEST_F(EnginePoolTest, ATableGetsItsMoveThroughThePoolAndIsToldWhenItWaits) {
    make(1);
    Seen blocker;
    auto cblock = connect(blocker);
    search(*cblock, "X", true);
    std::unique_ptr<LascaTable> table;
    auto factory = [&]() -> common::Result<std::unique_ptr<EngineChannel>> {
        PoolClient c;
        c.onLine = [&](std::string line) { table->onEngineLine(line); };
        c.onClosed = [&] { table->onEngineClosed(); };
        return pool_->connect(std::move(c));
    };
    table = std::make_unique<LascaTable>(factory);
    table->hello();
    table->handle(Json{{"type", "new"}, {"engine", "white"}, {"level", 1}});
    ASSERT_EQ(table->pendingSearches(), 1U);
    const auto busy = table->onEngineBusy(1);
    ASSERT_EQ(busy.size(), 1U);
    EXPECT_EQ(busy[0]["text"], "the engine is busy, 1 ahead of you");
    answer(0, "bestmove x");  // the blocker's move: the table's search starts
    const std::string go = lastGo(0);
    EXPECT_NE(go.find("go nodes"), std::string::npos);
    answer(0, "bestmove c3-d4");
    ASSERT_EQ(table->moves().size(), 1U);
    EXPECT_EQ(table->moves()[0], "c3-d4");
    EXPECT_TRUE(table->onEngineBusy(1).empty());  // nothing waits any more
}

}  // namespace
}  // namespace web::lasca_tables

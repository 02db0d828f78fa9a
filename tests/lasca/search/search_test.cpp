// Search: forced wins found with their exact distance, draws by T1/T2 inside the search,
// determinism, MultiPV, threads, and the limits of `go`.
#include "lasca/search/search.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <random>
#include <string>

#include "lasca/core/movegen.h"
#include "lasca/core/notation.h"
#include "lasca/engine/engine.h"
#include "lasca/eval/nnue.h"
#include "lasca/test_util.h"

namespace lasca::search {
namespace {

// ---- An exhaustive solver for small positions (no draw rules). ----
bool winWithin(Position& pos, int plies);
bool lossWithin(Position& pos, int plies) {
    MoveList list;
    generateMoves(pos, list);
    if (list.empty()) return true;
    if (plies < 2) return false;
    for (const Move& m : list) {
        Undo u{};
        pos.make(m, u);
        const bool opponentWins = winWithin(pos, plies - 1);
        pos.unmake(m, u);
        if (!opponentWins) return false;
    }
    return true;
}
bool winWithin(Position& pos, int plies) {
    if (plies < 1) return false;
    MoveList list;
    generateMoves(pos, list);
    for (const Move& m : list) {
        Undo u{};
        pos.make(m, u);
        const bool lost = lossWithin(pos, plies - 1);
        pos.unmake(m, u);
        if (lost) return true;
    }
    return false;
}

SearchSettings noDrawRules() {
    SearchSettings s;
    s.rules = DrawRules{false, false};
    return s;
}

SearchResult searchDepth(const Position& pos, int depth, SearchSettings settings = {},
                         std::vector<Key> history = {}) {
    TranspositionTable tt;
    Search search(tt);
    SearchLimits limits;
    limits.depth = depth;
    return search.run(pos, history, limits, settings);
}

TEST(Search, FindsMateInOne) {
    // White officer c3, black's only piece a soldier on d4: c3xe5 leaves Black without a move.
    const Position pos = test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,b,-/-,W,-,-/-,-,-/-,-,-,- w");
    const SearchResult r = searchDepth(pos, 4);
    EXPECT_EQ(formatMove(r.best), "c3xe5");
    EXPECT_TRUE(isMateScore(r.score));
    EXPECT_EQ(mateInMoves(r.score), 1);
}

TEST(Search, ReportsTheLossWhenEveryMoveLoses) {
    // Black to move, soldier on d4 must step to c3 or e3 where the officer on d2 takes it.
    const Position pos = test::lfen("-,-,-,-/-,-,-/-,-,-,-/-,b,-/-,-,-,-/-,W,-/-,-,-,- b");
    ASSERT_EQ(test::legalMoveTexts(pos), (std::vector<std::string>{"d4-c3", "d4-e3"}));
    const SearchResult r = searchDepth(pos, 6, noDrawRules());
    EXPECT_TRUE(isMateScore(r.score));
    EXPECT_EQ(mateInMoves(r.score), -1);
}

// Random small positions: wherever the solver proves a forced win or loss within a few
// plies, the search reports exactly that distance.
TEST(Search, MateDistancesMatchAnExhaustiveSolver) {
    std::mt19937 rng(17);
    const char* kColumns[] = {"w", "b", "W", "B", "Wb", "Bw", "wb", "bw", "Wbb", "Bww"};
    int wins = 0, losses = 0;
    for (int trial = 0; trial < 3000 && wins + losses < 60; ++trial) {
        Position pos;
        for (int k = 0; k < 5; ++k) {
            const Square s = static_cast<Square>(rng() % kSquares);
            const std::string c = kColumns[rng() % std::size(kColumns)];
            ColumnBits bits = 0;
            for (std::size_t i = 0; i < c.size(); ++i)
                bits |= static_cast<ColumnBits>(*pieceFromChar(c[i])) << (2 * i);
            pos.setColumn(s, bits, static_cast<int>(c.size()));
        }
        pos.setSideToMove(rng() % 2 ? Color::White : Color::Black);
        if (!pos.validate().empty() || !hasLegalMove(pos)) continue;
        int winPlies = 0, lossPlies = 0;
        for (int n = 1; n <= 7 && !winPlies && !lossPlies; ++n) {
            if (n % 2 == 1 && winWithin(pos, n)) winPlies = n;
            if (n % 2 == 0 && lossWithin(pos, n)) lossPlies = n;
        }
        if (!winPlies && !lossPlies) continue;
        const SearchResult r = searchDepth(pos, 12, noDrawRules());
        ASSERT_TRUE(isMateScore(r.score)) << pos.toLfen() << " score " << r.score;
        if (winPlies) {
            ++wins;
            EXPECT_EQ(mateInMoves(r.score), (winPlies + 1) / 2) << pos.toLfen();
        } else {
            ++losses;
            EXPECT_EQ(mateInMoves(r.score), -(lossPlies / 2)) << pos.toLfen();
        }
    }
    EXPECT_GE(wins, 20);
    EXPECT_GE(losses, 5);
}

// Officers shuffle: White is an officer up, so Black, to move in a position seen before,
// takes the draw by threefold repetition (T1) when the rule is on.
TEST(Search, TakesADrawByRepetitionWhenBehind) {
    Game game(test::lfen("-,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,W w 0 1"));
    for (const char* m : {"a1-b2", "g7-f6", "b2-a1", "f6-g7", "a1-b2", "g7-f6", "b2-a1"})
        ASSERT_TRUE(game.playText(m).ok());
    // Black to move; f6-g7 would make the position after White's 4th move appear a third time.
    std::vector<Key> history(game.keys().begin(), game.keys().end() - 1);
    SearchSettings on;
    const SearchResult drawn = searchDepth(game.current(), 6, on, history);
    EXPECT_EQ(formatMove(drawn.best), "f6-g7");
    EXPECT_EQ(drawn.score, kDraw);

    SearchSettings off;
    off.rules.repetition = false;
    const SearchResult played = searchDepth(game.current(), 6, off, history);
    EXPECT_LT(played.score, 0);
}

TEST(Search, NoProgressRuleScoresADraw) {
    // 99 quiet plies: any officer move completes 100 (T2), so White's extra column is worth 0.
    const Position pos = test::lfen("-,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,W,- w 99 80");
    EXPECT_EQ(searchDepth(pos, 5).score, kDraw);
    SearchSettings off;
    off.rules.noProgress = false;
    EXPECT_GT(searchDepth(pos, 5, off).score, 0);
}

TEST(Search, SameNodeLimitGivesTheSameResult) {
    const Position pos = test::lfen(engine::Engine::benchPositions()[3]);
    SearchLimits limits;
    limits.nodes = 20000;
    TranspositionTable tt;
    Search search(tt);
    const SearchResult a = search.run(pos, {}, limits, {});
    tt.clear();
    search.clear();
    const SearchResult b = search.run(pos, {}, limits, {});
    EXPECT_EQ(a.best, b.best);
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_GE(a.nodes, limits.nodes);
    EXPECT_LT(a.nodes, limits.nodes + 100);
}

// The bench signature: any change of search behaviour changes it, and must update it here in
// the same commit (the commit message says so).
// `lasca bench` searches with the default evaluation, the embedded network (UseNNUE on): its
// count changes with the search, the inputs, the inference or the network file
// (src/lasca/eval/default.nnue), and is the same on every SIMD path (the next test).
constexpr std::uint64_t kBenchNodes = 317534;

TEST(Search, BenchNodeCountIsPinned) {
    ASSERT_EQ(engine::Engine::defaultEvalNetwork(), eval::nnue::defaultNetwork());
    const engine::Engine::BenchResult r = engine::Engine::bench(
        engine::Engine::kDefaultBenchDepth, engine::Engine::defaultEvalNetwork());
    EXPECT_EQ(r.nodes, kBenchNodes);
    EXPECT_EQ(engine::Engine::bench(engine::Engine::kDefaultBenchDepth,
                                    engine::Engine::defaultEvalNetwork())
                  .nodes,
              r.nodes);
}

// The bench through each SIMD path of the network this CPU runs (eval::nnue::supportedSimd), not
// only the one chosen at start: the same count.
TEST(Search, BenchNodeCountIsTheSameOnEverySimdPath) {
    const std::string chosen = eval::nnue::simdName();
    for (const std::string& path : eval::nnue::supportedSimd()) {
        if (path == chosen) continue;  // the test above
        ASSERT_TRUE(eval::nnue::useSimd(path));
        EXPECT_EQ(
            engine::Engine::bench(engine::Engine::kDefaultBenchDepth, eval::nnue::defaultNetwork())
                .nodes,
            kBenchNodes)
            << path;
    }
    EXPECT_TRUE(eval::nnue::useSimd(chosen));
}

// The same with the classic evaluation (UseNNUE off): it changes with the search or eval.cpp.
TEST(Search, BenchNodeCountWithTheClassicEvaluationIsPinned) {
    EXPECT_EQ(engine::Engine::bench(engine::Engine::kDefaultBenchDepth, nullptr).nodes, 331298u);
}

// The search's numbers are parameters (SearchParams), by default the values SPSA found (the two
// pins above); changing any one changes the search.
TEST(Search, EachTunableParameterChangesTheSearch) {
    const Position pos = test::lfen(engine::Engine::benchPositions()[3]);
    const std::uint64_t byDefault = searchDepth(pos, 10).nodes;
    EXPECT_EQ(searchDepth(pos, 10).nodes, byDefault);
    const struct {
        const char* name;
        int SearchParams::*field;
        int value;
    } changes[] = {
        {"rfpMargin", &SearchParams::rfpMargin, 40},
        {"rfpDepth", &SearchParams::rfpDepth, 1},
        {"lmrBase", &SearchParams::lmrBase, 150},
        {"lmrDivisor", &SearchParams::lmrDivisor, 120},
        {"lmrMinDepth", &SearchParams::lmrMinDepth, 5},
        {"lmrMinMove", &SearchParams::lmrMinMove, 6},
        {"aspirationDelta", &SearchParams::aspirationDelta, 5},
        {"aspirationGrowth", &SearchParams::aspirationGrowth, 200},
        {"aspirationDepth", &SearchParams::aspirationDepth, 2},
        {"historyBonusMax", &SearchParams::historyBonusMax, 20},
    };
    for (const auto& c : changes) {
        SearchSettings settings;
        settings.params.*c.field = c.value;
        EXPECT_NE(searchDepth(pos, 10, settings).nodes, byDefault) << c.name;
    }
}

// The reductions of the default parameters (the first SPSA run's set, docs/tuning.md):
// 0.59 + ln(d) ln(m) / 2.07.
TEST(Search, DefaultReductionTableIsTheWrittenOne) {
    const ReductionTable table;
    for (int d = 1; d <= kMaxDepth; ++d)
        for (int m = 1; m < 64; ++m)
            ASSERT_EQ(table(d, m), static_cast<int>(static_cast<std::int8_t>(
                                       0.59 + std::log(static_cast<double>(d)) *
                                                  std::log(static_cast<double>(m)) / 2.07)))
                << d << " " << m;
    SearchParams halved;
    halved.lmrDivisor = 110;
    EXPECT_GT(ReductionTable(halved)(20, 20), table(20, 20));
}

// The engine's options carry the parameters to the search; a value out of range is refused
// and the old one stays.
TEST(Search, TuningOptionsReachTheSearchAndBadValuesKeepTheOldOne) {
    std::uint64_t nodes = 0;
    engine::EngineCallbacks callbacks;
    callbacks.onInfo = [&nodes](const SearchInfo& info) { nodes = info.nodes; };
    engine::Engine engine(callbacks);
    const auto searchedNodes = [&] {
        engine.newGame();
        nodes = 0;
        SearchLimits limits;
        limits.depth = 9;
        engine.go(limits);
        engine.waitForSearch();
        return nodes;
    };
    const std::uint64_t byDefault = searchedNodes();
    ASSERT_TRUE(engine.options().set("RfpMargin", "40"));
    const std::uint64_t changed = searchedNodes();
    EXPECT_NE(changed, byDefault);
    for (const char* bad : {"0", "1001", "-40", "abc", "40.5", "", "99999999999999999999"}) {
        EXPECT_FALSE(engine.options().set("RfpMargin", bad)) << bad;
        EXPECT_EQ(engine.options().intValue("RfpMargin"), 40) << bad;
    }
    EXPECT_EQ(searchedNodes(), changed);
    ASSERT_TRUE(engine.options().set("rfpmargin", "108"));  // names match in any case
    EXPECT_EQ(searchedNodes(), byDefault);
}

// Every tuning option: declared with the default of SearchParams, refused just outside its
// range, and the search stays sound (a legal best move, no crash) at both ends of every range.
TEST(Search, TuningOptionsHaveRangesTheSearchSurvives) {
    const SearchParams defaults;
    const struct {
        const char* name;
        int value;
    } declared[] = {{"RfpMargin", defaults.rfpMargin},
                    {"RfpDepth", defaults.rfpDepth},
                    {"LmrBase", defaults.lmrBase},
                    {"LmrDivisor", defaults.lmrDivisor},
                    {"LmrMinDepth", defaults.lmrMinDepth},
                    {"LmrMinMove", defaults.lmrMinMove},
                    {"AspirationDelta", defaults.aspirationDelta},
                    {"AspirationGrowth", defaults.aspirationGrowth},
                    {"AspirationDepth", defaults.aspirationDepth},
                    {"HistoryBonusMax", defaults.historyBonusMax}};
    std::vector<Move> best;
    engine::EngineCallbacks callbacks;
    callbacks.onBestMove = [&best](const Move& m, const Move&) { best.push_back(m); };
    engine::Engine engine(callbacks);
    for (const auto& d : declared) {
        const common::Option* o = engine.options().find(d.name);
        ASSERT_NE(o, nullptr) << d.name;
        EXPECT_EQ(o->type, common::OptionType::Spin);
        EXPECT_EQ(o->defaultValue, std::to_string(d.value)) << d.name;
        EXPECT_FALSE(engine.options().set(d.name, std::to_string(o->min - 1))) << d.name;
        EXPECT_FALSE(engine.options().set(d.name, std::to_string(o->max + 1))) << d.name;
        EXPECT_EQ(o->value, o->defaultValue) << d.name;
    }
    const Position pos = test::lfen(engine::Engine::benchPositions()[4]);
    for (bool lowest : {true, false}) {
        for (const auto& d : declared) {
            const common::Option* o = engine.options().find(d.name);
            ASSERT_TRUE(engine.options().set(d.name, std::to_string(lowest ? o->min : o->max)));
        }
        for (const Position& start : {Position::startPosition(), pos}) {
            ASSERT_TRUE(engine.setPosition(start, {}).ok);
            SearchLimits limits;
            limits.depth = 8;
            engine.go(limits);
            engine.waitForSearch();
            ASSERT_FALSE(best.empty());
            MoveList legal;
            generateMoves(start, legal);
            EXPECT_TRUE(legal.contains(best.back())) << (lowest ? "lowest" : "highest");
        }
    }
}

TEST(Search, MultiPVReportsDistinctMovesInOrder) {
    SearchSettings settings;
    settings.multiPV = 3;
    std::vector<SearchInfo> last(3);
    TranspositionTable tt;
    Search search(tt);
    SearchLimits limits;
    limits.depth = 7;
    search.run(Position::startPosition(), {}, limits, settings, [&](const SearchInfo& info) {
        if (info.bound == Bound::Exact) last[static_cast<std::size_t>(info.multiPV - 1)] = info;
    });
    for (const SearchInfo& info : last) {
        ASSERT_EQ(info.depth, 7);
        ASSERT_FALSE(info.pv.empty());
    }
    EXPECT_FALSE(last[0].pv[0] == last[1].pv[0]);
    EXPECT_FALSE(last[1].pv[0] == last[2].pv[0]);
    EXPECT_FALSE(last[0].pv[0] == last[2].pv[0]);
    EXPECT_GE(last[0].score, last[1].score);
    EXPECT_GE(last[1].score, last[2].score);
}

TEST(Search, SearchMovesRestrictTheRoot) {
    SearchLimits limits;
    limits.depth = 6;
    limits.searchMoves = {parseMove(Position::startPosition(), "g3-f4").value()};
    TranspositionTable tt;
    Search search(tt);
    EXPECT_EQ(formatMove(search.run(Position::startPosition(), {}, limits, {}).best), "g3-f4");
}

TEST(Search, BestMoveIsTheFirstMoveOfTheLastPV) {
    for (int threads : {1, 2}) {
        SearchSettings settings;
        settings.threads = threads;
        std::vector<Move> lastPV;
        TranspositionTable tt;
        Search search(tt);
        SearchLimits limits;
        limits.depth = 9;
        const Position pos = test::lfen(engine::Engine::benchPositions()[2]);
        const SearchResult r = search.run(pos, {}, limits, settings,
                                          [&](const SearchInfo& info) { lastPV = info.pv; });
        ASSERT_FALSE(lastPV.empty());
        EXPECT_EQ(r.best, lastPV[0]);
        MoveList legal;
        generateMoves(pos, legal);
        EXPECT_TRUE(legal.contains(r.best));
    }
}

// Background searches: stop ends an infinite search with exactly one bestmove; ponderhit
// turns a ponder search into a timed one.
class Signals {
  public:
    void bestmove(const Move& m) {
        std::lock_guard lock(mutex_);
        moves_.push_back(m);
        cv_.notify_all();
    }
    bool waitFor(std::size_t count, std::chrono::milliseconds timeout) {
        std::unique_lock lock(mutex_);
        return cv_.wait_for(lock, timeout, [&] { return moves_.size() >= count; });
    }
    std::size_t count() {
        std::lock_guard lock(mutex_);
        return moves_.size();
    }

  private:
    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<Move> moves_;
};

TEST(Search, StopEndsInfiniteSearchWithOneBestMove) {
    TranspositionTable tt;
    Search search(tt);
    Signals signals;
    SearchLimits limits;
    limits.infinite = true;
    SearchCallbacks cb;
    cb.onBestMove = [&](const Move& m, const Move&) { signals.bestmove(m); };
    search.start(Position::startPosition(), {}, limits, {}, cb);
    EXPECT_FALSE(signals.waitFor(1, std::chrono::milliseconds(200)));  // keeps analysing
    search.stop();
    EXPECT_TRUE(signals.waitFor(1, std::chrono::seconds(10)));
    search.wait();
    search.stop();  // harmless without a search
    EXPECT_EQ(signals.count(), 1u);
}

TEST(Search, PonderWaitsForPonderhit) {
    TranspositionTable tt;
    Search search(tt);
    Signals signals;
    SearchLimits limits;
    limits.ponder = true;
    limits.clock.moveTime = 50;
    SearchCallbacks cb;
    cb.onBestMove = [&](const Move& m, const Move&) { signals.bestmove(m); };
    search.start(Position::startPosition(), {}, limits, {}, cb);
    EXPECT_FALSE(signals.waitFor(1, std::chrono::milliseconds(300)));  // longer than movetime
    search.ponderhit();
    EXPECT_TRUE(signals.waitFor(1, std::chrono::seconds(10)));
    search.wait();
    EXPECT_EQ(signals.count(), 1u);
}

// A batch of fast games under a clock, refereed here: no side ever runs out of time, and every
// move is legal. (The budget keeps a wide margin; this checks the logic, not the machine.)
// Time management against the search's own stopping, on a virtual clock that advances 1 ms per
// reading (the search reads it every 1024 nodes), so the test does not depend on the machine's
// speed or load: with 1 s + 10 ms per game and a 10 ms overhead, no move may use more than the
// time left. The real clock is exercised by the soak runs (scripts/soak.sh).
TEST(Search, FastGamesNeverLoseOnTime) {
    TranspositionTable tt;
    Search search(tt);
    std::int64_t virtualMs = 0;
    int longestMove = 0;
    for (int game = 0; game < 2; ++game) {
        Game g;
        std::int64_t clock[2] = {1000, 1000};
        const std::int64_t inc = 10;
        for (int ply = 0; ply < 60 && !g.status(DrawRules{}).over(); ++ply) {
            const Color us = g.current().sideToMove();
            SearchLimits limits;
            limits.clock.time[0] = clock[0];
            limits.clock.time[1] = clock[1];
            limits.clock.inc[0] = limits.clock.inc[1] = inc;
            SearchSettings settings;
            settings.moveOverheadMs = 10;
            settings.clockMs = [&virtualMs] { return ++virtualMs; };
            const std::int64_t before = virtualMs;
            const SearchResult r = search.run(g.current(), g.keys(), limits, settings);
            const std::int64_t used = virtualMs - before;
            longestMove = std::max(longestMove, static_cast<int>(used));
            clock[index(us)] -= used;
            ASSERT_GT(clock[index(us)], 0) << "flag fell at ply " << ply;
            clock[index(us)] += inc;
            MoveList legal;
            generateMoves(g.current(), legal);
            ASSERT_TRUE(legal.contains(r.best));
            g.play(r.best);
        }
    }
    EXPECT_GT(longestMove, 20);  // the budgets were used, not just the first iteration
}

}  // namespace
}  // namespace lasca::search

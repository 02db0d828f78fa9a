// The search: iterative deepening principal variation search over a shared transposition
// table, run by one or more threads (Lazy SMP). It never prints: it reports through callbacks.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "lasca/core/game.h"
#include "lasca/core/move.h"
#include "lasca/core/position.h"
#include "lasca/egtb/egtb.h"
#include "lasca/eval/eval.h"
#include "lasca/eval/nnue.h"
#include "lasca/search/timeman.h"
#include "lasca/search/tt.h"

namespace lasca::search {

inline constexpr int kMaxDepth = 100;
inline constexpr int kMaxThreads = 256;
inline constexpr int kMaxMultiPV = 64;

// What limits one search (all optional; with none, the search runs until stopped).
struct SearchLimits {
    int depth = 0;            // 0 = no depth limit
    std::uint64_t nodes = 0;  // 0 = no node limit
    int mate = 0;             // stop once a win in at most this many moves is proven
    bool infinite = false;    // analyse until `stop`
    bool ponder = false;      // pondering: timed only after ponderhit
    ClockLimits clock;
    std::vector<Move> searchMoves;  // restrict the root to these moves (empty = all)
};

// SearchParams: the numbers of the search's pruning, reduction and window rules, gathered so
// that they can be tuned (`lasca-tune spsa`, docs/tuning.md) through the engine's options of the
// same names (protocol.md). The defaults are the values SPSA found (docs/tuning.md): 108, 4, 59,
// 207, 3, 2, 25, 50, 4, 416 in the order below; the bench pins count nodes with them. All are
// whole numbers; the engine's options keep each within a range where the search stays sound
// (see engine.cpp).
//   rfpMargin, rfpDepth     Step 5, reverse futility pruning: a quiet non-PV node at depth <=
//                           rfpDepth whose static evaluation exceeds beta by rfpMargin per ply
//                           of depth returns it (centi-soldiers; rfpDepth 0 turns it off)
//   lmrBase, lmrDivisor     Step 7, the late move reduction of the move at index m (0-based in
//                           the ordered list) at depth d: lmrBase/100 + ln(d) ln(m) /
//                           (lmrDivisor/100), truncated; both in hundredths (lmrDivisor > 0)
//   lmrMinDepth, lmrMinMove reductions only at depth >= lmrMinDepth (>= 2) and for moves at
//                           index >= lmrMinMove (>= 1)
//   aspirationDelta         half the width of the first aspiration window (centi-soldiers)
//   aspirationGrowth        after each fail the window's delta grows by this percentage of
//                           itself (at least 1)
//   aspirationDepth         the iteration from which windows are used (earlier: full width)
//   historyBonusMax         the cap of a history update, depth * depth (as for a cutoff)
struct SearchParams {
    int rfpMargin = 108;
    int rfpDepth = 4;
    int lmrBase = 59;
    int lmrDivisor = 207;
    int lmrMinDepth = 3;
    int lmrMinMove = 2;
    int aspirationDelta = 25;
    int aspirationGrowth = 50;
    int aspirationDepth = 4;
    int historyBonusMax = 416;
    bool operator==(const SearchParams&) const = default;
};

// ReductionTable: the late move reductions by depth (0..kMaxDepth) and move index (0..63,
// later moves as 63), computed from SearchParams once per search whose parameters changed.
// 101 x 64 bytes.
class ReductionTable {
  public:
    explicit ReductionTable(const SearchParams& params = {});
    int operator()(int depth, int moveIndex) const {
        return r_[static_cast<std::size_t>(std::min(depth, kMaxDepth))]
                 [static_cast<std::size_t>(std::min(moveIndex, kMaxReductionMove))];
    }

  private:
    static constexpr int kMaxReductionMove = 63;
    std::array<std::array<std::int8_t, kMaxReductionMove + 1>, kMaxDepth + 1> r_{};
};

// Engine-wide settings that shape a search (from the options).
struct SearchSettings {
    int threads = 1;
    int multiPV = 1;
    std::int64_t moveOverheadMs = 30;
    DrawRules rules;
    const eval::EvalWeights* weights = &eval::tunedWeights();  // never null
    // The learned evaluation (nnue.h); null: the classic evaluation with `weights`.
    std::shared_ptr<const eval::nnue::Network> network;
    SearchParams params;  // the tunable numbers (defaults: the first SPSA run's set)
    TimeParams time;      // the time manager's numbers (timeman.h)
    // Exact endgame tables (docs/egtb.md), probed at every node they hold (step 2a); null: none.
    std::shared_ptr<const egtb::Tablebase> tablebase;
    // The clock the time limits and the reported times are read from, in milliseconds from any
    // origin; empty means the steady clock. Read by the thread that runs the main search (and
    // by ponderhit). Tests give one that advances with each reading, so that time management
    // can be checked without depending on the machine's speed.
    std::function<std::int64_t()> clockMs;
};

// One progress report: a line of `info` in the protocol.
struct SearchInfo {
    int depth = 0;
    int selDepth = 0;
    int multiPV = 1;
    Score score = 0;
    Bound bound = Bound::Exact;  // Lower/Upper for an aspiration fail high/low
    std::uint64_t nodes = 0;
    std::int64_t timeMs = 0;
    int hashfull = 0;
    std::vector<Move> pv;
};

struct SearchCallbacks {
    std::function<void(const SearchInfo&)> onInfo;
    std::function<void(const Move& best, const Move& ponder)> onBestMove;
};

// The outcome of a finished search, for bench and tests.
struct SearchResult {
    Move best{};
    Move ponder{};
    Score score = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
};

// Moves written as a score for the protocol: `mate N` distance in moves (negative when losing).
bool isMateScore(Score s);
int mateInMoves(Score s);

class Worker;

// Search: owns the worker threads and the stop/ponder signals. start() returns at once; the
// main worker reports through the callbacks and ends with exactly one onBestMove per start().
class Search {
  public:
    explicit Search(TranspositionTable& tt);
    ~Search();
    Search(const Search&) = delete;
    Search& operator=(const Search&) = delete;

    // `history` holds the keys of the game's positions before the root (oldest first).
    void start(const Position& root, const std::vector<Key>& history, const SearchLimits& limits,
               const SearchSettings& settings, SearchCallbacks callbacks);
    void stop();       // ends the search soon; bestmove follows
    void ponderhit();  // the expected move was played: think on with the clock
    void wait();       // returns once the bestmove has been reported
    bool running() const { return running_.load(); }
    void clear();  // forget killers and histories (new game)

    // Runs a search to the end on this thread (its main worker; helpers on threads of their
    // own), for bench, tools and tests. stop() from another thread ends it soon.
    SearchResult run(const Position& root, const std::vector<Key>& history,
                     const SearchLimits& limits, const SearchSettings& settings,
                     const std::function<void(const SearchInfo&)>& onInfo = {});

  private:
    friend class Worker;
    // Ends any search running, then sets the next one up (start() and run()).
    void prepare(const Position& root, const std::vector<Key>& history, const SearchLimits& limits,
                 const SearchSettings& settings);
    void mainLoop(SearchCallbacks callbacks);
    void prepareWorkers(int count);
    std::uint64_t totalNodes() const;
    std::int64_t elapsedMs() const;
    bool outOfTime() const;

    TranspositionTable& tt_;
    std::vector<std::unique_ptr<Worker>> workers_;
    std::thread mainThread_;

    // Shared state of the running search.
    Position root_;
    std::vector<Key> history_;
    SearchLimits limits_;
    SearchSettings settings_;
    TimeBudget budget_;
    std::int64_t nowMs() const;  // settings_.clockMs, or the steady clock
    std::int64_t startMs_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<bool> running_{false};
    std::atomic<bool> pondering_{false};
    std::atomic<std::int64_t> timerStartOffsetMs_{0};  // moved forward by ponderhit
    std::mutex waitMutex_;
    std::condition_variable waitSignal_;
    SearchResult result_;
    // The reductions of settings_.params, rebuilt by start() when the parameters changed.
    SearchParams reductionParams_;
    ReductionTable reductions_;
};

}  // namespace lasca::search

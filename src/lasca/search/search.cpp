#include "lasca/search/search.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "lasca/core/movegen.h"

namespace lasca::search {

bool isMateScore(Score s) {
    return s >= kMateBound || s <= -kMateBound;
}
int mateInMoves(Score s) {
    return s > 0 ? (kMate - s + 1) / 2 : -((kMate + s) / 2);
}

namespace {

constexpr std::size_t at(int i) {
    return static_cast<std::size_t>(i);
}

// The table's evaluation of a node that did not compute one (outside every evaluation's range).
constexpr Score kNoEval = kInfinite;

// Move ordering scores.
constexpr int kTTMoveScore = 1 << 30;
constexpr int kCaptureBase = 1 << 24;
constexpr int kKillerScore = 1 << 20;

// A capture's worth for ordering: the commanders it takes (officers more) and the own
// pieces it sets free (the piece under a taken commander becomes ours again).
int captureOrderScore(const Position& pos, const Move& m) {
    const Color us = pos.sideToMove();
    int score = 0;
    for (int i = 0; i < m.length; ++i) {
        const Square victim = m.jumped(i);
        score += isOfficer(pos.commander(victim)) ? 300 : 100;
        if (pos.height(victim) > 1 && colorOf(pos.pieceAt(victim, 1)) == us) score += 150;
    }
    return score;
}

}  // namespace

// Late move reductions, indexed by depth and move number (log-log, as in most engines). The
// parameters in hundredths are turned into the same doubles as the literals 0.6 and 2.2 the
// table was first written with (division is correctly rounded), so the defaults give the same
// table bit for bit.
ReductionTable::ReductionTable(const SearchParams& params) {
    const double base = params.lmrBase / 100.0;
    const double divisor = params.lmrDivisor / 100.0;
    for (int d = 1; d <= kMaxDepth; ++d)
        for (int m = 1; m <= kMaxReductionMove; ++m)
            r_[at(d)][at(m)] =
                static_cast<std::int8_t>(base + std::log(static_cast<double>(d)) *
                                                    std::log(static_cast<double>(m)) / divisor);
}

// Per-ply principal variation storage (triangular PV).
struct PVLine {
    int length = 0;
    std::array<Move, kMaxPly> moves{};
    void set(const Move& first, const PVLine& rest) {
        moves[0] = first;
        length = std::min(rest.length + 1, kMaxPly);
        for (int i = 1; i < length; ++i) moves[at(i)] = rest.moves[at(i - 1)];
    }
};

// A root move with its score from the current and the previous iteration.
struct RootMove {
    Move move{};
    Score score = -kInfinite;
    Score previousScore = -kInfinite;
    int selDepth = 0;
    std::vector<Move> pv;
};

// Worker: one search thread's private state.
//   pos, keys    the position being searched and the keys of every position before it on
//                the game + search path (repetition detection, T1)
//   killers      two quiet moves per ply that recently caused a cutoff
//   history      cutoff statistics of quiet moves by (from, destination)
//   nodes        positions visited in this search (read by the main worker for reports)
//   params       the search's tunable numbers (SearchParams), copied at the start of each
//                search; the reductions they give are the Search's table, shared
class Worker {
  public:
    Worker(Search& owner, int id) : search_(owner), id_(id) {}

    void clearHistory() {
        for (auto& k : killers_) k = {Move{}, Move{}};
        for (auto& row : history_) row.fill(0);
    }
    std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
    // Only this worker writes its counter: a plain increment, visible to the reporting thread.
    void countNode() { nodes_.store(nodes() + 1, std::memory_order_relaxed); }
    SearchResult iterate(const std::function<void(const SearchInfo&)>& report);

  private:
    Score searchRoot(Score alpha, Score beta, int depth, int pvIndex);
    Score search(Score alpha, Score beta, int depth, int ply, bool pvNode);
    bool isRepetition(int ply) const;
    bool shouldStop();
    void orderMoves(const MoveList& list, std::array<int, kMaxMoves>& scores, int ply,
                    std::uint8_t ttMove) const;
    void rewardQuiet(const Move& m, int depth, int ply, const MoveList& list, std::size_t tried,
                     const std::array<std::size_t, kMaxMoves>& order);
    // With a network, every make moves one ply up and records the columns the move changed;
    // the accumulator of that ply is brought up to date only when the ply is evaluated
    // (accumulatorFor), from the nearest ply below that is, so that the many nodes that are
    // never evaluated (cut by the table, repetitions, hash evaluations) cost no update. Unmake
    // just steps back down (the plies below are kept).
    void makeMove(const Move& m, Undo& undo) {
        keys_.push_back(pos_.key());
        if (!network_) {
            pos_.make(m, undo);
            return;
        }
        const auto next = static_cast<std::size_t>(accumulatorTop_ + 1);
        changes_[next].recordBefore(pos_, m);
        pos_.make(m, undo);
        changes_[next].recordAfter(pos_);
        current_[next] = false;
        ++accumulatorTop_;
    }
    void unmakeMove(const Move& m, const Undo& undo) {
        pos_.unmake(m, undo);
        keys_.pop_back();
        if (network_) --accumulatorTop_;
    }
    const eval::nnue::Accumulator& accumulatorFor() {
        auto top = static_cast<std::size_t>(accumulatorTop_);
        std::size_t from = top;
        while (!current_[from]) --from;  // ply 0 is always current
        for (std::size_t k = from + 1; k <= top; ++k) {
            eval::nnue::updateAccumulator(*network_, accumulators_[k - 1], changes_[k],
                                          accumulators_[k]);
            current_[k] = true;
        }
        return accumulators_[top];
    }
    // The static evaluation of pos_: the network's when the settings carry one.
    Score staticEvaluation() {
        if (!network_) return eval::evaluate(pos_, *search_.settings_.weights);
        return eval::nnue::staticScore(*network_, accumulatorFor(), pos_,
                                       *search_.settings_.weights);
    }
    // The aspiration window's next delta after a fail: grown by aspirationGrowth percent, at
    // least by 1, and capped at 2 * kInfinite (any delta from there opens the window fully, so
    // the cap changes nothing but keeps the number from overflowing).
    Score widerDelta(Score delta) const {
        const Score grown = delta + std::max(1, delta * params_.aspirationGrowth / 100);
        return std::min(grown, 2 * kInfinite);
    }
    SearchInfo infoFor(const RootMove& rm, int depth, int pvIndex, Bound bound) const;
    void publish(const RootMove& rm, int pvIndex, Bound bound,
                 const std::function<void(const SearchInfo&)>& report, SearchResult& result);

    Search& search_;
    int id_;
    Position pos_;
    std::vector<Key> keys_;
    SearchParams params_;  // the search's tunable numbers (a copy of the settings')
    // The network of this search (null: the classic evaluation) and, per ply of the path from
    // the root: the accumulator (512 bytes), whether it is up to date, and the columns the
    // move into that ply changed (about 0.4 KB).
    const eval::nnue::Network* network_ = nullptr;
    std::array<eval::nnue::Accumulator, kMaxPly + 2> accumulators_{};
    std::array<bool, kMaxPly + 2> current_{};
    std::array<eval::nnue::ChangedColumns, kMaxPly + 2> changes_{};
    int accumulatorTop_ = 0;
    std::vector<RootMove> rootMoves_;
    std::array<PVLine, kMaxPly + 1> pv_{};
    std::array<std::array<Move, 2>, kMaxPly + 1> killers_{};
    std::array<std::array<int, kSquares>, kSquares> history_{};
    std::atomic<std::uint64_t> nodes_{0};
    int selDepth_ = 0;
    int rootDepth_ = 0;
    bool stopped_ = false;
};

// ---------------------------------------------------------------------------------------------
// Worker: iterative deepening at the root

SearchInfo Worker::infoFor(const RootMove& rm, int depth, int pvIndex, Bound bound) const {
    SearchInfo info;
    info.depth = depth;
    info.selDepth = std::max(rm.selDepth, depth);
    info.multiPV = pvIndex + 1;
    info.score = rm.score == -kInfinite ? rm.previousScore : rm.score;
    info.bound = bound;
    info.nodes = search_.totalNodes();
    info.timeMs = search_.elapsedMs();
    info.hashfull = search_.tt_.hashfull();
    info.pv = rm.pv;
    return info;
}

// Reports one line; the first line's PV becomes the answer, so that bestmove is always the
// first move of the last PV reported.
void Worker::publish(const RootMove& rm, int pvIndex, Bound bound,
                     const std::function<void(const SearchInfo&)>& report, SearchResult& result) {
    if (pvIndex == 0) {
        result.best = rm.pv.front();
        result.ponder = rm.pv.size() > 1 ? rm.pv[1] : Move{};
        result.score = rm.score == -kInfinite ? rm.previousScore : rm.score;
        result.depth = rootDepth_;
    }
    if (report) report(infoFor(rm, rootDepth_, pvIndex, bound));
}

SearchResult Worker::iterate(const std::function<void(const SearchInfo&)>& report) {
    pos_ = search_.root_;
    keys_ = search_.history_;
    network_ = search_.settings_.network.get();
    params_ = search_.settings_.params;
    accumulatorTop_ = 0;
    if (network_) eval::nnue::refreshAccumulator(*network_, pos_, accumulators_[0]);
    current_[0] = true;
    nodes_ = 0;
    stopped_ = false;
    rootMoves_.clear();
    MoveList legal;
    generateMoves(pos_, legal);
    for (const Move& m : legal) {
        const auto& only = search_.limits_.searchMoves;
        if (only.empty() || std::find(only.begin(), only.end(), m) != only.end())
            rootMoves_.push_back(RootMove{m, -kInfinite, -kInfinite, 0, {m}});
    }
    SearchResult result;
    if (rootMoves_.empty()) return result;

    const bool isMain = id_ == 0;
    const int multiPV =
        std::min<int>(search_.settings_.multiPV, static_cast<int>(rootMoves_.size()));
    const int maxDepth =
        search_.limits_.depth > 0 ? std::min(search_.limits_.depth, kMaxDepth) : kMaxDepth;
    const bool timed = search_.budget_.limited();
    const bool analysing = search_.limits_.infinite || search_.limits_.ponder;

    for (rootDepth_ = 1 + (id_ % 2); rootDepth_ <= maxDepth; ++rootDepth_) {
        for (RootMove& rm : rootMoves_) rm.previousScore = rm.score;
        for (int pvIndex = 0; pvIndex < multiPV && !stopped_; ++pvIndex) {
            selDepth_ = 0;
            Score previous = rootMoves_[at(pvIndex)].previousScore;
            Score delta = params_.aspirationDelta;
            Score alpha = -kInfinite, beta = kInfinite;
            if (rootDepth_ >= params_.aspirationDepth && previous != -kInfinite &&
                !isMateScore(previous)) {
                alpha = std::max(previous - delta, -kInfinite);
                beta = std::min(previous + delta, kInfinite);
            }
            while (true) {
                const Score score = searchRoot(alpha, beta, rootDepth_, pvIndex);
                std::stable_sort(
                    rootMoves_.begin() + pvIndex, rootMoves_.end(),
                    [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
                if (stopped_) break;
                if (score <= alpha) {
                    if (isMain && report && search_.elapsedMs() > 2000)
                        publish(rootMoves_[at(pvIndex)], pvIndex, Bound::Upper, report, result);
                    beta = (alpha + beta) / 2;
                    alpha = std::max(score - delta, -kInfinite);
                } else if (score >= beta) {
                    if (isMain && report && search_.elapsedMs() > 2000)
                        publish(rootMoves_[at(pvIndex)], pvIndex, Bound::Lower, report, result);
                    beta = std::min(score + delta, kInfinite);
                } else {
                    break;
                }
                delta = widerDelta(delta);
            }
            std::stable_sort(
                rootMoves_.begin(), rootMoves_.begin() + pvIndex + 1,
                [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
        }
        if (stopped_ && rootDepth_ > 1) break;  // this iteration is incomplete: keep the last
        if (!isMain) continue;

        for (int pvIndex = 0; pvIndex < multiPV; ++pvIndex)
            publish(rootMoves_[at(pvIndex)], pvIndex, Bound::Exact, report, result);

        // Stop deepening when the limits say so.
        const Score best = rootMoves_[0].score;
        if (search_.limits_.mate > 0 && best >= kMateBound &&
            mateInMoves(best) <= search_.limits_.mate)
            break;
        if (isMateScore(best) && rootDepth_ >= kMate - std::abs(best) + 2 && !analysing) break;
        if (timed && !search_.pondering_.load()) {
            if (rootMoves_.size() == 1 && !analysing) break;  // a single legal move: play it
            // Another iteration takes longer than all before it: do not start one that
            // cannot finish (a fixed movetime runs to its end instead).
            if (!search_.budget_.fixed &&
                search_.elapsedMs() - search_.timerStartOffsetMs_.load() > search_.budget_.deepen)
                break;
        }
        if (search_.limits_.nodes > 0 && search_.totalNodes() >= search_.limits_.nodes) break;
    }
    result.nodes = nodes();
    return result;
}

Score Worker::searchRoot(Score alpha, Score beta, int depth, int pvIndex) {
    Score bestScore = -kInfinite;
    for (std::size_t i = static_cast<std::size_t>(pvIndex); i < rootMoves_.size(); ++i) {
        RootMove& rm = rootMoves_[i];
        Undo undo{};
        makeMove(rm.move, undo);
        countNode();
        Score score;
        if (i == static_cast<std::size_t>(pvIndex)) {
            score = -search(-beta, -alpha, depth - 1, 1, true);
        } else {
            score = -search(-alpha - 1, -alpha, depth - 1, 1, false);
            if (score > alpha && score < beta) score = -search(-beta, -alpha, depth - 1, 1, true);
        }
        unmakeMove(rm.move, undo);
        if (stopped_) return bestScore;
        if (score > alpha || i == static_cast<std::size_t>(pvIndex)) {
            rm.score = score;
            rm.selDepth = selDepth_;
            rm.pv.assign(1, rm.move);
            for (int k = 0; k < pv_[1].length; ++k) rm.pv.push_back(pv_[1].moves[at(k)]);
        } else {
            rm.score = -kInfinite;  // only an upper bound: sorts below the moves that improved
        }
        if (score > bestScore) bestScore = score;
        if (score > alpha) {
            alpha = score;
            if (alpha >= beta) return alpha;
        }
    }
    return bestScore;
}

// ---------------------------------------------------------------------------------------------
// Worker: the recursive search

// The first iteration always completes, so that the best move is a searched, legal move.
bool Worker::shouldStop() {
    if (rootDepth_ <= 1) return false;
    if (search_.stop_.load(std::memory_order_relaxed)) return true;
    if (id_ != 0) return false;
    const std::uint64_t limit = search_.limits_.nodes;
    if (limit > 0) {
        const std::uint64_t used = search_.settings_.threads == 1
                                       ? nodes()
                                       : (nodes() % 1024 == 0 ? search_.totalNodes() : 0);
        if (used >= limit) return true;
    }
    if ((nodes() & 1023) == 0 && search_.outOfTime()) return true;
    return false;
}

bool Worker::isRepetition(int ply) const {
    const Key now = pos_.key();
    const int available = static_cast<int>(keys_.size());
    const int reach = std::min(pos_.quietPlies(), available);
    int earlier = 0;
    for (int back = 2; back <= reach; back += 2) {
        if (keys_[at(available - back)] != now) continue;
        if (back <= ply) return true;     // repeated inside the search: a draw by our choice
        if (++earlier >= 2) return true;  // the third occurrence in the game (T1)
    }
    return false;
}

void Worker::orderMoves(const MoveList& list, std::array<int, kMaxMoves>& scores, int ply,
                        std::uint8_t ttMove) const {
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Move& m = list[i];
        int s;
        if (i == ttMove)
            s = kTTMoveScore;
        else if (m.capture)
            s = kCaptureBase + captureOrderScore(pos_, m);
        else if (m == killers_[at(ply)][0])
            s = kKillerScore + 1;
        else if (m == killers_[at(ply)][1])
            s = kKillerScore;
        else
            s = history_[at(m.origin())][at(m.destination())];
        scores[i] = s;
    }
}

void Worker::rewardQuiet(const Move& m, int depth, int ply, const MoveList& list, std::size_t tried,
                         const std::array<std::size_t, kMaxMoves>& order) {
    if (!(killers_[at(ply)][0] == m)) {
        killers_[at(ply)][1] = killers_[at(ply)][0];
        killers_[at(ply)][0] = m;
    }
    const int bonus = std::min(depth * depth, params_.historyBonusMax);
    auto update = [](int& h, int delta) { h += delta - h * std::abs(delta) / 16384; };
    update(history_[at(m.origin())][at(m.destination())], bonus);
    for (std::size_t k = 0; k < tried; ++k) {  // the quiet moves tried before it failed
        const Move& other = list[order[k]];
        if (!other.capture && !(other == m))
            update(history_[at(other.origin())][at(other.destination())], -bonus);
    }
}

Score Worker::search(Score alpha, Score beta, int depth, int ply, bool pvNode) {
    pv_[at(ply)].length = 0;
    if (shouldStop()) {
        stopped_ = true;
        return 0;
    }
    selDepth_ = std::max(selDepth_, ply);
    const DrawRules& rules = search_.settings_.rules;

    // Step 1: draws by the tournament rules, and the ply ceiling.
    if (rules.repetition && isRepetition(ply)) return kDraw;
    if (rules.noProgress && pos_.quietPlies() >= kNoProgressPlies)
        return hasLegalMove(pos_) ? kDraw : -kMate + ply;
    if (ply >= kMaxPly - 1) return staticEvaluation();

    // Step 2: mate distance pruning: no result here can beat a shorter win already found.
    alpha = std::max(alpha, -kMate + ply);
    beta = std::min(beta, kMate - ply - 1);
    if (alpha >= beta) return alpha;

    // Step 2a: endgame tables. A position they hold has its exact value: a win or loss in d
    // plies from here scores as a win found at ply + d. Skipped when T2 could end the game
    // first (the counter plus the table's distance beyond 100 plies) or the distance would not
    // fit a mate score.
    if (const auto& tb = search_.settings_.tablebase; tb && popcount(pos_.occupied()) <= 3) {
        if (const auto probe = tb->probeUnder(pos_, rules);
            probe && ply + probe->plies < 2 * kMaxPly) {
            if (probe->wdl == egtb::Wdl::Win) return kMate - ply - probe->plies;
            if (probe->wdl == egtb::Wdl::Loss) return -kMate + ply + probe->plies;
            return kDraw;
        }
    }

    // Step 3: transposition table. The moves are generated while the table's line loads (the
    // probe's cache miss is the largest single cost of a node); a cutoff leaves them unused.
    const Key key = pos_.key();
    search_.tt_.prefetch(key);
    MoveList list;
    generateMoves(pos_, list);
    const TTHit hit = search_.tt_.probe(key);
    const Score ttScore = hit.found ? scoreFromTT(hit.score, ply) : 0;
    if (hit.found && !pvNode && hit.depth >= depth &&
        (hit.bound == Bound::Exact || (hit.bound == Bound::Lower && ttScore >= beta) ||
         (hit.bound == Bound::Upper && ttScore <= alpha)))
        return ttScore;

    // Step 4: moves. No legal move loses (R9). Captures are compulsory, so a position with a
    // capture pending is never quiet: at depth 0 the search goes on through captures only
    // (the quiescence search) and stops at the first quiet position.
    if (list.empty()) return -kMate + ply;
    const bool capturesPending = list[0].capture;
    // The static evaluation is read only at a quiet leaf and by reverse futility pruning (step
    // 5); elsewhere it is not computed (with a network that saves its updates too), and the
    // table keeps kNoEval, or what it knew. Never a different search: the evaluation is a
    // function of the position, computed whenever a node reads it.
    const bool quietLeaf = depth <= 0 && !capturesPending;
    const bool futilityNode =
        !pvNode && !capturesPending && depth <= params_.rfpDepth && !isMateScore(beta);
    Score staticEval = hit.found ? hit.eval : kNoEval;
    if ((quietLeaf || futilityNode) && staticEval == kNoEval) staticEval = staticEvaluation();
    if (quietLeaf) return staticEval;

    // Step 5: reverse futility pruning: a quiet position far above beta near the leaves.
    if (futilityNode && staticEval - params_.rfpMargin * depth >= beta) return staticEval;

    // Step 6: extension of forced replies (a single legal move costs nothing to look through).
    const int extension = list.size() == 1 && depth > 0 && ply < 2 * rootDepth_ ? 1 : 0;

    // Only the first list.size() entries are used: left uninitialised (zeroing 3 KB a node
    // cost about 5% of the search's time).
    std::array<int, kMaxMoves> scores;
    orderMoves(list, scores, ply, hit.found ? hit.move : kNoMoveId);
    std::array<std::size_t, kMaxMoves> order;
    for (std::size_t i = 0; i < list.size(); ++i) order[i] = i;

    const Score originalAlpha = alpha;
    Score bestScore = -kInfinite;
    std::uint8_t bestMove = kNoMoveId;
    for (std::size_t i = 0; i < list.size(); ++i) {
        // Pick the best-scored remaining move (selection sort: cutoffs come early).
        std::size_t pick = i;
        for (std::size_t k = i + 1; k < list.size(); ++k)
            if (scores[order[k]] > scores[order[pick]]) pick = k;
        std::swap(order[i], order[pick]);
        const Move& m = list[order[i]];

        const int newDepth = depth > 0 ? depth - 1 + extension : 0;
        Undo undo{};
        makeMove(m, undo);
        countNode();
        Score score;
        if (i == 0) {
            score = -search(-beta, -alpha, newDepth, ply + 1, pvNode);
        } else {
            // Step 7: late move reductions for quiet moves ordered late.
            int reduction = 0;
            if (depth >= params_.lmrMinDepth && !m.capture &&
                static_cast<int>(i) >= params_.lmrMinMove) {
                reduction = search_.reductions_(depth, static_cast<int>(i));
                if (pvNode) reduction = std::max(0, reduction - 1);
                reduction = std::clamp(reduction, 0, newDepth - 1);
            }
            score = -search(-alpha - 1, -alpha, newDepth - reduction, ply + 1, false);
            if (score > alpha && reduction > 0)
                score = -search(-alpha - 1, -alpha, newDepth, ply + 1, false);
            if (score > alpha && score < beta && pvNode)
                score = -search(-beta, -alpha, newDepth, ply + 1, true);
        }
        unmakeMove(m, undo);
        if (stopped_) return 0;

        if (score > bestScore) {
            bestScore = score;
            bestMove = static_cast<std::uint8_t>(order[i]);
            if (score > alpha) {
                alpha = score;
                if (pvNode) pv_[at(ply)].set(m, pv_[at(ply + 1)]);
                if (alpha >= beta) {
                    if (!m.capture) rewardQuiet(m, std::max(depth, 1), ply, list, i, order);
                    break;
                }
            }
        }
    }

    const Bound bound = bestScore >= beta           ? Bound::Lower
                        : bestScore > originalAlpha ? Bound::Exact
                                                    : Bound::Upper;
    search_.tt_.store(key, scoreToTT(bestScore, ply), staticEval, std::max(depth, 0), bound,
                      bestMove);
    return bestScore;
}

// ---------------------------------------------------------------------------------------------
// Search: threads and signals

Search::Search(TranspositionTable& tt) : tt_(tt) {
}

Search::~Search() {
    stop();
    wait();
}

void Search::prepareWorkers(int count) {
    while (static_cast<int>(workers_.size()) < count)
        workers_.push_back(std::make_unique<Worker>(*this, static_cast<int>(workers_.size())));
    while (static_cast<int>(workers_.size()) > count) workers_.pop_back();
}

void Search::clear() {
    for (auto& w : workers_) w->clearHistory();
}

std::uint64_t Search::totalNodes() const {
    std::uint64_t total = 0;
    for (const auto& w : workers_) total += w->nodes();
    return total;
}

std::int64_t Search::nowMs() const {
    if (settings_.clockMs) return settings_.clockMs();
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::int64_t Search::elapsedMs() const {
    return nowMs() - startMs_;
}

bool Search::outOfTime() const {
    if (!budget_.limited() || pondering_.load()) return false;
    return elapsedMs() - timerStartOffsetMs_.load() >= budget_.hard;
}

void Search::start(const Position& root, const std::vector<Key>& history,
                   const SearchLimits& limits, const SearchSettings& settings,
                   SearchCallbacks callbacks) {
    prepare(root, history, limits, settings);
    mainThread_ =
        std::thread([this, cb = std::move(callbacks)]() mutable { mainLoop(std::move(cb)); });
}

void Search::prepare(const Position& root, const std::vector<Key>& history,
                     const SearchLimits& limits, const SearchSettings& settings) {
    stop();
    wait();
    root_ = root;
    history_ = history;
    limits_ = limits;
    settings_ = settings;
    startMs_ = nowMs();
    budget_ = limits.infinite ? TimeBudget{}
                              : planTime(limits.clock, root.sideToMove(), settings.moveOverheadMs,
                                         settings.time);
    timerStartOffsetMs_ = 0;
    stop_ = false;
    pondering_ = limits.ponder;
    running_ = true;
    if (!(settings.params == reductionParams_)) {
        reductionParams_ = settings.params;
        reductions_ = ReductionTable(settings.params);
    }
    prepareWorkers(std::clamp(settings.threads, 1, kMaxThreads));
    tt_.newSearch();
}

void Search::mainLoop(SearchCallbacks callbacks) {
    std::vector<std::thread> helpers;
    for (std::size_t i = 1; i < workers_.size(); ++i)
        helpers.emplace_back([this, i] { workers_[i]->iterate({}); });
    result_ = workers_[0]->iterate(callbacks.onInfo);

    // In analysis and pondering, bestmove waits for `stop` (or `ponderhit`).
    {
        std::unique_lock lock(waitMutex_);
        waitSignal_.wait(
            lock, [this] { return stop_.load() || (!limits_.infinite && !pondering_.load()); });
    }
    stop_ = true;
    for (auto& t : helpers) t.join();
    result_.nodes = totalNodes();
    // Not running any more before bestmove goes out: a GUI answering it at once with
    // `position` and `go` must find the engine idle.
    running_ = false;
    if (callbacks.onBestMove) callbacks.onBestMove(result_.best, result_.ponder);
}

void Search::stop() {
    {
        std::lock_guard lock(waitMutex_);
        stop_ = true;
    }
    waitSignal_.notify_all();
}

void Search::ponderhit() {
    {
        std::lock_guard lock(waitMutex_);
        timerStartOffsetMs_ = elapsedMs();
        pondering_ = false;
    }
    waitSignal_.notify_all();
}

void Search::wait() {
    if (mainThread_.joinable()) mainThread_.join();
}

SearchResult Search::run(const Position& root, const std::vector<Key>& history,
                         const SearchLimits& limits, const SearchSettings& settings,
                         const std::function<void(const SearchInfo&)>& onInfo) {
    SearchCallbacks callbacks;
    callbacks.onInfo = onInfo;
    SearchLimits bounded = limits;
    bounded.infinite = false;
    bounded.ponder = false;
    // The main worker runs on the calling thread: a new thread for each of many short searches
    // (datagen, relabelling, analysis) would fault in a fresh stack every time.
    prepare(root, history, bounded, settings);
    mainLoop(std::move(callbacks));
    return result_;
}

}  // namespace lasca::search

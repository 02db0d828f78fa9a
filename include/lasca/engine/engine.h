// The engine front object: owns the game, the options, the transposition table and the search
// threads. The protocol layer drives it; it reports through callbacks and never prints.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/options.h"
#include "lasca/core/game.h"
#include "lasca/eval/eval.h"
#include "lasca/search/search.h"
#include "lasca/search/tt.h"

namespace lasca::engine {

// How the protocol hears from the engine while a search runs (called on the search thread).
struct EngineCallbacks {
    std::function<void(const search::SearchInfo&)> onInfo;
    std::function<void(const Move& best, const Move& ponder)> onBestMove;
    std::function<common::Result<bool>(const std::string&)> onLogFile;  // Debug Log File changed
};

// The answer to `position`: the error of the first illegal move, if any.
struct PositionOutcome {
    bool ok = true;
    std::string error;   // "illegal move <m> at ply <k>"
    int illegalPly = 0;  // 1-based ply of the offending move
};

// Engine: the state behind one protocol session.
//   game_        start position, moves played (all legal), keys for repetitions
//   forfeitBy_   the side whose move in the last `position` was illegal: it has lost (the UGI
//                host never checks moves, so the engine keeps score)
//   options_, tt_, search_ as their names say; search_ uses tt_.
class Engine {
  public:
    explicit Engine(EngineCallbacks callbacks = {});
    ~Engine();

    common::Options& options() { return options_; }
    const Game& game() const { return game_; }

    // `position`: keeps the moves up to the first illegal one.
    PositionOutcome setPosition(const Position& start, const std::vector<std::string>& moves);
    void newGame();  // clears the hash, histories, killers, and returns to the start position

    DrawRules drawRules() const;
    const eval::EvalWeights& evalWeights() const;  // tuned, or material only (EvalMaterialOnly)
    // The network searches use: null when UseNNUE is off or EvalMaterialOnly is on.
    std::shared_ptr<const eval::nnue::Network> network() const;
    static const bool kUseNnueByDefault;  // UseNNUE's default
    // The network a fresh engine searches with (null when UseNNUE is off by default): bench's.
    static std::shared_ptr<const eval::nnue::Network> defaultEvalNetwork();
    GameStatus status() const;  // R9, T1, T2 and a forfeit by an illegal move
    // The endgame tables' result for the current position when EgtbPath holds it and it holds
    // under the draw rules (egtb::Tablebase::probeUnder): what the search scores it with.
    std::optional<egtb::Probe> tableResult() const;

    // The settings the next `go` searches with, from the options.
    search::SearchSettings searchSettings() const;
    // `go`: starts searching in the background; the bestmove comes through onBestMove.
    void go(const search::SearchLimits& limits);
    void stop() { search_.stop(); }
    void ponderhit() { search_.ponderhit(); }
    void waitForSearch() { search_.wait(); }
    bool searching() const { return search_.running(); }

    // `bench`: fixed positions searched to `depth` with one thread and a 16 MB hash.
    struct BenchResult {
        std::uint64_t nodes = 0;
        std::int64_t timeMs = 0;
        std::vector<Move> bestMoves;
    };
    // `network`: the learned evaluation to search with (null: the classic one).
    static BenchResult bench(int depth, std::shared_ptr<const eval::nnue::Network> network);
    static constexpr int kDefaultBenchDepth = 13;
    static const std::vector<std::string>& benchPositions();

  private:
    void declareOptions();

    EngineCallbacks callbacks_;
    common::Options options_;
    search::TranspositionTable tt_;
    search::Search search_;
    Game game_;
    std::optional<Color> forfeitBy_;
    std::shared_ptr<const eval::nnue::Network> network_ =
        eval::nnue::defaultNetwork();                   // EvalFile's
    std::shared_ptr<const egtb::Tablebase> tablebase_;  // EgtbPath's; null: none
};

}  // namespace lasca::engine

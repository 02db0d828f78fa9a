// The analyser: the search run in-process, one position at a time, for scripted analysis
// (`lasca analyse`, `lasca find-wins`). Each analyser owns its transposition table and search,
// so several can run side by side, one per job; with one search thread and a node or depth
// limit the same position gives the same answer on every run and machine.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/result.h"
#include "lasca/core/game.h"
#include "lasca/egtb/egtb.h"
#include "lasca/engine/engine.h"
#include "lasca/eval/nnue.h"
#include "lasca/search/search.h"
#include "lasca/search/tt.h"

namespace lasca::analysis {

// AnalysisSettings: how every position is searched.
//   limits   depth, nodes or clock.moveTime (ms); infinite and ponder are ignored
//   threads  search threads per position (1: reproducible)
//   multiPV  lines per position, 1..kMaxMultiPV
//   hashMb   the analyser's own transposition table
//   rules    the tournament draw rules T1/T2 the search scores with
//   network  the learned evaluation; by default the engine's (Engine::defaultEvalNetwork,
//            UseNNUE's default); null: the classic evaluation
//   tablebase  the exact endgame tables the search probes (docs/egtb.md); null: none
struct AnalysisSettings {
    search::SearchLimits limits;
    int threads = 1;
    int multiPV = 1;
    std::size_t hashMb = 16;
    DrawRules rules;
    std::shared_ptr<const eval::nnue::Network> network = engine::Engine::defaultEvalNetwork();
    std::shared_ptr<const egtb::Tablebase> tablebase;
};

// PvLine: one line of the last completed iteration, as the search reported it.
//   score   from the side to move's point of view (engine scale, mate-coded: isMateScore)
//   depth   the iteration; selDepth the deepest ply reached
//   pv      the principal variation, never empty
struct PvLine {
    Score score = 0;
    int depth = 0;
    int selDepth = 0;
    std::vector<Move> pv;
};

// PositionAnalysis: the outcome of one search.
//   lines   best first, at most multiPV of them (fewer when there are fewer legal moves);
//           empty only when the side to move has no legal move
//   nodes   searched for this position, over all threads
//   table   the endgame tables' result for the side to move, when the settings' tablebase
//           holds the position and the result holds under the rules (what the search scored
//           it with); nothing otherwise
struct PositionAnalysis {
    std::vector<PvLine> lines;
    std::uint64_t nodes = 0;
    std::optional<egtb::Probe> table;
    bool hasMove() const { return !lines.empty(); }
    const PvLine& best() const { return lines.front(); }
    Move bestMove() const { return lines.front().pv.front(); }
};

// Analyser: a transposition table and a search. Not thread-safe: one per job.
class Analyser {
  public:
    // Errors: a hash size the machine cannot give.
    static common::Result<std::unique_ptr<Analyser>> create(const AnalysisSettings& settings);

    // Forgets everything learnt (hash, killers, histories): call before each game or position
    // that must not depend on what was analysed before it.
    void clear();

    // Searches the position `history` leads to (the keys of the earlier positions it can
    // repeat, oldest first); `only`, when not empty, restricts the root to those moves.
    PositionAnalysis analyse(const Position& pos, const std::vector<Key>& history = {},
                             const std::vector<Move>& only = {});
    // Searches a game's current position, with its repetition history.
    PositionAnalysis analyse(const Game& game);

    const AnalysisSettings& settings() const { return settings_; }

  private:
    explicit Analyser(const AnalysisSettings& settings);

    AnalysisSettings settings_;
    search::TranspositionTable tt_;
    search::Search search_;
};

}  // namespace lasca::analysis

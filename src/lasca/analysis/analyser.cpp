#include "lasca/analysis/analyser.h"

#include <algorithm>

namespace lasca::analysis {

namespace {

// The limits of one analysis search: never open-ended, never pondering.
search::SearchLimits boundedLimits(search::SearchLimits limits, const std::vector<Move>& only) {
    limits.infinite = false;
    limits.ponder = false;
    limits.searchMoves = only;
    return limits;
}

// Keeps the last exact report of each MultiPV rank: the lines of the last iteration.
void keepLine(const search::SearchInfo& info, std::vector<PvLine>& lines) {
    if (info.bound != search::Bound::Exact || info.pv.empty() || info.multiPV < 1) return;
    const auto rank = static_cast<std::size_t>(info.multiPV);
    if (lines.size() < rank) lines.resize(rank);
    lines[rank - 1] = PvLine{info.score, info.depth, info.selDepth, info.pv};
}

}  // namespace

common::Result<std::unique_ptr<Analyser>> Analyser::create(const AnalysisSettings& settings) {
    std::unique_ptr<Analyser> analyser(new Analyser(settings));
    auto resized = analyser->tt_.resize(settings.hashMb);
    if (!resized) return common::makeError(resized.error());
    return analyser;
}

Analyser::Analyser(const AnalysisSettings& settings) : settings_(settings), search_(tt_) {
}

void Analyser::clear() {
    tt_.clear();
    search_.clear();
}

PositionAnalysis Analyser::analyse(const Position& pos, const std::vector<Key>& history,
                                   const std::vector<Move>& only) {
    search::SearchSettings search;
    search.threads = settings_.threads;
    search.multiPV = std::clamp(settings_.multiPV, 1, search::kMaxMultiPV);
    search.moveOverheadMs = 0;
    search.rules = settings_.rules;
    search.network = settings_.network;
    search.tablebase = settings_.tablebase;
    PositionAnalysis out;
    const search::SearchResult result =
        search_.run(pos, history, boundedLimits(settings_.limits, only), search,
                    [&out](const search::SearchInfo& info) { keepLine(info, out.lines); });
    out.nodes = result.nodes;
    if (settings_.tablebase) out.table = settings_.tablebase->probeUnder(pos, settings_.rules);
    // The lines of a rank the last iteration did not reach are dropped with it.
    const auto complete = std::find_if(out.lines.begin(), out.lines.end(),
                                       [](const PvLine& l) { return l.pv.empty(); });
    out.lines.erase(complete, out.lines.end());
    return out;
}

PositionAnalysis Analyser::analyse(const Game& game) {
    return analyse(game.current(), game.repetitionHistory());
}

}  // namespace lasca::analysis

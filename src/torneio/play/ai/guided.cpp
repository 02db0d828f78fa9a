// The guided policy (ai.h guidedDecision): the hunt, improved on turns by rollouts of its best
// actions on the belief's determinizations (ismcts.h rolloutValues).
#include <algorithm>
#include <vector>

#include "torneio/play/ai/ai.h"

namespace torneio::play {

Action guidedDecision(const Request& request, const Knowledge& k, const Belief& belief,
                      const HuntWeights& hunt, const GuidedWeights& guided,
                      const SearchLimits& limits, std::uint64_t seed, SearchStats* stats) {
    return guidedDecision(request, k, belief, mapBelief(belief, k), hunt, guided, limits, seed,
                          stats);
}

Action guidedDecision(const Request& request, const Knowledge& k, const Belief& belief,
                      const BeliefMap& map, const HuntWeights& hunt, const GuidedWeights& guided,
                      const SearchLimits& limits, std::uint64_t seed, SearchStats* stats) {
    common::Random random(seed);
    const std::vector<Action> legal = legalActions(request, k.own(), k.geometry());
    if (request.kind != RequestKind::Turn || limits.simulations <= 0 || legal.size() == 1)
        return huntDecision(request, k, map, hunt, random);
    const std::vector<double> scores = huntScores(request, k, map, hunt, random);
    // The hunt's first best, then its next best ones (ties keep the legal order).
    std::vector<std::size_t> order(legal.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    order.resize(std::min(order.size(), static_cast<std::size_t>(std::max(1, guided.candidates))));
    std::vector<Action> candidates;
    for (std::size_t i : order) candidates.push_back(legal[i]);
    const std::vector<double> values =
        rolloutValues(request, k, belief, candidates, limits, common::mixSeed(seed, 1), stats);
    std::size_t best = 0;
    for (std::size_t c = 1; c < candidates.size(); ++c)
        if (values[c] > values[best] + (best == 0 ? guided.huntBias : 0.0)) best = c;
    return candidates[best];
}

}  // namespace torneio::play
